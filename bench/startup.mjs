#!/usr/bin/env node
// Start-up cost: a fresh Node process times `require('./pkg')` (inline wasm, sync
// instantiate) through the first resolved `onTurn`. Prints the median of N runs.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 21);

const probe = `
const t0 = process.hrtime.bigint();
const { ContextRefresher } = require('./pkg');
const t1 = process.hrtime.bigint();
const r = new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) } });
r.onTurn(1).then(() => {
  const t2 = process.hrtime.bigint();
  console.log(JSON.stringify({ require: Number(t1 - t0) / 1e6, firstTurn: Number(t2 - t0) / 1e6 }));
});`;

const samples = Array.from({ length: runs }, () => JSON.parse(execFileSync('node', ['-e', probe], { cwd: root, encoding: 'utf8' })));
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wasm = join(root, 'pkg/dist/wasm/devs_context_bg.wasm');
const bytes = readFileSync(wasm);

console.log(`runs: ${runs}`);
console.log(`require('./pkg')                : ${median(samples.map((s) => s.require)).toFixed(2)} ms (median)`);
console.log(`require('./pkg') → first onTurn : ${median(samples.map((s) => s.firstTurn)).toFixed(2)} ms (median)`);
console.log(`devs_context_bg.wasm            : ${statSync(wasm).size} bytes raw, ${gzipSync(bytes, { level: 9 }).length} bytes gzipped`);
console.log(`dist/index.cjs (wasm inlined)   : ${statSync(join(root, 'pkg/dist/index.cjs')).size} bytes`);
