// The shapes of `ContextManager` and `ContextSession`: options, the request a build
// returns, its ledger and warnings, snapshots. The Rust rules are checked against the
// ledger's (crates/rules/tests/shapes.rs).
import type { ContextFormat, SummarizerClient, SummarizerRequest, TokenCounter, ToolSpec, VscodeLanguageModelApi } from '../core/types.js';
import type { StateRepository, SessionStore } from '../stores/types.js';
import type { WarningCode } from '../core/protocol.js';

export type { ContextFormat, ToolSpec, VscodeLanguageModelApi, WarningCode };

/** A provider whose image rule a manager can count by (`imageTokens`). */
export type ImageProvider = 'anthropic' | 'openai' | 'gemini';

/** An image or a document as measured, for an `imageTokens` function. */
export interface MediaInfo {
  kind: 'image' | 'document';
  /** `image/png`, `application/pdf`, … (`''` when neither the message nor the bytes say). */
  mediaType: string;
  /** An image's size in pixels, read from its header (0 when it cannot be read: given by URL or file id). */
  width: number;
  height: number;
  /** A PDF's pages, read from the PDF (0 when they cannot be read). */
  pages: number;
  /** An OpenAI image's `detail` (`'auto'` for every other). */
  detail: 'auto' | 'low' | 'high' | 'original';
  /** The tokens the format's provider rule gives it. */
  tokens: number;
}

