#!/usr/bin/env node
// Issue 19's figures: the prompt cache and the bill, for ContextManager against its peers,
// side by side in one run. Each real session (pkg/test/fixtures/sessions/) is replayed as
// a host would: per model turn, append the user's input, build a request, append the
// response and the tool results. Every request is measured the same way (bench/cache/
// measure.mjs, the eval's meter: exact o200k) and checked against its provider's rules
// (pkg/src/eval/validity.ts); the sessions, strategies and meter are `devs-context eval`'s.
//
//   node bench/cache.mjs [--budget 200000,50000] [--session claude] [--strategy context]
//                        [--half tune|held|all] [--set lowWater=0.5,...] [--svg docs/images/cache.svg]
//
// The tables come once per half (bench/cache/sessions.mjs `split`): the sessions the
// defaults are tuned on, and the ones held out, which no default was chosen on; a tuning
// run takes `--half tune`. `--set` passes options to ContextManager; `--svg` draws the
// longest session at the last budget. A benchmark, not a test: nothing is asserted. Columns, per strategy and budget:
//   cache share   tokens a request shares with the one before, over all tokens sent;
//   spend         input cost (reads 0.1×, writes 1.25×) relative to the first strategy's
//                 (the auto-compact's, unless --strategy leaves it out);
//   worst         the lowest per-session cache share, and the highest per-session spend;
//   largest       the largest request against the budget;
//   bad           requests a provider would reject, and empty ones;
//   ms            build time per request, median and 95th percentile;
//   clock spend   input cost priced by the cache's clock (pkg/src/eval/clock.ts: Anthropic's prices,
//                 a 5-minute TTL, each summary request priced too) relative to the first strategy's.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chart } from './cache/chart.mjs';
import { cacheShare, meter, percentiles, spend, sum } from './cache/measure.mjs';
import { byId } from './cache/strategies.mjs';
import { SYSTEM, benchArgs, picked } from './cache/sessions.mjs';

const require = createRequire(new URL('../pkg/package.json', import.meta.url));
const { clockSpend, parsePrices, prepareSession, runSession } = require('@devs/context/eval');

const { args, budgets, options, sessions, halves } = benchArgs({ svg: { type: 'string' } });
// The eval's strategies (pkg/src/eval/strategies/), by the names these tables give them.
const STRATEGIES = [
  ['auto-compact at 83.5%', byId('auto-compact')],
  ['AI SDK pruneMessages + trim', byId('ai-sdk-prune')],
  ['LangChain trimMessages', byId('langchain-trim')],
  ['ContextManager', byId('ours')],
  ['no bound (reference)', byId('no-bound')],
];
const strategies = STRATEGIES.filter(([name]) => picked(name, args.strategy));
// The clock's price, beside the one that never expires: Anthropic's, a 5-minute cache, summary requests included.
const TTL = 5 * 60_000;
const PRICES = parsePrices('anthropic', TTL);

// Each session read once, for every strategy and budget (the eval's `prepareSession`).
const prepared = new Map(sessions.map((s) => [s.name, prepareSession(s, SYSTEM)]));

/** One session through one strategy: every request's measure, validity and build time (the eval's `runSession`). */
async function run(session, budget, info) {
  const requests = await runSession(prepared.get(session.name), budget, info, { meter, system: SYSTEM, options });
  requests.clock = clockSpend(requests, PRICES, TTL).spend;
  return requests;
}

const share = cacheShare;

const results = [];
for (const budget of budgets) {
  for (const session of sessions) {
    for (const [name, make] of strategies) {
      const requests = await run(session, budget, make);
      results.push({ budget, session: session.name, strategy: name, requests });
      process.stderr.write(`${budget / 1000}k ${session.half} ${session.name} ${name}: cache ${share(requests).toFixed(3)}, ${requests.length} requests\n`);
    }
  }
}

const baseline = (budget, session) => results.find((r) => r.budget === budget && r.session === session && r.strategy === strategies[0][0]);

