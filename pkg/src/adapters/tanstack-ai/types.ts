// The public types of `@devs/context/tanstack-ai`. They name nothing of TanStack AI (which is
// ESM only, and an optional peer): the middleware reads the few fields it needs, and its
// `onConfig` is generic over the config the chat engine hands it, so it is a `ChatMiddleware`
// by its shape, and the declarations load with or without `@tanstack/ai` installed.
import type { CompactionEvent, CompactionNotice, CompactionSteer, ContextManager, ContextManagerOptions, ContextWarning, LedgerRecord } from '@devs/context';

/** Options of `contextMiddleware`: a `ContextManager`'s, less those the middleware sets itself, and its own. */
export interface ContextMiddlewareOptions extends Omit<ContextManagerOptions, 'format' | 'vscode' | 'recall' | 'system' | 'pinned' | 'reminders' | 'cacheControl' | 'onLedger' | 'onWarning' | 'onCompaction' | 'beforeCompaction'> {
  /**
   * Give the model the recall tool (named `recall`, added to the chat's tools and run by
   * TanStack AI's tool loop like any other), through which it reads back a text its prompt
   * shows as `stored as <id>`. Default true.
   */
  recall?: boolean;
  /**
   * How images and documents are counted (`ContextManagerOptions.imageTokens`). Default:
   * the larger of Anthropic's and OpenAI's rules, since TanStack AI's adapter may be
   * either's; name the provider to count by its rule alone.
   */
  imageTokens?: ContextManagerOptions['imageTokens'];
  /**
   * How many conversations (chat `threadId`s) keep their manager, the least recently used
   * let go first. Default 100. A conversation let go and called again starts a new manager.
   */
  maxConversations?: number;
  /** Receives each model call's ledger record (its tokens, its compaction, its cache figures), with its thread. A throw fails that model call. */
  onLedger?: (record: LedgerRecord, threadId: string) => void;
  /** Receives each warning of a build (a summarizer that failed, a history taken in anew), with its thread. A throw fails that model call. */
  onWarning?: (warning: ContextWarning, threadId: string) => void;
  /** Receives one event for each compaction (`ContextManagerOptions.onCompaction`), with its thread. A throw fails that model call. */
  onCompaction?: (event: CompactionEvent, threadId: string) => void;
  /** Called before a compaction, with its thread (`ContextManagerOptions.beforeCompaction`). */
  beforeCompaction?: (notice: CompactionNotice, threadId: string) => CompactionSteer | void | Promise<CompactionSteer | void>;
}

/** What the middleware reads of TanStack AI's `ChatMiddlewareContext`. */
export interface ChatContext {
  /** The chat's `threadId` (or the one TanStack AI made for a chat without one): the conversation. */
  threadId: string;
  /** `'init'`, `'beforeModel'`, `'structuredOutput'`, …: the middleware bounds the messages before a model call. */
  phase: string;
  /** The provider adapter's name (`'openai'`, `'anthropic'`, …): how its usage counts the cached input. */
  provider?: string;
}

/** What the middleware reads and sets of TanStack AI's `ChatMiddlewareConfig`. */
export interface ChatConfig {
  /** The conversation: `user`, `assistant` and `tool` messages (`ModelMessage`). */
  messages: readonly unknown[];
  /** What the model is sent; the middleware sets it, the bounded view of `messages`. */
  providerMessages?: readonly unknown[] | undefined;
  /** The chat's system prompts, strings or `{ content, metadata }`: counted, never cut, passed on as they are. */
  systemPrompts: readonly unknown[];
  /** The chat's tools; the recall tool is added to them. */
  tools: readonly unknown[];
}

/** What the middleware reads of TanStack AI's usage of a model call (`TokenUsage`). */
export interface ChatUsage {
  promptTokens: number;
  promptTokensDetails?: { cachedTokens?: number; cacheWriteTokens?: number } | undefined;
}

/**
 * The middleware `contextMiddleware` makes: a TanStack AI `ChatMiddleware`, to pass in
 * `chat({ middleware: [context] })`, last of the chat's middleware.
 */
export interface ContextMiddleware {
  readonly name: string;
  /** Before each model call: bounds what the model is sent (`providerMessages`) with the thread's manager, and adds the recall tool. */
  onConfig: <C extends ChatConfig>(ctx: ChatContext, config: C) => Promise<Partial<C> | undefined>;
  /** After each model call: records its usage with the thread's manager. */
  onUsage: (ctx: ChatContext, usage: ChatUsage) => Promise<void>;
  /**
   * The thread's `ContextManager` while it is in memory: its `ledger` (each model call's
   * tokens, compaction and cache figures), `calibration`, `compact()`. `undefined` before the
   * thread's first model call.
   */
  manager(threadId: string): ContextManager | undefined;
  /** Lets every thread go once its operations have ended: frees their managers. */
  close(): Promise<void>;
}
