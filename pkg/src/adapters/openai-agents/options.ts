// The host's options, read once and checked when the context is made: a bad one is a
// TypeError or RangeError naming the field, before any run, not at the first model call.
import type { CallModelInputFilterArgs, Model } from '@openai/agents';
import { summarizerFor } from './summarizer.js';
import { argumentError, MANAGER_CALLBACKS, managerOptions, maxConversations } from '../kit/options.js';
import type { CompactionEvent, CompactionNotice, CompactionSteer, ContextManagerOptions, ContextWarning, LedgerRecord, StateRepository, SummarizerClient, TokenCounter } from '@devs/context';

/** Options of `contextFilter`. */
export interface OpenAIAgentsContextOptions {
  /** The bound on every model input, in tokens (the instructions included), a whole number >= 1000: the provider's count, through the calibration. */
  budget: number;
  /** Counts a text's tokens. Default length / 4; `createTokenCounter('o200k_base')` from `@devs/context/tokenizers` counts exactly. */
  countTokens?: TokenCounter;
  /** Summarizes the oldest turns when masking is not enough (an object with `summarize`, or that function). Without one, they are dropped, with a note saying so. */
  /**
   * Writes the summaries. Default: the agent's own model where the context holds it
   * (`boundedModel()`, or an agent whose `model` is a `Model` object), sent the input last
   * built with the summarizing instruction, so the provider reads the prefix from its
   * cache; its usage is the compaction's cost (`onCompaction`'s `summary.usage`). Another
   * `Model` writes them the same way; `false` writes none (the oldest turns are dropped,
   * stored and indexed); a function or `{ summarize }` is called as `ContextManager` calls it.
   */
  summarizer?: SummarizerClient | SummarizerClient['summarize'] | Model | false;
  /** Milliseconds a summarizer may take before it counts as failed. Default 120,000. */
  summarizerTimeoutMs?: number;
  /**
   * Where texts are stored whole before they are masked or cut, shared by every
   * conversation (its ids must be unique across them, as a database's are). Default: one
   * store per conversation, in memory, let go of with it; ids unique across the filter.
   */
  store?: StateRepository;
  /** Give the agent the recall tool (`recallTool`) and tell it how to read a stored text back. Default true. */
  recall?: boolean;
  /** Receives each model input's ledger record, with the conversation's name. A throw fails that model call. */
  onLedger?: (record: LedgerRecord, conversation: string) => void;
  /** Receives each warning of a build (a store or summarizer that failed, a history taken in anew), with the conversation's name. A throw fails that model call. */
  onWarning?: (warning: ContextWarning, conversation: string) => void;
  /** Receives one event for each compaction (`ContextManagerOptions.onCompaction`), with the conversation's name. A throw fails that model call. */
  onCompaction?: (event: CompactionEvent, conversation: string) => void;
  /** Called before a compaction, with the conversation's name (`ContextManagerOptions.beforeCompaction`). */
  beforeCompaction?: (notice: CompactionNotice, conversation: string) => CompactionSteer | void | Promise<CompactionSteer | void>;
  /** Tools whose calls and results are never masked, cut or folded away within `protectedShare` (`ContextManagerOptions.protectedTools`). */
  protectedTools?: string[];
  /** The share of the budget `protectedTools` may take. Default 0.1. */
  protectedShare?: number;
  /** An input past this share of the budget is compacted. Default 0.75. */
  highWater?: number;
  /** A compaction brings the input down to this share of the budget. Default 0.25. */
  lowWater?: number;
  /** The newest items a compaction keeps whole, as a share of the budget. Default 0.1. */
  recentShare?: number;
  /** The largest share of the budget one text may take before it is cut, head and tail. Default 0.15. */
  partShare?: number;
  /** No summarizer prompt exceeds this share of the budget. Default 0.4. */
  summarizerShare?: number;
  /** The summarizing instruction, in place of the built-in one (`defaultSummaryPrompt()`). */
  summaryPrompt?: string;
  /** Keep the opening user message (the task) in every input. Default true. */
  keepFirstMessage?: boolean;
  /** Learn the provider's count from the usage the wrapped model reports. Default true. */
  calibrate?: boolean;
  /** Milliseconds the store may take before it counts as failed. No bound by default. */
  callbackTimeoutMs?: number;
  /** The newest images every request keeps whole; older ones are stored and named, several at a time (`ContextManagerOptions.keepImages`). Default 3. */
  keepImages?: number;
  /**
   * How images and documents are counted (`ContextManagerOptions.imageTokens`): by a
   * provider's rule (`'anthropic'`, `'openai'`, `'gemini'`), a model's (`{ model }`), or a
   * function. Default: OpenAI's, the provider of the Responses API's items.
   */
  imageTokens?: ContextManagerOptions['imageTokens'];
  /**
   * Names the conversation a filtered model call belongs to, from the filter's arguments
   * (the run's `context`, say: `({ context }) => context.threadId`). Calls with the same
   * name share a manager; a history edited in between is taken in anew, with a
   * `history-rebuilt` warning. `undefined`, no option, or a call through `boundedModel`
   * (which has no such arguments): the conversation is the one whose items so far begin
   * the input (two runs with the same opening message stay apart from their first
   * different item).
   */
  conversation?: (args: CallModelInputFilterArgs) => string | undefined;
  /** How many conversations' managers are kept; past it the least recently used is let go of. Default 100. */
  maxConversations?: number;
}

