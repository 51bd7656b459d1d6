// Issue 35: input that a provider could not take is refused at append, naming the field,
// and changes nothing: a message holding an object it is inside of (its JSON would never
// end), and a call with the id of another call still in the conversation (its result
// could not be told apart), in every format.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextManager } from '@devs/context';
import { fakeVscode } from './provider-sessions.mjs';
import { FORMATS } from './formats.mjs';

const user = (format, text) => (format === 'vscode' ? fakeVscode.LanguageModelChatMessage.User(text) : format === 'gemini' ? { role: 'user', parts: [{ text }] } : { role: 'user', content: text });

/** A message of `format` calling a tool with id `id`, and the message answering it. */
function call(format, id) {
  switch (format) {
    case 'anthropic': return [{ role: 'assistant', content: [{ type: 'tool_use', id, name: 'bash', input: { command: 'ls' } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'a b' }] }];
    case 'openai-chat': return [{ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: '{}' } }] }, { role: 'tool', tool_call_id: id, content: 'a b' }];
    case 'openai-responses': return [{ type: 'function_call', call_id: id, name: 'bash', arguments: '{}' }, { type: 'function_call_output', call_id: id, output: 'a b' }];
    case 'ai-sdk': return [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'bash', input: {} }] }, { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: { type: 'text', value: 'a b' } }] }];
    case 'gemini': return [{ role: 'model', parts: [{ functionCall: { id, name: 'bash', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { id, name: 'bash', response: { output: 'a b' } } }] }];
    default: return [fakeVscode.LanguageModelChatMessage.Assistant([new fakeVscode.LanguageModelToolCallPart(id, 'bash', {})]), fakeVscode.LanguageModelChatMessage.User([new fakeVscode.LanguageModelToolResultPart(id, [new fakeVscode.LanguageModelTextPart('a b')])])];
  }
}

/** A message of `format` holding `value` where the format takes an object, and the field that holds it. */
function circular(format, value) {
  switch (format) {
    case 'anthropic': return [{ role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'bash', input: { opts: value } }] }, 'message.content[0].input.opts.self.again'];
    case 'openai-chat': return [{ role: 'user', content: [{ type: 'text', text: 'hi', extra: value }] }, 'message.content[0].extra.self.again'];
    case 'openai-responses': return [{ type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{}', extra: value }, 'message.extra.self.again'];
    case 'ai-sdk': return [{ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: { opts: value } }] }, 'message.content[0].input.opts.self.again'];
    case 'gemini': return [{ role: 'model', parts: [{ functionCall: { id: 'c1', name: 'bash', args: { opts: value } } }] }, 'message.parts[0].functionCall.args.opts.self.again'];
    default: return [fakeVscode.LanguageModelChatMessage.Assistant([new fakeVscode.LanguageModelToolCallPart('c1', 'bash', { opts: value })]), 'message.content[0].input.opts.self.again'];
  }
}

function refused(fn, kind, field, words) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof kind, String(e));
    assert.equal(e.field, field, e.message);
    assert.match(e.message, words);
    return true;
  });
}

describe('a message no provider could take is refused at append, naming the field', () => {
  for (const format of FORMATS) {
    it(`${format}: a circular reference, at the field that refers back; nothing changes`, async () => {
      const cm = new ContextManager({ format, budget: 20_000, vscode: fakeVscode });
      cm.append(user(format, 'Fix the parser.'));
      const before = await cm.build();
      const loop = { note: 'x' };
      loop.self = { again: loop };
      const [message, field] = circular(format, loop);
      refused(() => cm.append(message), TypeError, field, /circular reference/);
      const after = await cm.build();
      assert.deepEqual(after.messages, before.messages, 'nothing was appended');
      // The same object twice, off two paths, is no cycle.
      const shared = { tag: 'shared' };
      const [ok] = circular(format, { a: shared, b: shared });
      cm.append(ok);
      await cm.build();
    });

    it(`${format}: a call with the id of a live call, in the same append or a later one; nothing changes`, async () => {
      const cm = new ContextManager({ format, budget: 20_000, vscode: fakeVscode });
      cm.append(user(format, 'Fix the parser.'));
      cm.append(call(format, 'c1'));
      const before = await cm.build();
      assert.throws(() => cm.append(call(format, 'c1')), (e) => e instanceof TypeError && /^messages?(\[0\])?\./.test(e.field) && /"c1" of an earlier call/.test(e.message) && e.message.startsWith(e.field));
      assert.throws(() => cm.append([...call(format, 'c2'), ...call(format, 'c2')]), (e) => e instanceof TypeError && e.field.startsWith('messages[2]') && /"c2"/.test(e.message));
      const after = await cm.build();
      assert.deepEqual(after.messages, before.messages, 'nothing was appended');
      cm.append(call(format, 'c3'));
      assert.ok((await cm.build()).messages.length > before.messages.length);
    });
  }
});
