// The AI SDK's own loop, `generateText` with tools and `stopWhen`, one call per user input
// of a recorded session, the history carried from call to call as a host carries it (its
// `response.messages`). The model is the SDK's `MockLanguageModelV3`, answering each step
// with the recorded turn; each tool's `execute` returns the recorded result.
import { createRequire } from 'node:module';
import { SYSTEM, o200k, outputsById, providerTurns, summarize, timed, userTurns, version } from './common.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const ai = require('ai');
const { MockLanguageModelV3 } = require('ai/test');
const { contextMiddleware } = require('@devs/context/ai-sdk');

export const framework = `AI SDK (ai ${version('ai')})`;

/** `pruneMessages` as the SDK's reference shows it: reasoning and tool calls kept only in the newest messages. */
const prune = (messages) => ai.pruneMessages({ messages, reasoning: 'before-last-message', toolCalls: 'before-last-2-messages', emptyMessages: 'remove' });

/** Our middleware, its `transformParams` and `wrapGenerate` (less the model's own call) timed as one step. */
function ours(budget, ms) {
  const m = contextMiddleware({ budget, countTokens: o200k, summarizer: summarize });
  const step = [];
  return {
    middleware: {
      ...m,
      transformParams: (o) => timed(step, () => m.transformParams(o)),
      wrapGenerate: (o) => timed(step, (inner) => m.wrapGenerate({ ...o, doGenerate: inner(o.doGenerate) }))
        .finally(() => ms.push(step.splice(0).reduce((a, b) => a + b, 0))),
    },
  };
}

/** `[name, budgeted, setup(budget, ms)]`: ours first, the SDK's own means after. */
export const strategies = [
  ['ours: contextMiddleware (wrapLanguageModel)', true, ours],
  ['pruneMessages in prepareStep (its reference options)', false, (budget, ms) => ({ prepareStep: ({ messages }) => timed(ms, async () => ({ messages: prune(messages) })) })],
  ['nothing (every message sent)', false, () => ({})],
];

/**
 * A recorded session as an AI SDK agent: `MockLanguageModelV3` answering each step with the
 * recorded turn (`see` measures each prompt), and tools whose `execute` returns the
 * recorded result of its call. Mastra runs the same model and tools as its own.
 */
export function recordedAgent(session, see) {
  const turns = providerTurns(session, 'ai-sdk');
  const outputs = outputsById(session, 'ai-sdk');
  const names = new Set(turns.flatMap((t) => t.response[0].content.filter((p) => p.type === 'tool-call').map((p) => p.toolName)));
  const tools = Object.fromEntries([...names].map((name) => [name, {
    description: name,
    inputSchema: ai.jsonSchema({ type: 'object', additionalProperties: true }),
    execute: async (_, context) => outputs.get(context?.toolCallId) ?? '',
  }]));
  let t = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const { tokens, prefix } = see({ messages: prompt });
      const content = turns[t++].response[0].content.map((p) => (p.type === 'tool-call' ? { ...p, input: JSON.stringify(p.input) } : p));
      const calls = content.some((p) => p.type === 'tool-call');
      return {
        content,
        finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
        usage: { inputTokens: { total: tokens, noCache: tokens - prefix, cacheRead: prefix, cacheWrite: tokens - prefix }, outputTokens: { total: 20, text: 20, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  return { model, tools, calls: () => t };
}

/** One session through `generateText`, with `setup`'s middleware or `prepareStep`; `see` measures each prompt. */
export async function run(session, { middleware, prepareStep }, see) {
  const { model: mock, tools, calls } = recordedAgent(session, see);
  const model = middleware ? ai.wrapLanguageModel({ model: mock, middleware }) : mock;
  const messages = [];
  for (const { input, turns: steps } of userTurns(session)) {
    messages.push({ role: 'user', content: input });
    const result = await ai.generateText({ model, system: SYSTEM, messages, tools, prepareStep, stopWhen: ai.stepCountIs(steps.length) });
    messages.push(...(result.responseMessages ?? result.response.messages));
  }
  return calls();
}
