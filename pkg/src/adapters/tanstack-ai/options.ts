// The middleware's options, read once when it is made: a bad one is a TypeError or
// RangeError naming the field (`options.budget`), thrown by `contextMiddleware` itself, not
// at the first model call. What `ContextManager` checks (the budget, the counter, the shares,
// the store) is checked by a manager made at once with them, with its own messages.
import { ContextManager, recallSpec } from '@devs/context';
import type { CompactionEvent, ContextManagerOptions, ContextWarning, LedgerRecord, ToolSpec } from '@devs/context';
import type { ContextMiddlewareOptions } from './types.js';

/** The options `contextMiddleware` takes: those it hands each manager, then its own. */
const MANAGER_KEYS = ['budget', 'countTokens', 'store', 'summarizer', 'summarizerTimeoutMs', 'highWater', 'lowWater', 'recentShare', 'partShare', 'summarizerShare', 'summaryPrompt', 'keepFirstMessage', 'calibrate', 'callbackTimeoutMs', 'keepImages', 'imageTokens', 'protectedTools', 'protectedShare'] as const;
const KEYS: readonly string[] = [...MANAGER_KEYS, 'recall', 'maxConversations', 'onLedger', 'onWarning', 'onCompaction', 'beforeCompaction'];
/** Options of `ContextManager` the middleware sets itself, or that TanStack AI says elsewhere. */
const WHY: Record<string, string> = {
  format: "is set by the middleware: TanStack AI's messages are taken in as 'openai-chat'",
  vscode: "is set by the middleware: TanStack AI's messages are taken in as 'openai-chat'",
  system: 'is the chat\'s own: pass it as chat({ systemPrompts })',
  pinned: 'is not an option of the TanStack AI middleware: add the texts to chat({ systemPrompts })',
  reminders: 'is not an option of the TanStack AI middleware',
  cacheControl: "is not an option of the TanStack AI middleware: TanStack AI's provider adapter places the cache breakpoints",
};
const DEFAULT_MAX_CONVERSATIONS = 100;

function fieldError(kind: typeof TypeError | typeof RangeError, field: string, message: string): Error {
  return Object.assign(new kind(`${field} ${message}`), { code: kind === RangeError ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE', field });
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** The options as read: each conversation's manager options (less `system` and the callbacks), and the middleware's own. */
export interface Settings {
  manager: Omit<ContextManagerOptions, 'system' | 'onLedger' | 'onWarning' | 'onCompaction' | 'beforeCompaction'>;
  /** The recall tool as the rules define it; `undefined` with `recall: false`. */
  recall: ToolSpec | undefined;
  maxConversations: number;
  onLedger: ((record: LedgerRecord, threadId: string) => void) | undefined;
  onWarning: ((warning: ContextWarning, threadId: string) => void) | undefined;
  onCompaction: ((event: CompactionEvent, threadId: string) => void) | undefined;
  beforeCompaction: ContextMiddlewareOptions['beforeCompaction'];
}

/** Reads `options`, or throws a TypeError or RangeError naming the field. */
export function readSettings(options: ContextMiddlewareOptions): Settings {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw fieldError(TypeError, 'options', `must be an object with a budget, got ${typeName(options)}`);
  const o = options as unknown as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (o[key] === undefined || KEYS.includes(key)) continue;
    throw fieldError(TypeError, `options.${key}`, WHY[key] ?? `is not an option of contextMiddleware (its options: ${KEYS.join(', ')})`);
  }
  if (o.recall !== undefined && typeof o.recall !== 'boolean') throw fieldError(TypeError, 'options.recall', `must be a boolean, got ${typeName(o.recall)}`);
  for (const key of ['onLedger', 'onWarning', 'onCompaction', 'beforeCompaction']) {
    if (o[key] !== undefined && typeof o[key] !== 'function') throw fieldError(TypeError, `options.${key}`, `must be a function, got ${typeName(o[key])}`);
  }
  const maxConversations = o.maxConversations ?? DEFAULT_MAX_CONVERSATIONS;
  if (typeof maxConversations !== 'number') throw fieldError(TypeError, 'options.maxConversations', `must be a number, got ${typeName(maxConversations)}`);
  if (!Number.isInteger(maxConversations) || maxConversations < 1) throw fieldError(RangeError, 'options.maxConversations', `must be a whole number >= 1, got ${maxConversations}`);
  const recall = o.recall !== false;
  const manager: Record<string, unknown> = { format: 'openai-chat', recall };
  for (const key of MANAGER_KEYS) if (o[key] !== undefined) manager[key] = o[key];
  // The messages go as Chat Completions', but TanStack AI's adapter may be anyone's: no one rule by default.
  manager.imageTokens ??= {};
  // The manager checks the rest, naming the same fields (`options.budget`), and is let go at once.
  new ContextManager(manager as unknown as ContextManagerOptions).free();
  return {
    manager: manager as unknown as Settings['manager'],
    recall: recall ? recallSpec() : undefined,
    maxConversations,
    onLedger: o.onLedger as Settings['onLedger'],
    onWarning: o.onWarning as Settings['onWarning'],
    onCompaction: o.onCompaction as Settings['onCompaction'],
    beforeCompaction: o.beforeCompaction as Settings['beforeCompaction'],
  };
}
