// @devs/context/tokenizers: exact counts, differential against the tiktoken npm package's
// encode_ordinary (the reference), and the counters used by every rule that counts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import {
  AgentRunner, ContextComposer, TokenThresholdMonitor, WindowComposer, applyContextManagement, createDefaultWindowBudget,
} from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { assertFieldError, envelope, thrown } from './helpers.mjs';
import { context, mockDeps } from './management-fixtures.mjs';

const require = createRequire(import.meta.url);
const { get_encoding } = require('tiktoken');
const ENCODINGS = ['o200k_base', 'cl100k_base'];
const reference = Object.fromEntries(ENCODINGS.map((e) => {
  const enc = get_encoding(e);
  return [e, (text) => enc.encode_ordinary(text).length];
}));
const ours = Object.fromEntries(ENCODINGS.map((e) => [e, createTokenCounter(e)]));

function seeded(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
}

const cases = {
  'special-token lookalikes': ['<|endoftext|>', 'a<|endoftext|>b', '<|im_start|>user\nhi<|im_end|>', '<|fim_prefix|><|fim_suffix|>', '<|endofprompt|>', '<|', '|>'],
  'long whitespace runs': [' '.repeat(1000), '\t'.repeat(300), '\n'.repeat(500), '\r\n'.repeat(200), ' \n'.repeat(300) + 'x', '\u00A0'.repeat(200), '\u3000'.repeat(200) + 'a', 'a' + ' '.repeat(64) + 'b'],
  emoji: ['😀', '👍🏽', '👩‍💻', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇯🇵🇺🇸', '⚠️✨🎉'.repeat(50), 'ok 🚀 done'],
  'lone surrogates from JS': ['\uD800', '\uDC00', 'a\uD800b', 'x\uDBFF', '\uDC00\uD800', '😀'.slice(0, 1) + 'tail'],
  'BOM, NEL and controls': ['\uFEFF', '\uFEFF_s', '\u0085', 'a\u0085b', '\u0000\u0001\u001f', 'ſ', "don't we'll I'D"],
};

describe('createTokenCounter: agreement with tiktoken encode_ordinary', () => {
  for (const encoding of ENCODINGS) {
    for (const [label, texts] of Object.entries(cases)) {
      it(`${encoding}: ${label}`, () => {
        for (const text of texts) assert.equal(ours[encoding](text), reference[encoding](text), JSON.stringify(text.slice(0, 40)));
      });
    }

    it(`${encoding}: 400 seeded random strings`, () => {
      const random = seeded(encoding.length);
      const alphabet = ['a', 'Z', '9', ' ', '\n', '\t', '.', "'s", '中', 'テ', '😀', '\u00A0', '\u3000', '<|', '|>', '\uFEFF', 'é', '\r'];
      for (let i = 0; i < 400; i++) {
        let text = '';
        for (let n = Math.floor(random() * 80); n > 0; n--) text += alphabet[Math.floor(random() * alphabet.length)];
        assert.equal(ours[encoding](text), reference[encoding](text), JSON.stringify(text));
      }
    });

    it(`${encoding}: long single words`, () => {
      // 20k characters: tiktoken npm's own merge is quadratic, so larger references are too slow.
      for (const word of ['a'.repeat(20_000), 'xyz'.repeat(7_000), '7'.repeat(20_000), '!'.repeat(20_000), '字'.repeat(20_000)]) {
        assert.equal(ours[encoding](word), reference[encoding](word), `${word[0]} x ${word.length}`);
      }
    });

    it(`${encoding}: a 1 MB single word finishes, with no quadratic blow-up`, () => {
      // No timing here: a quadratic merge would take hours on 1 MB and never reach the asserts.
      const random = seeded(7);
      for (const word of ['a'.repeat(1_000_000), Array.from({ length: 1_000_000 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('')]) {
        const count = ours[encoding](word);
        assert.ok(count > 0 && count < word.length, `${count}`);
        assert.equal(ours[encoding](word), count, 'deterministic');
      }
    });
  }
});

describe('createTokenCounter: shape', () => {
  it('is a (text: string) => number, named after its encoding', () => {
    const count = createTokenCounter('o200k_base');
    assert.equal(typeof count, 'function');
    assert.equal(count.name, 'count_o200k_base');
    assert.equal(count('hello world'), 2);
  });

  it('works wherever a rule takes countTokens', async () => {
    const count = ours.o200k_base;
    const text = 'Exact counts: 中文, emoji 👩‍💻, code `fn main() {}`.';

    const monitor = new TokenThresholdMonitor({ onThresholdExceeded: async () => {}, countTokens: count });
    await monitor.recordText(text);
    assert.equal(monitor.getAccumulatedTokens(), count(text));

    const composed = new WindowComposer(createDefaultWindowBudget(), { countTokens: count }).compose(text, 'map', [envelope()]);
    assert.equal(composed.slots[0].tokenCount, count(text));

    const ctx = context({ turns: [{ role: 'user', content: text, timestampMs: 0 }] });
    const deps = mockDeps({ prune: false });
    await applyContextManagement(ctx, { ...deps, countTokens: count });
    assert.deepEqual(deps.calls.find(([n]) => n === 'shouldPrune'), ['shouldPrune', count(text), 800_000]);

    const runner = new AgentRunner({
      agentId: 'a', taskGoal: 'g', composer: new ContextComposer({ specs: [{ name: 'TAS', content: 't' }] }),
      handoff: { transfer: async () => null }, llm: { complete: async () => ({ text }) }, countTokens: count,
    });
    assert.equal((await runner.runTurn('go')).tokensRecorded, count(text));
  });

  it('counts each turn once: appending a turn costs one count, not the history', async () => {
    let calls = 0;
    const exact = ours.cl100k_base;
    const spy = (text) => { calls += 1; return exact(text); };
    const turns = Array.from({ length: 200 }, (_, i) => ({ role: i % 2 ? 'model' : 'user', content: `turn ${i} `.repeat(20), timestampMs: i }));
    const ctx = context({ turns });
    const deps = { ...mockDeps({ prune: false }), countTokens: spy };
    await applyContextManagement(ctx, deps);
    assert.equal(calls, 200);
    ctx.turns = [...ctx.turns, { role: 'user', content: 'one more turn', timestampMs: 200 }];
    await applyContextManagement(ctx, deps);
    assert.equal(calls, 201);
    const edited = ctx.turns.map((t, i) => (i === 5 ? { ...t, content: 'edited' } : t));
    ctx.turns = edited;
    await applyContextManagement(ctx, deps);
    assert.equal(calls, 202, 'only the edited turn is counted again');
  });

  it('names bad input', () => {
    assertFieldError(thrown(() => createTokenCounter('p50k_base')), RangeError, 'encoding');
    assertFieldError(thrown(() => createTokenCounter(42)), TypeError, 'encoding');
    assertFieldError(thrown(() => ours.o200k_base(42)), TypeError, 'text');
  });
});
