// `ContextManager.sync`: a framework hands over its whole message list at every call; the
// manager takes in what is new, and starts over, saying so, when the framework edited it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { ContextManager } = require('@devs/context');
const { createTokenCounter } = require('@devs/context/tokenizers');
const o200k = createTokenCounter('o200k_base');

/** A tool loop's messages, in OpenAI Chat's shape, made anew (new objects) each call. */
function history(turns) {
  const out = [{ role: 'user', content: 'Fix the parser' }];
  for (let t = 0; t < turns; t++) {
    out.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${t}`, type: 'function', function: { name: 'read', arguments: JSON.stringify({ path: `src/f${t}.rs` }) } }] });
    out.push({ role: 'tool', tool_call_id: `c${t}`, content: `fn f${t}() {}\n`.repeat(300) });
  }
  return out;
}

describe('ContextManager.sync', () => {
  it('takes in only what is new: the requests are those of append, and a repeated list adds nothing', async () => {
    const synced = new ContextManager({ format: 'openai-chat', budget: 20_000, countTokens: o200k });
    const appended = new ContextManager({ format: 'openai-chat', budget: 20_000, countTokens: o200k });
    let held = 0;
    for (let turns = 0; turns < 30; turns++) {
      const list = history(turns);
      synced.sync(list);
      synced.sync(history(turns)); // the same list again, as new objects
      appended.append(list.slice(held));
      held = list.length;
      const [a, b] = [await synced.build(), await appended.build()];
      assert.equal(JSON.stringify(a.messages), JSON.stringify(b.messages), `call ${turns}`);
      assert.ok(!a.ledger.warnings.some((w) => w.code === 'history-rebuilt'));
    }
  });

  it('a list the framework edited (a message replaced, or removed) is taken in anew, with a warning, and the request is valid', async () => {
    for (const edit of [(l) => { l[3] = { ...l[3], content: 'cleared' }; }, (l) => { l.splice(3, 2); }]) {
      const cm = new ContextManager({ format: 'openai-chat', budget: 20_000, countTokens: o200k });
      cm.sync(history(10));
      await cm.build();
      const list = history(12);
      edit(list);
      cm.sync(list);
      const { messages, ledger } = await cm.build();
      assert.ok(ledger.warnings.some((w) => w.code === 'history-rebuilt'), 'the ledger says so');
      assert.equal(messages.length, list.length, 'the new list, whole');
      assert.deepEqual(messages.map((m) => m.tool_call_id ?? m.role), list.map((m) => m.tool_call_id ?? m.role));
      assert.equal(cm.ledger.length, 2, 'the records before are kept');
      cm.sync([...list, { role: 'user', content: 'go on' }]);
      assert.ok(!(await cm.build()).ledger.warnings.some((w) => w.code === 'history-rebuilt'), 'then appends again');
    }
  });

  it('messages are compared whole: a long text edited in its middle is an edit; new objects of the same content, keys in another order, are not', async () => {
    const rebuilt = async (edit) => {
      const cm = new ContextManager({ format: 'openai-chat', budget: 20_000, countTokens: o200k });
      cm.sync(history(4));
      await cm.build();
      const list = history(5);
      edit(list);
      cm.sync(list);
      return (await cm.build()).ledger.warnings.some((w) => w.code === 'history-rebuilt');
    };
    // Same length, same first and last 40 characters: only the middle differs.
    const middle = (text) => `${text.slice(0, 1000)}X${text.slice(1001)}`;
    assert.equal(await rebuilt((l) => { l[2] = { ...l[2], content: middle(l[2].content) }; }), true, 'a long tool output edited in its middle');
    assert.equal(await rebuilt((l) => { l[1] = { ...l[1], tool_calls: [{ ...l[1].tool_calls[0], function: { name: 'read', arguments: JSON.stringify({ path: 'src/other.rs' }) } }] }; }), true, "a call's arguments");
    assert.equal(await rebuilt((l) => {
      // The same content, as other objects and texts: keys in another order, an undefined key more.
      l[2] = { content: `${l[2].content.slice(0, 7)}${l[2].content.slice(7)}`, tool_call_id: l[2].tool_call_id, role: 'tool', name: undefined };
    }), false, 'the same message, made otherwise');
  });

  it('a message that does not fit is a TypeError naming it, and nothing is taken in', async () => {
    const cm = new ContextManager({ format: 'openai-chat', budget: 20_000 });
    cm.sync(history(2));
    const before = JSON.stringify((await cm.build()).messages);
    assert.throws(() => cm.sync([...history(2), { role: 'robot', content: 'x' }]), (e) => e instanceof TypeError && e.field === 'messages[5].role');
    const edited = history(2);
    edited[1] = { role: 'tool', tool_call_id: 'nope', content: 'x' };
    assert.throws(() => cm.sync(edited), TypeError);
    assert.equal(JSON.stringify((await cm.build()).messages), before);
    assert.throws(() => cm.sync('not a list'), (e) => e instanceof TypeError && e.field === 'messages');
  });
});

describe('sync of bytes and URLs', () => {
  it('an image as new bytes is the same message; one byte changed, or another URL, is an edit', async () => {
    const image = (data) => ({ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'file', mediaType: 'image/png', data }] });
    const rebuilt = async (first, second) => {
      const cm = new ContextManager({ format: 'ai-sdk', budget: 20_000, countTokens: o200k });
      cm.sync([image(first), { role: 'assistant', content: [{ type: 'text', text: 'seen' }] }]);
      await cm.build();
      cm.sync([image(second), { role: 'assistant', content: [{ type: 'text', text: 'seen' }] }, { role: 'user', content: [{ type: 'text', text: 'go on' }] }]);
      return (await cm.build()).ledger.warnings.some((w) => w.code === 'history-rebuilt');
    };
    const a = new Uint8Array(200_000).fill(1);
    const b = a.slice();
    b[Math.floor((32 * a.length) / 65)] = 2; // one byte of the middle, at a place the print reads
    assert.equal(await rebuilt(a, a.slice()), false, 'the same bytes in a new array');
    assert.equal(await rebuilt(a, b), true, 'one byte changed');
    assert.equal(await rebuilt(a, a.subarray(1)), true, 'one byte fewer');
    assert.equal(await rebuilt(new URL('https://x.test/a.png'), new URL('https://x.test/a.png')), false, 'the same URL');
    assert.equal(await rebuilt(new URL('https://x.test/a.png'), new URL('https://x.test/b.png')), true, 'another URL');
  });
});
