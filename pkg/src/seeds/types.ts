// The shapes the seeds define, written once. The Rust rules are checked against these
// files (crates/rules/tests/shapes.rs), so the two cannot drift apart unnoticed.
import type { SummarizerClient, SummarizerRequest, TokenCounter } from '../core/types.js';
import type { ToolOutputEntry, StateRepository } from '../stores/types.js';

export type { SummarizerClient, SummarizerRequest, TokenCounter };

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
  /** The agent's reasoning and plan this turn; a refresh is prepended to `reasoning`. */
  thought: {
    /** Why the agent acts as it does this turn. */
    reasoning: string;
    /** The agent's current plan. */
    plan: string;
    /** What the agent is unsure of, if anything. */
    uncertainty?: string;
  };
  /** `arguments` must be JSON data: no bigint, function, symbol or cycle, at most 64 levels deep. */
  action: {
    /** The tool called. */
    tool_name: string;
    /** Its arguments, as JSON data. */
    arguments: Record<string, unknown>;
  };
  /** What the tool returned. */
  observation: {
    /** How the call ended. */
    status: 'success' | 'error' | 'timeout' | 'partial';
    /** The tool's output. */
    output: string;
    /** The error, when `status` is not 'success'. */
    error_detail?: string;
  };
}

/** The TAS and PRD summaries a `ContextRefresher` re-injects. */
export interface SpecSummaries {
  /** The Technical Architecture Specification's summary. */
  tasSummary: string;
  /** The Product Requirements Document's summary. */
  prdSummary: string;
}

/**
 * Supplies the summaries on each refresh. Any object will do (file, DB or in-memory);
 * `getSummary` may return the summaries or a promise of them, and may throw.
 */
export interface SummaryProvider {
  /** The summaries to inject now: called once per refresh, so they may change between refreshes. */
  getSummary(): Promise<SpecSummaries> | SpecSummaries;
}

/** What `ContextRefresher.onTurn` decided for one turn. */
export interface RefreshResult {
  /** True on the turn the summaries were re-injected. */
  refreshed: boolean;
  /** Present when `refreshed` is true: "[CONTEXT REFRESH]\n## TAS Summary\n…\n\n## PRD Summary\n…". */
  injectedSummary?: string;
}

/** Options of `ContextRefresher`. */
export interface ContextRefresherOptions {
  /** Turns per refresh, a whole number >= 1. Default 5: a refresh after 5 turns in one node (requirement 3_MCP-TAS-089). */
  threshold?: number;
  /** Where the summaries come from on each refresh: an object with `getSummary`, or that function alone. */
  summaryProvider: SummaryProvider | SummaryProvider['getSummary'];
}

/** One record of the agent log: every record carries its envelope's `turn_index` (requirement 3_MCP-TAS-088). */
export interface TurnLogEntry {
  /** The envelope's `turn_index`. */
  turn_index: number;
  /** The agent that produced the turn. */
  agent_id: string;
  /** The orchestrator phase, e.g. 'implement'. */
  phase: string;
  /** Strictly increasing nanosecond time within the process. */
  timestamp_ns: bigint;
}

/** One turn of an agent conversation. */
export interface TurnEntry {
  /** The 1-based turn it belongs to; -1 for an injected `[SPEC REFRESH]` turn. */
  turnIndex: number;
  /** The agent whose conversation this is ('system' for injected turns). */
  agentId: string;
  /** Who spoke: `tool` turns are left out of summaries. */
  role: 'user' | 'assistant' | 'tool';
  /** The turn's text. */
  content: string;
  /** When the turn was recorded. */
  createdAt: Date;
}

/** The active context of one turn: the goal and the newest turns. */
export interface ContextWindow {
  /** The task the agent works on, always kept. */
  taskGoal: string;
  /** The newest turns, oldest first, after any `[SPEC REFRESH]` turn. */
  turns: TurnEntry[];
  /** True when a `[SPEC REFRESH]` turn was prepended on this turn. */
  specInjected: boolean;
}

/** A specification document re-injected every 10 turns, e.g. the TAS or the PRD summary. */
export interface SpecDocument {
  /** e.g. 'TAS', 'PRD'. */
  name: string;
  /** Its text, non-empty; cut to 3000 UTF-16 units when injected. */
  content: string;
}

/** Options of `SlidingRelevanceWindow`. */
export interface SlidingRelevanceWindowConfig {
  /** Turns kept, newest first priority. Default 20. */
  maxTurns: number;
}

