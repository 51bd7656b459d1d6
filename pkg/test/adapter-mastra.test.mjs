// `@devs/context/mastra`: `contextProcessor` in a real Mastra `Agent`, with a mock model
// (the AI SDK's `MockLanguageModelV3`, which Mastra runs as any AI SDK model). The mock is
// an agent: it records every prompt it gets, answers each with one tool call, and once a
// compaction has stored an output, calls the recall tool on an id its prompt names. Prompts
// are measured as a provider reads them (each message's role and part texts, exact o200k),
// as the AI SDK adapter's test does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV3 } from 'ai/test';
import { jsonSchema } from 'ai';

const require = createRequire(import.meta.url);
const { contextProcessor } = require('@devs/context/mastra');
const { createTokenCounter } = require('@devs/context/tokenizers');
const o200k = createTokenCounter('o200k_base');

import { assertConversationsApart, callOf, conversationContent, json, loopContent, measure, mockModel as aiSdkMock, output, problems, promptText } from './ai-sdk-model.mjs';
import { assertCacheStableLoop, timed, timing, toolLoop } from './tool-loop.mjs';
import { pkgDir } from './type-check.mjs';

/** The AI SDK's mock model of version 3, the one Mastra runs. */
const mockModel = (respond) => aiSdkMock(MockLanguageModelV3, respond);

/** The agent's `read` tool, as an AI SDK tool (Mastra runs those as its own). */
const readTool = (executed, size = 20_000) => ({
  description: 'Read a file of the project',
  inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
  execute: async ({ path }, context) => {
    executed.push(context?.toolCallId);
    return output(path, size);
  },
});

/** Runs the agent with `generate` or `stream`; its steps, text and response messages. */
async function run(agent, mode, prompt, options) {
  if (mode === 'generate') {
    const r = await agent.generate(prompt, options);
    return { steps: r.steps, text: r.text, messages: r.response?.messages ?? [] };
  }
  const s = await agent.stream(prompt, options);
  for await (const part of s.fullStream) if (part.type === 'error') throw part.payload?.error ?? part;
  return { steps: await s.steps, text: await s.text, messages: (await s.response)?.messages ?? [] };
}

const SYSTEM = 'You are a coding agent. Read the modules one by one.';
const TASK = 'Read every module of src/ and report.';

// ---- The tests.

