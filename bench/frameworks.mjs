#!/usr/bin/env node
// Each framework adapter of this package against that framework's own means, side by side
// in one run, on the vendored real sessions (pkg/test/fixtures/sessions/, plus each half's
// longest three times over, as bench/recall.mjs has them). Nothing is asserted: it is
// a benchmark.
//
//   node bench/frameworks.mjs [--budget 200000,50000] [--framework ai-sdk,langchain,openai-agents,mastra,tanstack-ai]
//                             [--session claude] [--half held|tune|all] [--quick] [--jobs 2]
//
// `--half` picks the sessions of bench/cache/sessions.mjs's split: by default the half held
// out, which no default was chosen on. `--quick` leaves out the ×3 session (the longest,
// and the only one past 200k tokens);
// `--jobs 2` runs two frameworks at once (each runs in a worker thread): less time, but
// the timings (ms) are taken with the other framework running beside them. With `--jobs 1`
// (the default) the run takes about 3 minutes on 2 cores, 1 minute with `--quick`.
//
// How. Each session is driven through the framework's own loop, one loop per user input:
// the AI SDK's `generateText` (ai 6; tools, `stopWhen`), LangChain's `createAgent(...).invoke`,
// the Agents SDK's `run()`, Mastra's `Agent.generate`, TanStack AI's `chat()`; the history is
// carried from one to the next as a host carries it. The model is a scripted one of the framework's own interface (`MockLanguageModelV3`,
// a `BaseChatModel`, a `Model`) answering each call with the recorded turn, and each tool
// returns the recorded result of its call; a loop whose recorded turn called tools just
// before the user spoke again is ended there. The model records what it is sent at every
// call (bench/frameworks/*.mjs). Each framework runs once with our adapter and once with
// each of its own means:
//   AI SDK      `pruneMessages` in `prepareStep` (the options of its reference page:
//               reasoning and tool calls kept in the newest messages only), and nothing;
//   LangChain   `contextEditingMiddleware` (`ClearToolUsesEdit`, trigger 85% of the budget,
//               3 results kept, counted exactly by the model), `summarizationMiddleware`
//               (trigger 85%, keep 25%, an exact counter), and no middleware;
//   Agents SDK  nothing: it has no token-based means (see bench/frameworks/openai-agents.mjs);
//   Mastra      nothing (its means drop whole messages from the oldest on; see bench/frameworks/mastra.mjs);
//   TanStack AI nothing: it has no token-based means.
// Ours and LangChain's summarization get the same stand-in summarizer (bench/cache/
// strategies.mjs's `summarize`); ours counts with exact o200k; the scripted model reports
// each call's usage (the measured tokens, the shared prefix as cache reads).
//
// Columns, per strategy, over every call of every session (measured as bench/recall.mjs
// measures a request: bench/cache/measure.mjs's texts, exact o200k):
//   cache share   tokens a request shares with the one before, over all tokens sent;
//   spend         input cost (cache reads 0.1×, writes 1.25×) relative to the same
//                 framework sending every message (its "nothing" row);
//   recall        references of the next output (bench/recall.mjs) present in the request;
//   long-range    the same, for references last seen 20 or more messages back;
//   largest       the largest request's tokens divided by the budget, and (in brackets)
//                 how many requests were over the budget;
//   ms            the time spent in the strategy's own hook per model call, median and 95th
//                 percentile: ours, the middleware (`transformParams` plus `wrapGenerate`
//                 less the model), the middleware's `wrapModelCall` less the model, the
//                 filter plus the model wrapper less the model, the processor's three hooks
//                 (Mastra), the middleware's `onConfig` plus `onUsage` (TanStack AI);
//                 theirs, `prepareStep` or the middleware's hook. The goal for ours is
//                 ≤ 1 ms at p95.
// Runs that do not depend on the budget (nothing, `pruneMessages` alone) run once.
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { cost, percentiles } from './cache/measure.mjs';
import { recorder, sessions as allSessions } from './frameworks/common.mjs';

const { values: args } = parseArgs({
  options: {
    budget: { type: 'string', default: '200000,50000' },
    framework: { type: 'string', default: 'ai-sdk,langchain,openai-agents,mastra,tanstack-ai' },
    session: { type: 'string', default: '' },
    half: { type: 'string', default: 'held' },
    quick: { type: 'boolean', default: false },
    jobs: { type: 'string', default: '1' },
  },
});
const budgets = args.budget.split(',').map(Number);
const started = performance.now();

