// This package's ContextManager, with the exact counter and the same stand-in summarizer,
// and a store the eval reads back for recoverable recall (the same MemoryStateRepository it
// makes by default, so it builds the same requests).
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { namedIds } from '../references.js';
import type { Strategy, StrategyArgs, StrategyInfo } from './types.js';

/** The provider's usage of one request, in `format`'s own shape, as the measure saw it. */
function usageOf(format: string, total: number, prefix: number): Record<string, unknown> {
  if (format === 'openai-chat') return { prompt_tokens: total, completion_tokens: 1, prompt_tokens_details: { cached_tokens: prefix } };
  if (format === 'openai-responses') return { input_tokens: total, output_tokens: 1, input_tokens_details: { cached_tokens: prefix } };
  return { input_tokens: 0, cache_read_input_tokens: prefix, cache_creation_input_tokens: total - prefix, output_tokens: 1 };
}

/** `ContextManager` in `format` (default Anthropic's); the provider's usage fed back as the measure saw the request. */
export function contextManager({ budget, system, meter, summarize, format = 'anthropic', options = {} }: StrategyArgs): Strategy {
  const store = new MemoryStateRepository();
  const manager = new ContextManager({ format, budget, system, countTokens: meter.counter, summarizer: summarize, store, ...options } as ConstructorParameters<typeof ContextManager>[0]);
  return {
    format,
    append(messages) {
      manager.append(messages as Parameters<typeof manager.append>[0]);
    },
    build() {
      return manager.build() as ReturnType<Strategy['build']>;
    },
    usage({ tokens, prefix }) {
      if (format !== 'ai-sdk') manager.recordUsage(usageOf(format, tokens, prefix));
    },
    stored: (id) => store.getRawToolOutput(id)?.rawContent,
    namedIds,
    free() {
      manager.free();
      store.free();
    },
  };
}

export const OURS: StrategyInfo = {
  id: 'ours',
  name: 'ContextManager',
  what: "this package's rules with their defaults: mask, fold, summarize and drop to stay under the budget, the cache's prefix kept",
  source: '@devs/context ContextManager (this package)',
  peers: [],
  make: contextManager,
};