/** Options of `ContextManager`. */
export interface ContextManagerOptions {
  /** The provider shape of the messages: `'anthropic'`, `'openai-chat'`, `'openai-responses'`, `'gemini'` (`@google/genai` `Content`), `'ai-sdk'` or `'vscode'`. */
  format: ContextFormat;
  /** The bound on every request, in tokens, a whole number >= 1000: the provider's count, through the calibration. */
  budget: number;
  /** Counts a text's tokens. Default `countTokens` (length / 4); `createTokenCounter('o200k_base')` from `@devs/context/tokenizers` counts exactly. */
  countTokens?: TokenCounter;
  /** Where texts are stored whole before they are masked or cut. Default: a new `MemoryStateRepository`. A store that fails does not fail a build: that text is cut instead, with a warning. */
  store?: StateRepository;
  /** Summarizes the oldest turns when masking is not enough (an object with `summarize`, or that function). Without one (or with `false`), they are dropped. It may answer `{ summary, usage }` with the usage of the call that wrote it. One that throws, rejects, times out or returns an empty text does not fail a build: the oldest turns are dropped instead, with a warning. */
  summarizer?: SummarizerClient | SummarizerClient['summarize'] | ContextSummarizer | ContextSummarizer['summarize'] | false;
  /** Milliseconds a summarizer may take before it counts as failed. Default 120,000. */
  summarizerTimeoutMs?: number;
  /**
   * The summarizing instruction, in place of the built-in one (`defaultSummaryPrompt`:
   * sections for the task in the user's words, decisions, files and artifacts, errors and
   * next steps). It opens the summarizer's prompt, and ends the request it is also given
   * (see docs/guides/summaries.md for both layouts). A later summary is asked, after it,
   * to update the summary so far rather than summarize it again.
   */
  summaryPrompt?: string;
  /** Your system prompt: first in every request, never cut. */
  system?: string;
  /** Texts every request carries after the system prompt, never cut or summarized (the TAS and PRD summaries, say). */
  pinned?: string[];
  /** Receives each request's ledger record as it is built. A throw fails that build, and changes nothing. */
  onLedger?: (record: LedgerRecord) => void;
  /** Receives one event for each compaction, as its build ends: what it did, the tokens and messages before and after, the cache read, written and invalidated, the summary, and the summarizer's error if it failed. A throw fails that build, and changes nothing. */
  onCompaction?: (event: CompactionEvent) => void;
  /** Receives each warning of a build (a store or summarizer that failed, with its `error`). A throw fails that build, and changes nothing. */
  onWarning?: (warning: ContextWarning) => void;
  /**
   * Called before a build that would compact (past the high water mark, or after
   * `compact()`), with what it is about to do. It may answer `{ instructions }`, added to
   * the summarizing instruction for this build's summaries, and `{ defer: true }`, to wait
   * while the request still fits the budget (the warning `compaction-deferred`; a request
   * that would not fit compacts). May be async; a throw fails that build, and changes nothing.
   */
  beforeCompaction?: (notice: CompactionNotice) => CompactionSteer | void | Promise<CompactionSteer | void>;
  /**
   * Where each compaction's span goes: an OpenTelemetry `Tracer` (`trace.getTracer('…')`).
   * Default: the tracer provider the host's OpenTelemetry registered, if any (the package
   * imports nothing of `@opentelemetry/api`, an optional peer). Each compaction is a span,
   * `context.compaction`, with its figures (`devs_context.compaction.*`) and
   * `gen_ai.usage.cache_read.input_tokens` / `gen_ai.usage.cache_creation.input_tokens`;
   * each summarizer call is its child, `context.summarize`. A throw from the tracer, a
   * span, its processor or the registered provider never fails a build: it is the
   * warning `telemetry-failed`.
   */
  tracer?: { startSpan(name: string, options?: object, context?: unknown): unknown };
  /** The conversation's id on each span (`gen_ai.conversation.id`, which Langfuse and LangSmith group by). Default: a session's `sessionId`; none for a manager. */
  conversationId?: string;
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
  /**
   * Tools whose calls and results are never masked, cut or folded away (a memory, a todo
   * list, a plan, a skill), by the name the provider's messages give them. Newest first,
   * they may take `protectedShare` of the budget whole in a request; turns folded into the
   * summary carry theirs verbatim after it, newest first, within that share again. Past
   * it, the oldest are treated as any other part, with the warning `'protected-over-share'`.
   */
  protectedTools?: string[];
  /** The share of the budget `protectedTools` may take. Default 0.1, at most 0.5; only with `protectedTools`. */
  protectedShare?: number;
  /**
   * The share of the budget the working state gives the user's own words, verbatim, newest
   * first; older ones are named by their first line and a store id (`recall(id)` gives them
   * whole). The working state is a section the engine writes after the summary at each
   * compaction (never the summarizer): the user's
   * words, the files the agent changed, the calls still open (`ContextManager.workingState`).
   * Default 0.1 (to be re-chosen on the bench's tune half), at most 0.3.
   */
  userWordsShare?: number;
  /**
   * The provider's prompt-cache lifetime, in ms: a pause longer than this between two
   * requests (by the times given to `build({ now })`) leaves the cache cold, and the next
   * request writes its whole prefix again. Default 300000 (Anthropic's 5 minutes; OpenAI's
   * in-memory cache keeps a prefix 5 to 10 minutes). Read only with `pauseCompactAt`.
   */
  cacheTtlMs?: number;
  /**
   * At the first request after a pause longer than `cacheTtlMs`, a request above this share
   * of the budget is compacted before the high water mark, by masking old tool outputs
   * (no summarizer call, which after a pause would pay a full write too): the write is due
   * anyway, and every request after it is smaller. In (0, highWater); off by default. Needs
   * the request's time, `build({ now })`: without it nothing changes. Past the high water
   * mark the usual compaction runs.
   */
  pauseCompactAt?: number;
  /** How the working state reads a session beyond the agents it knows. */
  workingState?: WorkingStateOptions;
  /** For format `'vscode'`: the extension's `vscode` module, whose classes the messages are built with. */
  vscode?: VscodeLanguageModelApi;
  /**
   * How images and documents are counted: by the rule of a provider (`'anthropic'`,
   * `'openai'`, `'gemini'`), by the rule of a model (`{ provider, model }`: the model names
   * the figures where a provider's models differ, such as `'claude-opus-4-7'`'s larger
   * images, `'gpt-5'`'s tiles or `'gpt-4.1-mini'`'s patches), or by a function of each
   * image's measured size. Default: the rule of the format's provider; `'ai-sdk'` and
   * `'vscode'`, which name none, count by the larger of Anthropic's and OpenAI's. An image
   * by URL or file id counts the most the rule bills any image. Audio and video count by
   * the rule's rate a second, never by the function.
   */
  imageTokens?: ImageProvider | { provider?: ImageProvider; model?: string } | ((media: MediaInfo) => number);
  /**
   * The newest images every request keeps whole. Older ones are stored and replaced by a
   * line naming their size and store id, several at a time, so the prompt cache breaks
   * seldom: about `5 × √keepImages` at once (9 for the default; Anthropic's computer-use
   * reference loop removes `keepImages` at once): where the cache writes a removal costs,
   * spread over the images it removes, balance the cache reads of keeping them whole a
   * while longer. Never so many that the images whole take more than 40% of the budget.
   * The kept images stay whole through a compaction too: never masked, and their turns
   * stay out of a summary or a drop while they fit below halfway between `lowWater` and
   * `highWater` (past that, the oldest yields first). Default 3.
   */
  keepImages?: number;
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

/** The recall tool's input, as a JSON Schema object. */
export interface RecallToolSchema {
  type: 'object';
  properties: Record<string, unknown>;
  required: string[];
  [key: string]: unknown;
}

/**
 * The recall tool in each format's shape, as `recallTool` gives it: each is assignable to
 * the SDK's own tool type (Anthropic's `Tool`, OpenAI's `ChatCompletionTool` and the
 * Responses `FunctionTool`, `vscode.LanguageModelChatTool`). The AI SDK's is a `tool()`
 * whose schema type is the SDK's own, so it is `unknown` here: the AI SDK middleware
 * registers it for you.
 */
export interface RecallTools {
  anthropic: { name: string; description: string; input_schema: RecallToolSchema };
  'openai-chat': { type: 'function'; function: { name: string; description: string; parameters: RecallToolSchema } };
  'openai-responses': { type: 'function'; name: string; description: string; parameters: RecallToolSchema; strict: boolean };
  /** A `Tool` of `@google/genai`, for `config.tools`. */
  gemini: { functionDeclarations: Array<{ name: string; description: string; parametersJsonSchema: RecallToolSchema }> };
  'ai-sdk': unknown;
  vscode: { name: string; description: string; inputSchema: RecallToolSchema };
}

/**
 * The recall tool of a manager of `Format`: its shape where the format is known, `unknown`
 * where it may be any (the AI SDK's is `unknown`). An indexed type, not a conditional one, so
 * that a manager of one format is a manager of every format (`ContextManager<M>`).
 */
export type RecallToolOf<Format extends ContextFormat> = RecallTools[Format];

/** An image or a PDF a recall answer carries, as Anthropic's blocks take it. */
type AnthropicRecallMedia =
  | { type: 'image'; source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string } | { type: 'url'; url: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'url'; url: string } };

