#!/usr/bin/env node
// Exact token counting: @devs/context/tokenizers against tiktoken (npm), js-tiktoken and
// gpt-tokenizer, side by side, on a deterministic ~4 MB agent-like corpus. Prints MB/s,
// load + first count, and whether every count agrees with tiktoken's encode_ordinary.
// Run: node bench/tokenizers.mjs           (a benchmark, not a test: nothing is asserted)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gen } from './token-corpus.mjs';

const require = createRequire(new URL('../pkg/package.json', import.meta.url));
const self = fileURLToPath(import.meta.url);
const ENCODINGS = ['o200k_base', 'cl100k_base'];

/** Each loader returns `(text) => count` with encode_ordinary semantics. */
const loaders = {
  '@devs/context': (enc) => require('../pkg/dist/tokenizers.cjs').createTokenCounter(enc),
  tiktoken: (enc) => { const e = require('tiktoken').get_encoding(enc); return (t) => e.encode_ordinary(t).length; },
  'js-tiktoken': (enc) => { const { Tiktoken } = require('js-tiktoken/lite'); const e = new Tiktoken(require(`js-tiktoken/ranks/${enc}`)); return (t) => e.encode(t, [], []).length; },
  'gpt-tokenizer': (enc) => { const { countTokens } = require(`gpt-tokenizer/encoding/${enc}`); const o = { disallowedSpecial: new Set() }; return (t) => countTokens(t, o); },
};

if (process.argv[2] === '--load') {
  // One fresh process: load an encoding, count once.
  const [, , , name, enc] = process.argv;
  const t0 = process.hrtime.bigint();
  const count = loaders[name](enc);
  count('Hello, world! The first count. 你好 👋');
  console.log(Number(process.hrtime.bigint() - t0) / 1e6);
  process.exit(0);
}

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
const { chunks, whole, bytes } = gen();
const MB = bytes / 1e6;
console.log(`corpus: ${chunks.length} chunks of 1–50 KB, ${MB.toFixed(2)} MB UTF-8 (prose, TS/Rust code, JSON, logs, CJK, emoji, whitespace runs); Node ${process.version}\n`);

for (const enc of ENCODINGS) {
  const counters = Object.entries(loaders).map(([name, load]) => [name, load(enc)]);
  const reference = counters.find(([n]) => n === 'tiktoken')[1];
  const expected = chunks.map(reference);
  const agree = Object.fromEntries(counters.map(([name, f]) => [name, chunks.every((c, i) => f(c) === expected[i])]));
  // Alternate implementations, best of N, so machine noise hits all alike.
  const best = Object.fromEntries(counters.map(([n]) => [n, Infinity]));
  for (let rep = 0; rep < 5; rep++) {
    for (const [name, f] of counters) {
      const t0 = performance.now();
      for (const c of chunks) f(c);
      best[name] = Math.min(best[name], performance.now() - t0);
    }
  }
  const load = Object.fromEntries(counters.map(([name]) => [name, median(Array.from({ length: 5 }, () =>
    Number(execFileSync(process.execPath, [self, '--load', name, enc], { encoding: 'utf8' }))))]));
  const fastestPeer = Math.min(...counters.filter(([n]) => n !== '@devs/context').map(([n]) => best[n]));
  console.log(`${enc}\n| implementation | MB/s | vs fastest JS peer | load + first count | counts agree with tiktoken |\n|---|---|---|---|---|`);
  for (const [name] of counters) {
    console.log(`| ${name} | ${(MB / best[name] * 1000).toFixed(1)} | ${(fastestPeer / best[name]).toFixed(2)}x | ${load[name].toFixed(0)} ms | ${agree[name] ? 'yes' : 'NO'} |`);
  }
  console.log('');
}

// Where our time goes: passing the text into wasm versus counting it.
const { createTokenCounter } = require('../pkg/dist/tokenizers.cjs');
const glue = await import('../pkg/dist/tokenizers/devs_context_tokenizer.js');
glue.initSync({ module: readFileSync(new URL('../pkg/dist/tokenizers/devs_context_tokenizer_bg.wasm', import.meta.url)) });
const count = createTokenCounter('o200k_base');
let transfer = Infinity;
let total = Infinity;
for (let rep = 0; rep < 5; rep++) {
  let t0 = performance.now();
  for (const c of chunks) glue.transferOnly(c);
  transfer = Math.min(transfer, performance.now() - t0);
  t0 = performance.now();
  for (const c of chunks) count(c);
  total = Math.min(total, performance.now() - t0);
}
console.log(`o200k_base: JS→wasm string transfer ${(transfer / total * 100).toFixed(0)}% of counting time (${(MB / transfer * 1000).toFixed(0)} MB/s alone); pre-tokenization and BPE merging are the rest (see docs/adr/0002-exact-token-counting.md)`);
const t0 = performance.now();
count(whole);
console.log(`o200k_base: the whole corpus as one string: ${(MB / (performance.now() - t0) * 1000).toFixed(1)} MB/s`);
