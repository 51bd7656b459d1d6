// The middleware's options, read once when it is made: a bad one is a TypeError or
// RangeError naming the field (`options.budget`), thrown by `contextMiddleware` itself, not
// at the first model call. What `ContextManager` checks (the budget, the counter, the shares,
// the store) is checked by a manager made at once with them, with its own messages.
import { ContextManager, recallSpec } from '@devs/context';
import type { CompactionEvent, ContextManagerOptions, ContextWarning, LedgerRecord, ToolSpec } from '@devs/context';
import type { ContextMiddlewareOptions } from './types.js';
import { MANAGER_CALLBACKS, managerOptions, maxConversations as maxOf, optionalCallback, optionsBag, recallOption } from '../kit/options.js';

/** The middleware's own options; every other option of `ContextManager` is handed to each manager. */
const OWN = ['recall', 'maxConversations', 'onLedger', 'onWarning', 'onCompaction', 'beforeCompaction'];
/** Options of `ContextManager` the middleware sets itself, or that TanStack AI says elsewhere. */
const WHY: Record<string, string> = {
  format: "is set by the middleware: TanStack AI's messages are taken in as 'openai-chat'",
  vscode: "is set by the middleware: TanStack AI's messages are taken in as 'openai-chat'",
  system: 'is the chat\'s own: pass it as chat({ systemPrompts })',
  pinned: 'is not an option of the TanStack AI middleware: add the texts to chat({ systemPrompts })',
  reminders: 'is not an option of the TanStack AI middleware',
  conversationId: "is set by the middleware: each conversation's is its chat's threadId",
  cacheControl: "is not an option of the TanStack AI middleware: TanStack AI's provider adapter places the cache breakpoints",
};
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
  const o = optionsBag(options);
  const manager: Record<string, unknown> = { format: 'openai-chat', ...managerOptions(o, 'contextMiddleware', OWN, WHY) };
  const recall = recallOption(o);
  manager.recall = recall;
  for (const key of MANAGER_CALLBACKS) optionalCallback(o, key);
  const maxConversations = maxOf(o);
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
