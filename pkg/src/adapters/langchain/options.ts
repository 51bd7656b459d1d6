// The middleware's options, read once when it is made: a bad one is a TypeError or
// RangeError naming the field, before the agent runs. What `ContextManager` itself checks
// (the budget, the counter, the shares) is checked by it, with its own messages.
import { ContextManager } from '@devs/context';
import { type ChatModel, isChatModel } from './summarizer.js';
import { argumentError, MANAGER_CALLBACKS, managerOptions, maxConversations, optionalCallback, optionsBag, recallOption, typeName } from '../kit/options.js';
import type { CompactionEvent, CompactionNotice, CompactionSteer, ContextManagerOptions, ContextWarning, LedgerRecord, SessionStore, SummarizerClient, TokenCounter } from '@devs/context';

/** A LangChain chat model as a summarizer: anything with `invoke(text)` whose answer has a `text`. */
export interface SummarizerModel {
  invoke(input: string): Promise<{ text: string }>;
}

/** Options of `contextMiddleware`. */
export interface ContextMiddlewareOptions {
  /** The bound on every request the model gets, in tokens (a whole number >= 1000), its system prompt included. */
  budget: number;
  /** Counts a text's tokens. Default length / 4; `createTokenCounter('o200k_base')` from `@devs/context/tokenizers` counts exactly. */
  countTokens?: TokenCounter;
  /**
   * Summarizes the oldest turns when storing old outputs is not enough. Default: the
   * agent's own model, sent the messages it was last called with (its tools bound as they
   * were) and the summarizing instruction, so the provider reads the prefix from its cache;
   * its run is tagged `ls_agent_type: 'compaction'`, and its usage is the compaction's cost
   * (`onCompaction`'s `summary.usage`). Another LangChain chat model writes them the same
   * way; a function of the prompt or an object with `summarize` is called as
   * `ContextManager` calls it; `false` writes none (the oldest turns are dropped, stored and
   * indexed, and the request says where they went).
   */
  summarizer?: SummarizerClient | SummarizerClient['summarize'] | SummarizerModel | false;
  /** Milliseconds the summarizer may take. Default 120,000. */
  summarizerTimeoutMs?: number;
  /** The summarizing instruction, in place of the built-in one (`defaultSummaryPrompt()`): what `summarizationMiddleware`'s `summaryPrompt` is. */
  summaryPrompt?: string;
  /** Give the agent the `recall` tool, to read back a stored text by its id. Default true. */
  recall?: boolean;
  /**
   * Keep each thread's context in this store (`SqliteStateRepository` from
   * `@devs/context/sqlite`, `PostgresStateRepository` from `@devs/context/postgres`): a
   * thread resumed after a restart, with the agent's checkpointer, goes on from its session.
   * Default: in memory.
   */
  store?: SessionStore;
  /** Threads kept in memory at once; the least recently used beyond it is let go (and taken in anew, or reopened from `store`, when it comes back). Default 100. */
  maxThreads?: number;
  /** A request past this share of the budget is compacted. Default 0.75. */
  highWater?: number;
  /** A compaction brings the request down to this share of the budget. Default 0.25. */
  lowWater?: number;
  /** The newest messages a compaction keeps whole, as a share of the budget. Default 0.1. */
  recentShare?: number;
  /** The largest share of the budget one text may take before it is cut, head and tail. Default 0.15. */
  partShare?: number;
  /** No summarizer prompt exceeds this share of the budget. Default 0.4. */
  summarizerShare?: number;
  /** Learn the provider's count from the usage each answer reports. Default true. */
  calibrate?: boolean;
  /** Milliseconds the store and the hooks may take before they count as failed. No bound by default. */
  callbackTimeoutMs?: number;
  /** Keep the opening user message (the task) whole in every request. Default true. */
  keepFirstMessage?: boolean;
  /** The newest images every request keeps whole; older ones are stored and named, several at a time (`ContextManagerOptions.keepImages`). Default 3. */
  keepImages?: number;
  /**
   * How images and documents are counted (`ContextManagerOptions.imageTokens`): by a
   * provider's rule (`'anthropic'`, `'openai'`, `'gemini'`), a model's (`{ model }`), or a
   * function. Default: the larger of Anthropic's and OpenAI's rules, since a LangChain model may be
   * either's; name the provider to count by its rule alone.
   */
  imageTokens?: ContextManagerOptions['imageTokens'];
  /** Receives each warning of a build (a summarizer that failed, a history taken in anew), with its thread. A throw fails that model call. */
  onWarning?: (warning: ContextWarning, threadId: string) => void;
  /** Receives each request's ledger record (its tokens, its compaction, its cache figures), with its thread. A throw fails that model call. */
  onLedger?: (record: LedgerRecord, threadId: string) => void;
  /** Receives one event for each compaction (`ContextManagerOptions.onCompaction`), with its thread. A throw fails that model call. */
  onCompaction?: (event: CompactionEvent, threadId: string) => void;
  /** Called before a compaction, with its thread (`ContextManagerOptions.beforeCompaction`): may add instructions for the summary, or defer it while the request fits. */
  beforeCompaction?: (notice: CompactionNotice, threadId: string) => CompactionSteer | void | Promise<CompactionSteer | void>;
  /** Tools whose calls and results are never masked, cut or folded away within `protectedShare` (`ContextManagerOptions.protectedTools`): a `memory` or a `todo` tool. */
  protectedTools?: string[];
  /** The share of the budget `protectedTools` may take. Default 0.1. */
  protectedShare?: number;
}

