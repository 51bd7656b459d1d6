// The Gemini format (`@google/genai` generateContent): a tool loop with thought signatures
// stays valid and bounded under compaction, signatures pass back byte for byte, calls
// without ids pair with their responses by name and order, images are billed by Gemini's
// rule, usageMetadata is read, and bad input is a TypeError naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { assertFieldError, thrown } from './helpers.mjs';
import { PROBLEMS } from './validity.mjs';

const SIGS = new Set();
const sig = (t) => {
  // Base64 bytes no counter can read, as the API returns them.
  const s = Buffer.from(`signature-of-turn-${t}-`.repeat(6)).toString('base64');
  SIGS.add(s);
  return s;
};

/** Model turn `t`: a thought summary, then two parallel calls, the first one signed (as Gemini signs them), no ids. */
function modelTurn(t) {
  return {
    role: 'model',
    parts: [
      { text: `Thinking about step ${t}.`, thought: true },
      { functionCall: { name: 'read_file', args: { path: `src/file${t}.ts` } }, thoughtSignature: sig(t) },
      { functionCall: { name: 'grep', args: { pattern: `needle${t}` } } },
    ],
  };
}
const responses = (t) => ({
  role: 'user',
  parts: [
    { functionResponse: { name: 'read_file', response: { output: `file ${t}\n`.repeat(400) } } },
    { functionResponse: { name: 'grep', response: { output: `match ${t}\n`.repeat(200) } } },
  ],
});

test('a scripted tool loop with thought signatures stays valid and inside the budget under compaction', async () => {
  const budget = 12_000;
  const cm = new ContextManager({ format: 'gemini', budget, store: new MemoryStateRepository(), system: 'You are a coding agent.' });
  cm.append({ role: 'user', parts: [{ text: 'Fix the bug in the parser.' }] });
  const given = [];
  let compacted = false;
  for (let t = 0; t < 30; t++) {
    const turn = modelTurn(t);
    given.push(turn.parts[1].thoughtSignature);
    cm.append(turn);
    cm.append(responses(t));
    const r = await cm.build();
    assert.deepEqual(PROBLEMS.gemini(r, SIGS), [], `turn ${t}`);
    assert.ok(r.tokens <= budget, `turn ${t}: ${r.tokens} tokens`);
    assert.equal(r.system, 'You are a coding agent.');
    // Fewer contents than were appended: older turns were folded away.
    if (r.messages.length < 2 * t + 1) compacted = true;
    // Every signature in the request is one the model gave, on a functionCall part of its own turn.
    for (const m of r.messages) {
      for (const p of m.parts) {
        if (p.thoughtSignature === undefined) continue;
        assert.ok(given.includes(p.thoughtSignature));
        assert.equal(m.role, 'model');
        assert.ok(p.functionCall, 'a signature stays on its functionCall part');
        const turnOf = given.indexOf(p.thoughtSignature);
        assert.equal(p.functionCall.name, 'read_file');
        assert.equal(typeof turnOf, 'number');
      }
    }
    cm.recordUsage({ promptTokenCount: r.tokens, cachedContentTokenCount: 0, candidatesTokenCount: 50 });
  }
  assert.ok(compacted, 'the loop compacted');
  // The newest turn is whole: its signature byte for byte on the part it came on.
  const last = await cm.build();
  const model = last.messages.filter((m) => m.role === 'model').at(-1);
  assert.equal(model.parts.find((p) => p.thoughtSignature).thoughtSignature, given.at(-1));
});