/**
 * The message `recall(call)` answers with, in each format's shape: each is assignable to
 * the SDK's own (Anthropic's `MessageParam` holding a `ToolResultBlockParam`, OpenAI's
 * `ChatCompletionToolMessageParam`, the Responses `ResponseInputItem.FunctionCallOutput`).
 * The AI SDK's and `vscode.lm`'s are the SDK's own classes or unions: `unknown` here.
 */
export interface RecallAnswers {
  anthropic: { role: 'user'; content: Array<{ type: 'tool_result'; tool_use_id: string; content: string | Array<{ type: 'text'; text: string } | AnthropicRecallMedia> }> };
  'openai-chat': { role: 'tool'; tool_call_id: string; content: string };
  'openai-responses': {
    type: 'function_call_output';
    call_id: string;
    output: string | Array<
      | { type: 'input_text'; text: string }
      | { type: 'input_image'; detail: 'auto' | 'low' | 'high'; image_url?: string; file_id?: string }
      | { type: 'input_file'; filename?: string; file_data?: string; file_url?: string; file_id?: string }
    >;
  };
  /** A user `Content` of `@google/genai` holding the `functionResponse` (its `id` when the call had one). */
  gemini: {
    role: 'user';
    parts: Array<{ functionResponse: { id?: string; name: string; response: { output: string }; parts?: Array<{ inlineData?: { mimeType: string; data: string }; fileData?: { mimeType: string; fileUri: string } }> } }>;
  };
  'ai-sdk': unknown;
  vscode: unknown;
}

/** The answer of `recall(call)` for a manager of `Format`: its shape where the format is known, `unknown` where it may be any (as `RecallToolOf`). */
export type RecallAnswerOf<Format extends ContextFormat> = RecallAnswers[Format];

