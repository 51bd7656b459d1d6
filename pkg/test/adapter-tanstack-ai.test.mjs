// `@devs/context/tanstack-ai`: `contextMiddleware` in TanStack AI's own `chat()` agent loop,
// driven by a scripted provider adapter (no network). The adapter is an agent: it records
// every prompt it gets (the system prompts and the messages it is sent), answers each with
// one tool call, and once a compaction has stored an output, calls the recall tool on an id
// its prompt names. Prompts are measured as a provider reads them (each message's role and
// texts, exact o200k), as the AI SDK adapter's test does.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCacheStableLoop, measureBy, output, timed, timing, TOOL_SPACE, toolLoop } from './tool-loop.mjs';
import { pkgDir } from './type-check.mjs';

const require = createRequire(import.meta.url);
// Loaded by require: the CommonJS entry works though TanStack AI is ESM only, for it loads no TanStack code.
const { contextMiddleware } = require('@devs/context/tanstack-ai');
const { createTokenCounter } = require('@devs/context/tokenizers');
const { chat, maxIterations } = await import('@tanstack/ai');
const o200k = createTokenCounter('o200k_base');

// ---- Measuring a prompt.

const systemOf = (prompts) => prompts.map((p) => (typeof p === 'string' ? p : p.content)).join('\n\n');
function contentText(content) {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.content : `[${p.type}]`)).join('\n');
}
/** Each message as the text a provider reads: its role, then its texts, calls and results; the system prompts first. */
function chunks({ systemPrompts, messages }) {
  const out = systemPrompts.length ? [`system\n${systemOf(systemPrompts)}`] : [];
  for (const m of messages) {
    const calls = (m.toolCalls ?? []).map((c) => `\ncall ${c.function.name} ${c.id} ${c.function.arguments}`).join('');
    out.push(m.role === 'tool' ? `result ${m.toolCallId}\n${contentText(m.content)}` : `${m.role}\n${contentText(m.content)}${calls}`);
  }
  return out;
}
/** `{ tokens, prefix, extends }`: the prompt's tokens, those of the whole messages it begins with that `previous` began with too, and whether it begins with all of `previous`. */
const measure = measureBy(chunks);
/** What a provider would refuse: a call without its result, a result without its call, a role TanStack AI does not send. */
function problems({ messages }) {
  const out = [];
  const open = new Set();
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!open.delete(m.toolCallId)) out.push(`messages[${i}]: a result for ${m.toolCallId}, whose call is not before it`);
      return;
    }
    if (open.size) out.push(`messages[${i}]: ${[...open].join(', ')} without a result before it`);
    open.clear();
    if (m.role !== 'user' && m.role !== 'assistant') out.push(`messages[${i}]: role ${m.role}`);
    for (const c of m.toolCalls ?? []) open.add(c.id);
  });
  if (open.size) out.push(`${[...open].join(', ')} without a result at the end`);
  return out;
}
const promptText = (prompt) => chunks(prompt).join('\n');

// ---- The agent: a tool, the scripted provider adapter.

const readTool = (executed, size = 20_000) => ({
  name: 'read',
  description: 'Read a file of the project',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute: async ({ path }) => {
    executed.push(path);
    return output(path, size);
  },
});
const call = (id, name, input) => ({ call: { id, name, arguments: JSON.stringify(input) } });
/** A step of the tool loop's script (tool-loop.mjs) as the adapter's answer. */
function loopItems(step) {
  if (step.recall) return [{ text: step.text }, call('recall-1', 'recall', { id: step.recall })];
  if (step.done) return [{ text: step.done }];
  return [call(step.read.id, 'read', { path: step.read.path })];
}

/**
 * A TanStack AI text adapter named `name` whose `respond(prompt, seen)` says what it answers
 * (`{ text }` and `{ call }` items). It records every call's prompt and tools, and reports
 * usage as a provider with a prompt cache would: `uncachedOnly` as Anthropic does (the
 * input neither read from nor written to the cache), else the whole input, as OpenAI does.
 */
