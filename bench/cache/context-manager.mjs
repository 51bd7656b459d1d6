// ContextManager from @devs/context, fed as a host feeds it: only the messages appended
// since the last request, then `build()`; the provider's usage of each request is reported
// back (`observe`), as the bench measured it. It gets the same extractive summarizer as the
// auto-compact. Null when the built package does not export it yet.
import * as context from '../../pkg/dist/index.mjs';
import { textSummarizer } from './summary.mjs';

export default function contextManager(budget, counter, { system } = {}) {
  if (typeof context.ContextManager !== 'function') return null;
  const manager = new context.ContextManager({ format: 'anthropic', budget, countTokens: counter, system, summarizer: textSummarizer(0.02 * budget, counter) });
  let appended = 0;
  return {
    name: 'ContextManager',
    format: 'anthropic',
    async build(messages) {
      manager.append(messages.slice(appended));
      appended = messages.length;
      const { system: s, messages: out } = await manager.build();
      return { system: s, messages: out };
    },
    observe({ tokens, prefix }) {
      manager.recordUsage({ input_tokens: 0, cache_read_input_tokens: prefix, cache_creation_input_tokens: tokens - prefix, output_tokens: 1 });
    },
    free: () => manager.free(),
  };
}