/**
 * What `append` takes beside the manager's `Message`, per format: the Responses API's
 * output items as a response gives them (`response.output`), which its SDK types apart
 * from the input items a request takes (a `status` of `'failed'`, say). The manager reads
 * every item as it reads input, and refuses one it cannot with a TypeError naming it.
 */
export interface AppendExtras {
  anthropic: never;
  'openai-chat': never;
  'openai-responses': ReadonlyArray<{ readonly type: string }>;
  gemini: never;
  'ai-sdk': never;
  vscode: never;
}

/** What `append` takes beside `Message` for a manager of `Format` (of every format, where it may be any). */
export type AppendExtraOf<Format extends ContextFormat> = AppendExtras[Format];

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
 * The system prompt a build returns apart, per format: Anthropic's `system` (a string, or
 * text blocks with a cache breakpoint) and Gemini's `systemInstruction` (a string). The
 * other formats carry it in `messages`, so their `system` is never set.
 */
export interface BuildSystems {
  anthropic: string | Array<{ type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }>;
  'openai-chat': never;
  'openai-responses': never;
  gemini: string;
  'ai-sdk': never;
  vscode: never;
}

/** What a build of a manager of `Format` returns as `system`: every format's, where it may be any. */
export type BuildSystemOf<Format extends ContextFormat> = BuildSystems[Format];

/** What `ContextManager.build` returns: a request to pass straight to the provider's SDK. */
export interface ContextBuild<Message = unknown, Format extends ContextFormat = ContextFormat> {
  /** The system prompt where the format takes it apart from the messages (`BuildSystems`): Anthropic's `system`, Gemini's `systemInstruction`. */
  system?: BuildSystemOf<Format>;
  /** The request's messages (Responses API: input items), in the provider's own shape. */
  messages: Message[];
  /** The request's tokens as the provider is expected to count them: at most the budget. */
  tokens: number;
  /** What the manager did for this request, and what it is expected to cost. */
  ledger: LedgerRecord;
}

/**
 * A summary with the provider's usage of the call that wrote it: what a summarizer may
 * answer in place of the text alone, so the compaction's event and span carry its cost.
 */
export interface SummaryAnswer {
  summary: string;
  /** The provider's usage object, in the shape `recordUsage` takes for the manager's format. */
  usage?: unknown;
}

/** A summarizer whose answer may carry its usage (a `SummarizerClient` is one). */
export interface ContextSummarizer {
  summarize(prompt: string, request?: SummarizerRequest): Promise<string | SummaryAnswer> | string | SummaryAnswer;
}

/** What a compaction's summarizer calls cost, summed over those that said. */
export interface SummaryUsage {
  /** Input tokens, the cached ones included. */
  input: number;
  /** Read from the provider's cache, and written to it. */
  cacheRead: number;
  cacheWrite: number;
  /** In uncached input tokens: cache reads at 0.1, writes at 1.25 (output not counted). */
  cost: number;
}

/** What `beforeCompaction` is told of the compaction a build is about to run. */
export interface CompactionNotice {
  /** The request about to be built (1-based). */
  request: number;
  /** `'highWater'`: the request is past the mark; `'asked'`: `compact()` was called. */
  trigger: 'highWater' | 'asked';
  /** The request's tokens before the compaction, as the provider is expected to count them. */
  tokens: number;
  /** The bound on every request. */
  budget: number;
}

/** What `beforeCompaction` may answer. */
export interface CompactionSteer {
  /** Added after the summarizing instruction for this build's summaries (what to keep, say). */
  instructions?: string;
  /** Wait while the request still fits the budget. */
  defer?: boolean;
}

/** Something a build could not do as asked, and fell back from. */
export interface ContextWarning {
  /** The request it happened in (1-based). */
  request: number;
  /** What happened: one of the codes the rules and the shell declare (`WarningCode`). */
  code: WarningCode;
  /** What happened, with the host's error in parentheses where a callback failed. */
  message: string;
  /** What the store, the summarizer or the telemetry (the first call that threw) threw or rejected with, as it was. */
  error?: unknown;
}