function mockAdapter(respond, { name = 'mock', uncachedOnly = false } = {}) {
  const seen = { prompts: [], tools: [], usage: [] };
  const adapter = {
    kind: 'text', name, model: 'mock-model', '~types': {},
    chatStream(options) {
      const prompt = { systemPrompts: options.systemPrompts ?? [], messages: options.messages };
      const { tokens: n, prefix } = measure(prompt, seen.prompts.at(-1));
      const whole = n + TOOL_SPACE;
      const write = whole - prefix;
      const usage = { promptTokens: uncachedOnly ? whole - prefix - write : whole, completionTokens: 20, totalTokens: whole + 20, promptTokensDetails: { cachedTokens: prefix, cacheWriteTokens: write } };
      seen.prompts.push(prompt);
      seen.tools.push(options.tools.map((t) => t.name));
      seen.usage.push(usage);
      const items = respond(prompt, seen);
      const at = Date.now();
      return (async function* () {
        yield { type: 'RUN_STARTED', runId: 'run', threadId: 'thread', timestamp: at };
        for (const [i, item] of items.entries()) {
          if (item.text !== undefined) {
            yield { type: 'TEXT_MESSAGE_START', messageId: `m${i}`, role: 'assistant', timestamp: at };
            yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${i}`, delta: item.text, timestamp: at };
            yield { type: 'TEXT_MESSAGE_END', messageId: `m${i}`, timestamp: at };
          } else {
            yield { type: 'TOOL_CALL_START', toolCallId: item.call.id, toolCallName: item.call.name, timestamp: at };
            yield { type: 'TOOL_CALL_ARGS', toolCallId: item.call.id, delta: item.call.arguments, timestamp: at };
            yield { type: 'TOOL_CALL_END', toolCallId: item.call.id, timestamp: at };
          }
        }
        const calls = items.some((x) => x.call);
        yield { type: 'RUN_FINISHED', runId: 'run', threadId: 'thread', finishReason: calls ? 'tool_calls' : 'stop', usage, timestamp: at };
      })();
    },
    structuredOutput: async () => ({ data: {}, rawText: '{}' }),
  };
  return { adapter, seen };
}

/** A middleware placed before the context's: the chat's own messages at each model call, and at the end. */
function observer() {
  const lists = [];
  let final;
  return {
    lists,
    get final() {
      return final;
    },
    middleware: { name: 'observer', onConfig: (ctx, config) => void (ctx.phase === 'beforeModel' && lists.push(config.messages)), onFinish: (ctx) => void (final = ctx.messages) },
  };
}

// ---- The tests.

describe('contextMiddleware in TanStack AI chat()', () => {
  it('a 100-step tool loop of 20 KB outputs at 20,000 tokens stays within budget, valid and cache-stable, with the recall tool answered', async (t) => {
    const loop = toolLoop(); // 100 steps at 20,000 tokens
    const { steps: STEPS, budget: BUDGET, records, warnings, executed } = loop;
    const { adapter, seen } = mockAdapter((prompt) => loopItems(loop.next(promptText(prompt), seen.prompts.length - 1)));
    const context = contextMiddleware(loop.options);
    const ms = [];
    const seenByChat = observer();

    const text = await chat({
      adapter, threadId: 'loop', stream: false, agentLoopStrategy: maxIterations(STEPS + 5),
      systemPrompts: ['You are a coding agent. Read the modules one by one.'], messages: [{ role: 'user', content: 'Read every module of src/ and report.' }],
      tools: [readTool(executed)], middleware: [seenByChat.middleware, timed(context, 'onConfig', ms)],
    });

    // The loop completed: every step's call ran, and the model's recall call was answered.
    // `stream: false` gives the text of every step, joined: the recall step's, then the last.
    assert.equal(text, `I need the output I read earlier.Done after ${STEPS} steps.`);
    assert.equal(executed.length, STEPS - 1);
    const { recall } = loop;
    assert.ok(recall, 'the model called recall after a compaction');
    assert.equal(seen.prompts.length, STEPS + 1, 'one model call per step, and one for the recall');
    const next = seen.prompts[recall.at + 1].messages;
    const answer = next.find((m) => m.role === 'tool' && m.toolCallId === 'recall-1');
    assert.ok(answer, 'the prompt after the recall call holds its answer');
    assert.ok(answer.content.startsWith(`[Stored text ${recall.id}`), answer.content.slice(0, 80));
    assert.ok(seen.tools.every((names) => names.join() === 'read,recall'), 'every call has the recall tool, after the chat\'s');

    // Every prompt within budget by exact o200k, and valid: every call with its result; cache-stable but where the manager compacted; the usage the adapter reported in the ledger.
    const { largest, compactions, share } = assertCacheStableLoop({
      prompts: seen.prompts, records, reads: seen.usage.map((u) => u.promptTokensDetails.cachedTokens), measure, problems, budget: BUDGET, compactions: 10, share: 0.6,
    });
    // Turns a compaction dropped are said to be dropped, in a message the manager wrote: a user message of the chat's shape, after the task.
    const dropping = records.filter((r) => r.compaction?.dropped);
    assert.ok(dropping.length > 0, 'a compaction dropped the oldest turns');
    for (const r of dropping) {
      const users = seen.prompts[r.request - 1].messages.filter((m) => m.role === 'user');
      assert.ok(users.length >= 2 && users.slice(1).every((m) => typeof m.content === 'string' && m.content.length > 20), `prompt ${r.request - 1}: no note for the dropped turns`);
    }
    assert.ok(!warnings.some((x) => x.code === 'history-rebuilt'), 'the chat\'s messages were taken in step by step');
    assert.equal(context.manager('loop').ledger.length, records.length);

    // The chat's own messages were never touched: every output whole, each list extending the one before.
    const lists = seenByChat.lists;
    assert.equal(lists.length, seen.prompts.length);
    lists.forEach((list, i) => i > 0 && assert.ok(lists[i - 1].every((m, j) => list[j] === m), `the chat's list ${i} was edited`));
    const results = lists.at(-1).filter((m) => m.role === 'tool' && m.toolCallId.startsWith('call-'));
    assert.equal(results.length, STEPS - 1);
    assert.ok(results.every((m) => m.content.length >= 20_000), 'every output whole in the chat\'s messages');
    t.diagnostic(`${seen.prompts.length} calls, ${compactions} compactions, largest prompt ${largest} / ${BUDGET}, cache share ${share.toFixed(3)}, onConfig ${timing(ms)}`);
  });

  it('a conversation goes on across chat() runs with the same threadId, cache-stable; an edited history is taken in anew, with a warning', async () => {
    const warnings = [];
    const { adapter, seen } = mockAdapter((prompt) => {
      const n = prompt.messages.filter((m) => m.role === 'tool').length;
      return n % 4 === 3 ? [{ text: 'Paused.' }] : [call(`call-at-${prompt.messages.length}`, 'read', { path: `src/f${prompt.messages.length}.ts` })];
    });
    const context = contextMiddleware({ budget: 50_000, countTokens: o200k, onWarning: (w) => warnings.push(w) });
    const tools = [readTool([], 2_000)];
    const run = async (messages) => {
      const seenByChat = observer();
      await chat({ adapter, threadId: 'task-42', stream: false, agentLoopStrategy: maxIterations(10), systemPrompts: ['You are a coding agent.'], messages, tools, middleware: [seenByChat.middleware, context] });
      return seenByChat.final;
    };
    const first = await run([{ role: 'user', content: 'Read three files.' }]);
    assert.deepEqual(first.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    // The next run sends the whole history again, as a server does: its first prompt extends the last one.
    const calls = seen.prompts.length;
    await run([...first, { role: 'user', content: 'Read one more.' }]);
    assert.ok(measure(seen.prompts[calls], seen.prompts[calls - 1]).extends, 'the next run\'s first prompt extends the last one');
    assert.deepEqual(warnings, []);
    // The second exchange removed: taken in anew, with a warning, and the prompt is valid.
    const history = [...first];
    const removed = history.splice(3, 2);
    const again = seen.prompts.length;
    await run([...history, { role: 'user', content: 'Now read one more.' }]);
    assert.deepEqual(warnings.map((w) => w.code), ['history-rebuilt']);
    const edited = seen.prompts[again];
    assert.deepEqual(problems(edited), []);
    assert.ok(!edited.messages.some((m) => m.toolCallId === removed[1].toolCallId), 'the removed exchange is not sent');
    assert.equal(edited.messages.length, history.length + 1);
  });

  it('usage is read as each provider reports it: Anthropic\'s promptTokens leave out the cached input', async () => {
    const respond = (prompt) => {
      const n = prompt.messages.filter((m) => m.role === 'tool').length;
      return n === 8 ? [{ text: 'Done.' }] : [call(`c${n}`, 'read', { path: `src/f${n}.ts` })];
    };
    const runWith = async (options) => {
      const { adapter, seen } = mockAdapter(respond, options);
      const context = contextMiddleware({ budget: 20_000, countTokens: o200k });
      await chat({ adapter, threadId: 'usage', stream: false, agentLoopStrategy: maxIterations(20), systemPrompts: ['sys'], messages: [{ role: 'user', content: 'Read.' }], tools: [readTool([], 4_000)], middleware: [context] });
      return { seen, manager: context.manager('usage') };
    };
    const openai = await runWith({ name: 'openai' });
    const anthropic = await runWith({ name: 'anthropic', uncachedOnly: true });
    assert.ok(anthropic.seen.usage.slice(1).every((u, i) => u.promptTokens < openai.seen.usage[i + 1].promptTokens), 'the Anthropic adapter reports less than the whole input');
    // The same whole input either way: the same calibration, the same observed cache figures.
    assert.deepEqual(anthropic.manager.calibration, openai.manager.calibration);
    assert.ok(openai.manager.calibration.samples >= 8);
    assert.deepEqual(anthropic.manager.ledger.map((r) => r.cache), openai.manager.ledger.map((r) => r.cache));
    assert.ok(Math.abs(openai.manager.calibration.overhead - TOOL_SPACE) < TOOL_SPACE, `overhead ${openai.manager.calibration.overhead}`);
  });

  it('a host tool named recall is refused, naming it; with recall: false it is the host\'s', async () => {
    const { adapter, seen } = mockAdapter(() => [{ text: 'ok' }]);
    const tools = [{ name: 'recall', description: 'mine', inputSchema: { type: 'object' }, execute: async () => 'mine' }];
    const options = { adapter, stream: false, messages: [{ role: 'user', content: 'hi' }], tools };
    await assert.rejects(chat({ ...options, middleware: [contextMiddleware({ budget: 20_000 })] }), (e) => e instanceof TypeError && e.field === 'config.tools[0].name' && e.message.includes('recall: false'));
    assert.equal(await chat({ ...options, middleware: [contextMiddleware({ budget: 20_000, recall: false })] }), 'ok');
    assert.deepEqual(seen.tools.at(-1), ['recall']);
  });

  it('bad options are a TypeError or RangeError naming the field', () => {
    const named = (kind, field) => (e) => e instanceof kind && e.field === field && e.message.includes(field);
    assert.throws(() => contextMiddleware(), named(TypeError, 'options'));
    assert.throws(() => contextMiddleware([]), named(TypeError, 'options'));
    assert.throws(() => contextMiddleware({}), named(TypeError, 'options.budget'));
    assert.throws(() => contextMiddleware({ budget: '100k' }), named(TypeError, 'options.budget'));
    assert.throws(() => contextMiddleware({ budget: 10 }), named(RangeError, 'options.budget'));
    assert.throws(() => contextMiddleware({ budget: 20_000, countTokens: 'o200k' }), named(TypeError, 'options.countTokens'));
    assert.throws(() => contextMiddleware({ budget: 20_000, highWater: 2 }), named(RangeError, 'options.highWater'));
    assert.throws(() => contextMiddleware({ budget: 20_000, recall: 'yes' }), named(TypeError, 'options.recall'));
    assert.throws(() => contextMiddleware({ budget: 20_000, maxConversations: '5' }), named(TypeError, 'options.maxConversations'));
    assert.throws(() => contextMiddleware({ budget: 20_000, maxConversations: 0 }), named(RangeError, 'options.maxConversations'));
    assert.throws(() => contextMiddleware({ budget: 20_000, onLedger: 'log' }), named(TypeError, 'options.onLedger'));
    assert.throws(() => contextMiddleware({ budget: 20_000, format: 'anthropic' }), named(TypeError, 'options.format'));
    assert.throws(() => contextMiddleware({ budget: 20_000, system: 'You are…' }), (e) => named(TypeError, 'options.system')(e) && e.message.includes('systemPrompts'));
    assert.throws(() => contextMiddleware({ budget: 20_000, budgt: 1 }), named(TypeError, 'options.budgt'));
    assert.equal(contextMiddleware({ budget: 20_000 }).name, 'devs-context');
  });

  it('a message of the wrong shape is a TypeError naming its field in TanStack AI\'s terms', async () => {
    const context = contextMiddleware({ budget: 20_000 });
    const config = (messages) => ({ messages, systemPrompts: [], tools: [] });
    const ctx = { threadId: 'shapes', phase: 'beforeModel', provider: 'mock' };
    await assert.rejects(context.onConfig(ctx, config([{ role: 'system', content: 'x' }])), (e) => e instanceof TypeError && e.field === 'messages[0].role');
    await assert.rejects(context.onConfig(ctx, config([{ role: 'user', content: 'x' }, { role: 'assistant', content: null, toolCalls: [{ id: 'a', type: 'function', function: { name: 'read' } }] }])), (e) => e instanceof TypeError && e.field === 'messages[1].toolCalls[0].function.arguments');
    await assert.rejects(context.onConfig(ctx, config([{ role: 'user', content: [{ type: 'text', text: 'x' }] }])), (e) => e instanceof TypeError && e.field === 'messages[0].content[0].content');
    // Parts pass through as the chat's own: an image is one opaque part, kept whole.
    const image = { type: 'image', source: { type: 'url', value: 'https://example.com/a.png' } };
    const user = { role: 'user', content: [{ type: 'text', content: 'What is this?' }, image] };
    const out = await context.onConfig(ctx, config([user]));
    assert.equal(out.providerMessages[0], user);
    await context.close();
    assert.equal(context.manager('shapes'), undefined);
  });

  it('the adapter loads no TanStack AI code, and the core entries never name it', () => {
    for (const file of ['tanstack-ai.cjs', 'tanstack-ai.mjs']) {
      const code = readFileSync(join(pkgDir, 'dist', file), 'utf8');
      assert.ok(!/@tanstack\//.test(code), `dist/${file} imports TanStack AI`);
    }
    for (const file of readdirSync(join(pkgDir, 'dist')).filter((f) => /^(index|slim|shell|host|glue)\b.*\.(c|m)?js$/.test(f))) {
      assert.ok(!readFileSync(join(pkgDir, 'dist', file), 'utf8').includes('tanstack'), `dist/${file} names TanStack AI`);
    }
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    assert.ok(pkg.peerDependencies['@tanstack/ai'] && pkg.peerDependenciesMeta['@tanstack/ai'].optional === true, 'an optional peer dependency');
    assert.ok(!(pkg.dependencies ?? {})['@tanstack/ai']);
  });
});
