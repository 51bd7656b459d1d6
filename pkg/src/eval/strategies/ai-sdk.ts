// The Vercel AI SDK's own means: `pruneMessages` (package `ai`, an optional peer).
import { peer } from '../peers.js';
import { chunks } from '../measure.js';
import type { Strategy, StrategyArgs, StrategyInfo } from './types.js';

/**
 * The Vercel AI SDK's `pruneMessages` (reasoning and tool calls kept only in the newest
 * messages, empty messages removed), then the oldest messages dropped until the request
 * fits: a tool message goes with the call before it, and the request never opens on one.
 */
export function aiSdkPrune({ budget, system, meter }: StrategyArgs): Strategy {
  const { pruneMessages } = peer('ai');
  const history: unknown[] = [];
  return {
    format: 'ai-sdk',
    append(messages) {
      history.push(...messages);
    },
    build() {
      const pruned: Array<{ role: string }> = pruneMessages({ messages: history, reasoning: 'before-last-message', toolCalls: 'before-last-2-messages', emptyMessages: 'remove' });
      const sizes = pruned.map((m) => meter.count(chunks({ messages: [m] })[0]));
      let total = meter.count(`system\n${system}`) + sizes.reduce((a, b) => a + b, 0);
      let from = 0;
      while (from < pruned.length - 1 && (total > budget || pruned[from].role === 'tool')) total -= sizes[from++];
      return { messages: [{ role: 'system', content: system }, ...pruned.slice(from)] };
    },
  };
}

export const AI_SDK_PRUNE: StrategyInfo = {
  id: 'ai-sdk-prune',
  name: 'AI SDK pruneMessages + trim',
  what: "pruneMessages (reasoning and tool calls kept in the newest messages only), then the oldest messages dropped until the request fits",
  source: "the AI SDK's pruneMessages (package ai), its reference page's options",
  peers: ['ai'],
  make: aiSdkPrune,
};