test('calls without ids pair with responses by name and order', async () => {
  const cm = new ContextManager({ format: 'gemini', budget: 50_000 });
  cm.append({ role: 'user', parts: [{ text: 'go' }] });
  cm.append({ role: 'model', parts: [{ functionCall: { name: 'grep', args: { q: 'a' } } }, { functionCall: { name: 'grep', args: { q: 'b' } } }, { functionCall: { name: 'ls', args: {} } }] });
  // Answered out of order across names, in order within a name, in two appends.
  cm.append({ role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'x' } } }, { functionResponse: { name: 'grep', response: { output: 'a' } } }] });
  cm.append({ role: 'user', parts: [{ functionResponse: { name: 'grep', response: { output: 'b' } } }] });
  const r = await cm.build();
  assert.deepEqual(PROBLEMS.gemini(r), []);
  // A third response to grep answers no call: refused, naming the part.
  assertFieldError(thrown(() => cm.append({ role: 'user', parts: [{ functionResponse: { name: 'grep', response: { output: 'c' } } }] })), TypeError, 'message.parts[0]');
  // A response of an unknown tool, and one in a model content.
  const cm2 = new ContextManager({ format: 'gemini', budget: 50_000 });
  cm2.append({ role: 'user', parts: [{ text: 'go' }] });
  cm2.append({ role: 'model', parts: [{ functionCall: { name: 'grep', args: {} } }] });
  assertFieldError(thrown(() => cm2.append({ role: 'user', parts: [{ functionResponse: { name: 'nope', response: {} } }] })), TypeError, 'message.parts[0]');
  assertFieldError(thrown(() => cm2.append({ role: 'model', parts: [{ functionResponse: { name: 'grep', response: {} } }] })), TypeError, 'message.parts[0]');
  // Ids, where given, pair by id.
  cm2.append({ role: 'model', parts: [{ functionCall: { id: 'c1', name: 'ls', args: {} } }] });
});

test('a manager restored between calls and their responses pairs them by name and order as the one it was taken from', async () => {
  const options = { format: 'gemini', budget: 50_000 };
  const cm = new ContextManager(options);
  cm.append({ role: 'user', parts: [{ text: 'go' }] });
  cm.append({ role: 'model', parts: [{ functionCall: { name: 'grep', args: { q: 'a' } } }, { functionCall: { name: 'grep', args: { q: 'b' } } }] });
  cm.append({ role: 'user', parts: [{ functionResponse: { name: 'grep', response: { output: 'a' } } }] });
  await cm.build();
  const restored = ContextManager.restore(JSON.parse(JSON.stringify(cm.snapshot())), options);
  restored.append({ role: 'user', parts: [{ functionResponse: { name: 'grep', response: { output: 'b' } } }] });
  assert.deepEqual(PROBLEMS.gemini(await restored.build()), []);
  // Both calls are answered now: a third response is refused, naming the part.
  assertFieldError(thrown(() => restored.append({ role: 'user', parts: [{ functionResponse: { name: 'grep', response: {} } }] })), TypeError, 'message.parts[0]');
});

test('a call left unanswered gets a response of its name', async () => {
  const cm = new ContextManager({ format: 'gemini', budget: 50_000 });
  cm.append({ role: 'user', parts: [{ text: 'go' }] });
  cm.append({ role: 'model', parts: [{ functionCall: { name: 'grep', args: {} } }] });
  cm.append({ role: 'user', parts: [{ text: 'stop' }] });
  const r = await cm.build();
  assert.deepEqual(PROBLEMS.gemini(r), []);
  assert.equal(r.messages[2].parts[0].functionResponse.name, 'grep');
});

test('calls left open among answered ones of the same name: each response goes to its own call by name and order', async () => {
  // Three parallel reads with no ids, two answered: the marked response of the open one
  // must come after the real ones, or by name and order each real one answers the call before it.
  const cm = new ContextManager({ format: 'gemini', budget: 50_000 });
  cm.append({ role: 'user', parts: [{ text: 'go' }] });
  cm.append({ role: 'model', parts: ['a', 'b', 'c'].map((f) => ({ functionCall: { name: 'read', args: { path: f } } })) });
  cm.append({ role: 'user', parts: ['a', 'b'].map((f) => ({ functionResponse: { name: 'read', response: { output: `contents of ${f}` } } })) });
  const r = await cm.build();
  assert.deepEqual(PROBLEMS.gemini(r), []);
  const calls = r.messages[1].parts.map((p) => p.functionCall);
  const answers = r.messages[2].parts.filter((p) => p.functionResponse?.name === 'read').map((p) => p.functionResponse.response);
  assert.equal(answers.length, 3);
  // By name and order, the k-th response answers the k-th call.
  assert.deepEqual(answers.map((a) => a.output ?? 'interrupted'), calls.map((c) => (c.args.path === 'c' ? 'interrupted' : `contents of ${c.args.path}`)));
  assert.equal(typeof answers[2].error, 'string');
});

