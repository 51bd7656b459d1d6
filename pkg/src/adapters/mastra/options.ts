// The processor's options, checked when it is made, not at the first call: a bad option is
// a TypeError or RangeError naming its field (`options.budget`), thrown by
// `contextProcessor` itself. The manager's own options are checked by the manager: one is
// made at once, with them, and gives the recall tool's definition before it is freed.
import { ContextManager, type ContextManagerOptions } from '@devs/context';
import type { ContextProcessorOptions } from './types.js';
import { summarizerFor, type SummarySlot } from '../ai-sdk/summarizer.js';

const DEFAULT_MAX_CONVERSATIONS = 100;

/** The recall tool's name: `ContextManager.recallTool` documents it as `'recall'`. */
export const RECALL = 'recall';

export function argumentError(kind: typeof TypeError | typeof RangeError, field: string, message: string): Error {
  return Object.assign(new kind(`${field} ${message}`), { code: kind === RangeError ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE', field });
}

/** The recall tool as the AI SDK shapes one (`description`, `inputSchema` as `jsonSchema()` makes it), which Mastra takes as a tool. */
export interface RecallDefinition {
  description: string;
  inputSchema: unknown;
}

/** What the processor runs with: the managers' options, and its own. */
export interface Settings {
  /** A conversation's manager options: its system prompt, and where its summaries are written. */
  manager: (system: string, slot: SummarySlot) => ContextManagerOptions;
  recall: RecallDefinition | undefined;
  maxConversations: number;
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

export function readOptions(options: ContextProcessorOptions): Settings {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw argumentError(TypeError, 'options', `must be an object with a budget, got ${kind(options)}`);
  const { recall = true, maxConversations = DEFAULT_MAX_CONVERSATIONS, system, summarizer, ...rest } = options;
  if (typeof recall !== 'boolean') throw argumentError(TypeError, 'options.recall', `must be a boolean, got ${kind(recall)}`);
  if (typeof maxConversations !== 'number') throw argumentError(TypeError, 'options.maxConversations', `must be a number, got ${kind(maxConversations)}`);
  if (!Number.isInteger(maxConversations) || maxConversations < 1) throw argumentError(RangeError, 'options.maxConversations', `must be a whole number >= 1, got ${maxConversations}`);
  for (const key of ['format', 'vscode'] as const) {
    if ((rest as Record<string, unknown>)[key] !== undefined) throw argumentError(TypeError, `options.${key}`, "is set by the processor: Mastra's model prompt is format 'ai-sdk'");
  }
  const base = { ...rest, format: 'ai-sdk' as const, recall };
  // Checks every manager option now, `system` included, with the message naming the field.
  const probe = new ContextManager({ ...base, system, summarizer: summarizerFor(summarizer, {}) });
  const definition = recall ? (probe.recallTool as RecallDefinition) : undefined;
  probe.free();
  return {
    manager: (promptSystem, slot) => {
      const texts = [system, promptSystem].filter((t): t is string => t !== undefined && t !== '');
      return { ...base, summarizer: summarizerFor(summarizer, slot), system: texts.length ? texts.join('\n\n') : undefined };
    },
    recall: definition && { description: definition.description, inputSchema: definition.inputSchema },
    maxConversations,
  };
}
