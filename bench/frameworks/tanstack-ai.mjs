// TanStack AI's own loop, `chat()` with tools and `maxIterations`, one call per user input
// of a recorded session, the chat's messages carried from call to call (its final
// messages, as a middleware sees them at `onFinish`). The provider is a text adapter of the
// bench's (TanStack AI's adapter interface, no network) streaming each call's recorded turn;
// each tool's `execute` returns the recorded result of its call. TanStack AI has no means of
// its own to bound a context by tokens: the bench has ours and nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SYSTEM, o200k, outputsById, providerTurns, summarize, timed, userTurns, version } from './common.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
// TanStack AI is ESM only, and installed beside the package: imported by its entry's path.
const tanstack = new URL('../../pkg/node_modules/@tanstack/ai/', import.meta.url);
const { chat, maxIterations } = await import(new URL(JSON.parse(readFileSync(new URL('package.json', tanstack), 'utf8')).exports['.'].import, tanstack).href);
const { contextMiddleware } = require('@devs/context/tanstack-ai');

export const framework = `TanStack AI (@tanstack/ai ${version('@tanstack/ai')})`;

/** Our middleware, its `onConfig` and `onUsage` timed as one step per model call. */
function ours(budget, ms) {
  const m = contextMiddleware({ budget, countTokens: o200k, summarizer: summarize });
  const step = [];
  return {
    middleware: [{
      ...m,
      onConfig: (ctx, config) => timed(step, () => m.onConfig(ctx, config)),
      onUsage: (ctx, usage) => timed(step, () => m.onUsage(ctx, usage)).finally(() => ms.push(step.splice(0).reduce((a, b) => a + b, 0))),
    }],
  };
}

/** `[name, budgeted, setup(budget, ms)]`: ours, and TanStack AI with nothing. */
export const strategies = [
  ['ours: contextMiddleware (chat middleware)', true, ours],
  ['nothing (every message sent)', false, () => ({ middleware: [] })],
];

const text = (content) => (typeof content === 'string' ? content : (content ?? []).map((p) => (p.type === 'text' ? p.content : `[${p.type}]`)).join('\n'));

/** A TanStack AI message as the OpenAI Chat message bench/cache/measure.mjs reads. */
function openai(m) {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: text(m.content) };
  return { role: m.role, content: text(m.content), ...(m.toolCalls?.length ? { tool_calls: m.toolCalls } : {}) };
}

/** One session through `chat()`, with `setup`'s middleware; `see` measures each prompt. */
export async function run(session, { middleware }, see) {
  const turns = providerTurns(session, 'openai-chat');
  const outputs = outputsById(session, 'openai-chat');
  const names = new Set(turns.flatMap((t) => (t.response[0].tool_calls ?? []).map((c) => c.function.name)));
  const tools = [...names].map((name) => ({
    name,
    description: name,
    inputSchema: { type: 'object', properties: {}, additionalProperties: true },
    execute: async (_, context) => outputs.get(context?.toolCallId) ?? '',
  }));
  let t = 0;
  const adapter = {
    kind: 'text', name: 'scripted', model: 'scripted', '~types': {},
    chatStream(options) {
      const { tokens, prefix } = see({ system: (options.systemPrompts ?? []).map((p) => (typeof p === 'string' ? p : p.content)).join('\n\n'), messages: options.messages.map(openai) });
      const { content, tool_calls: calls = [] } = turns[t++].response[0];
      const usage = { promptTokens: tokens, completionTokens: 20, totalTokens: tokens + 20, promptTokensDetails: { cachedTokens: prefix, cacheWriteTokens: tokens - prefix } };
      const at = Date.now();
      return (async function* () {
        yield { type: 'RUN_STARTED', runId: `run-${t}`, threadId: session.name, timestamp: at };
        if (content) {
          yield { type: 'TEXT_MESSAGE_START', messageId: `m${t}`, role: 'assistant', timestamp: at };
          yield { type: 'TEXT_MESSAGE_CONTENT', messageId: `m${t}`, delta: content, timestamp: at };
          yield { type: 'TEXT_MESSAGE_END', messageId: `m${t}`, timestamp: at };
        }
        for (const c of calls) {
          yield { type: 'TOOL_CALL_START', toolCallId: c.id, toolCallName: c.function.name, timestamp: at };
          yield { type: 'TOOL_CALL_ARGS', toolCallId: c.id, delta: c.function.arguments, timestamp: at };
          yield { type: 'TOOL_CALL_END', toolCallId: c.id, timestamp: at };
        }
        yield { type: 'RUN_FINISHED', runId: `run-${t}`, threadId: session.name, finishReason: calls.length ? 'tool_calls' : 'stop', usage, timestamp: at };
      })();
    },
    structuredOutput: async () => ({ data: {}, rawText: '{}' }),
  };
  let messages = [];
  let final;
  const keep = { name: 'bench-history', onFinish: (ctx) => void (final = ctx.messages) };
  for (const { input, turns: steps } of userTurns(session)) {
    final = undefined;
    await chat({
      adapter, threadId: session.name, stream: false, agentLoopStrategy: maxIterations(steps.length),
      systemPrompts: [SYSTEM], messages: [...messages, { role: 'user', content: input }], tools, middleware: [keep, ...middleware],
    });
    if (!final) throw new Error(`chat() ended without its messages (${session.name})`);
    messages = final;
  }
  return t;
}
