#!/usr/bin/env node
// What a ContextManager snapshot costs as a session grows: its size as JSON, the time of
// snapshot() + JSON.stringify, and of JSON.parse + ContextManager.restore, against a
// build. The Claude Code session (the longest recorded) three times over, at 50k, in the
// anthropic format; outputs in a memory store. A benchmark, not a test: nothing is asserted.
// Run: node bench/snapshot.mjs
import { readFileSync } from 'node:fs';
import { ContextManager, MemoryStateRepository } from '../pkg/dist/index.mjs';
import { parseTranscript, providerTurns } from '../pkg/dist/replay.mjs';

const file = new URL('../pkg/test/fixtures/sessions/claude-code-session.jsonl', import.meta.url);
const [session] = parseTranscript(readFileSync(file, 'utf8'), 'claude-code-session.jsonl');
const once = providerTurns(session, 'anthropic');
const turns = [0, 1, 2].flatMap(() => once);
const options = { format: 'anthropic', budget: 50_000, store: new MemoryStateRepository(), summarizer: async (p) => `Earlier work, ${p.length} characters.` };
const manager = new ContextManager(options);
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`ContextManager snapshots, ${session.name} three times over (${turns.length} turns), budget 50k, Node ${process.version}\n`);
console.log('| turn | build ms | snapshot + stringify ms | parse + restore ms | snapshot KB | request KB | snapshot / request |');
console.log('|--:|--:|--:|--:|--:|--:|--:|');
let buildMs = [];
for (const [t, turn] of turns.entries()) {
  manager.append(turn.input);
  const started = performance.now();
  const request = await manager.build();
  buildMs.push(performance.now() - started);
  const requestKb = JSON.stringify({ system: request.system, messages: request.messages }).length / 1024;
  manager.append([...turn.response, ...turn.results]);
  if ((t + 1) % 100 !== 0 && t !== turns.length - 1) continue;
  const save = [];
  const load = [];
  let json = '';
  for (let i = 0; i < 5; i++) {
    let s = performance.now();
    json = JSON.stringify(manager.snapshot());
    save.push(performance.now() - s);
    s = performance.now();
    ContextManager.restore(JSON.parse(json), options).free();
    load.push(performance.now() - s);
  }
  const kb = json.length / 1024;
  console.log(`| ${t + 1} | ${median(buildMs).toFixed(2)} | ${median(save).toFixed(2)} | ${median(load).toFixed(2)} | ${kb.toFixed(0)} | ${requestKb.toFixed(0)} | ${(kb / requestKb).toFixed(2)} |`);
  buildMs = [];
}
