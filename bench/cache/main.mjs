#!/usr/bin/env node
// Replays the recorded agent sessions as the requests an agent sends, under each context
// strategy, and prints per strategy and session, at each budget: the prompt-cache share,
// the input spend against the auto-compact's, the largest request against the budget,
// requests a provider would refuse or that hold no message, and build time.
//
//   node bench/cache/main.mjs [--budget 200000,50000] [--json FILE] [--session NAME]
//                             [--strategy NAME] [--repeat N]
//
// `--repeat N` adds the Claude Code session N times over: no recorded session reaches
// 200k tokens, so at that budget only such a session makes a strategy do anything.
// Progress goes to stderr, the table to stdout. Nothing is asserted. This harness is
// separate from bench/cache.mjs (and its measure, strategies and chart modules here).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createTokenCounter } from '../../pkg/dist/tokenizers.mjs';
import aiSdkPrune from './ai-sdk-prune.mjs';
import autoCompact from './auto-compact.mjs';
import contextManager from './context-manager.mjs';
import langchainTrim from './langchain-trim.mjs';
import { table } from './report.mjs';
import { figures, replay } from './replay.mjs';
import { loadSessions, SYSTEM } from './sessions.mjs';

const { values: args } = parseArgs({
  options: {
    budget: { type: 'string', default: '200000,50000' },
    json: { type: 'string' },
    session: { type: 'string', default: '' },
    strategy: { type: 'string', default: '' },
    repeat: { type: 'string', default: '1' },
  },
});
const budgets = args.budget.split(',').map(Number);
const counter = createTokenCounter('o200k_base');
const sessions = loadSessions({ repeat: Number(args.repeat) }).filter((s) => s.name.toLowerCase().includes(args.session.toLowerCase()));
// The auto-compact first: every spend is relative to it.
const factories = [autoCompact, aiSdkPrune, langchainTrim, contextManager];

const runs = [];
const names = [];
const notes = [];
for (const budget of budgets) {
  for (const make of factories) {
    for (const session of sessions) {
      const strategy = make(budget, counter, { system: SYSTEM });
      if (!strategy) {
        const note = `${make.name}: skipped, @devs/context does not export it`;
        if (!notes.includes(note)) notes.push(note);
        break;
      }
      if (!strategy.name.toLowerCase().includes(args.strategy.toLowerCase()) && make !== autoCompact) break;
      if (!names.includes(strategy.name)) names.push(strategy.name);
      const start = performance.now();
      const requests = await replay(session, strategy, counter);
      const f = figures(requests);
      runs.push({ budget, strategy: strategy.name, session: session.name, figures: f, ms: requests.map((r) => r.ms), requests });
      const problem = requests.find((r) => r.problem)?.problem;
      process.stderr.write(`${budget / 1000}k ${strategy.name} ${session.name}: ${f.requests} requests, cache ${(f.prefix / f.tokens).toFixed(3)}, ${((performance.now() - start) / 1000).toFixed(1)} s${problem ? ` (first problem: ${problem})` : ''}\n`);
    }
  }
}

console.log(`${sessions.length} sessions, system prompt ${counter(SYSTEM)} tokens, exact o200k; spend relative to ${names[0]}; invalid excludes empty.\n`);
console.log(table(runs, budgets, names, sessions.map((s) => s.name)));
for (const note of notes) console.log(`\n${note}`);

if (args.json) {
  const raw = runs.map(({ budget, strategy, session, figures: f, requests }) => ({ budget, strategy, session, ...f, requestsList: requests }));
  writeFileSync(args.json, `${JSON.stringify({ budgets, systemTokens: counter(SYSTEM), notes, runs: raw }, null, 1)}\n`);
  process.stderr.write(`wrote ${args.json}\n`);
}
