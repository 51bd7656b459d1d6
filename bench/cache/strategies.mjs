// The four ways to keep a long session under a budget that bench/cache.mjs compares. Each
// is `{ format, append(messages), build() }`: the host appends what it sent and received,
// and builds a request `{ system?, messages }` before each model call. Peers count with
// the same exact o200k counter the measure uses, so each is held to the same budget.
import { createRequire } from 'node:module';
import { chunks, o200k, tokens } from './measure.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));

/**
 * A deterministic stand-in for an LLM summary, the same for every strategy: the head and
 * tail of what it is given, about 1,500 tokens.
 */
export function summarize(text) {
  const head = text.slice(0, 3000);
  const tail = text.length > 6000 ? text.slice(-3000) : text.slice(3000, 6000);
  return `Summary of the work so far:\n${head}\n…\n${tail}`;
}

const blocks = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);
const requestTokens = (request) => chunks(request).reduce((n, c) => n + tokens(c), 0);

/**
 * Claude Code-like auto-compact (Anthropic messages): append until the request passes 83.5%
 * of the budget, then summarize everything but the newest turns that fit in 20% of it.
 * The summary opens the next request as a user message; a single huge result is kept whole.
 */
export function autoCompact({ budget, system }) {
  let summary = null;
  let kept = [];
  const request = () => ({ system, messages: summary === null ? kept : [{ role: 'user', content: summary }, ...kept] });
  // Where the kept turns may start: an assistant message, so the summary (a user message) comes before it.
  const starts = () => kept.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  return {
    format: 'anthropic',
    append(messages) {
      // As a Claude Code-like host does: one user turn of its results and the next input.
      for (const m of messages) {
        const last = kept.at(-1);
        if (last?.role === m.role) kept[kept.length - 1] = { role: m.role, content: [...blocks(last.content), ...blocks(m.content)] };
        else kept.push(m);
      }
    },
    build() {
      if (requestTokens(request()) <= 0.835 * budget) return request();
      const candidates = starts();
      let from = candidates.at(-1) ?? kept.length;
      for (const i of [...candidates].reverse()) {
        if (requestTokens({ messages: kept.slice(i) }) > 0.2 * budget) break;
        from = i;
      }
      const gone = chunks({ messages: summary === null ? kept.slice(0, from) : [{ role: 'user', content: summary }, ...kept.slice(0, from)] });
      summary = summarize(gone.join('\n'));
      kept = kept.slice(from);
      return request();
    },
  };
}

/**
 * The Vercel AI SDK's `pruneMessages` (reasoning and tool calls kept only in the newest
 * messages, empty messages removed), then the oldest messages dropped until the request
 * fits: a tool message goes with the call before it, and the request never opens on one.
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
      const sizes = pruned.map((m) => tokens(chunks({ messages: [m] })[0]));
      let total = tokens(`system\n${system}`) + sizes.reduce((a, b) => a + b, 0);
      let from = 0;
      while (from < pruned.length - 1 && (total > budget || pruned[from].role === 'tool')) total -= sizes[from++];
      return { messages: [{ role: 'system', content: system }, ...pruned.slice(from)] };
    },
  };
}

/**
 * LangChain.js `trimMessages` (`strategy: 'last'`, starting on a human message, ending on
 * a human or tool one, the system message kept) with an exact o200k counter over each
 * message's content and calls. `trimMessages` counts every shorter prefix of the history
 * in turn until one fits, so the counter is memoized per text and per calls array, as a
 * careful user would write it; without that, one build of a long session takes minutes.
 * Messages go in as OpenAI Chat Completions messages and come back out as them.
 */
export function langchainTrim({ budget, system }) {
  const { coerceMessageLikeToMessage, trimMessages } = require('@langchain/core/messages');
  const history = [coerceMessageLikeToMessage({ role: 'system', content: system })];
  const callTokens = new WeakMap();
  const count = (m) => {
    let n = tokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
    if (m.tool_calls?.length) {
      if (!callTokens.has(m.tool_calls)) callTokens.set(m.tool_calls, o200k(JSON.stringify(m.tool_calls)));
      n += callTokens.get(m.tool_calls);
    }
    return n;
  };
  const tokenCounter = (messages) => messages.reduce((n, m) => n + count(m), 0);
  return {
    format: 'openai-chat',
    append(messages) {
      for (const m of messages) history.push(coerceMessageLikeToMessage(m));
    },
    async build() {
      const trimmed = await trimMessages(history, { maxTokens: budget, tokenCounter, strategy: 'last', startOn: 'human', endOn: ['human', 'tool'], includeSystem: true });
      // Past the budget with no human message to start on, it returns `[undefined]`.
      return { messages: trimmed.filter(Boolean).map(toOpenAI) };
    },
  };
}