/** Options of `ContextComposer`. */
export interface ContextComposerOptions {
  /** The documents to re-inject, loaded once, e.g. TAS and PRD summaries. None may be empty. */
  specs: SpecDocument[];
  /** Turns kept in the window, a whole number >= 1. Default 20. */
  maxTurns?: number;
}

/** What `TokenThresholdMonitor` passes its callback when the threshold is reached. */
export interface ContextRefreshEvent {
  /** The total that reached the threshold (the monitor is already reset). */
  totalTokens: number;
  /** When the threshold was reached. */
  triggeredAt: Date;
}

/** Called once per threshold crossing; the monitor awaits it before `record` resolves. */
export type ThresholdCallback = (event: ContextRefreshEvent) => Promise<void> | void;

/** Options of `TokenThresholdMonitor`. */
export interface TokenThresholdMonitorConfig {
  /** Tokens per context refresh, a whole number >= 1. Default 800_000. */
  thresholdTokens?: number;
  /** Runs the refresh, e.g. a `SummarizationHandoff.transfer`. */
  onThresholdExceeded: ThresholdCallback;
  /** Used by `recordText`. Default `countTokens`. */
  countTokens?: TokenCounter;
}

/** A summary of a window of turns, kept as medium-term memory. */
export interface MediumTermSummary {
  /** The agent whose turns were summarized. */
  agentId: string;
  /** The LLM's summary, non-empty. */
  summaryText: string;
  /** `turnIndex` of the first turn summarized. */
  turnRangeStart: number;
  /** `turnIndex` of the last turn summarized. */
  turnRangeEnd: number;
  /** When the summary was written. */
  createdAt: Date;
}

/** Where summaries are kept, if anywhere. */
export interface MediumTermStore {
  /** Keeps `summary`; a rejection rejects the handoff. */
  save(summary: MediumTermSummary): Promise<void> | void;
}

/** Options of `SummarizationHandoff`. */
export interface SummarizationHandoffOptions {
  /** The LLM that writes the summary: an object with `summarize`, or that function alone. */
  llmClient: SummarizerClient | SummarizerClient['summarize'];
  /** Where each summary is saved; none by default. */
  store?: MediumTermStore;
}

