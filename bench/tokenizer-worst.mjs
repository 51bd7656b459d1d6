#!/usr/bin/env node
// Exact token counting on its worst inputs, and on long inputs of ordinary kinds. The
// worst are single pieces the pre-tokenizer cannot split (a run of one letter, English
// with the spaces removed, random CJK); base64, minified JS and log text split into short
// pieces and are here for comparison. Per class, size and encoding, in a fresh process
// each: the time of the first count (which builds the long-piece tables) and of a second
// one, and the wasm memory (`WebAssembly.Memory` buffer size) after loading and after the
// counts (wasm memory never shrinks: "after" is the peak). gpt-tokenizer's time beside
// it, up to 10 MB, until it takes over 30 s (its merge is quadratic on long pieces).
// Prints figures, asserts nothing.
// Run: node bench/tokenizer-worst.mjs [sizes in MB, default 0.1,1,10,100] [--only CLASS]
//        [--encoding E] [--no-peer] [--dist DIR]
//   --dist: another build's pkg/dist (e.g. a copy of main's), to compare before and after.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { installCrossingCounter, instances } from './crossings.mjs';
import { CJK_ZH, WORDS, mulberry32 } from './token-corpus.mjs';

const self = fileURLToPath(import.meta.url);
const require = createRequire(new URL('../pkg/package.json', import.meta.url));
const PEER_MAX_MB = 10;
const PEER_TIMEOUT_MS = 30_000;

/** Minified JS to repeat: terser's own bundle (1.1 MB), a dependency of the build. */
function minifiedJs() {
  for (const file of ['terser/dist/bundle.min.js', 'markdown-it/dist/markdown-it.min.js']) {
    try {
      return [...readFileSync(require.resolve(file))];
    } catch {}
  }
  throw new Error('no minified JS in pkg/node_modules: run npm ci in pkg/');
}

/** `bytes` of UTF-8 text of each class, from a fixed seed. */
const CLASSES = {
  "run of 'a'": (bytes) => fill(bytes, () => [97]),
  'English, no whitespace': (bytes) => {
    // The corpus's prose words, lowercased, with the spaces and punctuation removed.
    const r = mulberry32(2);
    const words = WORDS.map((w) => [...Buffer.from(w.toLowerCase().replace(/[^a-z]/g, ''))]).filter((w) => w.length);
    return fill(bytes, () => words[Math.floor(r() * words.length)]);
  },
  'random CJK': (bytes) => {
    const r = mulberry32(3);
    const chars = [...CJK_ZH].map((c) => [...Buffer.from(c)]);
    return fill(bytes, () => chars[Math.floor(r() * chars.length)]);
  },
  base64: (bytes) => {
    const r = mulberry32(4);
    const raw = Buffer.alloc(Math.ceil(bytes * 3 / 4), 0).map(() => Math.floor(r() * 256));
    return raw.toString('base64').slice(0, bytes);
  },
  'minified JS': (bytes) => {
    const js = minifiedJs();
    let at = 0;
    return fill(bytes, () => [js[at++ % js.length]]);
  },
  'log text': (bytes) => {
    const r = mulberry32(5);
    const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
    const pick = (a) => a[Math.floor(r() * a.length)];
    const line = () => `2026-11-${String(int(10, 28))}T${int(10, 23)}:${int(10, 59)}:${int(10, 59)}.${int(100, 999)}Z `
      + `${pick(['INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'])} [${pick(['http', 'db', 'agent', 'cache'])}] `
      + `${pick(['request', 'response', 'retry', 'timeout'])} id=${int(1e5, 9e5).toString(36)} `
      + `path=/api/v1/${pick(['sessions', 'tokens', 'files'])}/${int(1, 99999)} status=${pick([200, 200, 204, 404, 500])} `
      + `took=${int(1, 4000)}ms ${pick(WORDS)} ${pick(WORDS)}\n`;
    return fill(bytes, () => [...Buffer.from(line())]);
  },
};