/** A LangChain message as the OpenAI Chat Completions message it stands for. */
export function toOpenAI(m) {
  switch (m.getType()) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'human':
      return { role: 'user', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    default: {
      const out = { role: 'assistant', content: m.content || null };
      if (m.tool_calls?.length) out.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
      return out;
    }
  }
}

/**
 * A LangChain chat model that stands in for both models LangChain's middleware asks for:
 * invoked, it answers `summarize(prompt)`, the same stand-in every strategy gets; its
 * `profile.maxInputTokens` is the budget, for limits given as a fraction; and it counts
 * messages exactly (`getNumTokensFromMessages`, which `contextEditingMiddleware` uses with
 * `tokenCountMethod: 'model'`), as the measure does: each message's text in o200k.
 */
export function langchainStandIn(budget) {
  const { BaseChatModel } = require('@langchain/core/language_models/chat_models');
  const { AIMessage } = require('@langchain/core/messages');
  const counted = new WeakMap();
  const count = (m) => {
    let n = counted.get(m);
    if (n === undefined) counted.set(m, (n = tokens(chunks({ messages: [toOpenAI(m)] })[0])));
    return n;
  };
  class StandIn extends BaseChatModel {
    _llmType() {
      return 'stand-in';
    }

    get profile() {
      return { maxInputTokens: budget };
    }

    async _generate(messages) {
      const text = summarize(messages.map((m) => m.text).join('\n'));
      return { generations: [{ text, message: new AIMessage(text) }] };
    }

    async getNumTokensFromMessages(messages) {
      const countPerMessage = messages.map(count);
      return { totalCount: countPerMessage.reduce((a, b) => a + b, 0), countPerMessage };
    }
  }
  return { model: new StandIn({}), count };
}

/**
 * LangChain.js v1's `contextEditingMiddleware` with one `ClearToolUsesEdit` (trigger at 85%
 * of the budget, the 3 newest tool results kept, the rest default), run the way
 * `createAgent` runs it before each model call: its `wrapModelCall(request, handler)` hook,
 * with a request of the agent's shape (`model`, `systemPrompt`, `systemMessage`, `messages`,
 * `tools`, `state`, `runtime`), whose handler is the model call; the request sent is what
 * the handler receives, its system message first. The edit takes no counter of its own:
 * the middleware counts with the model's `getNumTokensFromMessages` when `tokenCountMethod`
 * is `'model'` (the default `'approx'` is characters / 4), so that is set, and the stand-in
 * model counts exactly, the system prompt included. By default the host's history stays
 * append-only: each call hands the hook a copy, which the edit changes in place, so only
 * that request is edited. With `persist`, the edited copy becomes the history, as it does
 * in `createAgent`, whose request holds the state's own array: there a cleared result
 * stays cleared, and nothing is cleared again until the history passes the trigger again.
 * No tools are bound (`tools: []`; the edit reads none) and the runtime holds no context,
 * as for an agent invoked with none.
 */
export function langchainContextEditing({ budget, system, persist = false }) {
  const { contextEditingMiddleware, ClearToolUsesEdit } = require('langchain');
  const { AIMessage, SystemMessage, coerceMessageLikeToMessage } = require('@langchain/core/messages');
  const middleware = contextEditingMiddleware({
    edits: [new ClearToolUsesEdit({ trigger: { tokens: 0.85 * budget }, keep: { messages: 3 } })],
    tokenCountMethod: 'model',
  });
  const { model } = langchainStandIn(budget);
  const systemMessage = new SystemMessage({ content: [{ type: 'text', text: system }] });
  const runtime = Object.freeze({ context: undefined });
  let history = [];
  return {
    format: 'openai-chat',
    append(messages) {
      for (const m of messages) history.push(coerceMessageLikeToMessage(m));
    },
    async build() {
      let sent;
      const request = { model, systemPrompt: system, systemMessage, messages: [...history], tools: [], state: { messages: history }, runtime };
      await middleware.wrapModelCall(request, async (req) => {
        sent = req;
        return new AIMessage('');
      });
      if (persist) history = [...request.messages];
      return { messages: [{ role: 'system', content: sent.systemPrompt }, ...sent.messages.map(toOpenAI)] };
    },
  };
}

