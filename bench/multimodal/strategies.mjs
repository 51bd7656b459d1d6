// The ways bench/multimodal.mjs keeps a multimodal loop under a budget, side by side. Each
// is `{ format, append(messages), build() }`; `build()` resolves to `{ request, counted }`,
// `counted` being the strategy's own count of the request (null when it has none), so the
// count can be held against the bill. ContextManager is told of the bill (`usage`), as a
// host passes on the provider's `usage`; the peers have no such input.
import { createRequire } from 'node:module';
import { o200k, tokens } from '../cache/measure.mjs';
import { langchainStandIn, summarize, toOpenAI } from '../cache/strategies.mjs';
import { usageOf } from '../../pkg/test/media-loops.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));

/** Consecutive messages of one role as one, as an Anthropic host sends them. */
function appendMerged(history, messages) {
  for (const m of messages) {
    const last = history.at(-1);
    const blocks = (c) => (typeof c === 'string' ? [{ type: 'text', text: c }] : c);
    if (last?.role === m.role) history[history.length - 1] = { role: m.role, content: [...blocks(last.content), ...blocks(m.content)] };
    else history.push(m);
  }
}

/**
 * ContextManager in `format`, with its recall tool, an in-memory store and the same
 * stand-in summarizer as every strategy. For `ai-sdk` and `vscode`, which name no
 * provider, the host says whose model it calls (`imageTokens: 'anthropic'`, the bill's).
 */
export function contextManager({ format, budget, system, vscode, options = {} }) {
  const { ContextManager, MemoryStateRepository } = require('@devs/context');
  const store = new MemoryStateRepository();
  const imageTokens = format === 'ai-sdk' || format === 'vscode' ? { imageTokens: 'anthropic' } : {};
  const manager = new ContextManager({ format, budget, system, countTokens: o200k, summarizer: summarize, store, recall: true, vscode, ...imageTokens, ...options });
  return {
    format,
    manager,
    store,
    append(messages) {
      manager.append(messages);
    },
    async build() {
      const request = await manager.build();
      return { request, counted: request.tokens };
    },
    usage(billedTokens) {
      manager.recordUsage(usageOf(format, billedTokens));
    },
    free() {
      manager.free();
    },
  };
}

/**
 * Anthropic's computer-use reference loop (anthropic-quickstarts, computer_use_demo/loop.py,
 * `_maybe_filter_to_n_most_recent_images`): of the images inside `tool_result` blocks, all
 * but the newest `keep` are deleted, in place and with no placeholder, a multiple of
 * `keep` at a time so the cache breaks seldom (`only_n_most_recent_images = 3`, the demo's
 * default, which is also the chunk). Nothing else is bounded. It counts nothing.
 */
export function anthropicReference({ system, keep = 3 }) {
  const history = [];
  return {
    format: 'anthropic',
    append(messages) {
      appendMerged(history, messages);
    },
    build() {
      const results = history.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : []));
      const total = results.reduce((n, r) => n + (Array.isArray(r.content) ? r.content.filter((c) => c.type === 'image').length : 0), 0);
      let remove = total - keep;
      remove -= remove % keep;
      for (const r of results) {
        if (!Array.isArray(r.content) || remove <= 0) continue;
        r.content = r.content.filter((c) => c.type !== 'image' || remove-- <= 0);
      }
      // A deep copy: the request is what was sent, the history goes on changing.
      return { request: { system, messages: structuredClone(history) }, counted: null };
    },
  };
}

/**
 * LangChain.js v1's `summarizationMiddleware` with its own default counter,
 * `countTokensApproximately` (characters / 4 of the text blocks; an image or a file counts
 * nothing): trigger at 85% of the budget, keep 25% of it, the stand-in summarizer as its
 * model. It runs as `createAgent` runs it (see bench/cache/strategies.mjs's
 * `langchainSummarization`), in Chat Completions messages.
 */
