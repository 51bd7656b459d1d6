// The shapes the seeds define, written once. The Rust rules are checked against this file
// (crates/rules/tests/shapes.rs), so the two cannot drift apart unnoticed.
import type { AgentLogStore } from './log.js';
import type { ContextComposer } from './composer.js';
import type { ContextRefresher, OrchestratorContextInjector } from './refresher.js';
import type { SummarizationHandoff } from './handoff.js';
import type { TurnTracker } from './tracker.js';

/** Structured Agent-Orchestrator Protocol envelope, schema 1.x. No other properties are allowed at any level. */
export interface SaopEnvelope {
  /** Semver of the envelope schema, e.g. "1.0.0". */
  schema_version: string;
  /** Integer >= 0, stamped by `TurnTracker.attach`. */
  turn_index: number;
  /** Non-empty. */
  agent_id: string;
  /** Non-empty. */
  phase: string;
  thought: { reasoning: string; plan: string; uncertainty?: string };
  /** `arguments` must be JSON data: no bigint, function, symbol or cycle, at most 64 levels deep. */
  action: { tool_name: string; arguments: Record<string, unknown> };
  observation: {
    status: 'success' | 'error' | 'timeout' | 'partial';
    output: string;
    error_detail?: string;
  };
}

/** The TAS and PRD summaries a `ContextRefresher` re-injects. */
export interface SpecSummaries {
  tasSummary: string;
  prdSummary: string;
}

/**
 * Supplies the summaries on each refresh. Any object will do (file, DB or in-memory);
 * `getSummary` may return the summaries or a promise of them, and may throw.
 */
export interface SummaryProvider {
  getSummary(): Promise<SpecSummaries> | SpecSummaries;
}

export interface RefreshResult {
  refreshed: boolean;
  /** Present when `refreshed` is true: "[CONTEXT REFRESH]\n## TAS Summary\n…\n\n## PRD Summary\n…". */
  injectedSummary?: string;
}

export interface ContextRefresherOptions {
  /** Turns per refresh, a whole number >= 1. Default 5 ([3_MCP-TAS-089]). */
  threshold?: number;
  summaryProvider: SummaryProvider;
}

/** One record of the agent log ([3_MCP-TAS-088]). */
export interface TurnLogEntry {
  turn_index: number;
  agent_id: string;
  phase: string;
  /** Strictly increasing nanosecond time within the process. */
  timestamp_ns: bigint;
}

/** One turn of an agent conversation. */
export interface TurnEntry {
  turnIndex: number;
  agentId: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  createdAt: Date;
}

/** The active context of one turn: the goal and the newest turns. */
export interface ContextWindow {
  taskGoal: string;
  turns: TurnEntry[];
  /** True when a `[SPEC REFRESH]` turn was prepended on this turn. */
  specInjected: boolean;
}

export interface SpecDocument {
  /** e.g. 'TAS', 'PRD'. */
  name: string;
  content: string;
}

export interface SlidingRelevanceWindowConfig {
  /** Turns kept, newest first priority. Default 20. */
  maxTurns: number;
}

export interface ContextComposerOptions {
  /** The documents to re-inject, loaded once, e.g. TAS and PRD summaries. None may be empty. */
  specs: SpecDocument[];
  /** Default 20. */
  maxTurns?: number;
}

/**
 * Counts the tokens of a text. The default, `countTokens`, is `Math.ceil(text.length / 4)`;
 * any rule that counts accepts an exact counter in its place.
 */
export type TokenCounter = (text: string) => number;

export interface ContextRefreshEvent {
  totalTokens: number;
  triggeredAt: Date;
}

export type ThresholdCallback = (event: ContextRefreshEvent) => Promise<void> | void;

export interface TokenThresholdMonitorConfig {
  /** Default 800_000. */
  thresholdTokens?: number;
  onThresholdExceeded: ThresholdCallback;
  /** Used by `recordText`. Default `countTokens`. */
  countTokens?: TokenCounter;
}

/** A summary of a window of turns, kept as medium-term memory. */
export interface MediumTermSummary {
  agentId: string;
  summaryText: string;
  turnRangeStart: number;
  turnRangeEnd: number;
  createdAt: Date;
}

/** The LLM that writes summaries. */
export interface SummarizerClient {
  summarize(prompt: string): Promise<string> | string;
}

/** Where summaries are kept, if anywhere. */
export interface MediumTermStore {
  save(summary: MediumTermSummary): Promise<void> | void;
}

