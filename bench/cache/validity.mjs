// What a provider would refuse in a request. Each function lists the problems of one
// request; an empty list means it would be accepted.

const blocks = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content ?? []);
const blank = (text) => typeof text !== 'string' || text.trim() === '';

/**
 * Anthropic Messages (`{ system?, messages }`): at least one message; roles alternate from
 * a user message; no empty content or blank text block; each `tool_use` answered by a
 * `tool_result` in the next message, the results before anything else there; no result
 * without its `tool_use` in the message before.
 */
export function anthropicProblems({ messages }) {
  const problems = [];
  if (!messages.length) problems.push('no message');
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (m.role !== (i % 2 === 0 ? 'user' : 'assistant')) problems.push(`${at}: role ${m.role} out of turn`);
    const content = blocks(m.content);
    if (!content.length) problems.push(`${at}: empty content`);
    for (const b of content) if (b.type === 'text' && blank(b.text)) problems.push(`${at}: blank text block`);
    if (m.role === 'assistant') {
      const next = blocks(messages[i + 1]?.content);
      const answered = new Set(next.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
      for (const b of content) if (b.type === 'tool_use' && !answered.has(b.id)) problems.push(`${at}: tool_use ${b.id} not answered in the next message`);
    } else {
      const firstOther = content.findIndex((b) => b.type !== 'tool_result');
      if (firstOther >= 0 && content.slice(firstOther).some((b) => b.type === 'tool_result')) problems.push(`${at}: a tool_result after other content`);
      const calls = new Set(i > 0 ? blocks(messages[i - 1].content).filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
      for (const b of content) if (b.type === 'tool_result' && !calls.has(b.tool_use_id)) problems.push(`${at}: tool_result ${b.tool_use_id} answers no tool_use of the message before`);
    }
  });
  return problems;
}

/**
 * OpenAI Chat Completions messages (an array, or `{ messages }`): at least one non-system
 * message; each `tool_calls` id answered by a `tool` message before the next user or
 * assistant message; no `tool` message without an open call; content present unless the
 * assistant message carries calls.
 */
export function openaiChatProblems(request) {
  const messages = Array.isArray(request) ? request : request.messages;
  const problems = [];
  if (!messages.some((m) => m.role !== 'system' && m.role !== 'developer')) problems.push('no non-system message');
  let open = new Set();
  messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (m.role === 'tool') {
      if (!open.delete(m.tool_call_id)) problems.push(`${at}: tool message ${m.tool_call_id} answers no open call`);
      return;
    }
    if (open.size) problems.push(`${at}: calls ${[...open].join(', ')} unanswered before a ${m.role} message`);
    open = new Set(m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []);
    const empty = m.content === null || m.content === undefined || (Array.isArray(m.content) ? !m.content.length : m.content === '');
    if (empty && !(m.role === 'assistant' && open.size)) problems.push(`${at}: empty content`);
  });
  if (open.size) problems.push(`calls ${[...open].join(', ')} unanswered at the end`);
  return problems;
}

/** No message a model could answer: none at all, or only system ones. */
export const isEmpty = (messages) => !messages.some((m) => m.role !== 'system' && m.role !== 'developer');