/** The table's rows, per budget and strategy, over the sessions named. */
function tableRows(names) {
  const rows = [];
  for (const budget of budgets) {
    for (const [name] of strategies) {
      const runs = results.filter((r) => r.budget === budget && r.strategy === name && names.includes(r.session));
      const all = runs.flatMap((r) => r.requests);
      const base = runs.map((r) => baseline(budget, r.session).requests).flat();
      const times = percentiles(all.map((r) => r.ms));
      rows.push({
        budget: `${budget / 1000}k`,
        strategy: name,
        'cache share': share(all).toFixed(3),
        'worst session': Math.min(...runs.map((r) => share(r.requests))).toFixed(3),
        spend: `${(spend(all) / spend(base)).toFixed(2)}×`,
        'worst spend': `${Math.max(...runs.map((r) => spend(r.requests) / spend(baseline(budget, r.session).requests))).toFixed(2)}×`,
        'largest / budget': (Math.max(...all.map((r) => r.tokens)) / budget).toFixed(3),
        'invalid / empty': `${sum(all, (r) => r.invalid)} / ${sum(all, (r) => r.empty)}`,
        'ms p50 / p95': `${times.p50.toFixed(3)} / ${times.p95.toFixed(3)}`,
        'clock spend': `${(sum(runs, (r) => r.requests.clock) / sum(runs, (r) => baseline(budget, r.session).requests.clock)).toFixed(2)}×`,
      });
    }
  }
  return rows;
}

/** One half's tables: every row, and the README's (both budgets in each cell). */
function report(half) {
  const names = sessions.filter((s) => s.half === half).map((s) => s.name);
  const rows = tableRows(names);
  const title = half === 'tune' ? 'the half the defaults are tuned on' : 'the half held out';
  console.log(`\n## ${half}: ${title}, ${names.length} sessions\n`);
  const head = Object.keys(rows[0]);
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map((h, i) => (i < 2 ? '---' : '--:')).join('|')}|`);
  for (const row of rows) console.log(`| ${head.map((h) => row[h]).join(' | ')} |`);
  if (budgets.length !== 2) return;
  const cell = (name, key, f = (v) => v) => budgets.map((b) => f(rows.find((r) => r.strategy === name && r.budget === `${b / 1000}k`)[key])).join(' / ');
  const pair = (v) => v.replace(' / ', ', ');
  const ms = (v) => v.replace(/(\S+) \/ (\S+)/, '$1 ($2)');
  const b = budgets.map((x) => `${x / 1000}k`).join(' / ');
  console.log(`\n| strategy (${b}) | cache share | worst session | spend | worst session | largest request / budget | invalid, empty requests | build ms, median (p95) |`);
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
  for (const [name] of strategies) {
    console.log(`| ${name} | ${cell(name, 'cache share')} | ${cell(name, 'worst session')} | ${cell(name, 'spend')} | ${cell(name, 'worst spend')} | ${cell(name, 'largest / budget')} | ${cell(name, 'invalid / empty', pair)} | ${cell(name, 'ms p50 / p95', ms)} |`);
  }
}

console.log(`${sessions.length} sessions; ContextManager options ${JSON.stringify(options)}`);
for (const half of halves) report(half);
console.log('\nPer session (cache share, spend against the auto-compact):');
for (const budget of budgets) {
  for (const session of sessions) {
    const cells = strategies.map(([name]) => {
      const r = results.find((x) => x.budget === budget && x.session === session.name && x.strategy === name).requests;
      return `${name.split(' ')[0]} ${share(r).toFixed(3)} ${(spend(r) / spend(baseline(budget, session.name).requests)).toFixed(2)}×`;
    });
    console.log(`  ${budget / 1000}k ${session.half} ${session.name}: ${cells.join(', ')}`);
  }
}

if (args.svg) {
  const budget = budgets.at(-1);
  const longest = sessions.reduce((a, b) => (b.steps.length > a.steps.length ? b : a));
  const series = results.filter((r) => r.budget === budget && r.session === longest.name && !r.strategy.includes('reference'))
    .map((r) => ({ name: r.strategy, requests: r.requests }));
  writeFileSync(args.svg, chart({ title: `${longest.name} at ${budget / 1000}k: each request, per strategy`, budget, series }));
  console.log(`\nwrote ${args.svg}`);
}
