// LangChain.js's own means, run through their real code (packages `langchain` and
// `@langchain/core`, optional peers): `trimMessages`, and v1's `contextEditingMiddleware`
// and `summarizationMiddleware` through the hooks `createAgent` runs them by.
import { chunks } from '../measure.js';
import type { Meter } from '../measure.js';
import { peer, resolvePeer } from '../peers.js';
import type { Strategy, StrategyArgs, StrategyInfo } from './types.js';

// LangChain's messages and middlewares: read loosely.
type Loose = any;

/** LangChain's chat model (its `BaseChatModel`), as the middlewares take it. */
export type LangChainModel = object;

/** A LangChain message as the OpenAI Chat Completions message it stands for. */
export function toOpenAI(message: unknown): Record<string, unknown> {
  const m = message as Loose;
  switch (m.getType()) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'human':
      return { role: 'user', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    default: {
      const out: Record<string, unknown> = { role: 'assistant', content: m.content || null };
      if (m.tool_calls?.length) out.tool_calls = m.tool_calls.map((c: Loose) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
      return out;
    }
  }
}

/**
 * LangChain.js `trimMessages` (`strategy: 'last'`, starting on a human message, ending on
 * a human or tool one, the system message kept) with the exact counter over each
 * message's content and calls. `trimMessages` counts every shorter prefix of the history
 * in turn until one fits, so the counter is memoized per text and per calls array, as a
 * careful user would write it; without that, one build of a long session takes minutes.
 * Messages go in as OpenAI Chat Completions messages and come back out as them.
 */
export function langchainTrim({ budget, system, meter }: StrategyArgs): Strategy {
  const { coerceMessageLikeToMessage, trimMessages } = peer('@langchain/core/messages');
  const history: Loose[] = [coerceMessageLikeToMessage({ role: 'system', content: system })];
  const callTokens = new WeakMap<object, number>();
  const count = (m: Loose): number => {
    let n = meter.count(typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
    if (m.tool_calls?.length) {
      if (!callTokens.has(m.tool_calls)) callTokens.set(m.tool_calls, meter.counter(JSON.stringify(m.tool_calls)));
      n += callTokens.get(m.tool_calls) as number;
    }
    return n;
  };
  const tokenCounter = (messages: Loose[]): number => messages.reduce((n, m) => n + count(m), 0);
  return {
    format: 'openai-chat',
    append(messages) {
      for (const m of messages) history.push(coerceMessageLikeToMessage(m));
    },
    async build() {
      const trimmed: Loose[] = await trimMessages(history, { maxTokens: budget, tokenCounter, strategy: 'last', startOn: 'human', endOn: ['human', 'tool'], includeSystem: true });
      // Past the budget with no human message to start on, it returns `[undefined]`.
      return { messages: trimmed.filter(Boolean).map(toOpenAI) };
    },
  };
}

/**
 * A LangChain chat model that stands in for both models LangChain's middleware asks for:
 * invoked, it answers `summarize(prompt)`, the same stand-in every strategy gets; its
 * `profile.maxInputTokens` is the budget, for limits given as a fraction; and it counts
 * messages exactly (`getNumTokensFromMessages`, which `contextEditingMiddleware` uses with
 * `tokenCountMethod: 'model'`), as the measure does: each message's text.
 */
export function langchainStandIn(budget: number, meter: Meter, summarize: (text: string) => string): { model: LangChainModel; count: (message: unknown) => number } {
  const { BaseChatModel } = peer('@langchain/core/language_models/chat_models');
  const { AIMessage } = peer('@langchain/core/messages');
  const counted = new WeakMap<object, number>();
  const count = (m: Loose): number => {
    let n = counted.get(m as object);
    if (n === undefined) counted.set(m, (n = meter.count(chunks({ messages: [toOpenAI(m)] })[0])));
    return n;
  };
  class StandIn extends BaseChatModel {
    constructor(fields: Loose) {
      super(fields);
    }

    _llmType() {
      return 'stand-in';
    }

    get profile() {
      return { maxInputTokens: budget };
    }

    async _generate(messages: Loose[]) {
      const text = summarize(messages.map((m) => m.text).join('\n'));
      return { generations: [{ text, message: new AIMessage(text) }] };
    }

    async getNumTokensFromMessages(messages: Loose[]) {
      const countPerMessage = messages.map(count);
      return { totalCount: countPerMessage.reduce((a: number, b: number) => a + b, 0), countPerMessage };
    }
  }
  return { model: new StandIn({}), count };
}

/**
 * LangChain.js v1's `contextEditingMiddleware` with one `ClearToolUsesEdit` (trigger at 85%
 * of the budget, the 3 newest tool results kept, the rest default), run the way
 * `createAgent` runs it before each model call: its `wrapModelCall(request, handler)` hook,
 * with a request of the agent's shape, whose handler is the model call; the request sent is
 * what the handler receives, its system message first. The middleware counts with the
 * model's `getNumTokensFromMessages` (`tokenCountMethod: 'model'`; the default `'approx'`
 * is characters / 4), and the stand-in model counts exactly. By default the host's history
 * stays append-only: each call hands the hook a copy, which the edit changes in place, so
 * only that request is edited. With `persist`, the edited copy becomes the history, as it
 * does in `createAgent`, whose request holds the state's own array.
 */
export function langchainContextEditing({ budget, system, meter, summarize, persist = false }: StrategyArgs): Strategy {
  const { contextEditingMiddleware, ClearToolUsesEdit } = peer('langchain');
  const { AIMessage, SystemMessage, coerceMessageLikeToMessage } = peer('@langchain/core/messages');
  const middleware = contextEditingMiddleware({
    edits: [new ClearToolUsesEdit({ trigger: { tokens: 0.85 * budget }, keep: { messages: 3 } })],
    tokenCountMethod: 'model',
  });
  const { model } = langchainStandIn(budget, meter, summarize);
  const systemMessage = new SystemMessage({ content: [{ type: 'text', text: system }] });
  const runtime = Object.freeze({ context: undefined });
  let history: Loose[] = [];
  return {
    format: 'openai-chat',
    append(messages) {
      for (const m of messages) history.push(coerceMessageLikeToMessage(m));
    },
    async build() {
      let sent: Loose;
      const request = { model, systemPrompt: system, systemMessage, messages: [...history], tools: [], state: { messages: history }, runtime };
      await middleware.wrapModelCall(request, async (req: Loose) => {
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
 * (`keep: { fraction: 0.25 }` of the model's `profile.maxInputTokens`), the exact
 * `tokenCounter`, and the stand-in summarizer as its `model`; its other options are its
 * defaults. It runs the way `createAgent` runs it: its `beforeModel(state, runtime)` hook,
 * with the agent's state and a runtime whose context is the middleware's context schema
 * parsed from nothing. Its update goes through LangGraph's own `messagesStateReducer`, and
 * each message the host appends goes through the reducer too. The request is the system
 * prompt and the state's messages.
 */
export function langchainSummarization({ budget, system, meter, summarize }: StrategyArgs): Strategy {
  const { summarizationMiddleware } = peer('langchain');
  // LangGraph and the schema parser, as langchain itself resolves them.
  const from = resolvePeer('langchain');
  const { messagesStateReducer } = peer('@langchain/langgraph', from);
  const { interopParse } = peer('@langchain/core/utils/types', from);
  const { coerceMessageLikeToMessage } = peer('@langchain/core/messages');
  const { model, count } = langchainStandIn(budget, meter, summarize);
  const middleware = summarizationMiddleware({
    model,
    trigger: { tokens: 0.85 * budget },
    keep: { fraction: 0.25 },
    tokenCounter: (messages: Loose[]) => messages.reduce((n, m) => n + count(m), 0),
  });
  const hook = typeof middleware.beforeModel === 'function' ? middleware.beforeModel : middleware.beforeModel.hook;
  const runtime = Object.freeze({ context: Object.freeze(interopParse(middleware.contextSchema, {})) });
  let messages: Loose[] = [];
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

export const LANGCHAIN_TRIM: StrategyInfo = {
  id: 'langchain-trim',
  name: 'LangChain trimMessages',
  what: "trimMessages, strategy 'last': the newest messages that fit, from a human message",
  source: "LangChain.js's trimMessages (package @langchain/core)",
  peers: ['@langchain/core'],
  make: langchainTrim,
};

export const LANGCHAIN_CONTEXT_EDITING: StrategyInfo = {
  id: 'langchain-context-editing',
  name: 'LangChain contextEditingMiddleware (ClearToolUsesEdit)',
  what: 'at 85% of the budget, clear all but the 3 newest tool results',
  source: "LangChain.js v1's contextEditingMiddleware with ClearToolUsesEdit (package langchain), run through its wrapModelCall hook",
  peers: ['langchain', '@langchain/core'],
  make: langchainContextEditing,
};

export const LANGCHAIN_SUMMARIZATION: StrategyInfo = {
  id: 'langchain-summarization',
  name: 'LangChain summarizationMiddleware',
  what: 'at 85% of the budget, summarize all but the newest 25% of it',
  source: "LangChain.js v1's summarizationMiddleware (package langchain), run through its beforeModel hook and LangGraph's reducer",
  peers: ['langchain', '@langchain/core'],
  make: langchainSummarization,
};