/** What the runner sends the LLM on each turn. */
export interface LlmRequest {
  /** The runner's agent. */
  agentId: string;
  /** 1-based number of this turn. */
  turnIndex: number;
  /** The composed window rendered as text: "# Goal", then each turn. */
  prompt: string;
  /** The window `prompt` was rendered from. */
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

/** What the agent's LLM answers on a turn. */
export interface LlmResponse {
  /** The model's text: counted by the monitor and kept in the history. */
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

/** Token shares of a composed window: Goal, then Map, then Recent Past (requirement 3_MCP-TAS-047). */
export interface WindowBudget {
  /** The whole window, in tokens. */
  totalBudget: number;
  /** The Goal slot's share: 30% by default. */
  goalBudget: number;
  /** The Map slot's share (the project's structure): 20% by default. */
  mapBudget: number;
  /** The Recent Past slot's share (the newest envelopes): 50% by default. */
  recentPastBudget: number;
}

/** Options of `WindowComposer`. */
export interface WindowComposerOptions {
  /** Envelopes considered for Recent Past. Default 10, clamped to 1..10. */
  maxRecentEnvelopes?: number;
  /** Counts each slot's tokens. Default `countTokens`. */
  countTokens?: TokenCounter;
}

/** One slot of a `ComposedWindow`. */
export interface ComposedSlot {
  /** Which slot: Goal, Map or Recent Past. */
  kind: 'goal' | 'map' | 'recent_past';
  /** The slot's text (Recent Past: one envelope's JSON a line, oldest first). */
  content: string;
  /** Tokens of `content`, by the composer's counter. */
  tokenCount: number;
  /** When the slot was composed, in epoch milliseconds. */
  timestampMs: number;
  /** The content was cut (Goal, Map) or envelopes were left out (Recent Past) to fit the budget. */
  truncated: boolean;
}

/** Slots in order: goal, map, recent_past. */
export interface ComposedWindow {
  /** Goal, Map, Recent Past. */
  slots: ComposedSlot[];
  /** The sum of the slots' `tokenCount`. */
  totalTokensUsed: number;
  /** True when the slots together exceed `budget.totalBudget`. */
  budgetExceeded: boolean;
}

/** Options of `ContextPruner`. */
export interface ContextPrunerOptions {
  /** Prune at this fraction of `budget.totalBudget`. Default 0.90. */
  saturationRatio?: number;
}

/** What `ContextPruner.prune` returns: the summary and what it kept verbatim. */
export interface PrunedContext {
  /** The summarizer's summary of the turns. */
  summary: string;
  /** The plan, verbatim. */
  plan: string;
  /** The TAS, verbatim. */
  tas: string;
  /** The current failing observation, verbatim. */
  currentObservation: string;
  /** How many turns were summarized. */
  originalTurnCount: number;
  /** Epoch milliseconds. */
  prunedAt: number;
}

/** A tool output after `ToolOutputPruner.truncate`: its head and a marker. */
export interface TruncatedToolOutput {
  /** The tool that produced the output. */
  toolName: string;
  /** The first 500 characters and a marker naming the byte size and where the raw output is. */
  summary: string;
  /** ISO time. */
  rawStoredAt: string;
  /** `byteSize` of the whole output. */
  originalByteSize: number;
}

/** Options of `ToolOutputPruner`. */
export interface ToolOutputPrunerOptions {
  /** Where the marker says the raw output is. Default "state.sqlite, table raw_tool_outputs". */
  rawOutputLocation?: string;
}

/** The orchestrator's context that `applyContextManagement` manages in place. */
export interface OrchestratorContext {
  /** The conversation; replaced by a shorter one when pruned. */
  turns: AgentTurn[];
  /** The Goal slot's text. */
  goal: string;
  /** The Map slot's text (the project's structure). */
  map: string;
  /** The plan, kept verbatim through pruning. */
  plan: string;
  /** The TAS, kept verbatim through pruning. */
  tas: string;
  /** The current failing observation, kept verbatim through pruning. */
  currentObservation: string;
  /** The SAOP envelopes so far, for Recent Past. */
  envelopes: SaopEnvelope[];
  /** Entries are replaced by their `TruncatedToolOutput` once truncated. */
  pendingToolOutputs: Array<ToolOutputEntry | TruncatedToolOutput>;
  /** The window's token shares. */
  budget: WindowBudget;
}

/** Each member may be one of this package's classes or any object with the same methods, sync or async. */
export interface ContextManagementDeps {
  /** Composes the window, e.g. a `WindowComposer`. */
  composer: { compose(goal: string, map: string, envelopes: SaopEnvelope[]): ComposedWindow | Promise<ComposedWindow> };
  /** Decides and runs the pruning, e.g. a `ContextPruner`. */
  pruner: {
    shouldPrune(tokens: number, budget: WindowBudget): boolean | Promise<boolean>;
    prune(turns: AgentTurn[], plan: string, tas: string, currentObservation: string): PrunedContext | Promise<PrunedContext>;
    /** Read for the loop guard when present; default 0.90. */
    readonly saturationRatio?: number;
  };
  /** Persists and truncates old tool outputs, e.g. a `ToolOutputPruner`. */
  toolOutputPruner: {
    shouldTruncate(entry: ToolOutputEntry): boolean | Promise<boolean>;
    persistRaw(entry: ToolOutputEntry, repo: StateRepository): void | Promise<void>;
    truncate(entry: ToolOutputEntry): TruncatedToolOutput | Promise<TruncatedToolOutput>;
  };
  /** Where raw outputs are persisted before truncation, e.g. a `SqliteStateRepository`. */
  stateRepository: StateRepository;
  /** Counts tokens everywhere in the run. Default `countTokens`. */
  countTokens?: TokenCounter;
  /** Receives warnings (a failed `persistRaw`, the loop guard). Default `console`. */
  logger?: { warn(message: string): void };
}

/** What `applyContextManagement` did. */
export interface AppliedContextResult {
  /**
   * Tokens of the final window: the composed slots, the turns after pruning, and the
   * pending tool outputs after truncation. Only the turns are held under the budget (the
   * pruning is decided on them alone), so this may exceed `budget.totalBudget`.
   */
  windowUsedTokens: number;
  /** True when the turns were summarized. */
  prunedOccurred: boolean;
  /** How many tool outputs were truncated. */
  truncatedOutputCount: number;
}

/** A conversation turn as the orchestrator's context holds it. */
export interface AgentTurn {
  /** Who spoke. */
  role: 'user' | 'model';
  /** The turn's text. */
  content: string;
  /** When, in epoch milliseconds. */
  timestampMs: number;
}
