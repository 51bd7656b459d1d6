// Issue 36: tools whose calls and results are never masked, cut or folded away within
// their share (`protectedTools`), carried verbatim after the summary once folded.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager } from '@devs/context';

const TODO = (t) => `TODO v${t}\n${Array.from({ length: 40 }, (_, i) => `- [${i < 10 ? 'x' : ' '}] step ${i}: fix the parser at line ${t + i}`).join('\n')}`;

/** A 200-step agent loop: a test run each step, a todo update every 25; every request checked. */
async function loop(options, { steps = 200, check } = {}) {
  const warnings = [];
  const manager = new ContextManager({ format: 'openai-chat', budget: 12_000, onWarning: (w) => warnings.push(w), ...options });
  await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
  let latest;
  for (let t = 0; t < steps; t++) {
    const todo = t % 25 === 0;
    const name = todo ? 'todo' : 'run_tests';
    const output = todo ? TODO(t) : `run ${t}: ${'FAIL parser line 12\n'.repeat(40)}`;
    if (todo) latest = output;
    await manager.append([
      { role: 'assistant', content: null, tool_calls: [{ id: `c${t}`, type: 'function', function: { name, arguments: '{}' } }] },
      { role: 'tool', tool_call_id: `c${t}`, content: output },
    ]);
    const built = await manager.build();
    check?.(JSON.stringify(built.messages), latest, t, built);
  }
  manager.free();
  return warnings;
}

describe('protectedTools', () => {
  it("keeps a protected tool's latest result verbatim in every request of a 200-step loop", async () => {
    let checked = 0;
    const warnings = await loop({ protectedTools: ['todo'] }, {
      check: (request, latest, t, built) => {
        assert.ok(request.includes(JSON.stringify(latest).slice(1, -1)), `step ${t}: the latest todo result is in the request`);
        assert.ok(built.tokens <= 12_000);
        checked++;
      },
    });
    assert.equal(checked, 200);
    // Eight todo lists of 400 tokens outgrow the share (1,200): the oldest go, with a warning; never the newest.
    assert.deepEqual(warnings.filter((w) => w.code === 'protected-dropped'), []);
  });

  it('loses it in the same loop without protection (the test above can fail)', async () => {
    let lost = 0;
    await loop({}, { check: (request, latest) => { if (!request.includes(JSON.stringify(latest).slice(1, -1))) lost++; } });
    assert.ok(lost > 20, `${lost} requests without the latest todo result`);
  });

  it('carries folded protected results after the summary, and gives the summarizer only its own words', async () => {
    const prompts = [];
    let carried = 0;
    await loop({ protectedTools: ['todo'], summarizer: async (prompt) => { prompts.push(prompt); return `summary ${prompts.length}`; } }, {
      check: (request, latest) => {
        if (request.includes('Kept verbatim from the turns summarized')) carried++;
        assert.ok(request.includes(JSON.stringify(latest).slice(1, -1)));
      },
    });
    assert.ok(prompts.length >= 2, `${prompts.length} summaries`);
    assert.ok(carried > 0, 'a summary carried a todo result');
    for (const p of prompts) assert.ok(!p.includes('Kept verbatim from the turns summarized'), 'the summary so far is given without what it carries');
  });

  it('warns past its share, and keeps the newest whole', async () => {
    const big = 'x'.repeat(3_000);
    const warnings = [];
    const manager = new ContextManager({ format: 'openai-chat', budget: 12_000, protectedTools: ['memory'], protectedShare: 0.1, onWarning: (w) => warnings.push(w) });
    await manager.append({ role: 'user', content: 'go' });
    for (let t = 0; t < 30; t++) {
      await manager.append([
        { role: 'assistant', content: null, tool_calls: [{ id: `c${t}`, type: 'function', function: { name: 'memory', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: `c${t}`, content: `memory ${t} ${big}` },
      ]);
      const built = await manager.build();
      assert.ok(JSON.stringify(built.messages).includes(`memory ${t} ${big}`), `step ${t}: the newest is whole`);
    }
    assert.ok(warnings.some((w) => w.code === 'protected-over-share'), warnings.map((w) => w.code).join());
    manager.free();
  });

  it('restores from a snapshot still protecting, and refuses other tool names', async () => {
    const options = { format: 'openai-chat', budget: 12_000, protectedTools: ['todo'] };
    const a = new ContextManager(options);
    await a.append({ role: 'user', content: 'go' });
    const turn = async (m, t) => {
      await m.append([
        { role: 'assistant', content: null, tool_calls: [{ id: `c${t}`, type: 'function', function: { name: t % 5 ? 'run' : 'todo', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: `c${t}`, content: `out ${t} ${'y'.repeat(2_000)}` },
      ]);
      return JSON.stringify((await m.build()).messages);
    };
    for (let t = 0; t < 20; t++) await turn(a, t);
    const snap = a.snapshot();
    // Two managers restored from it, each with a store of its own (the ids are the store's), go on alike.
    const b = ContextManager.restore(snap, options);
    const c = ContextManager.restore(snap, options);
    for (let t = 20; t < 40; t++) {
      const request = await turn(b, t);
      assert.equal(request, await turn(c, t), `step ${t}`);
      // The newest todo output (step 35 at the end) is still whole after the restore.
      const newest = t - (t % 5);
      assert.ok(request.includes(`out ${newest} yy`), `step ${t}: todo output ${newest} is whole`);
    }
    c.free();
    assert.throws(() => ContextManager.restore(snap, { ...options, protectedTools: ['memory'] }), (e) => e instanceof TypeError && e.field === 'snapshot.config');
    a.free();
    b.free();
  });

  it('refuses a bad option naming it', () => {
    const make = (o) => () => new ContextManager({ format: 'openai-chat', budget: 12_000, ...o });
    assert.throws(make({ protectedTools: 'todo' }), (e) => e instanceof TypeError && e.field === 'options.protectedTools');
    assert.throws(make({ protectedTools: ['todo', ''] }), (e) => e instanceof TypeError && e.field === 'options.protectedTools[1]');
    assert.throws(make({ protectedShare: 0.2 }), (e) => e instanceof TypeError && e.field === 'options.protectedShare');
    assert.throws(make({ protectedTools: ['todo'], protectedShare: 0.9 }), (e) => e instanceof RangeError && e.field === 'options.protectedShare');
  });
});
