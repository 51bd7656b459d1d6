// Builds run one at a time, in call order, and a build holds what was appended before it
// was called, not after (issue 47, item 9: `p1 = build(); append(x); p2 = build()` once
// gave `x` to `p1`). An append made while a build is pending is taken in after it; one
// that does not fit is the next build's error, and a build taken back loses none of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager } from '@devs/context';

const texts = (r) => r.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? b.type).join(' ')));

test('a build holds what was appended before it was called, not after', async () => {
  const m = new ContextManager({ format: 'anthropic', budget: 20_000 });
  m.append({ role: 'user', content: 'one' });
  const p1 = m.build();
  m.append({ role: 'assistant', content: 'two' });
  const p2 = m.build();
  m.append({ role: 'user', content: 'three' });
  const [r1, r2] = await Promise.all([p1, p2]);
  assert.deepEqual(texts(r1), ['one']);
  assert.deepEqual(texts(r2), ['one', 'two']);
  assert.deepEqual(texts(await m.build()), ['one', 'two', 'three']);
});

test('an append taken in after a pending build that does not fit is the next build\'s error, and nothing of it is kept', async () => {
  const m = new ContextManager({ format: 'anthropic', budget: 20_000 });
  m.append({ role: 'user', content: 'one' });
  const p1 = m.build();
  // A tool result whose call is not in the conversation.
  m.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'x' }] });
  const p2 = m.build();
  assert.deepEqual(texts(await p1), ['one']);
  await assert.rejects(p2, (e) => e instanceof TypeError && /message/.test(e.field ?? e.message));
  assert.deepEqual(texts(await m.build()), ['one']);
});

test('a build that fails loses nothing appended while it ran', async () => {
  let fail = true;
  const m = new ContextManager({
    format: 'anthropic', budget: 20_000,
    onLedger: () => {
      if (fail) throw new Error('ledger down');
    },
  });
  m.append({ role: 'user', content: 'one' });
  const p1 = m.build();
  m.append({ role: 'assistant', content: 'two' });
  await assert.rejects(p1, /ledger down/);
  fail = false;
  assert.deepEqual(texts(await m.build()), ['one', 'two']);
});