/** The options of one `build()` (`ContextManager`, `ContextSession`). */
export interface BuildOptions {
  /**
   * The time of the request, in ms since the epoch (`Date.now()`, or a transcript's time in
   * a replay). Journaled, so a replay or a restored session decides the same. With
   * `pauseCompactAt`, a request after a pause longer than `cacheTtlMs` is compacted by
   * masking. It must not go back: a time before the last one given is a RangeError (the
   * same time again is fine). Left out, the request's time is unknown, and no pause is seen
   * at it or at the next; a build that fails keeps the time it was given for the next.
   */
  now?: number;
}

/** One compaction, as `onCompaction` receives it. */
export interface CompactionEvent {
  /** The request it was made for (1-based). */
  request: number;
  /** Why it ran: past the high water mark, asked (`compact()`), old images, the provider's own compaction, or a pause longer than the cache's lifetime (`pauseCompactAt`). */
  trigger: 'highWater' | 'asked' | 'images' | 'provider' | 'pause';
  /** What it did: outputs masked (stored, shown by a line), texts cut, and the messages summarized and dropped. */
  actions: { masked: number; cut: number; summarized: MessageSpan | null; dropped: MessageSpan | null };
  /** The request's tokens, as the provider is expected to count them, before and after. */
  tokens: { before: number; after: number };
  /** The conversation's messages the request held before, and after (the summary counts as one). */
  messages: { before: number; after: number };
  /** Store ids of what it stored or newly indexed: each one recall away. */
  stored: string[];
  /** Tokens expected to be read from the prompt cache, written to it, and no longer read (the previous request's, past the prefix kept). */
  cache: { read: number; written: number; invalidated: number };
  /** The summarizer's calls, the summary's tokens (0 with none), its largest prompt, and what its calls cost where it said (`SummaryAnswer.usage`). */
  summary: { chunks: number; tokens: number; largestPrompt: number; usage?: SummaryUsage };
  /** The working state the engine wrote after the summary, as the request shows it ('' when it holds none): `ContextManager.workingState`. */
  workingState: string;
  /** Milliseconds the build took, the summarizer's wait included. */
  ms: number;
  /** What the summarizer threw or rejected with, when it failed (the oldest turns were dropped instead). */
  error?: unknown;
}

/** A range of messages `from..to`, by their index in the conversation (0-based, as appended). */
export interface MessageSpan {
  from: number;
  to: number;
}

/**
 * How the provider's reported input tokens relate to ours: `provider ≈ overhead + ratio ×
 * text + mediaRatio × media`, fitted from `recordUsage` (images and documents apart from
 * text, so a misjudged image never loosens the count of text).
 */
export interface CalibrationFigures {
  overhead: number;
  /** The text's ratio. */
  ratio: number;
  /** The images' and documents' ratio: 1 while their rule matches what the provider bills. */
  mediaRatio: number;
  /** The usage reports it was fitted from. */
  samples: number;
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
    trigger: 'highWater' | 'asked' | 'images' | 'provider' | 'pause';
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
  warnings: Array<{ code: WarningCode; message: string }>;
  /** The calibration when the request was built (see `ContextManager.calibration`). */
  calibration: CalibrationFigures;
  /** The counter's name, or `length/4`. */
  counter: string;
  /** Milliseconds spent building the request. */
  ms: number;
}

/** How the working state reads a session beyond the agents it knows (`ContextManagerOptions.workingState`). */
export interface WorkingStateOptions {
  /**
   * Your own edit tools, by name: the path their input names (`path`, `file_path`,
   * `filePath`, …) goes in the file trail as edited. Claude Code's, Codex's, Cline's,
   * Gemini CLI's and opencode's edit and write tools, the text editor tools and
   * `apply_patch` envelopes are read without it.
   */
  editTools?: string[];
  /** Read `mv` and `rm` (and `git mv`, `git rm`) in shell commands into the file trail. Default false: a command's words are a guess at what it did. */
  shellCommands?: boolean;
  /**
   * Whether a user text is your harness's, not the user's (a reminder your agent adds):
   * left out of the user's words. Claude Code's, Codex's and Cline's markers are known
   * without it. A throw fails the build, which is taken back.
   */
  injected?: (text: string) => boolean;
}
