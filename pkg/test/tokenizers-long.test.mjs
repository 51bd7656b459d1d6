// @devs/context/tokenizers on its worst inputs: single pieces the pre-tokenizer cannot
// split (runs, text with no whitespace, CJK), which the counter takes in time and memory
// linear in the text (docs/adr/0005-linear-token-counting.md), and texts over its limit.
// Counts are checked against tiktoken's encode_ordinary, and beyond the lengths tiktoken
// counts in a test's time, against bpe-reference.mjs, itself checked against tiktoken here.
// No timings: those are in bench/tokenizer-worst.mjs.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { createTokenCounter } from '@devs/context/tokenizers';
import { assertFieldError, thrown } from './helpers.mjs';
import { loadRanks, singlePieceCount } from './bpe-reference.mjs';

const require = createRequire(import.meta.url);
const { get_encoding } = require('tiktoken');
const ENCODINGS = ['o200k_base', 'cl100k_base'];
const LIMIT = 2 ** 27;

// The tokenizer module's memory, from the one instance the first counter makes; wasm
// memory never shrinks, so its size after a count is the most the count took.
let memory;
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const instance = new Instance(module, imports);
  memory = instance.exports.memory;
  return instance;
};
const ours = Object.fromEntries(ENCODINGS.map((e) => [e, createTokenCounter(e)]));
WebAssembly.Instance = Instance;

const tiktoken = Object.fromEntries(ENCODINGS.map((e) => {
  const enc = get_encoding(e);
  return [e, (text) => enc.encode_ordinary(text).length];
}));
const ranks = {};
before(() => { for (const e of ENCODINGS) ranks[e] = loadRanks(e); });

function seeded(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}

const CJK = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定';
const WORDS = ['the', 'token', 'count', 'linear', 'window', 'merge', 'of', 'and', 'request', 'response', 'however', 'vocabulary', 'benchmark'];

/** Classes of single pieces: each makes one of about `n` UTF-16 units from a seed. */
const CLASSES = {
  "'a' x n": (n) => 'a'.repeat(n),
  "'=' x n": (n) => '='.repeat(n),
  'spaces': (n) => ' '.repeat(n),
  "'ab' x n": (n) => 'ab'.repeat(n >> 1),
  'English, no whitespace': (n, random) => {
    let s = '';
    while (s.length < n) s += WORDS[Math.floor(random() * WORDS.length)];
    return s;
  },
  'random CJK': (n, random) => Array.from({ length: n }, () => CJK[Math.floor(random() * CJK.length)]).join(''),
};

/** Asserts `text` is one piece for `encoding`'s split pattern, so the reference may count it whole. */
function assertOnePiece(encoding, text) {
  const pattern = new RegExp(require(`js-tiktoken/ranks/${encoding}`).pat_str, 'gu');
  assert.equal(text.match(pattern)?.length, 1, `one piece: ${JSON.stringify(text.slice(0, 20))}`);
}

