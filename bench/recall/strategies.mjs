// The strategies bench/recall.mjs compares, in its table's order: the eval's
// (@devs/context/eval's STRATEGIES), each `[name, short, info]`, where `info` is the
// eval's `StrategyInfo` that `runSession` runs. A new row is one more entry: a variant of
// ours is `{ ...byId('ours'), make: (a) => byId('ours').make({ ...a, options: { ...a.options, … } }) }`.
import { byId } from '../cache/strategies.mjs';

/** `[name, short, info]` for each strategy, in the table's order. */
export function recallStrategies() {
  return [
    ['auto-compact at 83.5%', 'auto-compact', byId('auto-compact')],
    ['AI SDK pruneMessages + trim', 'ai-sdk', byId('ai-sdk-prune')],
    ['LangChain trimMessages', 'lc-trim', byId('langchain-trim')],
    ['LangChain contextEditingMiddleware (ClearToolUsesEdit)', 'lc-clear', byId('langchain-context-editing')],
    ['LangChain summarizationMiddleware', 'lc-summary', byId('langchain-summarization')],
    ['ContextManager', 'context-manager', byId('ours')],
    ['no bound (reference)', 'no-bound', byId('no-bound')],
  ];
}
