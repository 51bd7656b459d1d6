// A deterministic stand-in for an LLM summary, so that no strategy's figures depend on a
// model: the first line of each turn, the newest kept when they do not all fit.

const firstLine = (text) => (String(text).split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 200);
const blocks = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content ?? []);

/** One line per block of each Anthropic message: what was said, called, or returned. */
export function turnLines(messages) {
  return messages.flatMap((m) =>
    blocks(m.content).map((b) => {
      if (b.type === 'tool_use') return `${b.name}: ${firstLine(JSON.stringify(b.input))}`;
      if (b.type === 'tool_result') return `→ ${firstLine(typeof b.content === 'string' ? b.content : blocks(b.content).map((x) => x.text ?? '').join('\n'))}`;
      return `${m.role}: ${firstLine(b.text ?? '')}`;
    }),
  );
}

/** `lines` under a heading, the newest of them that fit in `cap` tokens. */
export function extract(lines, cap, counter) {
  const kept = [];
  let used = counter('Summary of the earlier conversation:\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const n = counter(`${lines[i]}\n`);
    if (used + n > cap) break;
    used += n;
    kept.push(lines[i]);
  }
  return `Summary of the earlier conversation:\n${kept.reverse().join('\n')}`;
}

/** A summarizer for a text prompt: the first line of each of its paragraphs. */
export const textSummarizer = (cap, counter) => (prompt) =>
  extract(prompt.split(/\n\s*\n/).map(firstLine).filter(Boolean), cap, counter);