export function langchainSummarization({ budget, system }) {
  const { summarizationMiddleware, countTokensApproximately } = require('langchain');
  const fromLangchain = createRequire(require.resolve('langchain'));
  const { messagesStateReducer } = fromLangchain('@langchain/langgraph');
  const { interopParse } = fromLangchain('@langchain/core/utils/types');
  const { coerceMessageLikeToMessage } = require('@langchain/core/messages');
  const { model } = langchainStandIn(budget);
  const middleware = summarizationMiddleware({ model, trigger: { tokens: 0.85 * budget }, keep: { fraction: 0.25 } });
  const hook = typeof middleware.beforeModel === 'function' ? middleware.beforeModel : middleware.beforeModel.hook;
  const runtime = Object.freeze({ context: Object.freeze(interopParse(middleware.contextSchema, {})) });
  const systemMessage = coerceMessageLikeToMessage({ role: 'system', content: system });
  let messages = [];
  return {
    format: 'openai-chat',
    append(list) {
      messages = messagesStateReducer(messages, list.map((m) => coerceMessageLikeToMessage(m)));
    },
    async build() {
      const update = await hook({ messages }, runtime);
      if (update?.messages) messages = messagesStateReducer(messages, update.messages);
      return {
        request: { messages: [{ role: 'system', content: system }, ...messages.map(toOpenAI)] },
        counted: countTokensApproximately([systemMessage, ...messages]),
      };
    },
  };
}

/** An AI SDK message's text, as a host counting with a tokenizer would read it: its text parts and tool inputs and text outputs; media parts count nothing. */
function aiSdkText(m) {
  if (typeof m.content === 'string') return m.content;
  return m.content.map((p) => {
    if (p.type === 'text' || p.type === 'reasoning') return p.text;
    if (p.type === 'tool-call') return JSON.stringify(p.input);
    if (p.type === 'tool-result') return p.output.type === 'content' ? p.output.value.map((v) => (v.type === 'text' ? v.text : '')).join('\n') : JSON.stringify(p.output.value);
    return '';
  }).join('\n');
}

/**
 * The AI SDK's `pruneMessages` (reasoning and tool calls kept only in the newest messages),
 * then the oldest messages dropped until the request's text fits, counted exactly by o200k:
 * the SDK has no counter, and no AI SDK helper counts an image, so one counts nothing here.
 */
export function aiSdkPrune({ budget, system }) {
  const { pruneMessages } = require('ai');
  const history = [];
  return {
    format: 'ai-sdk',
    append(messages) {
      history.push(...messages);
    },
    build() {
      const pruned = pruneMessages({ messages: history, reasoning: 'before-last-message', toolCalls: 'before-last-2-messages', emptyMessages: 'remove' });
      const sizes = pruned.map((m) => tokens(aiSdkText(m)));
      let total = tokens(system) + sizes.reduce((a, b) => a + b, 0);
      let from = 0;
      while (from < pruned.length - 1 && (total > budget || pruned[from].role === 'tool')) total -= sizes[from++];
      return { request: { messages: [{ role: 'system', content: system }, ...pruned.slice(from)] }, counted: total };
    },
  };
}

/** Every strategy, by the name the table prints: ContextManager in each format, then the peers. */
export const STRATEGIES = {
  'ContextManager, anthropic': (o) => contextManager({ ...o, format: 'anthropic' }),
  'ContextManager, openai-responses': (o) => contextManager({ ...o, format: 'openai-responses' }),
  'ContextManager, openai-chat': (o) => contextManager({ ...o, format: 'openai-chat' }),
  'ContextManager, ai-sdk': (o) => contextManager({ ...o, format: 'ai-sdk' }),
  'ContextManager, vscode': (o) => contextManager({ ...o, format: 'vscode' }),
  'ContextManager, gemini': (o) => contextManager({ ...o, format: 'gemini' }),
  "Anthropic's reference (3 newest, in 3s)": anthropicReference,
  'LangChain summarization, approx. count': langchainSummarization,
  'AI SDK pruneMessages + trim': aiSdkPrune,
};

export { o200k };