/** Every run of one framework (bench/frameworks/<name>.mjs): each strategy, at each budget it depends on, on each session. */
async function runFramework(name) {
  const f = await import(`./frameworks/${name}.mjs`);
  const sessions = allSessions(args.half).filter((s) => s.name.toLowerCase().includes(args.session.toLowerCase()) && !(args.quick && s.name.endsWith('×3')));
  const results = [];
  const problems = [];
  for (const [strategy, budgeted, setup] of f.strategies) {
    for (const budget of budgeted ? budgets : [null]) {
      for (const session of sessions) {
        const t0 = performance.now();
        const ms = [];
        const r = recorder(session);
        const called = await f.run(session, setup(budget ?? Math.max(...budgets), ms), r.see);
        if (called !== session.steps.length || r.calls.length !== called) problems.push(`${f.framework}, ${strategy}, ${session.name}: ${r.calls.length} calls seen, ${called} answered, ${session.steps.length} recorded`);
        results.push({ strategy, budget, calls: r.calls, ms });
        process.stderr.write(`${name} ${budget ? `${budget / 1000}k` : 'any'} ${session.name} ${strategy}: ${r.calls.length} calls, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
      }
    }
  }
  const refs = sessions.flatMap((s) => s.refs.flatMap((c) => c.refs));
  const about = `${sessions.length} sessions (${args.half === 'all' ? 'both halves' : `the ${args.half === 'held' ? 'held-out' : 'tuning'} half`}), ${sessions.reduce((n, s) => n + s.steps.length, 0)} model calls a run, ${refs.length} references (${refs.filter((r) => r.age >= 20).length} long-range)`;
  return { framework: f.framework, strategies: f.strategies.map(([strategy]) => strategy), results, problems, about };
}

const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);
const runs = (f, strategy, budget) => f.results.filter((r) => r.strategy === strategy && (r.budget === null || r.budget === budget));

/** The figures of one strategy at one budget, over every session. */
function figures(f, strategy, budget) {
  const all = runs(f, strategy, budget).flatMap((r) => r.calls);
  const base = runs(f, f.strategies.at(-1), budget).flatMap((r) => r.calls);
  const ms = runs(f, strategy, budget).flatMap((r) => r.ms);
  const t = percentiles(ms);
  return {
    'cache share': sum(all, (c) => c.prefix) / sum(all, (c) => c.tokens),
    spend: sum(all, cost) / sum(base, cost),
    recall: sum(all, (c) => c.present) / sum(all, (c) => c.refs),
    'long-range': sum(all, (c) => c.longPresent) / sum(all, (c) => c.long),
    largest: Math.max(...all.map((c) => c.tokens)) / budget,
    over: sum(all, (c) => c.tokens > budget),
    p50: ms.length ? t.p50 : null,
    p95: ms.length ? t.p95 : null,
    requests: all.length,
  };
}

const cells = (x) => [
  x['cache share'].toFixed(3), `${x.spend.toFixed(2)}×`, x.recall.toFixed(3), x['long-range'].toFixed(3),
  `${x.largest.toFixed(3)} (${x.over})`, x.p50 === null ? '–' : `${x.p50.toFixed(3)} / ${x.p95.toFixed(3)}`, String(x.requests),
];

/** The tables, and where ours falls short. */
function report(frameworks) {
  console.log(`${frameworks[0].about}; ${frameworks.map((f) => f.framework).join('; ')}; Node ${process.version}`);
  for (const budget of budgets) {
    console.log(`\n#### Budget ${budget / 1000}k\n`);
    console.log('| framework | strategy | cache share | spend (vs nothing) | recall | long-range recall | largest / budget (over) | ms per call p50 / p95 | requests |');
    console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|');
    for (const f of frameworks) {
      for (const strategy of f.strategies) console.log(`| ${f.framework} | ${strategy} | ${cells(figures(f, strategy, budget)).join(' | ')} |`);
    }
  }

  // Where ours falls short of each of its framework's own means (the "nothing" row left out: it bounds nothing).
  console.log('\nOurs against each framework\'s own means (cache share and recall no lower, spend no higher, never over the budget, ≤ 1 ms p95):');
  for (const f of frameworks) {
    const [ours, ...theirs] = f.strategies;
    const means = theirs.slice(0, -1);
    for (const budget of budgets) {
      const o = figures(f, ours, budget);
      const short = [];
      if (o.over > 0) short.push(`${o.over} requests over the budget`);
      if (o.p95 > 1) short.push(`p95 ${o.p95.toFixed(2)} ms > 1 ms`);
      for (const m of means) {
        const x = figures(f, m, budget);
        const worse = [];
        // Compared as printed: three decimals, spend two.
        for (const k of ['cache share', 'recall', 'long-range']) if (o[k].toFixed(3) < x[k].toFixed(3)) worse.push(`${k} ${o[k].toFixed(3)} < ${x[k].toFixed(3)}`);
        if (o.spend.toFixed(2) > x.spend.toFixed(2)) worse.push(`spend ${o.spend.toFixed(2)}× > ${x.spend.toFixed(2)}×`);
        if (worse.length) short.push(`against ${m}: ${worse.join(', ')}`);
      }
      console.log(`- ${f.framework} at ${budget / 1000}k: ${means.length ? '' : 'no means of its own to compare with; '}${short.length ? short.join('; ') : 'no shortfall'}`);
    }
  }
  const problems = frameworks.flatMap((f) => f.problems);
  if (problems.length) console.log(`\nRuns whose model calls did not match the recording:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
}

// Each framework in a worker thread, `--jobs` at once, the Agents SDK's (the slowest) first.
const inWorker = (name) => new Promise((resolve, reject) => {
  const worker = new Worker(new URL(import.meta.url), { workerData: name, argv: process.argv.slice(2) });
  worker.once('message', resolve);
  worker.once('error', reject);
});
if (isMainThread) {
  const names = args.framework.split(',');
  const queue = [...names].sort((a, b) => (b === 'openai-agents') - (a === 'openai-agents'));
  const done = new Map();
  await Promise.all(Array.from({ length: Math.min(Number(args.jobs), names.length) }, async () => {
    for (let name; (name = queue.shift());) done.set(name, await inWorker(name));
  }));
  report(names.map((name) => done.get(name)));
} else {
  parentPort.postMessage(await runFramework(workerData));
}
