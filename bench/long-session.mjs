#!/usr/bin/env node
// Issue 20's figures: a 10,000-turn session through AgentRunner, to see whether a turn's
// cost and the memory held grow with the session's length. Three wirings, each in its own
// process: `bounded` alone; the seeds' `contextManagement` alone (the wiring of the seeds'
// loop); and both (the replay CLI's and the demo's). Budget 20k, the length / 4 counter.
//   - time: ms per 1,000 turns, first against last;
//   - memory (--expose-gc): the heap after a full GC, less the heap before the runner was
//     made, per 1,000 turns, against the size of what the runner exposes (`runner.turns`
//     and `runner.ledger`: the heap a copy of them takes; as UTF-16 JSON beside it); the
//     array buffers (the wasm memories) apart. Raw outputs go to a SQLite store on disk.
// Run: node bench/long-session.mjs [turns=10000] [outputKB=2]
// A benchmark, not a test: nothing is asserted.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [turns = 10_000, outputKB = 2] = process.argv.slice(2).filter((a) => !a.startsWith('--')).map(Number);
const self = fileURLToPath(import.meta.url);

if (process.argv.includes('--child')) {
  const wiring = process.argv[process.argv.indexOf('--child') + 1];
  const lib = await import('../pkg/dist/index.mjs');
  const { SqliteStateRepository } = await import('../pkg/dist/sqlite.mjs');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  // Raw outputs go to disk, as a host that keeps sessions long would have them: what stays in memory is the runner's.
  const store = new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'long-session-')), 'state.sqlite'));
  const budget = lib.createDefaultWindowBudget(20_000);
  const context = { turns: [], goal: 'Make the parser tests pass', map: 'src/', plan: '', tas: 'TAS: Rust core', currentObservation: '', envelopes: [], pendingToolOutputs: [], budget };
  // Deterministic outputs of about outputKB each, different every turn.
  const line = (t, i) => `test parser::case_${t}_${i} ... ${(t * 31 + i) % 7 ? 'ok' : 'FAILED'}\n`;
  const output = (t) => { let s = ''; for (let i = 0; s.length < outputKB * 1024; i++) s += line(t, i); return s; };
  let n = 0;
  const llm = async () => {
    n++;
    return {
      text: `Turn ${n}: running the tests again.`,
      envelope: {
        schema_version: '1.0.0', turn_index: 0, agent_id: 'bench', phase: 'fix', thought: { reasoning: 'r', plan: '1. test' },
        action: { tool_name: 'run_tests', arguments: { n } }, observation: { status: 'success', output: output(n) },
      },
    };
  };
  const summarizer = async (p) => `Earlier: ${p.length} characters of work.`;
  const options = { agentId: 'bench', taskGoal: context.goal, llm };
  if (wiring !== 'contextManagement') options.bounded = { budget: 20_000, summarizer, store };
  if (wiring !== 'bounded') {
    options.contextManagement = {
      context,
      deps: {
        composer: new lib.WindowComposer(budget), pruner: new lib.ContextPruner({ summarize: summarizer }),
        toolOutputPruner: new lib.ToolOutputPruner(), stateRepository: store,
      },
    };
  }
  const heapNow = () => {
    globalThis.gc?.();
    globalThis.gc?.();
    return process.memoryUsage().heapUsed;
  };
  // What the process held before the runner: the package, the store, the bench's own code.
  const base = heapNow();
  const runner = new lib.AgentRunner(options);
  const rows = [];
  let t0 = performance.now();
  for (let t = 1; t <= turns; t++) {
    const result = await runner.runTurn(`go on ${t}`);
    if (t % 1000 === 0) {
      const ms = performance.now() - t0;
      const heap = heapNow() - base;
      const wasm = process.memoryUsage().arrayBuffers;
      // The size of what the runner exposes, as the heap holds it: a copy of it, measured.
      let copy = structuredClone({ turns: runner.turns, ledger: runner.ledger });
      const exposed = heapNow() - base - heap;
      const json = 2 * JSON.stringify(copy).length;
      copy = null;
      // What the seeds' rules keep in the context: every output under 50 KB stays pending, every envelope stays.
      rows.push({ turns: t, ms, heap, wasm, exposed, json, prompt: result.promptTokens, pending: context.pendingToolOutputs.length, envelopes: context.envelopes.length });
      t0 = performance.now();
    }
  }
  console.log(JSON.stringify(rows));
  process.exit(0);
}

const MB = (b) => (b / 1e6).toFixed(1);
console.log(`AgentRunner, ${turns} turns, outputs of ${outputKB} KB, budget 20k; Node ${process.version}\n`);
const only = process.argv.find((a) => a.startsWith('--wiring='))?.slice(9);
for (const wiring of ['bounded', 'contextManagement', 'bounded+contextManagement'].filter((w) => !only || w === only)) {
  const rows = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=4096', self, String(turns), String(outputKB), '--child', wiring], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  const first = rows[0].ms;
  const last = rows.at(-1).ms;
  console.log(`${wiring}: last 1,000 turns ${(last / 1000).toFixed(2)} s against the first ${(first / 1000).toFixed(2)} s (${(last / first).toFixed(2)}×); the runner's heap after GC ${MB(rows.at(-1).heap)} MB, what it exposes ${MB(rows.at(-1).exposed)} MB (${(rows.at(-1).heap / rows.at(-1).exposed).toFixed(2)}×)`);
  const seeds = wiring !== 'bounded';
  console.log(`| turns | s per 1,000 | runner's heap MB | array buffers (wasm) MB | exposed, heap MB | exposed, JSON MB | prompt tokens |${seeds ? ' context: pending outputs, envelopes |' : ''}\n|--:|--:|--:|--:|--:|--:|--:|${seeds ? '--:|' : ''}`);
  for (const r of rows) console.log(`| ${r.turns} | ${(r.ms / 1000).toFixed(2)} | ${MB(r.heap)} | ${MB(r.wasm)} | ${MB(r.exposed)} | ${MB(r.json)} | ${r.prompt.toLocaleString('en-US')} |${seeds ? ` ${r.pending}, ${r.envelopes} |` : ''}`);
  console.log('');
}