export interface SummarizationHandoffOptions {
  llmClient: SummarizerClient;
  store?: MediumTermStore;
}

/** What the runner sends the LLM on each turn. */
export interface LlmRequest {
  agentId: string;
  /** 1-based number of this turn. */
  turnIndex: number;
  /** The composed window rendered as text: "# Goal", then each turn. */
  prompt: string;
  window: ContextWindow;
  /**
   * Tokens of `prompt` by the runner's counter. With `bounded`, as the provider is
   * expected to count them (see `AgentRunner.calibration`), and at most the budget.
   */
  promptTokens: number;
}

/** What the provider reported about a call. */
export interface LlmUsage {
  /** The input tokens the provider counted for the prompt: a finite number >= 0. */
  inputTokens: number;
}

export interface LlmResponse {
  text: string;
  /** The agent's structured turn, when it produced one: validated, refreshed, stamped, logged. */
  envelope?: SaopEnvelope;
  /** The provider's own count, when it reports one: a `bounded` runner calibrates to it. */
  usage?: LlmUsage;
  /**
   * More envelopes of the same model turn: parallel tool calls. Each is validated and kept
   * in the context and in a bounded prompt as its own call, in one turn; only `envelope`
   * (or, without it, the first of these) is injected, stamped and logged.
   */
  envelopes?: SaopEnvelope[];
}

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
  /** Where raw outputs are stored before they are masked or cut. Default: `contextManagement.deps.stateRepository`. */
  store?: StateRepository;
  /** Summarizes the oldest turns when the prompt would not fit. Without one, they are dropped. */
  summarizer?: SummarizerClient;
  /** Items (messages, tool calls with their outputs) whose outputs stay whole: Recent Past. Default 6. */
  recentItems?: number;
  /** The largest share of the budget one message, call or output may take before it is cut. Default 0.15, at most 0.25. */
  partShare?: number;
  /** No summarizer prompt exceeds this share of the budget. Default 0.4. */
  summarizerShare?: number;
  /** Texts every prompt carries verbatim after the goal and the plan, e.g. the TAS and PRD summaries. */
  pinned?: string[];
  /** Receives each turn's ledger record as the turn completes. */
  onLedger?: (record: LedgerRecord) => void;
}

/** What a bounded runner did to one turn's prompt, and why it fits. */
export interface LedgerRecord {
  turn: number;
  budget: number;
  /** As the provider is expected to count them; at most `budget`. */
  promptTokens: number;
  /** By the runner's counter: the sum of `sections`. */
  rawTokens: number;
  sections: { pinned: number; summary: number; recent: number; outputs: number; newInput: number; framing: number };
  /** Outputs that became placeholders this turn, and where their raw output is. */
  masked: Array<{ turn: number; tool: string; storeId: string | null }>;
  /** Parts cut head and tail this turn. */
  cut: Array<{ turn: number; part: 'text' | 'output'; tool: string; storeId: string | null }>;
  /** Turns summarized this turn, in how many chunks, and the largest summarizer prompt. */
  summarized: { fromItem: number; toItem: number; fromTurn: number; toTurn: number; chunks: number; largestPromptTokens: number } | null;
  /** Turns dropped this turn (the deterministic cut). */
  dropped: { fromItem: number; toItem: number; fromTurn: number; toTurn: number } | null;
  warnings: string[];
  /** The counter's name (`count_o200k_base`, …) or `length/4`. */
  counter: string;
  calibration: { overhead: number; ratio: number; samples: number };
  /** Milliseconds spent building the prompt. */
  ms: number;
}

/** The agent's LLM. */
export interface AgentLlm {
  complete(request: LlmRequest): Promise<LlmResponse> | LlmResponse;
}

export interface AgentRunnerOptions {
  agentId: string;
  taskGoal: string;
  llm: AgentLlm;
  /** A `ContextComposer`, or anything with its `compose`. */
  composer: Pick<ContextComposer, 'compose'>;
  /** A `SummarizationHandoff`, or anything with its `transfer`. */
  handoff: Pick<SummarizationHandoff, 'transfer'>;
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
}

