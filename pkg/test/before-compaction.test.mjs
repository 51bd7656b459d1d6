// Issue 36: a hook before each compaction may add instructions for its summary, or defer
// it while the request still fits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager } from '@devs/context';

async function session(options, turns = 40) {
  const records = [];
  const warnings = [];
  const manager = new ContextManager({ format: 'anthropic', budget: 4_000, onLedger: (r) => records.push(r), onWarning: (w) => warnings.push(w), ...options });
  await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
  for (let t = 0; t < turns; t++) {
    await manager.append([
      { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'run_tests', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `run ${t}: ${'FAIL parser line 12\n'.repeat(30)}` }] },
      { role: 'assistant', content: `run ${t} failed on line 12` },
      { role: 'user', content: `try again (${t})` },
    ]);
    await manager.build();
  }
  manager.free();
  return { records, warnings };
}

describe('beforeCompaction', () => {
  it('is told before each compaction, and its instructions reach both layouts the summarizer gets', async () => {
    const notices = [];
    const calls = [];
    const { records } = await session({
      beforeCompaction: (n) => { notices.push(n); return { instructions: `Keep every line number (request ${n.request}).` }; },
      summarizer: { summarize: async (prompt, request) => { calls.push({ prompt, request }); return 'the parser fails on line 12'; } },
    });
    const compacted = records.filter((r) => r.compaction && r.compaction.trigger === 'highWater');
    assert.ok(compacted.length >= 2, `${compacted.length} compactions`);
    for (const r of compacted) assert.ok(notices.some((n) => n.request === r.request), `request ${r.request} was told`);
    for (const n of notices) {
      assert.equal(n.trigger, 'highWater');
      assert.equal(n.budget, 4_000);
      assert.ok(n.tokens > 3_000, `${n.tokens} tokens, past the mark`);
    }
    assert.ok(calls.length > 0);
    for (const { prompt, request } of calls) {
      assert.match(prompt, /Keep every line number \(request \d+\)\./);
      assert.match(JSON.stringify(request.messages.at(-1)), /Keep every line number/);
    }
  });

  it('defers while the request fits, and never past the budget', async () => {
    let asked = 0;
    const plain = await session({});
    const deferred = await session({ beforeCompaction: () => { asked++; return { defer: true }; } });
    const count = (rs) => rs.filter((r) => r.compaction && r.compaction.trigger === 'highWater').length;
    assert.ok(asked > count(plain.records), `asked ${asked} times`);
    const first = (rs) => rs.find((r) => r.compaction && r.compaction.trigger === 'highWater')?.request;
    assert.ok(first(deferred.records) > first(plain.records), `first compaction at request ${first(deferred.records)}, against ${first(plain.records)}`);
    assert.ok(count(deferred.records) <= count(plain.records), `${count(deferred.records)} compactions against ${count(plain.records)}`);
    assert.ok(deferred.warnings.some((w) => w.code === 'compaction-deferred'));
    for (const r of deferred.records) assert.ok(r.tokens <= 4_000, `request ${r.request}: ${r.tokens}`);
  });

  it('fails the build when it throws, and the next build is the one a manager it never failed in makes', async () => {
    let fail = true;
    const make = (hook) => new ContextManager({ format: 'openai-chat', budget: 4_000, beforeCompaction: hook });
    const a = make(() => { if (fail) throw new Error('hook down'); });
    const b = make(() => undefined);
    let failed = 0;
    for (const m of [a, b]) await m.append({ role: 'user', content: 'go' });
    for (let t = 0; t < 30; t++) {
      const turn = [{ role: 'assistant', content: `step ${t}` }, { role: 'user', content: `log ${t}: ${'the parser failed on line 12. '.repeat(20)}` }];
      for (const m of [a, b]) await m.append(turn);
      let built;
      try {
        built = await a.build();
      } catch (e) {
        assert.equal(e.message, 'hook down');
        failed++;
        fail = false;
        built = await a.build();
        fail = true;
      }
      assert.deepEqual(built.messages, (await b.build()).messages, `step ${t}`);
    }
    assert.ok(failed > 0, 'the hook failed a build');
    a.free();
    b.free();
  });

  it('refuses an answer of the wrong shape, naming it', async () => {
    for (const [answer, field] of [[{ defer: 'yes' }, 'beforeCompaction().defer'], [{ instructions: ' ' }, 'beforeCompaction().instructions'], ['defer', 'beforeCompaction()']]) {
      const m = new ContextManager({ format: 'openai-chat', budget: 4_000, beforeCompaction: () => answer });
      await m.append({ role: 'user', content: 'go' });
      let error;
      for (let t = 0; t < 30 && !error; t++) {
        await m.append([{ role: 'assistant', content: `step ${t}` }, { role: 'user', content: 'x '.repeat(400) }]);
        await m.build().catch((e) => { error = e; });
      }
      assert.ok(error instanceof TypeError, String(error));
      assert.equal(error.field, field);
      m.free();
    }
    assert.throws(() => new ContextManager({ format: 'openai-chat', budget: 4_000, beforeCompaction: 'soon' }), (e) => e instanceof TypeError && e.field === 'options.beforeCompaction');
  });
});
