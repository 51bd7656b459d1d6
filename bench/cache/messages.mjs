// Recorded sessions as the messages an agent would have sent: Anthropic Messages, and the
// OpenAI Chat Completions form of them for peers that speak it.

/**
 * A ReplaySession as Anthropic messages, plus where each request ends: request `i` (to get
 * step `i`) is `messages.slice(0, ends[i])`, everything up to step i-1's results and step
 * i's input. A step's input joins the user message of the results before it (results
 * first), so roles alternate. A call with no recorded result gets none: only the last step
 * of an OpenHands session has one, and no request follows it. A step that neither calls a
 * tool nor is answered by an input is the same model turn as the next step, so the two
 * share one assistant message and one request. Only messages after the last request's end
 * are ever merged into, so every request is a prefix of the next.
 */
export function toAnthropic(session) {
  const messages = [];
  const ends = [];
  const add = (role, content) => {
    const last = messages.at(-1);
    if (last?.role === role) messages[messages.length - 1] = { role, content: [...last.content, ...content] };
    else messages.push({ role, content });
  };
  session.steps.forEach((step, i) => {
    if (step.input) add('user', [{ type: 'text', text: step.input }]);
    const content = step.text ? [{ type: 'text', text: step.text }] : [];
    const id = (k) => `toolu_${i}_${k}`;
    step.calls.forEach(({ envelope }, k) => content.push({ type: 'tool_use', id: id(k), name: envelope.action.tool_name, input: envelope.action.arguments ?? {} }));
    if (!content.length) return;
    if (messages.at(-1)?.role === 'user') ends.push(messages.length);
    add('assistant', content);
    const results = step.calls.flatMap(({ envelope, unanswered }, k) => {
      if (unanswered) return [];
      const { status, output } = envelope.observation;
      return [{ type: 'tool_result', tool_use_id: id(k), content: typeof output === 'string' ? output : JSON.stringify(output ?? ''), ...(status === 'error' ? { is_error: true } : {}) }];
    });
    if (results.length) add('user', results);
  });
  return { messages, ends };
}

const blocks = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content ?? []);
const joinText = (parts) => parts.map((b) => b.text).join('\n');

/** An Anthropic request as OpenAI Chat Completions messages: `tool_calls`, one `tool` message per result. */
export function toOpenAIChat({ system, messages }) {
  const out = system === undefined ? [] : [{ role: 'system', content: typeof system === 'string' ? system : joinText(system) }];
  for (const m of messages) {
    const content = blocks(m.content);
    const texts = content.filter((b) => b.type === 'text');
    if (m.role === 'user') {
      for (const b of content) if (b.type === 'tool_result') out.push({ role: 'tool', tool_call_id: b.tool_use_id, content: typeof b.content === 'string' ? b.content : joinText(b.content ?? []) });
      if (texts.length) out.push({ role: 'user', content: joinText(texts) });
    } else {
      const calls = content.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input) } }));
      out.push({ role: 'assistant', content: texts.length ? joinText(texts) : null, ...(calls.length ? { tool_calls: calls } : {}) });
    }
  }
  return out;
}

/**
 * OpenAI Chat Completions messages back as an Anthropic request, as a provider adapter
 * would map them: system messages to `system`, `tool` messages to `tool_result` blocks of
 * a user message, and messages of the same Anthropic role merged. Whatever was invalid
 * stays invalid, for the checker to see. `is_error` has no Chat Completions field, so it
 * does not come back.
 */
export function fromOpenAIChat(list) {
  const system = list.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content).join('\n');
  const messages = [];
  const add = (role, content) => {
    if (!content.length) return;
    const last = messages.at(-1);
    if (last?.role === role) messages[messages.length - 1] = { role, content: [...last.content, ...content] };
    else messages.push({ role, content });
  };
  for (const m of list) {
    if (m.role === 'tool') add('user', [{ type: 'tool_result', tool_use_id: m.tool_call_id, content: m.content }]);
    else if (m.role === 'user') add('user', blocks(m.content));
    else if (m.role === 'assistant') {
      const text = typeof m.content === 'string' && m.content !== '' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
      const calls = (m.tool_calls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.function.name, input: JSON.parse(c.function.arguments) }));
      add('assistant', [...text, ...calls]);
    }
  }
  return { ...(system ? { system } : {}), messages };
}
