// `quality` (issue 49, item 6): one preset that trades spend for recall. 'recall' compacts
// later and keeps more than the default, as the ledger's marks say and as the requests
// show; an option given overrides the preset; a name it does not know is an error naming
// `options.quality`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager } from '@devs/context';

/** The ledger records of 60 tool turns at 4,000 tokens, with `options`. */
async function session(options = {}) {
  const records = [];
  const manager = new ContextManager({
    format: 'anthropic', budget: 4_000, summarizer: async () => 'the parser fails on line 12',
    onLedger: (r) => records.push(r), ...options,
  });
  try {
    await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
    for (let t = 0; t < 60; t++) {
      await manager.append([
        { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'run_tests', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `run ${t}: ${'FAIL parser line 12\n'.repeat(20 + (t % 7) * 10)}` }] },
      ]);
      await manager.build();
    }
  } finally {
    manager.free();
  }
  return records;
}

const marks = (records) => {
  const c = records.find((r) => r.compaction?.trigger === 'highWater').compaction;
  return [c.highWater / 4_000, c.lowWater / 4_000];
};

describe("quality: 'recall'", () => {
  it('compacts later and keeps more than the default', async () => {
    const balanced = await session();
    const recall = await session({ quality: 'recall' });
    const named = await session({ quality: 'balanced' });
    const [high, low] = marks(balanced);
    const [rHigh, rLow] = marks(recall);
    assert.ok(rHigh > high && rLow > low, `${rHigh}, ${rLow} against ${high}, ${low}`);
    assert.deepEqual(marks(named), [high, low]);
    // More of the conversation in each request, on average.
    const mean = (records) => records.reduce((n, r) => n + r.tokens, 0) / records.length;
    assert.ok(mean(recall) > mean(balanced), `${mean(recall)} against ${mean(balanced)}`);
  });

  it('an option given overrides the preset', async () => {
    const recall = await session({ quality: 'recall', lowWater: 0.3 });
    const [high, low] = marks(recall);
    assert.deepEqual([high, low], [marks(await session({ quality: 'recall' }))[0], 0.3]);
  });

  it('a name it does not know, or not a string, is an error naming options.quality', () => {
    assert.throws(() => new ContextManager({ format: 'anthropic', budget: 4_000, quality: 'best' }), (e) => e instanceof RangeError && /options\.quality/.test(e.message) && /'balanced', 'recall'/.test(e.message));
    assert.throws(() => new ContextManager({ format: 'anthropic', budget: 4_000, quality: 1 }), (e) => e instanceof TypeError && /options\.quality/.test(e.message));
  });
});
