#!/usr/bin/env node
// The time `devs-context eval` takes per strategy and budget (issue 50's goal: at most 5 s
// on a 5 MB session, on 2 cores), on the largest vendored session (pkg/test/fixtures/
// sessions/) and on it twice over (its steps repeated: about twice its size), each run of
// `evaluate` on one session alone. Wall time and the process's CPU time per run; the first
// run of a session also pays for counting its texts (the meter's memo is shared by the runs
// of one evaluate). Nothing is asserted.
//
//   nice -n 10 node bench/eval.mjs [--budget 200000,50000] [--strategies ours,auto-compact,...] [--file name]
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { sessionFiles } from '../pkg/test/sessions.mjs';

const require = createRequire(new URL('../pkg/package.json', import.meta.url));
const { parseTranscript } = require('@devs/context/replay');
const { DEFAULT_STRATEGIES, evaluate } = require('@devs/context/eval');

const { values: args } = parseArgs({ options: { budget: { type: 'string', default: '200000,50000' }, strategies: { type: 'string', default: DEFAULT_STRATEGIES.join(',') }, file: { type: 'string', default: '' } } });
const largest = sessionFiles().filter((f) => f.includes(args.file)).reduce((a, b) => (statSync(b).size > statSync(a).size ? b : a));
const name = largest.split('/').at(-1);
const [session] = parseTranscript(readFileSync(largest, 'utf8'), name);
const bytes = statSync(largest).size;
const twice = { ...session, name: `${name} ×2`, steps: [...session.steps, ...session.steps] };
const options = { budgets: args.budget.split(',').map(Number), strategies: args.strategies.split(',') };

console.log('| session | size | calls | budget | strategy | run s | cpu s | build ms p50 / p95 |');
console.log('|---|--:|--:|--:|---|--:|--:|--:|');
for (const [s, size] of [[session, bytes], [twice, 2 * bytes]]) {
  const result = await evaluate([s], options);
  for (const f of result.totals) {
    console.log(`| ${s.name} | ${(size / 1e6).toFixed(1)} MB | ${s.steps.length} | ${f.budget / 1000}k | ${f.strategy} | ${(f.runMs / 1000).toFixed(2)} | ${(f.cpuMs / 1000).toFixed(2)} | ${f.buildMs.p50.toFixed(2)} / ${f.buildMs.p95.toFixed(2)} |`);
  }
}
