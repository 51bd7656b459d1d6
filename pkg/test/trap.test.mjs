// Issue 47, item 1: no input panics the rules, and a trap, should one happen, bricks
// nothing. The release build aborts on a panic, and every object shares one instance:
// after a trap the instance is replaced, every live manager is made again from what it
// committed, and the call that trapped fails as an internal error naming its operation.
// The trap is the rules' own test hook (`ManagerCore.__trapForTests`, a real panic), called
// from inside a manager's call by swapping one method of the glue's class for the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager, TokenThresholdMonitor } from '@devs/context';
import * as glue from '../dist/glue.mjs';
import { PROBLEMS } from './validity.mjs';

/** The reproduction: a compaction block beside a server tool's call and result. */
function compactedWithSearch(m) {
  m.append({ role: 'user', content: 'Fix the parser.' });
  m.append({ role: 'assistant', content: [{ type: 'text', text: 'looking' }, { type: 'tool_use', id: 't1', name: 'bash', input: {} }] });
  m.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] });
  m.append({
    role: 'assistant',
    content: [
      { type: 'compaction', content: 'Compacted.', encrypted_content: 'ZW5j' },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.org', title: 'A', encrypted_content: 'cGFnZQ==', page_age: null }] },
      { type: 'tool_use', id: 't2', name: 'bash', input: {} },
    ],
  });
  m.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'ok' }] });
}

test("a compaction block beside a server tool's call and result builds, and so does everything after it", async () => {
  const m = new ContextManager({ format: 'anthropic', budget: 30000 });
  compactedWithSearch(m);
  await m.build();
  m.append({ role: 'assistant', content: [{ type: 'text', text: 'next' }] });
  m.append({ role: 'user', content: 'go on' });
  const r = await m.build();
  assert.deepEqual(PROBLEMS.anthropic(r), []);
  // The compaction's message is the first of the model's, the server pair still in it.
  const first = r.messages.find((m) => m.role === 'assistant');
  assert.deepEqual(first.content.slice(0, 3).map((b) => b.type), ['compaction', 'server_tool_use', 'web_search_tool_result']);
  const restored = ContextManager.restore(JSON.parse(JSON.stringify(m.snapshot())), { format: 'anthropic', budget: 30000 });
  assert.deepEqual((await restored.build()).messages, r.messages);
});

/** A tool loop of `n` turns with outputs large enough to compact at `budget`. */
function loop(m, n, from = 0) {
  if (from === 0) m.append({ role: 'user', content: 'Fix the failing tests.' });
  for (let t = from; t < from + n; t++) {
    m.append({ role: 'assistant', content: [{ type: 'text', text: `step ${t}` }, { type: 'tool_use', id: `c${t}`, name: 'bash', input: { cmd: `cat f${t}` } }] });
    m.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `line ${t}\n`.repeat(300) }] });
  }
}

const options = () => ({ format: 'anthropic', budget: 6000, summarizer: { summarize: async () => 'the summary' } });

/** Runs `fn` with `method` of the glue's ManagerCore trapping on its `nth` call from now. */
async function trapping(method, nth, fn) {
  const proto = glue.ManagerCore.prototype;
  const own = Object.getOwnPropertyDescriptor(proto, method);
  let calls = 0;
  Object.defineProperty(proto, method, {
    ...own,
    value(...args) {
      if (++calls === nth) return this.__trapForTests();
      return own.value.apply(this, args);
    },
  });
  try {
    return await fn();
  } finally {
    Object.defineProperty(proto, method, own);
  }
}

test('a trap inside an append fails that call as an internal error, and every manager goes on from what it committed', async () => {
  const [a, twinA, b, twinB] = [0, 1, 2, 3].map(() => new ContextManager(options()));
  for (const m of [a, twinA]) loop(m, 6);
  for (const m of [b, twinB]) loop(m, 3);
  await a.build();
  await twinA.build();
  const monitor = new TokenThresholdMonitor({ thresholdTokens: 100, onThresholdExceeded: () => {} });
  const error = await trapping('append', 1, () => {
    try {
      a.append({ role: 'assistant', content: [{ type: 'text', text: 'never kept' }] });
    } catch (e) {
      return e;
    }
    return undefined;
  });
  assert.ok(error instanceof Error, 'the append failed');
  assert.equal(error.code, 'ERR_INTERNAL');
  assert.match(error.message, /internal error in ManagerCore\.__trapForTests/);
  assert.equal(error.cause?.constructor?.name, 'RuntimeError');
  // Nothing of the failed append is kept, in either manager, and both build as their twins.
  const same = async (m, twin) => {
    const [r, t] = [await m.build(), await twin.build()];
    assert.deepEqual([r.messages, r.tokens], [t.messages, t.tokens]);
  };
  await same(a, twinA);
  await same(b, twinB);
  // They go on, through compactions, as their twins.
  for (const m of [a, twinA]) loop(m, 8, 6);
  for (const m of [b, twinB]) loop(m, 8, 3);
  const [ra, ta] = [await a.build(), await twinA.build()];
  assert.deepEqual(ra.messages, ta.messages);
  assert.ok(ra.ledger.compaction, 'the loop compacted after the trap');
  assert.deepEqual((await b.build()).messages, (await twinB.build()).messages);
  // An object of the dead instance that is not a manager says so; a new one works.
  assert.throws(() => monitor.getAccumulatedTokens(), (e) => e.code === 'ERR_INTERNAL' && /made again/.test(e.message));
  const fresh = new TokenThresholdMonitor({ thresholdTokens: 100, onThresholdExceeded: () => {} });
  await fresh.record(50);
  assert.equal(fresh.getAccumulatedTokens(), 50);
});

test('a trap inside a compacting build rejects it as an internal error; the next build is the one it would have been', async () => {
  const [a, twin] = [0, 1].map(() => new ContextManager(options()));
  for (const m of [a, twin]) loop(m, 12);
  const error = await trapping('commit', 1, () => a.build().then(() => undefined, (e) => e));
  assert.equal(error?.code, 'ERR_INTERNAL');
  assert.deepEqual((await a.build()).messages, (await twin.build()).messages);
  // Twice more: a second trap is survived as the first.
  const again = await trapping('advance', 1, () => a.build().then(() => undefined, (e) => e));
  assert.equal(again?.code, 'ERR_INTERNAL');
  for (const m of [a, twin]) loop(m, 4, 12);
  assert.deepEqual((await a.build()).messages, (await twin.build()).messages);
});

test('a restored manager is made again from its snapshot and what it committed since', async () => {
  const first = new ContextManager(options());
  loop(first, 10);
  await first.build();
  const snap = JSON.parse(JSON.stringify(first.snapshot()));
  const [a, twin] = [0, 1].map(() => ContextManager.restore(snap, options()));
  for (const m of [a, twin]) loop(m, 3, 10);
  await a.build();
  await twin.build();
  for (const m of [a, twin]) m.append({ role: 'assistant', content: [{ type: 'text', text: 'between builds' }] });
  const error = await trapping('advance', 1, () => a.build().then(() => undefined, (e) => e));
  assert.equal(error?.code, 'ERR_INTERNAL');
  for (const m of [a, twin]) m.append({ role: 'user', content: 'and on' });
  assert.deepEqual((await a.build()).messages, (await twin.build()).messages);
});