/** The filter's own options; every other option of `ContextManager` is handed to each conversation's manager. */
const OWN = ['format', 'system', 'conversation', 'maxConversations', ...MANAGER_CALLBACKS];
/** Options of `ContextManager` the filter sets itself. */
const WHY: Record<string, string> = {
  vscode: "is set by the filter: the Agents SDK's items are taken in as 'openai-responses'",
  conversationId: 'is set by the filter: each conversation is named by the conversation option',
};

/** What the context reads of the host's options: a manager's, and its own. */
export interface ReadOptions {
  /** The managers' options, without the system prompt (each manager's is its agent's instructions). */
  manager: Omit<ContextManagerOptions, 'system'>;
  recall: boolean;
  store: StateRepository | undefined;
  onLedger: OpenAIAgentsContextOptions['onLedger'];
  onWarning: OpenAIAgentsContextOptions['onWarning'];
  onCompaction: OpenAIAgentsContextOptions['onCompaction'];
  beforeCompaction: OpenAIAgentsContextOptions['beforeCompaction'];
  /** The host's `summarizer` as given: each conversation's manager makes its own of it (`summarizerFor`). */
  summarizer: unknown;
  conversation: OpenAIAgentsContextOptions['conversation'];
  maxConversations: number;
}

/**
 * The host's options, read once. The managers' own options are checked by the manager
 * itself (`check` makes one and frees it), so each is refused with the same words and
 * field name as `new ContextManager` would.
 * @throws {TypeError} naming the option of the wrong type (`options.system`: the agent's instructions are the system prompt).
 * @throws {RangeError} naming the option out of range.
 */
export function readOptions(options: unknown, check: (manager: ContextManagerOptions) => void): ReadOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw argumentError(TypeError, 'options', 'must be an object with at least a budget');
  const o = options as Record<string, unknown>;
  if (o.system !== undefined) throw argumentError(TypeError, 'options.system', "is the agent's instructions: set them on the Agent");
  if (o.format !== undefined && o.format !== 'openai-responses') throw argumentError(TypeError, 'options.format', "is always 'openai-responses' (the Agents SDK's input items)");
  const manager = managerOptions(o, 'contextFilter', OWN, WHY);
  manager.recall = o.recall === undefined ? true : o.recall;
  // The callbacks are checked as the manager checks its own; the context passes its wrappers.
  if (o.onLedger !== undefined) manager.onLedger = o.onLedger;
  if (o.onWarning !== undefined) manager.onWarning = o.onWarning;
  if (o.onCompaction !== undefined) manager.onCompaction = o.onCompaction;
  if (o.beforeCompaction !== undefined) manager.beforeCompaction = o.beforeCompaction;
  delete manager.summarizer;
  check({ ...(manager as object), summarizer: summarizerFor(o.summarizer, {}), format: 'openai-responses' } as ContextManagerOptions);
  delete manager.onLedger;
  delete manager.onWarning;
  delete manager.onCompaction;
  delete manager.beforeCompaction;
  if (o.conversation !== undefined && typeof o.conversation !== 'function') throw argumentError(TypeError, 'options.conversation', `must be a function of the filter's arguments that returns a string, got ${typeof o.conversation}`);
  const max = maxConversations(o);
  return {
    manager: { ...(manager as object), format: 'openai-responses' } as Omit<ContextManagerOptions, 'system'>,
    recall: manager.recall === true,
    store: manager.store as StateRepository | undefined,
    onLedger: o.onLedger as ReadOptions['onLedger'],
    onWarning: o.onWarning as ReadOptions['onWarning'],
    onCompaction: o.onCompaction as ReadOptions['onCompaction'],
    beforeCompaction: o.beforeCompaction as ReadOptions['beforeCompaction'],
    summarizer: o.summarizer,
    conversation: o.conversation as ReadOptions['conversation'],
    maxConversations: max,
  };
}

/** The field an error from the `conversation` option names. */
export function conversationName(value: unknown): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  throw argumentError(TypeError, 'options.conversation()', `must return a string or undefined, got ${value === null ? 'null' : typeof value}`);
}