/** The options as read: what each thread's manager is made with, and the middleware's own. */
export interface Settings {
  /** `ContextManager`'s options, without `system` (each thread's own). */
  manager: Record<string, unknown>;
  recall: boolean;
  store: SessionStore | undefined;
  maxThreads: number;
  onWarning: ((warning: ContextWarning, threadId: string) => void) | undefined;
  onLedger: ((record: LedgerRecord, threadId: string) => void) | undefined;
  onCompaction: ((event: CompactionEvent, threadId: string) => void) | undefined;
  beforeCompaction: ContextMiddlewareOptions['beforeCompaction'];
  /** Summaries by a chat model (the agent's own, or `model`): undefined for the host's summarizer, or none. */
  modelSummaries: { model?: ChatModel } | undefined;
  /** Writes a thread's summary with its model call in flight (set by the middleware, with `modelSummaries`). */
  summarize?: (threadId: string, prompt: string, request?: { messages: unknown[] }) => Promise<unknown>;
  /** The recall tool as the rules define it: its name, description and JSON schema. */
  recallSpec: { name: string; description: string; parameters: Record<string, unknown> };
}

/** The middleware's own options; every other option of `ContextManager` is handed to each thread's manager. */
const OWN = ['summarizer', 'store', 'maxThreads', 'recall', ...MANAGER_CALLBACKS];
/** Options of `ContextManager` the middleware sets itself, or that LangChain says elsewhere. */
const WHY: Record<string, string> = {
  format: "is set by the middleware: LangChain's messages are taken in as 'openai-chat'",
  vscode: "is set by the middleware: LangChain's messages are taken in as 'openai-chat'",
  system: "is the agent's own: pass it as createAgent({ systemPrompt })",
  conversationId: "is set by the middleware: each thread's is its thread_id",
  pinned: 'is not an option of the LangChain middleware: add the texts to the system prompt',
  reminders: 'is not an option of the LangChain middleware',
  cacheControl: "is not an option of the LangChain middleware: LangChain's provider package places the cache breakpoints",
};
/** What a session store must do (`SessionStore`, and reading back what it stored). */
const STORE_METHODS = ['loadSession', 'commitSession', 'readSummary', 'claim', 'release', 'writeSummary', 'enqueue', 'getRawToolOutput'];
/** The host's summarizer, as the manager takes it: a function or `{ summarize }`; a chat model, the agent's own or none are not one. */
function summarizerOf(value: unknown): unknown {
  if (value === undefined || value === false || typeof value === 'function') return undefined;
  if (typeof value !== 'object' || value === null) throw argumentError(TypeError, 'options.summarizer', `must be a function, an object with summarize(prompt), a LangChain chat model, or false, got ${typeName(value)}`);
  const s = value as { summarize?: unknown; invoke?: unknown };
  if (typeof s.summarize === 'function') return value;
  if (typeof s.invoke === 'function') return undefined;
  throw argumentError(TypeError, 'options.summarizer', 'must be a function, an object with summarize(prompt), a LangChain chat model (with invoke), or false');
}

/** Summaries by a chat model: the agent's own by default, or the one named. */
function modelSummariesOf(value: unknown): Settings['modelSummaries'] {
  if (value === undefined) return {};
  const s = value as { summarize?: unknown };
  if (typeof value === 'object' && value !== null && typeof s.summarize !== 'function' && isChatModel(value)) return { model: value };
  return undefined;
}

/** Reads `options`, or throws a TypeError or RangeError naming the field. */
export function readSettings(options: ContextMiddlewareOptions): Settings {
  const o = optionsBag(options);
  const picked = managerOptions(o, 'contextMiddleware', OWN, WHY);
  const recall = recallOption(o);
  for (const key of MANAGER_CALLBACKS) optionalCallback(o, key);
  const maxThreads = maxConversations(o, 'maxThreads');
  if (o.store !== undefined) {
    if (typeof o.store !== 'object' || o.store === null) throw argumentError(TypeError, 'options.store', `must be a session store (SqliteStateRepository, PostgresStateRepository), got ${typeName(o.store)}`);
    const store = o.store as Record<string, unknown>;
    for (const name of STORE_METHODS) {
      if (typeof store[name] !== 'function') throw argumentError(TypeError, `options.store.${name}`, 'must be a function: the store must keep sessions (SqliteStateRepository, PostgresStateRepository)');
    }
  }
  const manager: Record<string, unknown> = { ...picked, format: 'openai-chat', recall, summarizer: typeof o.summarizer === 'function' ? o.summarizer : summarizerOf(o.summarizer) };
  // The messages go as Chat Completions', but the model may be anyone's: no one rule by default.
  manager.imageTokens ??= {};
  // The manager checks the rest, naming the same fields; and it says what the recall tool is.
  const probe = new ContextManager({ ...manager, recall: true } as unknown as ConstructorParameters<typeof ContextManager>[0]);
  let recallSpec: Settings['recallSpec'];
  try {
    recallSpec = (probe.recallTool as { function: Settings['recallSpec'] }).function;
  } finally {
    probe.free();
  }
  return {
    manager,
    recall,
    store: o.store as SessionStore | undefined,
    maxThreads,
    onWarning: o.onWarning as Settings['onWarning'],
    onLedger: o.onLedger as Settings['onLedger'],
    onCompaction: o.onCompaction as Settings['onCompaction'],
    modelSummaries: modelSummariesOf(o.summarizer),
    beforeCompaction: o.beforeCompaction as Settings['beforeCompaction'],
    recallSpec,
  };
}
