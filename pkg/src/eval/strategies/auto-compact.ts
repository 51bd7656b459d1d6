// The reference policy of the agents that compact by a trigger (Claude Code's auto-compact,
// as documented: compact when the context passes a share of the window, keep the newest
// turns, the summary opening the rest). Not a library: written here, the same for everyone.
import { chunks } from '../measure.js';
import type { Strategy, StrategyArgs, StrategyInfo } from './types.js';

// Anthropic messages: read loosely.
type Loose = any;

const blocks = (content: Loose): Loose[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

/**
 * Claude Code-like auto-compact (Anthropic messages): append until the request passes 83.5%
 * of the budget, then summarize everything but the newest turns that fit in 20% of it.
 * The summary opens the next request as a user message; a single huge result is kept whole.
 */
export function autoCompact({ budget, system, meter, summarize }: StrategyArgs): Strategy {
  let summary: string | null = null;
  let kept: Loose[] = [];
  const request = () => ({ system, messages: summary === null ? kept : [{ role: 'user', content: summary }, ...kept] });
  // Where the kept turns may start: an assistant message, so the summary (a user message) comes before it.
  const starts = (): number[] => kept.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  return {
    format: 'anthropic',
    append(messages) {
      // As a Claude Code-like host does: one user turn of its results and the next input.
      for (const m of messages as Loose[]) {
        const last = kept.at(-1);
        if (last?.role === m.role) kept[kept.length - 1] = { role: m.role, content: [...blocks(last.content), ...blocks(m.content)] };
        else kept.push(m);
      }
    },
    build() {
      if (meter.requestTokens(request()) <= 0.835 * budget) return request();
      const candidates = starts();
      let from = candidates.at(-1) ?? kept.length;
      for (const i of [...candidates].reverse()) {
        if (meter.requestTokens({ messages: kept.slice(i) }) > 0.2 * budget) break;
        from = i;
      }
      const gone = chunks({ messages: summary === null ? kept.slice(0, from) : [{ role: 'user', content: summary }, ...kept.slice(0, from)] });
      summary = summarize(gone.join('\n'));
      kept = kept.slice(from);
      return request();
    },
  };
}

export const AUTO_COMPACT: StrategyInfo = {
  id: 'auto-compact',
  name: 'auto-compact at 83.5%',
  what: 'at 83.5% of the budget, summarize all but the newest turns that fit in 20% of it; the summary opens the request',
  source: "a reference policy after Claude Code's documented auto-compact (written in @devs/context/eval, no library)",
  peers: [],
  make: autoCompact,
};

/** No bound at all, for reference: every request the previous one plus what was appended. */
export function appendOnly({ system }: StrategyArgs): Strategy {
  const messages: unknown[] = [];
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

export const NO_BOUND: StrategyInfo = {
  id: 'no-bound',
  name: 'no bound (reference)',
  what: 'every message sent, whatever the budget: the ceiling of recall and of the cache share',
  source: 'a reference (no library)',
  peers: [],
  make: appendOnly,
};
