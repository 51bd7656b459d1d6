#!/usr/bin/env node
// Issue 4's figure: the median cost per turn of applyContextManagement on a context of
// 2,000 turns, for @devs/context and for seed 002 transcribed to plain JS
// (bench/peers/seed-management.mjs). Run: node bench/context-management.mjs
import * as ours from '../pkg/dist/index.mjs';
import * as seed from './peers/seed-management.mjs';
import { median, percentile, rng, sentence, us } from './corpus.mjs';

const TURNS = Number(process.argv[2] ?? 2000);
const CALLS = Number(process.argv[3] ?? 300);

function fixture() {
  const random = rng(11);
  // ~1,100 chars a turn: 2,000 turns are ~550k tokens, under the 720k pruning point.
  const turns = Array.from({ length: TURNS }, (_, i) => ({
    role: i % 2 ? 'model' : 'user', content: sentence(random, 200 + Math.floor(random() * 1800)), timestampMs: i,
  }));
  const envelopes = Array.from({ length: 12 }, (_, i) => ({
    schema_version: '1.0.0', turn_index: i, agent_id: 'bench', phase: 'fix',
    thought: { reasoning: sentence(random, 300), plan: 'reproduce, fix, verify' },
    action: { tool_name: 'run_tests', arguments: { filter: 'parser' } },
    observation: { status: 'error', output: sentence(random, 3000) },
  }));
  const outputs = [
    { toolName: 'run_tests', rawContent: sentence(random, 300_000), byteSize: 300_000, turnAge: 1, capturedAt: 0 },
    { toolName: 'grep', rawContent: sentence(random, 120_000), byteSize: 120_000, turnAge: 2, capturedAt: 0 },
  ];
  return { turns, envelopes, outputs };
}

async function measure(lib, data) {
  const budget = lib.createDefaultWindowBudget(800_000);
  const deps = {
    composer: new lib.WindowComposer(budget),
    pruner: new lib.ContextPruner({ summarize: async () => 'summary' }),
    toolOutputPruner: new lib.ToolOutputPruner(),
    stateRepository: { insertRawToolOutput: async () => {} },
  };
  const context = () => ({
    turns: data.turns, goal: 'Make the parser tests pass', map: 'src/ tests/', plan: 'p', tas: 't', currentObservation: 'o',
    envelopes: data.envelopes, pendingToolOutputs: data.outputs, budget,
  });
  for (let i = 0; i < 30; i++) await lib.applyContextManagement(context(), deps); // warm-up
  const samples = [];
  let last;
  for (let i = 0; i < CALLS; i++) {
    const ctx = context();
    const t0 = process.hrtime.bigint();
    last = await lib.applyContextManagement(ctx, deps);
    samples.push(Number(process.hrtime.bigint() - t0));
  }
  return { samples, last };
}

const data = fixture();
const rows = [['@devs/context', await measure(ours, data)], ['seed in plain JS', await measure(seed, data)]];
console.log(`applyContextManagement, ${TURNS} turns, 12 envelopes, 2 tool outputs (one truncated per call); ${CALLS} calls, Node ${process.version}\n`);
console.log('| implementation | median per call | p90 | windowUsedTokens |');
console.log('|---|---|---|---|');
for (const [name, { samples, last }] of rows) console.log(`| ${name} | ${us(median(samples))} | ${us(percentile(samples, 0.9))} | ${last.windowUsedTokens} |`);