/** A PNG of `w` × `h` pixels: its header only, which is all the rules read. */
function png(w, h) {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  b[24] = 8;
  b[25] = 6;
  return b.toString('base64');
}

test("an image is billed by Gemini's rule", async () => {
  // The image's tokens: a build with it, less the same build with a one-token text in its place.
  const build = async (part) => {
    const cm = new ContextManager({ format: 'gemini', budget: 50_000 });
    cm.append([{ role: 'user', parts: [{ text: 'x' }] }, { role: 'model', parts: [{ text: 'ok' }] }, { role: 'user', parts: [part] }]);
    return (await cm.build()).tokens;
  };
  const tokens = async (w, h) => (await build({ inlineData: { mimeType: 'image/png', data: png(w, h) } })) - (await build({ text: 'y' }));
  const small = await tokens(384, 300);
  const large = await tokens(1280, 800);
  // 258 for an image within 384 px; 1280 × 800 in 533-px tiles: 3 × 2 tiles of 258.
  assert.ok(Math.abs(small - 258) <= 4, `small: ${small}`);
  assert.ok(Math.abs(large - 6 * 258) <= 4, `large: ${large}`);
});

test('usageMetadata: cached content is read from the cache', () => {
  const cm = new ContextManager({ format: 'gemini', budget: 50_000 });
  cm.append({ role: 'user', parts: [{ text: 'hello' }] });
  cm.recordUsage({ promptTokenCount: 1000, cachedContentTokenCount: 600, candidatesTokenCount: 20, totalTokenCount: 1020 });
  assertFieldError(thrown(() => cm.recordUsage({ candidatesTokenCount: 1 })), TypeError, 'usage.promptTokenCount');
  assertFieldError(thrown(() => cm.recordUsage({ promptTokenCount: -1 })), RangeError, 'usage.promptTokenCount');
  assertFieldError(thrown(() => cm.recordUsage({ promptTokenCount: 1, cachedContentTokenCount: 'x' })), TypeError, 'usage.cachedContentTokenCount');
});

test('the recall tool is a function declaration, answered by a functionResponse', async () => {
  const cm = new ContextManager({ format: 'gemini', budget: 50_000, recall: true });
  const tool = cm.recallTool;
  assert.equal(tool.functionDeclarations.length, 1);
  assert.equal(typeof tool.functionDeclarations[0].name, 'string');
  cm.append({ role: 'user', parts: [{ text: 'go' }] });
  const call = { functionCall: { name: tool.functionDeclarations[0].name, args: { id: 'nothing' } } };
  cm.append({ role: 'model', parts: [call] });
  const answer = await cm.recall(call);
  assert.equal(answer.role, 'user');
  assert.equal(answer.parts[0].functionResponse.name, tool.functionDeclarations[0].name);
  cm.append(answer);
  assert.deepEqual(PROBLEMS.gemini(await cm.build()), []);
});

test('bad input is a TypeError naming the field', () => {
  const cm = new ContextManager({ format: 'gemini', budget: 50_000 });
  assertFieldError(thrown(() => cm.append({ role: 'assistant', parts: [{ text: 'x' }] })), TypeError, 'message.role');
  assertFieldError(thrown(() => cm.append({ role: 'user', content: 'x' })), TypeError, 'message.content');
  assertFieldError(thrown(() => cm.append({ role: 'user', parts: [] })), TypeError, 'message.parts');
  assertFieldError(thrown(() => cm.append({ role: 'user', parts: [{ text: 3 }] })), TypeError, 'message.parts[0].text');
  assertFieldError(thrown(() => cm.append({ role: 'model', parts: [{ functionCall: { args: {} } }] })), TypeError, 'message.parts[0].functionCall.name');
  assertFieldError(thrown(() => cm.append({ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 5 } }] })), TypeError, 'message.parts[0].inlineData.data');
});
