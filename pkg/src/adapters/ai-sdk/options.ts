// The middleware's options, checked when it is made, not at the first call: a bad option is
// a TypeError or RangeError naming its field (`options.budget`), thrown by
// `contextMiddleware` itself. The manager's own options are checked by the manager: one is
// made at once, with them, and gives the recall tool's definition before it is freed.
import { ContextManager, type ContextManagerOptions } from '@devs/context';
import { managerOptions, maxConversations as maxOf, optionsBag, recallOption } from '../kit/options.js';
import { RECALL } from '../kit/recall.js';

export { RECALL };
import type { ContextMiddlewareOptions } from './types.js';
import { summarizerFor, type SummarySlot } from '../kit/ai-sdk-summarizer.js';

/** The recall tool as the rules define it, and as a provider-level function tool carries it. */
export interface RecallSpec {
  type: 'function';
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What the middleware runs with: the managers' options, and its own. */
export interface Settings {
  /** A conversation's manager options: its system prompt, and where its summaries are written. */
  manager: (system: string, slot: SummarySlot) => ContextManagerOptions;
  recall: RecallSpec | undefined;
  maxConversations: number;
}

export function readOptions(options: ContextMiddlewareOptions): Settings {
  const o = optionsBag(options);
  const recall = recallOption(o);
  const maxConversations = maxOf(o);
  const { recall: _recall, maxConversations: _max, system, summarizer, ...rest } = options;
  // Refuses a name that is no one's option, and those set here, before any is used.
  managerOptions(o, 'contextMiddleware', ['recall', 'maxConversations', 'system', 'summarizer'], { format: "is set by the middleware: the AI SDK's prompt is format 'ai-sdk'", vscode: "is set by the middleware: the AI SDK's prompt is format 'ai-sdk'" });
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
