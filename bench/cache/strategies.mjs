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

function toOpenAI(m) {
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