describe('contextProcessor in a Mastra Agent', () => {
  for (const mode of ['generate', 'stream']) {
    it(`${mode}: a 100-step tool loop of 20 KB outputs at 20,000 tokens stays within budget, valid and cache-stable, with the recall tool answered`, async (t) => {
      const loop = toolLoop(); // 100 steps at 20,000 tokens
      const { steps: STEPS, budget: BUDGET, records, warnings, executed } = loop;
      const { model, seen } = mockModel((prompt) => loopContent(loop.next(promptText(prompt), seen.prompts.length - 1)));
      const processor = contextProcessor(loop.options);
      const ms = [];
      const agent = new Agent({ id: 'coder', name: 'Coder', instructions: SYSTEM, model, tools: { read: readTool(executed) }, inputProcessors: [timed(processor, 'processLLMRequest', ms)] });

      const done = await run(agent, mode, TASK, { maxSteps: STEPS + 5 });

      // The loop completed: one model call per step, the recall's included.
      assert.ok(done.text.endsWith(`Done after ${STEPS} steps.`), done.text.slice(-80));
      assert.equal(seen.prompts.length, STEPS + 1, 'one model call per step, and one for the recall');
      assert.equal(done.steps.length, STEPS + 1);
      // The recall tool was on every call, after the agent's, and its call was answered: the next prompt holds the stored text.
      assert.ok(seen.tools.every((tools) => tools.map((x) => x.name).join() === 'read,recall'), 'every call has the recall tool, after the agent\'s');
      const { recall } = loop;
      assert.ok(recall, 'the model called recall after a compaction');
      const next = seen.prompts[recall.at + 1];
      const results = next.filter((m) => m.role === 'tool').flatMap((m) => m.content);
      const answer = results.find((p) => p.toolCallId === 'recall-1');
      assert.ok(answer, 'the recall call has its result in the next prompt');
      assert.ok(answer.output.value.startsWith(`[Stored text ${recall.id}`), answer.output.value.slice(0, 120));
      assert.ok(results.some((p) => p.toolCallId === 'mixed-read'), 'the call made beside recall has its result too');
      // Every read the model asked for ran.
      assert.equal(executed.length, STEPS, `${executed.length} reads ran`);

      // Every prompt within budget by exact o200k, and valid; cache-stable but where the manager compacted; the usage the mock reported in the ledger.
      const { largest, compactions, share } = assertCacheStableLoop({
        prompts: seen.prompts, records, reads: seen.usage.map((u) => u.inputTokens.cacheRead), measure, problems, budget: BUDGET, compactions: 10, share: 0.6,
      });
      // Every tool call has its result.
      for (const id of executed.filter((x) => x !== undefined)) {
        for (const [i, p] of seen.prompts.entries()) {
          const calls = p.flatMap((m) => (m.role === 'assistant' ? m.content.filter((c) => c.type === 'tool-call' && c.toolCallId === id) : []));
          const answers = p.flatMap((m) => (m.role === 'tool' ? m.content.filter((c) => c.toolCallId === id) : []));
          assert.equal(calls.length, answers.length, `prompt ${i}: call ${id} and its result go together`);
        }
      }
      assert.ok(!warnings.some((x) => x.code === 'history-rebuilt'), 'the agent\'s list was taken in step by step');
      // What the agent keeps is whole: only what the model is sent is bounded.
      const kept = done.messages.flatMap((m) => (m.role === 'tool' ? m.content : [])).filter((p) => p.toolName === 'read');
      if (kept.length) assert.ok(kept.every((p) => json(p.output.value ?? p.output).length >= 20_000), 'the agent\'s own tool results are whole');
      t.diagnostic(`${mode}: ${seen.prompts.length} calls, ${compactions} compactions, largest prompt ${largest} / ${BUDGET}, cache share ${share.toFixed(3)}, processLLMRequest ${timing(ms)}, mean ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(2)} ms`);
    });
  }

  it('without the processor, the same loop overflows the budget (the measure can fail)', async () => {
    let steps = 0;
    const { model, seen } = mockModel(() => (++steps === 10 ? [{ type: 'text', text: 'Done.' }] : [callOf(`call-${steps}`, 'read', { path: `src/module${steps}.ts` })]));
    const agent = new Agent({ id: 'bare', name: 'Bare', instructions: SYSTEM, model, tools: { read: readTool([]) } });
    await run(agent, 'generate', TASK, { maxSteps: 20 });
    const largest = Math.max(...seen.prompts.map((p) => measure(p).tokens));
    assert.ok(largest > 20_000, `largest prompt ${largest}`);
  });

  it("summarizes with the step's own model by default, its prefix read from the cache", async () => {
    const asked = [];
    const events = [];
    const summaryCall = (prompt) => promptText(prompt.slice(-1)).includes('[Context budget] Write a summary');
    const { model, seen } = mockModel((prompt) => {
      if (summaryCall(prompt)) {
        asked.push(seen.prompts.length - 1);
        return [{ type: 'text', text: `### Task\nRead every module (summary ${asked.length}).` }];
      }
      const n = seen.prompts.length;
      return [{ type: 'text', text: `File ${n - 1} defines the lexer state. `.repeat(40) }, callOf(`call-${n}`, 'read', { path: `src/f${n}.ts` })];
    });
    const agent = new Agent({ id: 'coder', name: 'Coder', instructions: SYSTEM, model, tools: { read: readTool([], 6_000) }, inputProcessors: [contextProcessor({ budget: 20_000, countTokens: o200k, onCompaction: (e) => events.push(e) })] });
    await agent.generate(TASK, { maxSteps: 40 });
    assert.ok(asked.length > 0, 'the model was asked for a summary');
    for (const i of asked) {
      assert.ok(measure(seen.prompts[i], seen.prompts[i - 1]).extends, `summary call ${i} extends the call before it`);
      assert.ok(seen.usage[i].inputTokens.cacheRead > 0);
    }
    assert.ok(events.some((e) => e.actions.summarized && e.summary.usage?.cacheRead > 0), 'its usage is the compaction cost');
  });

  it('a later run that sends the history again goes on in the same conversation, its prompt extending the last one', async () => {
    const warnings = [];
    const records = [];
    const { model, seen } = mockModel((prompt, { prompts }) => [{ type: 'text', text: `Reply ${prompts.length}.` }]);
    const agent = new Agent({ id: 'coder', name: 'Coder', instructions: SYSTEM, model, inputProcessors: [contextProcessor({ budget: 50_000, countTokens: o200k, summarizer: false, onWarning: (w) => warnings.push(w), onLedger: (r) => records.push(r) })] });
    const history = [{ role: 'user', content: TASK }];
    for (const next of ['Go on.', 'And the tests?', 'Thanks.']) {
      const r = await agent.generate(history);
      history.push(...r.response.messages, { role: 'user', content: next });
    }
    assert.equal(seen.prompts.length, 3);
    assert.deepEqual(warnings, []);
    for (let i = 1; i < 3; i++) assert.ok(measure(seen.prompts[i], seen.prompts[i - 1]).extends, `run ${i + 1}'s prompt extends run ${i}'s`);
    assert.deepEqual(records.map((r) => r.request), [1, 2, 3], 'one manager: its ledger goes on');
  });

  it('a history Mastra rewrote (a run\'s steps merged when sent again) is taken in whole, valid', async () => {
    const { model, seen } = mockModel((prompt) => {
      const n = prompt.filter((m) => m.role === 'tool').length;
      return n % 3 === 2 ? [{ type: 'text', text: 'Paused.' }] : [callOf(`call-at-${prompt.length}`, 'read', { path: `src/f${prompt.length}.ts` })];
    });
    const agent = new Agent({ id: 'coder', name: 'Coder', instructions: SYSTEM, model, tools: { read: readTool([], 20_000) }, inputProcessors: [contextProcessor({ budget: 20_000, countTokens: o200k, summarizer: false })] });
    const first = await agent.generate(TASK, { maxSteps: 10 });
    const calls = seen.prompts.length;
    await agent.generate([{ role: 'user', content: TASK }, ...first.response.messages, { role: 'user', content: 'Go on.' }], { maxSteps: 10 });
    assert.ok(seen.prompts.length > calls);
    seen.prompts.forEach((p, i) => {
      assert.deepEqual(problems(p), [], `prompt ${i}`);
      assert.ok(measure(p).tokens <= 20_000, `prompt ${i}: ${measure(p).tokens} tokens`);
    });
    const ids = (p) => p.flatMap((m) => (m.role === 'assistant' ? m.content.filter((c) => c.type === 'tool-call').map((c) => c.toolCallId) : []));
    assert.ok(ids(first.response.messages).every((id) => ids(seen.prompts[calls]).includes(id)), 'every call of the first run is in the second run\'s prompt');
  });

  it('runs with the same opening message do not mix', async () => {
    const warnings = [];
    const { model, seen } = mockModel(conversationContent);
    const processor = contextProcessor({ budget: 50_000, countTokens: o200k, summarizer: false, onWarning: (w) => warnings.push(w) });
    const own = (who) => ({ description: 'Read', inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }), execute: async ({ path }) => `${who} read ${path}` });
    const runs = ['alice', 'bob', 'carol'].map((who) => new Agent({ id: who, name: who, instructions: SYSTEM, model, tools: { read: own(who) }, inputProcessors: [processor] }).generate(TASK, { maxSteps: 10 }));
    const results = await Promise.all(runs);
    assertConversationsApart(results, seen, warnings);
  });

  it('bad options are a TypeError or RangeError naming the field', () => {
    const named = (kind, field) => (e) => e instanceof kind && e.field === field && e.message.includes(field);
    assert.throws(() => contextProcessor(), named(TypeError, 'options'));
    assert.throws(() => contextProcessor([]), named(TypeError, 'options'));
    assert.throws(() => contextProcessor({}), named(TypeError, 'options.budget'));
    assert.throws(() => contextProcessor({ budget: '100k' }), named(TypeError, 'options.budget'));
    assert.throws(() => contextProcessor({ budget: 10 }), named(RangeError, 'options.budget'));
    assert.throws(() => contextProcessor({ budget: 20_000, countTokens: 'o200k' }), named(TypeError, 'options.countTokens'));
    assert.throws(() => contextProcessor({ budget: 20_000, store: {} }), named(TypeError, 'options.store.insertRawToolOutput'));
    assert.throws(() => contextProcessor({ budget: 20_000, system: 42 }), named(TypeError, 'options.system'));
    assert.throws(() => contextProcessor({ budget: 20_000, recall: 'yes' }), named(TypeError, 'options.recall'));
    assert.throws(() => contextProcessor({ budget: 20_000, maxConversations: 0 }), named(RangeError, 'options.maxConversations'));
    assert.throws(() => contextProcessor({ budget: 20_000, maxConversations: '9' }), named(TypeError, 'options.maxConversations'));
    assert.throws(() => contextProcessor({ budget: 20_000, format: 'anthropic' }), named(TypeError, 'options.format'));
    assert.equal(contextProcessor({ budget: 20_000 }).id, 'devs-context');
  });

  it('an agent tool named recall is refused, naming it; with recall: false it is the agent\'s', async () => {
    const { model, seen } = mockModel(() => [{ type: 'text', text: 'ok' }]);
    const tools = { recall: { description: 'mine', inputSchema: jsonSchema({ type: 'object' }), execute: async () => 'mine' } };
    const agent = (options) => new Agent({ id: 'a', name: 'a', instructions: SYSTEM, model, tools, inputProcessors: [contextProcessor({ budget: 20_000, ...options })] });
    // Mastra reports a processor's error as its own (a MastraError), with the processor's message.
    const refused = await agent({}).generate('hi').then((r) => r.error ?? r, (e) => e);
    assert.match(String(refused?.message), /tools\.recall is a tool of the agent's named 'recall'/);
    assert.equal(seen.prompts.length, 0, 'no model call was made');
    const { text } = await agent({ recall: false }).generate('hi');
    assert.equal(text, 'ok');
    assert.deepEqual(seen.tools.at(-1).map((x) => [x.name, x.description]), [['recall', 'mine']]);
  });

  it('the entry loads no Mastra, and the core entry no adapter', () => {
    for (const file of ['mastra.mjs', 'mastra.cjs']) assert.doesNotMatch(readFileSync(join(pkgDir, 'dist', file), 'utf8'), /@mastra\//, `dist/${file}`);
    for (const file of ['index.mjs', 'index.cjs', 'index.browser.mjs']) assert.doesNotMatch(readFileSync(join(pkgDir, 'dist', file), 'utf8'), /@mastra\/|adapters\/mastra/, `dist/${file}`);
  });
});