/** A string of at most `bytes` UTF-8 bytes, from units of bytes that `next` returns. */
function fill(bytes, next) {
  const out = new Uint8Array(bytes);
  let at = 0;
  for (;;) {
    const unit = next();
    if (at + unit.length > bytes) break;
    for (const b of unit) out[at++] = b;
  }
  return new TextDecoder().decode(out.subarray(0, at));
}

if (process.argv[2] === '--case') {
  // One fresh process: load, count twice (the peer: once), report.
  const [, , , who, name, encoding, bytes, dist] = process.argv;
  let count;
  let memory;
  if (who === 'ours') {
    installCrossingCounter({ count: false });
    count = require(`${dist}/tokenizers.cjs`).createTokenCounter(encoding);
    memory = instances.at(-1).memory;
  } else {
    const { countTokens } = require(`gpt-tokenizer/encoding/${encoding}`);
    const options = { disallowedSpecial: new Set() };
    count = (t) => countTokens(t, options);
  }
  const loaded = memory?.buffer.byteLength;
  const text = CLASSES[name](Number(bytes));
  const times = [];
  let tokens;
  for (let i = 0; i < (who === 'ours' ? 2 : 1); i++) {
    const t0 = performance.now();
    tokens = count(text);
    times.push(performance.now() - t0);
  }
  console.log(JSON.stringify({ tokens, times, loaded, after: memory?.buffer.byteLength }));
  process.exit(0);
}

const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i < 0 ? undefined : args.splice(i, 2)[1]; };
const flag = (name) => { const i = args.indexOf(name); return i >= 0 && args.splice(i, 1).length > 0; };
const dist = option('--dist') ?? fileURLToPath(new URL('../pkg/dist', import.meta.url));
const only = option('--only');
const encodings = option('--encoding')?.split(',') ?? ['o200k_base', 'cl100k_base'];
const peer = !flag('--no-peer');
const sizes = (args[0] ?? '0.1,1,10,100').split(',').map(Number);

function run(who, name, encoding, mb, timeout) {
  try {
    const out = execFileSync(process.execPath, [self, '--case', who, name, encoding, String(Math.round(mb * 1e6)), dist], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout });
    return JSON.parse(out);
  } catch (error) {
    if (error.signal === 'SIGTERM') return { timedOut: true };
    return { error: String(error.stderr).match(/\w*Error: .*/)?.[0] ?? error.message };
  }
}

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mib = (n) => (n / 2 ** 20).toFixed(0);
console.log(`MB = 10^6 bytes of UTF-8; build: ${dist}; Node ${process.version}\n`);
console.log('| class | encoding | MB | tokens | ours: first count | ours: second count | ns/byte (second) | wasm MiB: loaded → after | gpt-tokenizer |');
console.log('|---|---|--:|--:|--:|--:|--:|---|--:|');
for (const name of Object.keys(CLASSES).filter((n) => !only || n === only)) {
  for (const encoding of encodings) {
    let peerGaveUp = !peer;
    for (const mb of sizes) {
      const r = run('ours', name, encoding, mb, 900_000);
      const row = r.tokens === undefined
        ? [r.timedOut ? 'timed out (900 s)' : r.error, '', '', '', '', '']
        : [r.tokens, s(r.times[0]), s(r.times[1]), (r.times[1] * 1e6 / (mb * 1e6)).toFixed(0), `${mib(r.loaded)} → ${mib(r.after)}`];
      let theirs = '';
      if (!peerGaveUp && mb <= PEER_MAX_MB) {
        const p = run('peer', name, encoding, mb, PEER_TIMEOUT_MS);
        if (p.timedOut) {
          theirs = `over ${PEER_TIMEOUT_MS / 1000} s`;
          peerGaveUp = true;
        } else {
          theirs = p.tokens === undefined ? p.error : `${s(p.times[0])}${p.tokens === r.tokens ? '' : ` (${p.tokens} tokens)`}`;
        }
      }
      console.log(`| ${name} | ${encoding} | ${mb} | ${row.join(' | ')} | ${theirs} |`);
    }
  }
}
