/**
 * `@devs/context/eval` (Node only): what would each way of keeping a context under a budget
 * do to your agent's recorded sessions? `evaluate(sessions, options)` replays each session
 * through this package's `ContextManager` and its peers (LangChain's middlewares, the AI
 * SDK's `pruneMessages`, optional peers run through their real code; a reference
 * auto-compact) at each budget, and measures every request the same way: recall of what
 * the agent goes on to use, the user's words and the file trail kept, the cache share, the
 * spend priced by the cache's clock, requests over the budget or invalid, compactions,
 * build time. The engine behind `devs-context eval`, and bench/recall.mjs, bench/cache.mjs
 * and bench/frameworks.mjs. See docs/guides/eval.md.
 * @example
 * import { readFileSync } from 'node:fs';
 * import { parseTranscript } from '@devs/context/replay';
 * import { evaluate } from '@devs/context/eval';
 * const sessions = parseTranscript(readFileSync('session.jsonl', 'utf8'), 'session.jsonl');
 * const result = await evaluate(sessions, { budgets: [50_000], ttl: '5m', prices: 'anthropic' });
 * result.totals; // per budget and strategy: recall, spend, …
 */
export { evaluate, checkOptions } from './evaluate.js';
export type { EvalOptions, EvalResult, EvalStrategy } from './evaluate.js';
export type { EvalFigures, EvalRun } from './figures.js';
export type { RequestFigures, RunContext } from './run.js';
export { LONG_RANGE, runSession } from './run.js';
export { prepareSession, pauses } from './session.js';
export type { PreparedSession } from './session.js';
export { cacheShare, chunks, cost, createMeter, percentiles, spend, sum } from './measure.js';
export type { Counter, EvalRequest, Measure, Meter } from './measure.js';
export { clockSpend, stepTime } from './clock.js';
export type { ClockSpend, TimedRequest } from './clock.js';
export { parsePrices, parseTtl, ttlName } from './prices.js';
export type { Prices, Ttl } from './prices.js';
export { isWord, messageTexts, namedIds, occurrences, references, sessionReferences } from './references.js';
export type { CallReferences, Reference } from './references.js';
export { callWrites, fileTrail, FIRST_LINE, patchWrites, shellWrites, survival, typedPieces, userWords } from './survival.js';
export type { SurvivalInput, Survived, TrailPath, UserWords, Write } from './survival.js';
export { PROBLEMS, aiSdkProblems, anthropicProblems, geminiProblems, openaiChatProblems, openaiResponsesProblems, requestText, vscodeProblems } from './validity.js';
export {
  DEFAULT_STRATEGIES, STRATEGIES, aiSdkPrune, appendOnly, autoCompact, contextManager, langchainContextEditing, langchainStandIn,
  langchainSummarization, langchainTrim, standInSummary, toOpenAI,
} from './strategies/index.js';
export type { Strategy, StrategyArgs, StrategyFormat, StrategyInfo } from './strategies/index.js';
export { AbsentPeerError } from './peers.js';
export { DEFAULT_SYSTEM } from './system.js';
export { renderTables } from './table.js';
export { reportHtml } from './report.js';
