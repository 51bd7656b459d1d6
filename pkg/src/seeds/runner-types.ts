// `AgentRunner`'s options and what a turn returns. The seeds' classes appear here by the
// methods the runner calls (`Pick<Class, ...>`): this file imports them, they never import it.
import type { AgentLogStore } from './log.js';
import type { ContextComposer } from './context-composer.js';
import type { OrchestratorContextInjector } from './refresher.js';
import type { SummarizationHandoff } from './handoff.js';
import type { TurnTracker } from './tracker.js';
import type { ContextSnapshot, ContextWarning, LedgerRecord } from '../context/types.js';
import type { SaopEnvelope, TurnEntry, ContextWindow, TokenCounter, MediumTermSummary, SummarizerClient, LlmRequest, LlmResponse, OrchestratorContext, ContextManagementDeps, AppliedContextResult } from './types.js';
import type { StateRepository } from '../stores/types.js';

/**
 * Keeps every prompt of an `AgentRunner` within a budget, on every turn, however large a
 * session or a single tool output grows. The cheapest step runs first and the LLM last:
 * outputs that left Recent Past become one-line placeholders (stored raw first); a part
 * larger than its share is cut, head and tail; the oldest turns are summarized in chunks
 * whose prompts stay under a cap; then the oldest turns are dropped. A tool call and its
 * output are one item: never apart. The goal, the plan and `pinned` are never cut.
 */
export interface BoundedOptions {
  /** The bound, in tokens, a whole number >= 1000. Default: `contextManagement`'s `budget.totalBudget`, else 800,000. */
  budget?: number;
  /**
   * Where raw outputs are stored before they are masked or cut. Default:
   * `contextManagement.deps.stateRepository`, else a new `MemoryStateRepository`. A store
   * that throws or rejects does not fail the turn: that output is cut instead of masked,
   * with a warning that carries the error.
   */
  store?: StateRepository;
  /**
   * Summarizes the oldest turns when the prompt would not fit (an object with
   * `summarize`, or that function alone). Without one, they are dropped. One that throws,
   * rejects, or returns an empty text or a non-string does not fail the turn: the oldest
   * turns are dropped instead, with a warning that carries the error.
   */
  summarizer?: SummarizerClient | SummarizerClient['summarize'];
  /** A prompt past this share of the budget is compacted. Default 0.75. */
  highWater?: number;
  /** A compaction brings the prompt down to this share of the budget. Default 0.25. */
  lowWater?: number;
  /** The newest turns a compaction keeps whole, as a share of the budget (Recent Past). Default 0.1, at most 0.5. */
  recentShare?: number;
  /** Milliseconds the summarizer may take before it counts as failed. Default 120,000. */
  summarizerTimeoutMs?: number;
  /** The largest share of the budget one message, call or output may take before it is cut. Default 0.15, at most 0.25. */
  partShare?: number;
  /** No summarizer prompt exceeds this share of the budget. Default 0.4. */
  summarizerShare?: number;
  /** The summarizing instruction, in place of the built-in one (`defaultSummaryPrompt()`). */
  summaryPrompt?: string;
  /** Tools whose outputs are never masked, cut or folded away within `protectedShare` (`ContextManagerOptions.protectedTools`). */
  protectedTools?: string[];
  /** The share of the budget `protectedTools` may take. Default 0.1. */
  protectedShare?: number;
  /** Texts every prompt carries verbatim after the goal and the plan, e.g. the TAS and PRD summaries. */
  pinned?: string[];
  /** Receives each turn's ledger record as the turn completes. */
  onLedger?: (record: LedgerRecord) => void;
  /**
   * Receives each warning of a turn as the turn completes: a store or summarizer that
   * failed (with its `error`), a summary over its cap, a part cut further to fit. These
   * failures fall back (a stored output is cut instead of masked; the oldest turns are
   * dropped instead of summarized) and do not reject `runTurn`.
   */
  onWarning?: (warning: ContextWarning) => void;
  /**
   * Learn the provider's count from `LlmResponse.usage` (see `AgentRunner.calibration`).
   * Default true; with false, prompts are bounded by this package's counter alone.
   */
  calibrate?: boolean;
  /**
   * Keep the opening user message (the task) in every prompt, before the summary, while the
   * turns after it are folded away. Default true, as `ContextManagerOptions.keepFirstMessage`.
   */
  keepFirstMessage?: boolean;
}

/** The agent's LLM. */
export interface AgentLlm {
  /** Answers one turn's prompt; a rejection fails the turn and changes nothing. */
  complete(request: LlmRequest): Promise<LlmResponse> | LlmResponse;
}

