// Every strategy the eval knows, in the order tables list them. A new strategy is one more
// `StrategyInfo` here (its own file beside these when it is more than a few lines).
import { AI_SDK_PRUNE } from './ai-sdk.js';
import { AUTO_COMPACT, NO_BOUND } from './auto-compact.js';
import { LANGCHAIN_CONTEXT_EDITING, LANGCHAIN_SUMMARIZATION, LANGCHAIN_TRIM } from './langchain.js';
import { OURS } from './ours.js';
import type { StrategyInfo } from './types.js';

export type { Strategy, StrategyArgs, StrategyFormat, StrategyInfo } from './types.js';
export { standInSummary } from './summarize.js';
export { autoCompact, appendOnly } from './auto-compact.js';
export { aiSdkPrune } from './ai-sdk.js';
export { langchainContextEditing, langchainStandIn, langchainSummarization, langchainTrim, toOpenAI } from './langchain.js';
export { contextManager } from './ours.js';

/** Every strategy, by id. */
export const STRATEGIES: readonly StrategyInfo[] = Object.freeze([
  AUTO_COMPACT, AI_SDK_PRUNE, LANGCHAIN_TRIM, LANGCHAIN_CONTEXT_EDITING, LANGCHAIN_SUMMARIZATION, OURS, NO_BOUND,
]);

/** The strategies `devs-context eval` runs when none is named, as the issue lists them. */
export const DEFAULT_STRATEGIES: readonly string[] = Object.freeze(['ours', 'auto-compact', 'langchain-summarization', 'langchain-context-editing', 'ai-sdk-prune']);
