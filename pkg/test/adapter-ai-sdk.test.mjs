// `@devs/context/ai-sdk`: `contextMiddleware` in the AI SDK's own loops, for each major
// version installed (ai 6: `MockLanguageModelV3`; ai 7, installed as `ai-7`:
// `MockLanguageModelV4`). The mock model is an agent: it records every prompt it gets,
// answers each with one tool call, and once a compaction has stored an output, calls the
// recall tool on an id its prompt names. Prompts are measured as a provider reads them (each
// message's role and part texts, exact o200k), as bench/cache does.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';

const require = createRequire(import.meta.url);
const { contextMiddleware } = require('@devs/context/ai-sdk');
const { createTokenCounter } = require('@devs/context/tokenizers');
const o200k = createTokenCounter('o200k_base');

const VERSIONS = [
  { name: 'ai 6', ai: await import('ai'), Mock: (await import('ai/test')).MockLanguageModelV3 },
  { name: 'ai 7', ai: await import('ai-7'), Mock: (await import('ai-7/test')).MockLanguageModelV4 },
];

import { assertConversationsApart, callOf, conversationContent, loopContent, measure, mockModel, output, problems, promptText } from './ai-sdk-model.mjs';
import { assertCacheStableLoop, timed, timing, toolLoop } from './tool-loop.mjs';

/** Runs the loop with `generateText`, `streamText` or a `ToolLoopAgent` of version `v`; the steps and the text. */
async function run(v, mode, settings) {
  if (mode === 'generate') return v.ai.generateText(settings);
  if (mode === 'agent') {
    const { system, prompt, ...agent } = settings;
    return new v.ai.ToolLoopAgent({ ...agent, instructions: system }).generate({ prompt });
  }
  const result = v.ai.streamText(settings);
  for await (const part of result.fullStream) if (part.type === 'error') throw part.error;
  return { steps: await result.steps, text: await result.text, response: await result.response };
}

// ---- The tests.

// Two workloads. A 20 KB output is cut to the part share (0.15 of the budget, 3,000 tokens)
// when first sent, so each step adds 3,000 new tokens to a prompt that grows from the low
// water mark to the high one (5,000 to 15,000): no history that only appends can read more
// than about 0.7 of its tokens from the cache. 1 KB outputs (350 tokens) leave room for 0.9.
const WORKLOADS = [
  { name: '20 KB outputs', size: 20_000, share: 0.6, compactions: 10 },
  { name: '1 KB outputs', size: 1_000, share: 0.9, compactions: 1 },
];