export interface AgentTurnResult {
  turnIndex: number;
  response: LlmResponse;
  /** The window the prompt was built from. */
  window: ContextWindow;
  /** Tokens of the response, as recorded in the monitor. */
  tokensRecorded: number;
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

/** A conversation turn as the orchestrator's context holds it. */
export interface AgentTurn {
  role: 'user' | 'model';
  content: string;
  timestampMs: number;
}

/** Token shares of a composed window ([3_MCP-TAS-047]). */
export interface WindowBudget {
  totalBudget: number;
  goalBudget: number;
  mapBudget: number;
  recentPastBudget: number;
}

export interface WindowComposerOptions {
  /** Envelopes considered for Recent Past. Default 10, clamped to 1..10. */
  maxRecentEnvelopes?: number;
  /** Default `countTokens`. */
  countTokens?: TokenCounter;
}

export interface ComposedSlot {
  kind: 'goal' | 'map' | 'recent_past';
  content: string;
  tokenCount: number;
  timestampMs: number;
  /** The content was cut (Goal, Map) or envelopes were left out (Recent Past) to fit the budget. */
  truncated: boolean;
}

/** Slots in order: goal, map, recent_past. */
export interface ComposedWindow {
  slots: ComposedSlot[];
  totalTokensUsed: number;
  budgetExceeded: boolean;
}

export interface ContextPrunerOptions {
  /** Prune at this fraction of `budget.totalBudget`. Default 0.90. */
  saturationRatio?: number;
}

export interface PrunedContext {
  summary: string;
  plan: string;
  tas: string;
  currentObservation: string;
  originalTurnCount: number;
  /** Epoch milliseconds. */
  prunedAt: number;
}

/** A tool's output waiting in the context. */
export interface ToolOutputEntry {
  toolName: string;
  rawContent: string;
  /** UTF-8 bytes of `rawContent`, a whole number >= 0. */
  byteSize: number;
  /** Turns since the output was captured, a whole number >= 0. */
  turnAge: number;
  /** When it was captured: a Date, epoch milliseconds or a date string. */
  capturedAt: number | string | Date;
}

export interface TruncatedToolOutput {
  toolName: string;
  /** The first 500 characters and a marker naming the byte size and where the raw output is. */
  summary: string;
  /** ISO time. */
  rawStoredAt: string;
  originalByteSize: number;
}

export interface ToolOutputPrunerOptions {
  /** Where the marker says the raw output is. Default "state.sqlite, table raw_tool_outputs". */
  rawOutputLocation?: string;
}

/** Where raw tool outputs are kept before they are truncated (e.g. `SqliteStateRepository`). */
export interface StateRepository {
  /** Stores `entry`; may return its store id, which placeholders and the ledger name. */
  insertRawToolOutput(entry: ToolOutputEntry): Promise<void | string | number> | void | string | number;
  /** Reads a stored output back by its id, when the store can. */
  getRawToolOutput?(id: string | number): Promise<ToolOutputEntry | undefined> | ToolOutputEntry | undefined;
}

export interface OrchestratorContext {
  turns: AgentTurn[];
  goal: string;
  map: string;
  plan: string;
  tas: string;
  currentObservation: string;
  envelopes: SaopEnvelope[];
  /** Entries are replaced by their `TruncatedToolOutput` once truncated. */
  pendingToolOutputs: Array<ToolOutputEntry | TruncatedToolOutput>;
  budget: WindowBudget;
}

/** Each member may be one of this package's classes or any object with the same methods, sync or async. */
export interface ContextManagementDeps {
  composer: { compose(goal: string, map: string, envelopes: SaopEnvelope[]): ComposedWindow | Promise<ComposedWindow> };
  pruner: {
    shouldPrune(tokens: number, budget: WindowBudget): boolean | Promise<boolean>;
    prune(turns: AgentTurn[], plan: string, tas: string, currentObservation: string): PrunedContext | Promise<PrunedContext>;
    /** Read for the loop guard when present; default 0.90. */
    readonly saturationRatio?: number;
  };
  toolOutputPruner: {
    shouldTruncate(entry: ToolOutputEntry): boolean | Promise<boolean>;
    persistRaw(entry: ToolOutputEntry, repo: StateRepository): void | Promise<void>;
    truncate(entry: ToolOutputEntry): TruncatedToolOutput | Promise<TruncatedToolOutput>;
  };
  stateRepository: StateRepository;
  /** Counts tokens everywhere in the run. Default `countTokens`. */
  countTokens?: TokenCounter;
  /** Receives warnings (a failed `persistRaw`, the loop guard). Default `console`. */
  logger?: { warn(message: string): void };
}

export interface AppliedContextResult {
  /**
   * Tokens of the final window: the composed slots, the turns after pruning, and the
   * pending tool outputs after truncation.
   */
  windowUsedTokens: number;
  prunedOccurred: boolean;
  truncatedOutputCount: number;
}
