#!/usr/bin/env node
// Issue 3's figures: the median cost per turn of ContextComposer.compose and of
// AgentRunner.runTurn over a 2,000-turn history, for @devs/context and for the seeds'
// code transcribed to plain JS (bench/peers/seed-memory.mjs). Run: node bench/memory-rules.mjs
import * as ours from '../pkg/dist/index.mjs';
import * as seed from './peers/seed-memory.mjs';
import { history, median, percentile, sentence, rng, specs, us } from './corpus.mjs';

const TURNS = Number(process.argv[2] ?? 2000);
const all = history(TURNS);

function timeEach(count, fn) {
  const samples = [];
  for (let i = 1; i <= count; i++) {
    const t0 = process.hrtime.bigint();
    fn(i);
    samples.push(Number(process.hrtime.bigint() - t0));
  }
  return samples;
}

async function timeEachAsync(count, fn) {
  const samples = [];
  for (let i = 1; i <= count; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    samples.push(Number(process.hrtime.bigint() - t0));
  }
  return samples;
}

function composerRows() {
  const oursComposer = new ours.ContextComposer({ specs });
  const seedComposer = new seed.ContextComposer(specs);
  // Each turn composes from the full 2,000-turn history; the spec turn lands every 10th.
  timeEach(200, (i) => oursComposer.compose(all, 'goal', i)); // warm-up
  timeEach(200, (i) => seedComposer.compose(all, 'goal', i));
  return [
    ['ContextComposer.compose', '@devs/context', timeEach(TURNS, (i) => oursComposer.compose(all, 'Fix the failing parser test', i))],
    ['ContextComposer.compose', 'seed in plain JS', timeEach(TURNS, (i) => seedComposer.compose(all, 'Fix the failing parser test', i))],
  ];
}

async function runnerRow(lib, label) {
  const random = rng(9);
  const answers = Array.from({ length: 64 }, () => sentence(random, 500 + Math.floor(random() * 3000)));
  let n = 0;
  const llm = { complete: async () => ({ text: answers[n++ % answers.length] }) };
  const handoff = new ours.SummarizationHandoff({ llmClient: { summarize: async (p) => `summary of ${p.length} chars` } });
  const composer = lib === ours ? new ours.ContextComposer({ specs }) : new seed.ContextComposer(specs);
  // 2,000 turns of ~500 tokens cross 800k once, so one handoff is inside the run.
  const runner = new lib.AgentRunner({ agentId: 'bench', taskGoal: 'Fix the failing parser test', llm, composer, handoff, thresholdTokens: 800_000 });
  const samples = await timeEachAsync(TURNS, (i) => runner.runTurn(`user message ${i}`));
  return ['AgentRunner.runTurn', label, samples];
}

const rows = [...composerRows(), await runnerRow(ours, '@devs/context'), await runnerRow(seed, 'seed in plain JS')];
console.log(`${TURNS} turns, Node ${process.version}; times per turn\n`);
console.log('| operation | implementation | median | p90 |');
console.log('|---|---|---|---|');
for (const [op, impl, samples] of rows) console.log(`| ${op} | ${impl} | ${us(median(samples))} | ${us(percentile(samples, 0.9))} |`);
