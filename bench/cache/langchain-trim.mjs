// LangChain.js `trimMessages` (@langchain/core): keep the last messages that fit, starting
// on a human message and ending on a human or tool one, the system message kept, counted
// with the exact o200k counter. Messages go in as OpenAI Chat Completions messages coerced
// to LangChain messages, and come back as OpenAI Chat Completions messages.
import { createRequire } from 'node:module';
import { fromOpenAIChat, toOpenAIChat } from './messages.mjs';
import { messageLine } from './serialize.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const { coerceMessageLikeToMessage, trimMessages } = require('@langchain/core/messages');

/** A LangChain message as the OpenAI Chat Completions message it came from. */
export function toOpenAI(m) {
  switch (m.getType()) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'human':
      return { role: 'user', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    default: {
      const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
      return { role: 'assistant', content: m.content || null, ...(calls.length ? { tool_calls: calls } : {}) };
    }
  }
}

export default function langchainTrim(budget, counter, { system } = {}) {
  const history = system === undefined ? [] : [coerceMessageLikeToMessage({ role: 'system', content: system, id: 'm0' })];
  let converted = 0;
  // trimMessages counts copies of the messages, every shorter tail in turn; the copies keep
  // each message's id, so each message is counted once, as its own serialized line.
  const counts = new Map();
  const count = (m) => {
    if (!counts.has(m.id)) {
      const { system: s, messages } = fromOpenAIChat([toOpenAI(m)]);
      counts.set(m.id, counter(messages.length ? messageLine(messages[0]) : `system ${JSON.stringify([{ type: 'text', text: s }])}\n`));
    }
    return counts.get(m.id);
  };
  const tokenCounter = (messages) => messages.reduce((n, m) => n + count(m), 0);
  return {
    name: 'LangChain trimMessages',
    format: 'openai-chat',
    async build(messages) {
      for (const m of toOpenAIChat({ messages: messages.slice(converted) })) history.push(coerceMessageLikeToMessage({ ...m, content: m.content ?? '', id: `m${history.length}` }));
      converted = messages.length;
      const trimmed = await trimMessages(history, { maxTokens: budget, tokenCounter, strategy: 'last', startOn: 'human', endOn: ['human', 'tool'], includeSystem: true });
      // With nothing to start on it returns `[undefined]`: the system message's place, empty.
      return trimmed.filter(Boolean).map(toOpenAI);
    },
  };
}