/** Options of `AgentRunner`: what it needs, and the optional rules it wires in. */
export interface AgentRunnerOptions {
  /** The agent this runner drives; its turns and summaries carry it. */
  agentId: string;
  /** The goal every window and prompt starts with. */
  taskGoal: string;
  /** The agent's LLM: an object with `complete`, or that function alone. */
  llm: AgentLlm | AgentLlm['complete'];
  /**
   * A `ContextComposer` (the TAS/PRD specs re-injected every 10 turns), or anything with
   * its `compose`. Default: a `SlidingRelevanceWindow` of the 20 newest turns, no specs.
   */
  composer?: Pick<ContextComposer, 'compose'>;
  /**
   * A `SummarizationHandoff`, or anything with its `transfer`: what the 800k refresh
   * re-injects. Default: none, so a refresh resets the count and re-injects nothing.
   */
  handoff?: Pick<SummarizationHandoff, 'transfer'>;
  /** Response tokens between context refreshes. Default 800_000. */
  thresholdTokens?: number;
  /** Counts response tokens. Default `countTokens`. */
  countTokens?: TokenCounter;
  /**
   * Runs `applyContextManagement(context, deps)` at the start of every turn, before the
   * prompt is built. The runner keeps `context` up to date: each turn's messages go to
   * `turns`, each envelope to `envelopes` (its plan and observation to `plan` and
   * `currentObservation`), and its output to `pendingToolOutputs`, aged one turn per turn.
   */
  contextManagement?: { context: OrchestratorContext; deps: ContextManagementDeps };
  /** Stamps every envelope with its `turn_index`. */
  tracker?: Pick<TurnTracker, 'nextIndex' | 'attach' | 'toLogEntry'>;
  /** Receives `tracker.toLogEntry()` for every envelope (needs `tracker`). */
  log?: Pick<AgentLogStore, 'append'>;
  /** Re-injects the TAS/PRD summaries into every 5th envelope's reasoning. */
  injector?: Pick<OrchestratorContextInjector, 'injectIfNeeded'>;
  /** Keeps every prompt within a budget; see `BoundedOptions`. */
  bounded?: BoundedOptions;
  /**
   * What the 800k monitor counts: `'response'` (the seed's wiring, the default) counts the
   * model's response text; `'context'` counts every token that enters the context (the
   * input, the response, each tool call and output), so the refresh fires when the
   * context really holds that much.
   */
  refreshOn?: 'response' | 'context';
  /**
   * Milliseconds each awaited host callback may take (`llm.complete`, `handoff.transfer`,
   * `injector.injectIfNeeded`, `contextManagement`'s pruners and composer, the bounded
   * store). One that runs past it rejects the turn with a `CallbackTimeoutError` naming
   * it (a store falls back, with a warning), the turn is undone, and the next works. No
   * bound by default.
   */
  callbackTimeoutMs?: number;
}

/** What `AgentRunner.runTurn` did on one turn. */
export interface AgentTurnResult {
  /** 1-based number of this turn. */
  turnIndex: number;
  /** The LLM's response, as it answered. */
  response: LlmResponse;
  /** The window the prompt was built from. */
  window: ContextWindow;
  /** Tokens of the response, as recorded in the monitor. */
  tokensRecorded: number;
  /**
   * The monitor's total once this turn's tokens were recorded, before a refresh reset it:
   * on a refresh turn, the total that reached `thresholdTokens`.
   */
  monitorTokens: number;
  /** The summary re-injected on this turn, if the threshold was reached. */
  contextRefresh: MediumTermSummary | null;
  /** The response's envelope after injection and stamping, if it had one. */
  envelope: SaopEnvelope | null;
  /** What `applyContextManagement` did this turn, when configured. */
  contextManagement: AppliedContextResult | null;
  /** Tokens of the prompt sent this turn (see `LlmRequest.promptTokens`). */
  promptTokens: number;
  /** What the bound did this turn, with `bounded`. */
  ledger: LedgerRecord | null;
}

/**
 * An `AgentRunner`'s state between turns (`bounded` runners), as JSON data: what
 * `AgentRunner.restore` makes the same runner from. Objects you pass the runner (the
 * `contextManagement` context, a tracker, a log, an injector) keep their own state: keep
 * them with it. Store it as it is (`JSON.stringify`): it is checked when restored.
 */
export interface AgentRunnerSnapshot {
  /** The snapshot's own version: 1. A newer one is refused, naming both versions. */
  version: number;
  kind: 'agent-runner';
  /** The runner's own counts: turns completed, then the token monitor's fresh and carried tokens. */
  runner: number[];
  /** The conversation (`runner.turns`). */
  turns: TurnEntry[];
  /** The newest envelope's plan, pinned last in the prompt. */
  plan: string;
  /** Ids of texts stored in a store shared with `contextManagement`, by key: none is stored twice. */
  known: Array<[string, string]>;
  /** The bounded history: the snapshot of its manager. */
  bounded: ContextSnapshot;
  /** A check of all the rest: a snapshot altered or cut short is refused. */
  check: string;
}
