// The Vercel AI SDK's `pruneMessages` (package `ai`, 6.x): reasoning kept only in the last
// message, tool calls and results only in the last two, emptied messages removed; then the
// oldest messages dropped until the request fits, never leaving a tool result without its
// call. Messages go in as AI SDK ModelMessages and come back as Anthropic messages, grouped
// the way the SDK's Anthropic provider groups them (user and tool messages into one user
// message, consecutive assistant messages into one).
import { createRequire } from 'node:module';
import { messageTokens, requestTokens } from './serialize.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const { pruneMessages } = require('ai');

const blocks = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

/** Anthropic messages → ModelMessages, each message converted once (tool names come from the calls). */
function converter() {
  const done = new WeakMap();
  const names = new Map();
  return (m) => {
    if (done.has(m)) return done.get(m);
    const content = blocks(m.content);
    let out;
    if (m.role === 'assistant') {
      out = [{
        role: 'assistant',
        content: content.map((b) => {
          if (b.type !== 'tool_use') return { type: 'text', text: b.text };
          names.set(b.id, b.name);
          return { type: 'tool-call', toolCallId: b.id, toolName: b.name, input: b.input };
        }),
      }];
    } else {
      const results = content.filter((b) => b.type === 'tool_result').map((b) => ({
        type: 'tool-result',
        toolCallId: b.tool_use_id,
        toolName: names.get(b.tool_use_id),
        output: { type: b.is_error ? 'error-text' : 'text', value: b.content },
      }));
      const texts = content.filter((b) => b.type === 'text').map((b) => ({ type: 'text', text: b.text }));
      out = [...(results.length ? [{ role: 'tool', content: results }] : []), ...(texts.length ? [{ role: 'user', content: texts }] : [])];
    }
    done.set(m, out);
    return out;
  };
}

function part(p) {
  if (p.type === 'tool-call') return { type: 'tool_use', id: p.toolCallId, name: p.toolName, input: p.input };
  if (p.type === 'tool-result') return { type: 'tool_result', tool_use_id: p.toolCallId, content: p.output.value, ...(p.output.type === 'error-text' ? { is_error: true } : {}) };
  return { type: 'text', text: p.text };
}

/** ModelMessages → Anthropic messages. */
export function toAnthropicMessages(list) {
  const messages = [];
  for (const m of list) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const content = blocks(m.content).filter((p) => p.type !== 'reasoning').map(part);
    const last = messages.at(-1);
    if (last?.role === role) messages[messages.length - 1] = { role, content: [...last.content, ...content] };
    else messages.push({ role, content });
  }
  return messages;
}

export default function aiSdkPrune(budget, counter, { system } = {}) {
  const toModel = converter();
  const sizes = new WeakMap();
  const size = (m) => {
    if (!sizes.has(m)) sizes.set(m, messageTokens(toAnthropicMessages([m])[0], counter));
    return sizes.get(m);
  };
  return {
    name: 'AI SDK pruneMessages + trim',
    format: 'anthropic',
    build(messages) {
      const pruned = pruneMessages({ messages: messages.flatMap(toModel), reasoning: 'before-last-message', toolCalls: 'before-last-2-messages', emptyMessages: 'remove' });
      let total = requestTokens({ system, messages: [] }, counter) + pruned.reduce((n, m) => n + size(m), 0);
      let start = 0;
      while (start < pruned.length && (total > budget || pruned[start].role === 'tool')) total -= size(pruned[start++]);
      return { system, messages: toAnthropicMessages(pruned.slice(start)) };
    },
  };
}
