// Issue 36: one event per compaction, from the ledger, with what the cache lost.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager } from '@devs/context';

async function session({ summarizer, onCompaction, turns = 40 }) {
  const records = [];
  const manager = new ContextManager({
    format: 'anthropic', budget: 4_000, summarizer, onCompaction,
    onLedger: (r) => records.push(r),
  });
  await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
  for (let t = 0; t < turns; t++) {
    await manager.append([
      { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'run_tests', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `run ${t}: ${'FAIL parser line 12\n'.repeat(60)}` }] },
    ]);
    await manager.build();
  }
  return records;
}

describe('onCompaction', () => {
  it('is called once for each record with a compaction, with its figures', async () => {
    const events = [];
    const records = await session({ summarizer: async () => 'the parser fails on line 12', onCompaction: (e) => events.push(e) });
    const compacted = records.filter((r) => r.compaction);
    assert.ok(compacted.length >= 2, `${compacted.length} compactions`);
    assert.deepEqual(events.map((e) => e.request), compacted.map((r) => r.request));
    for (const e of events) {
      const r = records[e.request - 1];
      const before = records[e.request - 2];
      assert.equal(e.tokens.before, r.compaction.before);
      assert.equal(e.tokens.after, r.tokens);
      assert.ok(e.tokens.after < e.tokens.before, `request ${e.request} got smaller`);
      assert.equal(e.cache.read, r.cache.read);
      assert.equal(e.cache.written, r.cache.write);
      assert.equal(e.cache.invalidated, Math.max(0, before.tokens - r.cache.read));
      assert.ok(e.messages.after <= e.messages.before);
      assert.equal(e.actions.masked, r.compaction.masked.length);
      for (const id of r.compaction.masked) assert.ok(e.stored.includes(id));
      if (r.compaction.summarized) assert.ok(e.summary.tokens > 0 && e.summary.chunks > 0);
      assert.equal(e.error, undefined);
    }
    assert.ok(events.some((e) => e.cache.invalidated > 0), 'a compaction breaks the cache past its edit');
  });

  it('carries the summarizer error when the summarizer failed', async () => {
    const events = [];
    const boom = new Error('model down');
    await session({ summarizer: async () => { throw boom; }, onCompaction: (e) => events.push(e) });
    const failed = events.filter((e) => e.error !== undefined);
    assert.ok(failed.length > 0, 'a failed summary is in the event');
    for (const e of failed) assert.equal(e.error, boom);
  });

  it('fails the build when it throws, and the next build is the one a manager it never failed in makes', async () => {
    let fail = true;
    const sink = new Error('sink full');
    const a = new ContextManager({ format: 'openai-chat', budget: 4_000, onCompaction: () => { if (fail) throw sink; } });
    const b = new ContextManager({ format: 'openai-chat', budget: 4_000 });
    let failedAt = -1;
    for (let t = 0; t < 30 && failedAt < 0; t++) {
      const message = { role: 'user', content: `log ${t}: ${'line of output\n'.repeat(80)}` };
      await a.append(message);
      await b.append(message);
      try {
        await a.build();
      } catch (error) {
        assert.equal(error, sink);
        failedAt = t;
        continue;
      }
      await b.build();
    }
    assert.ok(failedAt > 0, 'a compaction came, and its callback failed the build');
    // Taken back whole: the rules' state, every float of it, is the twin's.
    assert.equal(a.snapshot().rules, b.snapshot().rules);
    fail = false;
    assert.deepEqual((await a.build()).messages, (await b.build()).messages);
    assert.equal(a.ledger.length, b.ledger.length);
  });

  it('refuses an onCompaction that is not a function, naming it', () => {
    assert.throws(() => new ContextManager({ format: 'anthropic', budget: 8_000, onCompaction: 5 }), (e) => e instanceof TypeError && e.message.startsWith('options.onCompaction'));
  });
});