describe('createTokenCounter: long single pieces', () => {
  for (const encoding of ENCODINGS) {
    it(`${encoding}: the heap reference and ours agree with tiktoken where it is quick enough`, () => {
      for (const [label, make] of Object.entries(CLASSES)) {
        for (const n of [1500, 20_001]) {
          const text = make(n, seeded(n));
          const want = tiktoken[encoding](text);
          assert.equal(singlePieceCount(text, ranks[encoding]), want, `reference: ${label} x ${n}`);
          assert.equal(ours[encoding](text), want, `${label} x ${n}`);
        }
      }
    });

    it(`${encoding}: runs and unbroken text up to 300k count as the reference`, () => {
      for (const [label, make] of Object.entries(CLASSES)) {
        // Around the 1 KB at which a piece leaves the heap merge, then long ones, some odd.
        for (const n of [1023, 1024, 1025, 4099, 65_537, 300_001]) {
          const text = make(n, seeded(n));
          assertOnePiece(encoding, text);
          assert.equal(ours[encoding](text), singlePieceCount(text, ranks[encoding]), `${label} x ${n}`);
        }
      }
    });

    it(`${encoding}: random strings with long runs count as tiktoken (fast-check)`, () => {
      const run = fc.record({
        unit: fc.constantFrom('a', '=', ' ', 'ab', '中', 'é', '-', '\n', '字z', '\r\n', '😀'),
        n: fc.integer({ min: 1, max: 1500 }),
      }).map(({ unit, n }) => unit.repeat(n));
      const part = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: 'grapheme-ascii', maxLength: 200 }),
        fc.constantFrom('\uD800', '\uDC00', '<|endoftext|>', '\uFEFF', '\u3000', "'s"),
        run,
      );
      fc.assert(fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        const text = parts.join('');
        assert.equal(ours[encoding](text), tiktoken[encoding](text));
      }), { numRuns: 150, seed: 20 + encoding.length });
    });

    it(`${encoding}: a text over 2^23 units (passed as bytes) counts as tiktoken`, () => {
      // Short pieces, which tiktoken counts quickly; lone surrogates become U+FFFD on
      // both sides.
      const random = seeded(11);
      const bits = ['word ', 'Ünïcödé ', '中文', '😀', '\uD800', 'x\uDC00y ', '\n\n', '  ', '<|endoftext|>', '123456 '];
      const parts = [];
      for (let length = 0; length <= 2 ** 23 + 5; length += parts.at(-1).length) parts.push(bits[Math.floor(random() * bits.length)]);
      const text = parts.join('');
      assert.ok(text.length > 2 ** 23);
      assert.equal(ours[encoding](text), tiktoken[encoding](text));
    });
  }
});

describe('createTokenCounter: memory and the size limit', () => {
  it('counts 10 MB of one letter exactly, growing wasm memory by less than 32 MiB', () => {
    // The heap merge this replaced held 20-36 bytes per byte of the piece (3.4 GB at 100 MB).
    const text = 'a'.repeat(10_000_000);
    const size = memory.buffer.byteLength;
    assert.equal(ours.o200k_base(text), singlePieceCount(text, ranks.o200k_base));
    assert.ok(memory.buffer.byteLength - size < 32 * 2 ** 20, `${memory.buffer.byteLength - size} bytes more`);
    assert.equal(ours.o200k_base('hello world'), 2);
  });

  for (const [label, text] of [[`${LIMIT + 1} ASCII characters`, 'a'.repeat(LIMIT + 1)], [`${LIMIT / 3 + 1 | 0} CJK characters (3 bytes each)`, '中'.repeat(LIMIT / 3 + 1 | 0)]]) {
    it(`throws a RangeError for text over 2^27 bytes of UTF-8, before wasm: ${label}`, () => {
      const size = memory.buffer.byteLength;
      for (const encoding of ENCODINGS) {
        const error = thrown(() => ours[encoding](text));
        assertFieldError(error, RangeError, 'text');
        assert.match(error.message, new RegExp(`at most ${LIMIT} bytes`));
        assert.match(error.message, new RegExp(`got ${text.length} UTF-16 code units`));
      }
      assert.equal(memory.buffer.byteLength, size, 'the wasm memory did not grow');
      assert.equal(ours.o200k_base('hello world'), 2, 'the counter still works');
      assert.equal(ours.cl100k_base('='.repeat(5000)), tiktoken.cl100k_base('='.repeat(5000)));
    });
  }

  it('takes a text of exactly 2^27 bytes, in under 200 MiB of wasm memory', () => {
    // One token per 8 bytes of `a`, as the reference counts the 10 MB run above.
    assert.equal(ours.o200k_base('a'.repeat(LIMIT)), LIMIT / 8);
    const cjk = `${'中'.repeat(LIMIT / 3 | 0)}ab`;
    assert.equal(Buffer.byteLength(cjk), LIMIT);
    const count = ours.cl100k_base(cjk);
    assert.ok(Number.isInteger(count) && count > 0 && count <= cjk.length, `${count}`);
    assert.ok(memory.buffer.byteLength < 200 * 2 ** 20, `${memory.buffer.byteLength} bytes`);
    assert.equal(ours.o200k_base('hello world'), 2);
  });
});
