// The strategies bench/recall.mjs compares: every one of bench/cache/strategies.mjs's
// STRATEGIES, as bench/cache.mjs runs them, plus LangChain.js v1's two context middlewares.
// ContextManager gets an explicit store that the bench keeps (the same MemoryStateRepository
// it makes by default, so it builds the same requests), and exposes what it stored:
//   stored(id)          the text stored under `id`, or undefined;
//   namedIds(text)      the store ids a request's text names.
// A strategy without them stores nothing: what its request leaves out is gone.
import { createRequire } from 'node:module';
import { STRATEGIES, contextManager, langchainContextEditing, langchainSummarization } from '../cache/strategies.mjs';
import { namedIds } from './references.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const { MemoryStateRepository } = require('@devs/context');

/** `contextManager` with a store the bench can read back. */
export function contextManagerWithStore(args) {
  const store = new MemoryStateRepository();
  const strategy = contextManager({ ...args, options: { ...args.options, store } });
  return {
    ...strategy,
    stored: (id) => store.getRawToolOutput(id)?.rawContent,
    namedIds,
    free() {
      strategy.free();
      store.free();
    },
  };
}

/** Short names, for the per-session lines. */
const SHORT = {
  'auto-compact at 83.5%': 'auto-compact',
  'AI SDK pruneMessages + trim': 'ai-sdk',
  'LangChain trimMessages': 'lc-trim',
  'LangChain contextEditingMiddleware (ClearToolUsesEdit)': 'lc-clear',
  'LangChain summarizationMiddleware': 'lc-summary',
  ContextManager: 'context-manager',
  'no bound (reference)': 'no-bound',
};

/** `[name, short, make]` for each strategy, in the table's order. */
export function recallStrategies() {
  const middleware = [
    ['LangChain contextEditingMiddleware (ClearToolUsesEdit)', 'lc-clear', langchainContextEditing],
    ['LangChain summarizationMiddleware', 'lc-summary', langchainSummarization],
  ];
  const out = [];
  for (const [name, make] of Object.entries(STRATEGIES)) {
    out.push([name, SHORT[name] ?? name, make === contextManager ? contextManagerWithStore : make]);
    // The preset that trades spend for recall (issue 49, item 6), as a row of its own.
    if (make === contextManager) out.push(['ContextManager, quality: recall', 'context-recall', (args) => contextManagerWithStore({ ...args, options: { ...args.options, quality: 'recall' } })]);
    if (name === 'LangChain trimMessages') out.push(...middleware.splice(0));
  }
  // Before the unbounded reference, wherever the trim went.
  const reference = out.findIndex(([name]) => name.includes('reference'));
  out.splice(reference < 0 ? out.length : reference, 0, ...middleware);
  return out;
}
