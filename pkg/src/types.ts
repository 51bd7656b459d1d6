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

/**
 * Counts the tokens of a text. The default, `countTokens`, is `Math.ceil(text.length / 4)`;
 * any rule that counts accepts an exact counter in its place.
 */
export type TokenCounter = (text: string) => number;

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

/** The LLM that writes summaries. */
export interface SummarizerClient {
  /**
   * The LLM's answer to `prompt`; an empty answer is a `SummarizationError`.
   * `ContextManager` passes `request` too: the request it last built, in its provider's
   * shape, with the summarizing instruction appended as a last user message. Sent to the
   * same model, its prefix is read from the provider's cache (a tenth of the price) where
   * the text `prompt` would be written anew.
   */
  summarize(prompt: string, request?: SummarizerRequest): Promise<string> | string;
}

/** The request `ContextManager` last built, as a summarizer request (see `SummarizerClient.summarize`). */
export interface SummarizerRequest {
  /** The request's `system`, as built. */
  system?: unknown;
  /** Its messages, then the instruction as a user message. */
  messages: unknown[];
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

/** A conversation turn as the orchestrator's context holds it. */
export interface AgentTurn {
  /** Who spoke. */
  role: 'user' | 'model';
  /** The turn's text. */
  content: string;
  /** When, in epoch milliseconds. */
  timestampMs: number;
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

/** A tool's output waiting in the context. */
export interface ToolOutputEntry {
  /** The tool that produced the output. */
  toolName: string;
  /** The whole output. */
  rawContent: string;
  /** UTF-8 bytes of `rawContent`, a whole number >= 0. */
  byteSize: number;
  /** Turns since the output was captured, a whole number >= 0. */
  turnAge: number;
  /** When it was captured: a Date, epoch milliseconds or a date string. */
  capturedAt: number | string | Date;
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

/** Where raw tool outputs are kept before they are truncated (e.g. `SqliteStateRepository`). */
export interface StateRepository {
  /** Stores `entry`; may return its store id, which placeholders and the ledger name. */
  insertRawToolOutput(entry: ToolOutputEntry): Promise<void | string | number> | void | string | number;
  /** Reads a stored output back by its id, when the store can. */
  getRawToolOutput?(id: string | number): Promise<ToolOutputEntry | undefined> | ToolOutputEntry | undefined;
}

/** One stored raw output, as a store reads it back (`MemoryStateRepository`, `SqliteStateRepository`). */
export interface RawToolOutputRow {
  /** The row's id, as `insertRawToolOutput` resolved it. */
  id: number;
  /** The tool that produced the output. */
  toolName: string;
  /** The whole output, as stored. */
  rawContent: string;
  /** UTF-8 bytes of `rawContent`. */
  byteSize: number;
  /** The entry's `turnAge` when it was stored. */
  turnAge: number;
  /** ISO time the output was captured. */
  capturedAt: string;
  /** ISO time the row was written. */
  storedAt: string;
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
   * pending tool outputs after truncation.
   */
  windowUsedTokens: number;
  /** True when the turns were summarized. */
  prunedOccurred: boolean;
  /** How many tool outputs were truncated. */
  truncatedOutputCount: number;
}

/** The provider shape a `ContextManager` takes and returns messages in. */
export type ContextFormat = 'anthropic' | 'openai-chat' | 'openai-responses' | 'ai-sdk' | 'vscode';

/** The classes of the `vscode` module a `ContextManager` with format `'vscode'` builds messages with. */
export interface VscodeLanguageModelApi {
  // `never[]`: any array of the module's own part types is taken, as `typeof import('vscode')` declares them.
  LanguageModelChatMessage: new (role: number, content: never[], name?: string) => unknown;
  LanguageModelChatMessageRole: { User: number; Assistant: number };
  LanguageModelTextPart: new (value: string) => unknown;
  LanguageModelToolCallPart: new (callId: string, name: string, input: object) => unknown;
  LanguageModelToolResultPart: new (callId: string, content: never[]) => unknown;
}

/** Options of `ContextManager`. */
export interface ContextManagerOptions {
  /** The provider shape of the messages: `'anthropic'`, `'openai-chat'`, `'openai-responses'`, `'ai-sdk'` or `'vscode'`. */
  format: ContextFormat;
  /** The bound on every request, in tokens, a whole number >= 1000: the provider's count, through the calibration. */
  budget: number;
  /** Counts a text's tokens. Default `countTokens` (length / 4); `createTokenCounter('o200k_base')` from `@devs/context/tokenizers` counts exactly. */
  countTokens?: TokenCounter;
  /** Where texts are stored whole before they are masked or cut. Default: a new `MemoryStateRepository`. A store that fails does not fail a build: that text is cut instead, with a warning. */
  store?: StateRepository;
  /** Summarizes the oldest turns when masking is not enough (an object with `summarize`, or that function). Without one, they are dropped. One that throws, rejects, times out or returns an empty text does not fail a build: the oldest turns are dropped instead, with a warning. */
  summarizer?: SummarizerClient | SummarizerClient['summarize'];
  /** Milliseconds a summarizer may take before it counts as failed. Default 120,000. */
  summarizerTimeoutMs?: number;
  /** Your system prompt: first in every request, never cut. */
  system?: string;
  /** Texts every request carries after the system prompt, never cut or summarized (the TAS and PRD summaries, say). */
  pinned?: string[];
  /** Receives each request's ledger record as it is built. A throw fails that build, and changes nothing. */
  onLedger?: (record: LedgerRecord) => void;
  /** Receives each warning of a build (a store or summarizer that failed, with its `error`). A throw fails that build, and changes nothing. */
  onWarning?: (warning: ContextWarning) => void;
  /** Place Anthropic `cache_control` breakpoints (at most 4) where they pay. Default true. */
  cacheControl?: boolean;
  /** Learn the provider's count from `recordUsage`. Default true. */
  calibrate?: boolean;
  /** A request past this share of the budget is compacted. Default 0.75. */
  highWater?: number;
  /** A compaction brings the request down to this share of the budget. Default 0.25. */
  lowWater?: number;
  /** The newest messages a compaction keeps whole, as a share of the budget. Default 0.1, at most 0.5. */
  recentShare?: number;
  /** The largest share of the budget one text may take before it is cut, head and tail. Default 0.15, at most 0.25. */
  partShare?: number;
  /** No summarizer prompt exceeds this share of the budget. Default 0.4. */
  summarizerShare?: number;
  /**
   * Give the agent the recall tool: pass `recallTool` with your tools and answer its calls
   * with `recall(call)`. The index of stored texts then tells the model how to read one
   * back. Default false.
   */
  recall?: boolean;
  /**
   * Keep the opening user message (where most agents put the task) in every request, before
   * the summary, while the turns after it are folded away. Default true; false lets it be
   * summarized or dropped like any other turn.
   */
  keepFirstMessage?: boolean;
  /** For format `'vscode'`: the extension's `vscode` module, whose classes the messages are built with. */
  vscode?: VscodeLanguageModelApi;
  /**
   * Milliseconds the store and a reminder's text function may take. A store past it falls
   * back (the text is cut, with a warning); a reminder past it rejects the build with a
   * `CallbackTimeoutError`, and nothing changes. No bound by default; the summarizer has
   * its own, `summarizerTimeoutMs`.
   */
  callbackTimeoutMs?: number;
  /**
   * Texts re-sent on a schedule, such as the TAS and PRD summaries every 5 requests and
   * the specs every 10: each is appended at the tail of request `every`, `2 × every`, …,
   * as a system message where the provider takes one mid-conversation (`openai-chat`,
   * `openai-responses`), a user message otherwise. It joins the conversation there, so
   * the top of the request never changes for it. `text` may be a function, called when
   * due; one that throws or rejects fails that build, and changes nothing.
   */
  reminders?: ContextReminder[];
}

/**
 * A tool as a framework or provider is told of it, with no shape of its own: `recallSpec()`
 * gives the recall tool this way, for a framework the package has no adapter for.
 */
export interface ToolSpec {
  /** The tool's name, `recall` for the recall tool. */
  name: string;
  /** What the model reads of when to call it. */
  description: string;
  /** Its input, as a JSON Schema object. */
  parameters: Record<string, unknown>;
}

/** What `recall(id, options)` reads of a stored text: a page, or the lines that hold `query`. */
export interface RecallOptions {
  /** The first character to read (UTF-16 units, as JS counts a string's length). Default 0. */
  offset?: number;
  /** How many characters to read at most. Default: as many as one answer holds, a share of the budget. */
  length?: number;
  /** Only the lines that contain this text, case-insensitive, with their line numbers. */
  query?: string;
}

/** A text `ContextManager` re-sends every `every` requests (see `ContextManagerOptions.reminders`). */
export interface ContextReminder {
  /** Every how many requests, a whole number >= 1. */
  every: number;
  /** The text, or a function that returns it (or a promise of it) when due. */
  text: string | (() => string | Promise<string>);
}

/** A message as a snapshot keeps it: the message, the texts shown for its parts, and the parts written into it. */
export interface KeptMessage {
  source: unknown;
  shown?: Record<string, string>;
  baked?: number[];
}

/**
 * A `ContextManager` between builds, as JSON data (`manager.snapshot()`), to make the same
 * manager again with `ContextManager.restore`: the history with its masks, the summary,
 * the calibration and the ledger. Raw outputs stay in the store; the snapshot holds their
 * ids. Store it as it is (`JSON.stringify`): it is checked when restored, and one altered
 * or cut short is refused.
 */
export interface ContextSnapshot {
  /** The snapshot's own version: 2 (1, the rules' calls by name, is read still). A newer one is refused, naming both versions. */
  version: number;
  format: ContextFormat;
  /** Which budget, shares, system prompt and pinned texts the manager had: `restore` needs the same. */
  config: string;
  /** The rules' state, in their own encoding (base64): what `restore` makes them from, with no callback called. */
  rules?: string;
  /** Events of the rules' journal after `rules`, in their encoding (base64): none in a snapshot, some in a session's checkpoint. */
  events?: string[];
  /** How many ledger records came before `ledger[0]`: a snapshot keeps the last few. */
  ledgerFrom?: number;
  /** Version 1: the rules' calls that made their state. */
  log?: unknown[][];
  /** A check of all the rest, with keys in any order: a snapshot altered or cut short is refused. */
  check: string;
  /**
   * Each message as the manager keeps it; `null`, or in a run of them their count: behind
   * the summary, released. A snapshot's size follows what is live, not the session's age.
   */
  messages: Array<KeptMessage | null | number>;
  /** Each tool call's id and name, in order; a count: that many calls folded away, let go. */
  calls: Array<[string, string] | number>;
  summary: string;
  tail: string;
  ledger: LedgerRecord[];
  /** The index line of each text the manager stored, by store id. */
  lines?: Record<string, string>;
}

/** Options of `ContextManager.open`: a manager's, and the session to keep it in. */
export interface ContextSessionOptions extends Omit<ContextManagerOptions, 'store'> {
  /** The session's name in the store: created on first open, resumed after. */
  sessionId: string;
  /**
   * Workers in several processes share the session: `append` queues its messages (the next
   * build by any worker takes them in, in queue order), and one worker at a time builds, so
   * each compaction asks the summarizer once. Default false: one worker owns the session,
   * and another's call on it is a `SessionConflictError`.
   */
  shared?: boolean;
  /** Keeps the session, and the texts it stores whole (`SqliteStateRepository`, `PostgresStateRepository`). */
  store: SessionStore;
}

/**
 * A store that keeps sessions written ahead: `SqliteStateRepository` from
 * `@devs/context/sqlite`, `PostgresStateRepository` from `@devs/context/postgres`. A host's
 * own store implements these methods; each may return a promise.
 */
export interface SessionStore {
  /** The session's committed calls after version `after` (default 0), in order, what it has stored, and the appends queued for it; `undefined` for a new session with none queued. */
  loadSession(sessionId: string, after?: number): Promise<SessionRows | undefined> | SessionRows | undefined;
  /**
   * Writes one call, all or nothing: its changes as version `version + 1`, and the texts it
   * stored. Throws `SessionConflictError` (writing nothing) when the session is no longer at
   * `version`; at version 0, when it exists.
   */
  commitSession(commit: SessionCommit): Promise<void> | void;
  /** A summary written for `key` (the summarizer's prompt's key), if one was. */
  readSummary(sessionId: string, key: string): Promise<string | undefined> | string | undefined;
  /**
   * Claims `key` of the session for `owner`, for `ttlMs` (by the store's clock): true when
   * no summary is kept for `key` and no other owner's claim on it is live. A summary's key
   * is claimed by the one worker that asks for it, the others wait for its answer; a shared
   * session's `'build'` by the one worker that builds.
   */
  claim(sessionId: string, key: string, owner: string, ttlMs: number): Promise<boolean> | boolean;
  /** Ends `owner`'s claim on `key` (no summary came, or the build is written): another may claim it. */
  release(sessionId: string, key: string, owner: string): Promise<void> | void;
  /** Keeps a summary the moment it is paid for, and ends its claim: asked again for `key`, `readSummary` gives it. */
  writeSummary(sessionId: string, key: string, text: string): Promise<void> | void;
  /**
   * Queues messages (JSON text) appended to a shared session: the next build, by any
   * worker, takes them in, in queue order. `appendId` names the append: queued again under
   * the same id (a retry after a lost answer), it is queued once.
   */
  enqueue(sessionId: string, messages: string, appendId: string): Promise<void> | void;
}

/** A session as `SessionStore.loadSession` reads it. */
export interface SessionRows {
  /** The calls committed. */
  version: number;
  format: string;
  config: string;
  /** Each call's changes, as `SessionCommit.changes` wrote them, oldest first: from `checkpoint.version` on when there is one. */
  changes: string[];
  /** The newest checkpoint after version `after`, if the store keeps them: the state before call `version`. */
  checkpoint?: { version: number; state: string };
  /** How many texts the session stored (their ids run `sessionId:1` on). */
  outputs: number;
  /** Appends queued for a shared session and not yet taken in: `[seq, messages]`, in queue order. */
  inbox: Array<[number, string]>;
}

/** One call of a session, as `SessionStore.commitSession` writes it. */
export interface SessionCommit {
  sessionId: string;
  /** The version the call was made on: the store's must still be this one. */
  version: number;
  format: string;
  config: string;
  /** What the call changed, as JSON text. */
  changes: string;
  /** Texts the call stored whole, numbered on from the session's last. */
  outputs: SessionOutput[];
  /** Queued appends the call took in (their `seq`): marked as taken in by this version, with it. */
  inbox?: number[];
  /** Every so many calls, the session's state before this call (a `ContextSnapshot` as JSON text): `loadSession` gives the newest, and the calls from this one on. */
  checkpoint?: string;
}

/** A text a session stored whole: its id is `<sessionId>:<seq>`, which `getRawToolOutput` reads back. */
export interface SessionOutput extends ToolOutputEntry {
  seq: number;
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

/** What `ContextManager.build` returns: a request to pass straight to the provider's SDK. */
export interface ContextBuild<Message = unknown> {
  /** Anthropic's `system` (a string, or text blocks with a cache breakpoint); other formats carry the system prompt in `messages`. */
  system?: string | Array<{ type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }>;
  /** The request's messages (Responses API: input items), in the provider's own shape. */
  messages: Message[];
  /** The request's tokens as the provider is expected to count them: at most the budget. */
  tokens: number;
  /** What the manager did for this request, and what it is expected to cost. */
  ledger: LedgerRecord;
}

/** Something a build could not do as asked, and fell back from. */
export interface ContextWarning {
  /** The request it happened in (1-based). */
  request: number;
  /** `'store-failed'`, `'summarizer-failed'`, `'summary-over-cap'`, `'summary-dropped'`, `'squeezed'`, `'deferred'`, `'open-loop-thinking-dropped'`, `'user-text-dropped'`, `'usage-set-aside'` or `'history-rebuilt'`. */
  code: string;
  /** What happened, with the host's error in parentheses where a callback failed. */
  message: string;
  /** What the store or summarizer threw or rejected with, as it was. */
  error?: unknown;
}

/** A range of messages `from..to`, by their index in the conversation (0-based, as appended). */
export interface MessageSpan {
  from: number;
  to: number;
}

/**
 * One request's record (a `ContextManager`'s, or a bounded `AgentRunner` turn's): what it
 * holds, what a compaction did and why, and what it is expected to cost with the
 * provider's prompt cache.
 */
export interface LedgerRecord {
  /** 1-based. */
  request: number;
  /** The bound this request had to fit. */
  budget: number;
  /** As the provider is expected to count them; at most `budget`. */
  tokens: number;
  /** By the manager's counter: the sum of `sections`. */
  rawTokens: number;
  /** Tokens of each part of the request, by the manager's counter. */
  sections: { system: number; pinned: number; summary: number; history: number; appended: number; framing: number };
  /** The prompt cache: tokens expected to be read from it (the prefix shared with the previous request) and written to it, what the provider reported (`recordUsage`), this request's input cost in uncached-token units (reads 0.1, writes 1.25), and the session's so far relative to sending every request uncached. */
  cache: { read: number; write: number; observedRead: number | null; observedWrite: number | null; cost: number; sessionRelativeCost: number };
  /** Set when a compaction ran for this request: why, the tokens before and after, the marks, how far below the high water mark it brought the request, the earliest message it edited, the messages it kept, summarized or dropped, and the store ids of what it masked. */
  compaction: {
    trigger: 'highWater' | 'asked';
    before: number;
    after: number;
    highWater: number;
    lowWater: number;
    belowTrigger: number;
    editFrom: number | null;
    kept: MessageSpan | null;
    summarized: MessageSpan | null;
    dropped: MessageSpan | null;
    masked: string[];
    /** Store ids the index of folded texts names now that it did not before. */
    indexed: string[];
    summarizerChunks: number;
    largestSummarizerPrompt: number;
  } | null;
  /** Texts too large for their share, stored and cut the first time they were sent. */
  cut: number;
  /** Signed thinking blocks left out because an edit came before them. */
  thinkingDropped: number;
  /** What the manager could not do as asked. */
  warnings: Array<{ code: string; message: string }>;
  /** The calibration when the request was built (see `ContextManager.calibration`). */
  calibration: { overhead: number; ratio: number; samples: number };
  /** The counter's name, or `length/4`. */
  counter: string;
  /** Milliseconds spent building the request. */
  ms: number;
}