for (const v of VERSIONS) {
  const { ai } = v;
  const readTool = (executed, size = 20_000) => ai.tool({
    description: 'Read a file of the project',
    inputSchema: ai.jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
    execute: async ({ path }, { toolCallId }) => {
      executed.push(toolCallId);
      return output(path, size);
    },
  });

  describe(`contextMiddleware with ${v.name}`, () => {
    for (const mode of ['generate', 'stream', 'agent']) {
      for (const w of WORKLOADS) {
        it(`${mode}: a 100-step tool loop of ${w.name} at 20,000 tokens stays within budget, valid and cache-stable, with a recall answered inside`, async (t) => {
          const loop = toolLoop(); // 100 steps at 20,000 tokens
          const { steps: STEPS, budget: BUDGET, records, warnings, executed } = loop;
          const { model: mock, seen } = mockModel(v.Mock, (prompt) => loopContent(loop.next(promptText(prompt), seen.prompts.length - 1)));
          const middleware = contextMiddleware(loop.options);
          const ms = [];
          const model = ai.wrapLanguageModel({ model: mock, middleware: timed(middleware, 'transformParams', ms) });

          const { steps: done, text } = await run(v, mode, {
            model, system: 'You are a coding agent. Read the modules one by one.', prompt: 'Read every module of src/ and report.',
            tools: { read: readTool(executed, w.size) }, stopWhen: ai.stepCountIs(STEPS + 1),
          });

          // The loop completed, and the host's code never met the recall tool.
          assert.equal(done.length, STEPS);
          assert.equal(text, `Done after ${STEPS} steps.`);
          assert.ok(!done.some((s) => s.toolCalls.some((c) => c.toolName === 'recall') || s.content.some((c) => c.type === 'tool-error')), 'no recall call, no tool error reached the loop');
          // The recall call was answered inside the middleware: the next prompt holds its answer.
          const { recall } = loop;
          assert.ok(recall, 'the model called recall after a compaction');
          const next = seen.prompts[recall.at + 1];
          const answer = next.at(-1).content.find((p) => p.toolCallId === 'recall-1');
          assert.ok(answer.output.value.startsWith(`[Stored text ${recall.id}`), answer.output.value.slice(0, 80));
          assert.deepEqual(next.at(-2).content.map((p) => p.toolName ?? p.type), ['text', 'recall'], 'the recall turn holds the text and the recall call alone');
          // The call made beside recall was dropped, never run: the model called `read` again after reading.
          assert.ok(!executed.includes('mixed-read') && !seen.prompts.some((p) => promptText(p).includes('mixed-read')));
          assert.equal(seen.prompts.length, STEPS + 1, 'one model call per step, and one for the recall');
          assert.ok(seen.tools.every((tools) => tools.map((x) => x.name).join() === 'read,recall'), 'every call has the recall tool, after the host\'s');

          // Every prompt within budget by exact o200k, and valid; cache-stable but where the manager compacted; the usage the mock reported in the ledger.
          const { largest, compactions, share } = assertCacheStableLoop({
            prompts: seen.prompts, records, reads: seen.usage.map((u) => u.inputTokens.cacheRead), measure, problems, budget: BUDGET, compactions: w.compactions, share: w.share,
          });
          assert.ok(!warnings.some((x) => x.code === 'history-rebuilt'), 'the framework\'s history was taken in step by step');
          t.diagnostic(`${v.name} ${mode} ${w.name}: ${seen.prompts.length} calls, ${compactions} compactions, largest prompt ${largest} / ${BUDGET}, cache share ${share.toFixed(3)}, transformParams ${timing(ms)}`);
        });
      }
    }

    it('a history the host edited (an exchange removed) is taken in anew, with a warning, and the prompt is valid', async () => {
      const warnings = [];
      const executed = [];
      const { model: mock, seen } = mockModel(v.Mock, (prompt) => {
        const n = prompt.filter((m) => m.role === 'tool').length;
        return n % 4 === 3 ? [{ type: 'text', text: 'Paused.' }] : [callOf(`call-at-${prompt.length}`, 'read', { path: `src/f${prompt.length}.ts` })];
      });
      const model = ai.wrapLanguageModel({ model: mock, middleware: contextMiddleware({ budget: 50_000, countTokens: o200k, onWarning: (w) => warnings.push(w) }) });
      const tools = { read: readTool(executed) };
      const first = await ai.generateText({ model, system: 'You are a coding agent.', prompt: 'Read three files.', tools, stopWhen: ai.stepCountIs(10) });
      // ai 7 gives every step's messages as `responseMessages`; ai 6 as `response.messages`.
      const history = [{ role: 'user', content: 'Read three files.' }, ...(first.responseMessages ?? first.response.messages)];
      assert.ok(history.length >= 7, `${history.length} messages`);
      assert.equal(warnings.length, 0);
      // The second exchange goes (the SDK refuses a call without its result), and the conversation goes on.
      const removed = history.splice(3, 2);
      assert.deepEqual(removed.map((m) => m.role), ['assistant', 'tool']);
      history.push({ role: 'user', content: 'Now read one more.' });
      const calls = seen.prompts.length;
      await ai.generateText({ model, system: 'You are a coding agent.', messages: history, tools, stopWhen: ai.stepCountIs(2) });
      assert.ok(warnings.some((w) => w.code === 'history-rebuilt'), 'the manager says it took the list in anew');
      const edited = seen.prompts[calls];
      assert.deepEqual(problems(edited), []);
      const ids = edited.flatMap((m) => (Array.isArray(m.content) ? m.content.map((p) => p.toolCallId) : []));
      assert.ok(!ids.includes(removed[0].content[0].toolCallId), 'the removed exchange is not sent');
      assert.equal(edited.filter((m) => m.role !== 'system').length, history.length, 'the edited list, whole');
      assert.deepEqual(problems(seen.prompts.at(-1)), []);
    });

    it('a conversation named in providerOptions is that conversation however it was edited; the name does not reach the provider', async () => {
      const warnings = [];
      const { model: mock, seen } = mockModel(v.Mock, (prompt) => {
        const n = prompt.filter((m) => m.role === 'tool').length;
        return n % 3 === 2 ? [{ type: 'text', text: 'Paused.' }] : [callOf(`call-at-${prompt.length}`, 'read', { path: `src/f${prompt.length}.ts` })];
      });
      const model = ai.wrapLanguageModel({ model: mock, middleware: contextMiddleware({ budget: 50_000, countTokens: o200k, onWarning: (w) => warnings.push(w) }) });
      const tools = { read: readTool([], 2_000) };
      const providerOptions = { devsContext: { conversation: 'task-42' }, openai: { store: false } };
      const first = await ai.generateText({ model, prompt: 'Read two files.', tools, providerOptions, stopWhen: ai.stepCountIs(10) });
      assert.deepEqual(seen.providerOptions, seen.prompts.map(() => ({ openai: { store: false } })), 'the other options pass on, without devsContext');
      // `pruneMessages` removes every tool call and result: only the opening message is left as it was.
      const history = ai.pruneMessages({ messages: [{ role: 'user', content: 'Read two files.' }, ...(first.responseMessages ?? first.response.messages)], toolCalls: 'all' });
      assert.deepEqual(history.map((m) => m.role), ['user', 'assistant']);
      const calls = seen.prompts.length;
      await ai.generateText({ model, messages: [...history, { role: 'user', content: 'Go on.' }], tools, providerOptions, stopWhen: ai.stepCountIs(1) });
      assert.deepEqual(warnings.map((w) => w.code), ['history-rebuilt']);
      assert.deepEqual(seen.prompts[calls].map((m) => m.role), ['user', 'assistant', 'user']);
      await assert.rejects(ai.generateText({ model, prompt: 'x', providerOptions: { devsContext: { conversation: 42 } } }), (e) => e instanceof TypeError && e.field === 'providerOptions.devsContext.conversation');
    });

    it('writes the summaries with the wrapped model by default, its prefix read from the cache, and its usage the compaction cost', async () => {
      const events = [];
      const asked = [];
      const summaryCall = (prompt) => promptText(prompt.slice(-1)).includes('[Context budget] Write a summary');
      const { model: mock, seen } = mockModel(v.Mock, (prompt) => {
        if (summaryCall(prompt)) {
          asked.push(seen.prompts.length - 1);
          return [{ type: 'text', text: `### Task\nRead every module (summary ${asked.length}).` }];
        }
        const n = seen.prompts.length;
        // A chatty agent: turns of its own words, which only a summary (or a drop) takes out.
        return [{ type: 'text', text: `File ${n - 1} defines the lexer state. `.repeat(40) }, callOf(`call-${n}`, 'read', { path: `src/f${n}.ts` })];
      });
      const model = ai.wrapLanguageModel({ model: mock, middleware: contextMiddleware({ budget: 20_000, countTokens: o200k, onCompaction: (e) => events.push(e) }) });
      await ai.generateText({ model, system: 'You are a coding agent.', prompt: 'Read every module of src/.', tools: { read: readTool([], 6_000) }, stopWhen: ai.stepCountIs(45) });
      assert.ok(asked.length > 0, 'the wrapped model was asked for a summary');
      for (const i of asked) {
        const prompt = seen.prompts[i];
        const before = seen.prompts[i - 1];
        // The request it was last called with, then the instruction: the provider reads that prefix from its cache.
        assert.deepEqual(prompt.slice(0, -1), before, `summary call ${i} begins with the call before it`);
        assert.ok(seen.usage[i].inputTokens.cacheRead > 0.9 * seen.usage[i].inputTokens.total - 1000);
        assert.deepEqual(seen.tools[i], seen.tools[i - 1], "with the call's tools as they were");
      }
      const summarized = events.filter((e) => e.actions.summarized);
      assert.ok(summarized.length > 0);
      for (const e of summarized) {
        assert.ok(e.summary.usage, 'its usage is on the event');
        assert.ok(e.summary.usage.cacheRead > 0 && e.summary.usage.cost < e.summary.usage.input, `cost ${e.summary.usage.cost} of ${e.summary.usage.input}`);
      }
      const after = seen.prompts.find((p, i) => i > asked[0] && !summaryCall(p));
      assert.match(promptText(after), /summary 1\)/, 'the summary is in the next request');
    });

    it('writes none with summarizer: false, and names another model with summarizer: model', async () => {
      const run = async (summarizer) => {
        const { model: mock, seen } = mockModel(v.Mock, (prompt) => {
          const n = seen.prompts.length;
          return [{ type: 'text', text: `File ${n - 1} defines the lexer state. `.repeat(40) }, callOf(`call-${n}`, 'read', { path: `src/f${n}.ts` })];
        });
        const records = [];
        const model = ai.wrapLanguageModel({ model: mock, middleware: contextMiddleware({ budget: 20_000, countTokens: o200k, summarizer, onLedger: (r) => records.push(r) }) });
        await ai.generateText({ model, prompt: 'Read every module of src/.', tools: { read: readTool([], 6_000) }, stopWhen: ai.stepCountIs(35) });
        return { seen, records };
      };
      const none = await run(false);
      assert.ok(none.records.some((r) => r.compaction?.dropped), 'turns dropped');
      assert.ok(!none.records.some((r) => r.compaction?.summarized));
      assert.ok(none.seen.prompts.every((p) => !promptText(p.slice(-1)).includes('[Context budget]')));
      const other = mockModel(v.Mock, () => [{ type: 'text', text: 'the other model\'s summary' }]);
      const named = await run(other.model);
      assert.ok(other.seen.prompts.length > 0, 'the named model wrote the summaries');
      assert.ok(named.seen.prompts.every((p) => !promptText(p.slice(-1)).includes('[Context budget]')), 'the wrapped model wrote none');
      assert.ok(named.records.some((r) => r.compaction?.summarized));
    });

    it('a 1 MB file in the prompt passes through whole, and costs nothing at each later step', async (t) => {
      const { model: mock, seen } = mockModel(v.Mock, (prompt) => {
        const n = prompt.filter((m) => m.role === 'tool').length;
        return n === 10 ? [{ type: 'text', text: 'Seen.' }] : [callOf(`call-${n}`, 'read', { path: `src/f${n}.ts` })];
      });
      const middleware = contextMiddleware({ budget: 50_000, countTokens: o200k });
      const ms = [];
      const bytes = new Uint8Array(1_000_000).map((_, i) => (i * 31) % 251);
      await ai.generateText({
        model: ai.wrapLanguageModel({ model: mock, middleware: timed(middleware, 'transformParams', ms) }), tools: { read: readTool([], 1_000) }, stopWhen: ai.stepCountIs(20),
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in this file?' }, { type: 'file', data: bytes, mediaType: 'application/octet-stream' }] }],
      });
      assert.equal(seen.prompts.length, 11);
      for (const prompt of seen.prompts) {
        const file = prompt[0].content[1];
        const data = file.data.data ?? file.data; // ai 7: `{ type: 'data', data }`
        assert.equal(data.length, bytes.length);
      }
      // Each later call compares the messages the manager holds by their prints, not byte by byte.
      const later = ms.slice(1).sort((a, b) => a - b);
      assert.ok(later[later.length >> 1] < 50, `median ${later[later.length >> 1].toFixed(1)} ms a call`);
      t.diagnostic(`${v.name}: first call ${ms[0].toFixed(1)} ms, later calls median ${later[later.length >> 1].toFixed(2)} ms`);
    });

    it('conversations through one wrapped model do not mix, even with the same opening message', async () => {
      const warnings = [];
      const { model: mock, seen } = mockModel(v.Mock, conversationContent);
      const model = ai.wrapLanguageModel({ model: mock, middleware: contextMiddleware({ budget: 50_000, countTokens: o200k, onWarning: (w) => warnings.push(w) }) });
      const own = (who) => ai.tool({ inputSchema: ai.jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }), execute: async ({ path }) => `${who} read ${path}` });
      const talks = ['alice', 'bob', 'alice-too'].map((who) => ai.generateText({
        model, system: 'You are a coding agent.', prompt: who === 'bob' ? 'Read the files, Bob.' : 'Read the files.', tools: { read: own(who) }, stopWhen: ai.stepCountIs(10),
      }));
      const results = await Promise.all(talks);
      assertConversationsApart(results, seen, warnings);
    });

    it('bad options are a TypeError or RangeError naming the field', () => {
      const named = (kind, field) => (e) => e instanceof kind && e.field === field && e.message.includes(field);
      assert.throws(() => contextMiddleware(), named(TypeError, 'options'));
      assert.throws(() => contextMiddleware({}), named(TypeError, 'options.budget'));
      assert.throws(() => contextMiddleware({ budget: '100k' }), named(TypeError, 'options.budget'));
      assert.throws(() => contextMiddleware({ budget: 10 }), named(RangeError, 'options.budget'));
      assert.throws(() => contextMiddleware({ budget: 20_000, countTokens: 'o200k' }), named(TypeError, 'options.countTokens'));
      assert.throws(() => contextMiddleware({ budget: 20_000, store: {} }), named(TypeError, 'options.store.insertRawToolOutput'));
      assert.throws(() => contextMiddleware({ budget: 20_000, system: 42 }), named(TypeError, 'options.system'));
      assert.throws(() => contextMiddleware({ budget: 20_000, recall: 'yes' }), named(TypeError, 'options.recall'));
      assert.throws(() => contextMiddleware({ budget: 20_000, maxConversations: 0 }), named(RangeError, 'options.maxConversations'));
      assert.throws(() => contextMiddleware({ budget: 20_000, format: 'anthropic' }), named(TypeError, 'options.format'));
      assert.equal(contextMiddleware({ budget: 20_000 }).specificationVersion, 'v3');
    });

    it('a host tool named recall is refused, naming it; with recall: false it is the host\'s', async () => {
      const { model: mock, seen } = mockModel(v.Mock, () => [{ type: 'text', text: 'ok' }]);
      const tools = { recall: ai.tool({ inputSchema: ai.jsonSchema({ type: 'object' }), execute: async () => 'mine' }) };
      const wrapped = (options) => ai.wrapLanguageModel({ model: mock, middleware: contextMiddleware({ budget: 20_000, ...options }) });
      await assert.rejects(ai.generateText({ model: wrapped({}), prompt: 'hi', tools }), (e) => e instanceof TypeError && e.field === 'params.tools[0].name');
      const { text } = await ai.generateText({ model: wrapped({ recall: false }), prompt: 'hi', tools });
      assert.equal(text, 'ok');
      assert.deepEqual(seen.tools.at(-1).map((x) => x.name), ['recall']);
    });
  });
}
