// Issue 35: bad input never poisons a session. A usage report that cannot answer the
// request it follows (larger than anything the request could hold, a running total, a
// stand-in, a wild number) is set aside with a `usage-set-aside` warning and the
// calibration stays as it was; one that is no number at all is refused at recordUsage,
// naming the field. Whatever sequence of reports a host sends, no later build() throws,
// and every request stays within the budget by the package's count.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ContextManager } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';

const o200k = createTokenCounter('o200k_base');
const BUDGET = 20_000;

/** Anthropic's usage of `n` input tokens: uncached, read from the cache, or written to it. */
const SHAPES = [
  (n) => ({ input_tokens: n }),
  (n) => ({ input_tokens: 0, cache_read_input_tokens: n, cache_creation_input_tokens: 0 }),
  (n) => ({ input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: n }),
];

/** What a host may report: anything from nothing to far past what the request could hold. */
const report = fc.oneof(
  fc.integer({ min: 0, max: 2_000_000 }),
  fc.double({ min: 0, max: 1e300, noNaN: true }),
  fc.constantFrom(0, 1, 250_000, 1e15, 1e300, Number.MAX_VALUE),
);

async function turn(cm, t) {
  cm.append([
    { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'bash', input: { command: `make step${t}` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `line ${t}\n`.repeat(50 + ((t * 37) % 400)) }] },
  ]);
  return cm.build();
}

describe('no sequence of usage reports makes a later build throw', () => {
  it('random reports, uncached and cached, after random turns: every build within the budget', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(report, fc.nat(SHAPES.length - 1)), { minLength: 1, maxLength: 25 }), async (reports) => {
      const cm = new ContextManager({ format: 'anthropic', budget: BUDGET, countTokens: o200k, system: 'You fix parsers.' });
      cm.append({ role: 'user', content: 'Fix the parser.' });
      let t = 0;
      try {
        for (const [n, shape] of reports) {
          const r = await turn(cm, t++);
          assert.ok(r.tokens <= BUDGET, `request ${t}: ${r.tokens}`);
          cm.recordUsage(SHAPES[shape](n));
        }
        const last = await turn(cm, t++);
        assert.ok(last.tokens <= BUDGET, `the last request: ${last.tokens}`);
      } finally {
        cm.free();
      }
    }), { numRuns: 60 });
  });

  it('a running total (each report the sum of all before) is set aside once it cannot be the request, and the calibration stays as it was', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: BUDGET, countTokens: o200k });
    cm.append({ role: 'user', content: 'Fix the parser.' });
    let total = 0;
    let before;
    const warned = new Set();
    for (let t = 0; t < 40; t++) {
      const r = await turn(cm, t);
      for (const w of r.ledger.warnings) warned.add(w.code);
      assert.ok(r.tokens <= BUDGET, `request ${t}: ${r.tokens}`);
      total += r.tokens;
      if (t === 20) before = cm.calibration;
      cm.recordUsage({ input_tokens: total });
    }
    assert.ok(warned.has('usage-set-aside'), [...warned].join(', '));
    // A running total grows past anything a request holds: from then on, nothing is learned.
    assert.ok(cm.calibration.overhead < BUDGET, JSON.stringify(cm.calibration));
    assert.ok(before.samples <= cm.calibration.samples);
  });

  it('250,000 tokens at a 20,000 budget, then 1e300: set aside, and the next builds as before', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: BUDGET, countTokens: o200k });
    cm.append({ role: 'user', content: 'Fix the parser.' });
    await turn(cm, 0);
    const calibration = cm.calibration;
    cm.recordUsage({ input_tokens: 250_000 });
    cm.recordUsage({ input_tokens: 1e300 });
    assert.deepEqual(cm.calibration, calibration);
    const r = await turn(cm, 1);
    assert.ok(r.ledger.warnings.some((w) => w.code === 'usage-set-aside'), JSON.stringify(r.ledger.warnings));
  });

  it('a report that is no number is refused at recordUsage, naming the field, and changes nothing', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: BUDGET, countTokens: o200k });
    cm.append({ role: 'user', content: 'Fix the parser.' });
    await turn(cm, 0);
    const calibration = cm.calibration;
    for (const bad of [-1, Number.NaN, Infinity, '5000']) {
      assert.throws(() => cm.recordUsage({ input_tokens: bad }), (e) => (e instanceof RangeError || e instanceof TypeError) && /input_tokens|inputTokens/.test(e.field), String(bad));
    }
    assert.deepEqual(cm.calibration, calibration);
    await turn(cm, 1);
  });
});
