// A Claude Code-like auto-compact: the request grows by what the agent appends until it
// reaches 83.5% of the budget; then everything before the newest assistant+results pairs
// that fit in 20% of the budget becomes one summary user message (an extractive stand-in
// of about 2% of the budget), and the request grows after it again. The newest pair is
// kept even when it alone is over the budget: the request then stays over, as it does in
// Claude Code.
import { messageTokens, requestTokens } from './serialize.mjs';
import { extract, turnLines } from './summary.mjs';

export default function autoCompact(budget, counter, { system } = {}) {
  let summary = null;
  let lines = [];
  let from = 0;
  const request = (messages) => ({ system, messages: summary ? [summary, ...messages.slice(from)] : messages.slice(from) });
  return {
    name: 'auto-compact',
    format: 'anthropic',
    build(messages) {
      const current = request(messages);
      if (requestTokens(current, counter) < 0.835 * budget) return current;
      // Kept pairs start on an assistant message, so the summary (a user message) precedes them.
      let start = messages.length;
      let kept = 0;
      for (let i = messages.length - 1; i > from; i--) {
        kept += messageTokens(messages[i], counter);
        if (messages[i].role !== 'assistant') continue;
        if (start < messages.length && kept > 0.2 * budget) break;
        start = i;
      }
      if (start === messages.length) return current;
      lines = [...lines, ...turnLines(messages.slice(from, start))];
      summary = { role: 'user', content: [{ type: 'text', text: extract(lines, 0.02 * budget, counter) }] };
      from = start;
      return request(messages);
    },
  };
}