/**
 * LangChain.js v1's `summarizationMiddleware`: trigger at 85% of the budget, keep 25% of it
 * (`keep: { fraction: 0.25 }`, of the model's `profile.maxInputTokens`, the budget), an
 * exact o200k `tokenCounter`, and the stand-in summarizer as its `model`; its other options
 * (the prompt, `trimTokensToSummarize` 4,000) are its defaults. It runs the way
 * `createAgent` runs it: its `beforeModel(state, runtime)` hook, with the agent's state (the
 * messages without the system prompt, which the agent adds to each request) and a runtime
 * whose context is the middleware's context schema parsed from nothing, as the agent's node
 * does for an agent invoked with no context. Its update goes through LangGraph's own
 * `messagesStateReducer`, so `RemoveMessage(REMOVE_ALL_MESSAGES)` clears the state, and each
 * message the host appends goes through the reducer too. The request is the system prompt
 * and the state's messages.
 */
export function langchainSummarization({ budget, system }) {
  const { summarizationMiddleware } = require('langchain');
  // LangGraph and the schema parser, as langchain itself resolves them.
  const fromLangchain = createRequire(require.resolve('langchain'));
  const { messagesStateReducer } = fromLangchain('@langchain/langgraph');
  const { interopParse } = fromLangchain('@langchain/core/utils/types');
  const { coerceMessageLikeToMessage } = require('@langchain/core/messages');
  const { model, count } = langchainStandIn(budget);
  const middleware = summarizationMiddleware({
    model,
    trigger: { tokens: 0.85 * budget },
    keep: { fraction: 0.25 },
    tokenCounter: (messages) => messages.reduce((n, m) => n + count(m), 0),
  });
  const hook = typeof middleware.beforeModel === 'function' ? middleware.beforeModel : middleware.beforeModel.hook;
  const runtime = Object.freeze({ context: Object.freeze(interopParse(middleware.contextSchema, {})) });
  let messages = [];
  return {
    format: 'openai-chat',
    append(list) {
      messages = messagesStateReducer(messages, list.map((m) => coerceMessageLikeToMessage(m)));
    },
    async build() {
      const update = await hook({ messages }, runtime);
      if (update?.messages) messages = messagesStateReducer(messages, update.messages);
      return { messages: [{ role: 'system', content: system }, ...messages.map(toOpenAI)] };
    },
  };
}

/**
 * `ContextManager` in Anthropic's format, with the exact counter and the same summarizer;
 * the provider's usage is fed back as the measure saw the request (`usage`).
 */
export function contextManager({ budget, system, options = {} }) {
  const { ContextManager } = require('@devs/context');
  const manager = new ContextManager({ format: 'anthropic', budget, system, countTokens: o200k, summarizer: summarize, ...options });
  return {
    format: 'anthropic',
    append(messages) {
      manager.append(messages);
    },
    build() {
      return manager.build();
    },
    usage({ tokens: total, prefix }) {
      manager.recordUsage({ input_tokens: 0, cache_read_input_tokens: prefix, cache_creation_input_tokens: total - prefix, output_tokens: 1 });
    },
    free() {
      manager.free();
    },
  };
}

/** No bound at all, for reference: every request the previous one plus what was appended. */
export function appendOnly({ system }) {
  const messages = [];
  return {
    format: 'openai-chat',
    append(list) {
      messages.push(...list);
    },
    build() {
      return { messages: [{ role: 'system', content: system }, ...messages] };
    },
  };
}

export const STRATEGIES = {
  'auto-compact at 83.5%': autoCompact,
  'AI SDK pruneMessages + trim': aiSdkPrune,
  'LangChain trimMessages': langchainTrim,
  ContextManager: contextManager,
  'no bound (reference)': appendOnly,
};
