// The middleware's options, checked when it is made, not at the first call: a bad option is
// a TypeError or RangeError naming its field (`options.budget`), thrown by
// `contextMiddleware` itself. The manager's own options are checked by the manager: one is
// made at once, with them, and gives the recall tool's definition before it is freed.
import { ContextManager, type ContextManagerOptions } from '@devs/context';
import type { ContextMiddlewareOptions } from './types.js';
import { summarizerFor, type SummarySlot } from './summarizer.js';

const DEFAULT_MAX_CONVERSATIONS = 100;

function argumentError(kind: typeof TypeError | typeof RangeError, field: string, message: string): Error {
  return Object.assign(new kind(`${field} ${message}`), { code: kind === RangeError ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE', field });
}

/** The recall tool as the rules define it, and as a provider-level function tool carries it. */
export interface RecallSpec {
  type: 'function';
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * The recall tool's name. The manager's `recallTool` gives the AI SDK's tool shape, whose
 * name is its key in the tool set; `ContextManager.recallTool` documents it as `'recall'`.
 */
export const RECALL = 'recall';

/** What the middleware runs with: the managers' options, and its own. */
export interface Settings {
  /** A conversation's manager options: its system prompt, and where its summaries are written. */
  manager: (system: string, slot: SummarySlot) => ContextManagerOptions;
  recall: RecallSpec | undefined;
  maxConversations: number;
}

export function readOptions(options: ContextMiddlewareOptions): Settings {
  if (typeof options !== 'object' || options === null) throw argumentError(TypeError, 'options', `must be an object with a budget, got ${options === null ? 'null' : typeof options}`);
  const { recall = true, maxConversations = DEFAULT_MAX_CONVERSATIONS, system, summarizer, ...rest } = options;
  if (typeof recall !== 'boolean') throw argumentError(TypeError, 'options.recall', `must be a boolean, got ${typeof recall}`);
  if (typeof maxConversations !== 'number') throw argumentError(TypeError, 'options.maxConversations', `must be a number, got ${typeof maxConversations}`);
  if (!Number.isInteger(maxConversations) || maxConversations < 1) throw argumentError(RangeError, 'options.maxConversations', `must be a whole number >= 1, got ${maxConversations}`);
  for (const key of ['format', 'vscode'] as const) {
    if ((rest as Record<string, unknown>)[key] !== undefined) throw argumentError(TypeError, `options.${key}`, "is set by the middleware: the AI SDK's prompt is format 'ai-sdk'");
  }
  const base = { ...rest, format: 'ai-sdk' as const, recall };
  // Checks every manager option now, `system` included, with the message naming the field.
  const probe = new ContextManager({ ...base, system, summarizer: summarizerFor(summarizer, {}) });
  let spec: RecallSpec | undefined;
  if (recall) {
    const tool = probe.recallTool as { description: string; inputSchema: { jsonSchema: Record<string, unknown> } };
    spec = { type: 'function', name: RECALL, description: tool.description, inputSchema: tool.inputSchema.jsonSchema };
  }
  probe.free();
  return {
    manager: (promptSystem, slot) => {
      const texts = [system, promptSystem].filter((t): t is string => t !== undefined && t !== '');
      return { ...base, summarizer: summarizerFor(summarizer, slot), system: texts.length ? texts.join('\n\n') : undefined };
    },
    recall: spec,
    maxConversations,
  };
}
