// The options of an adapter whose prompt is the AI SDK's (the AI SDK's middleware, Mastra's
// processor), checked when it is made, not at the first call: a bad option is a TypeError or
// RangeError naming its field (`options.budget`). The manager's own options are checked by
// the manager: one is made at once, with them, and gives the recall tool before it is freed.
import { ContextManager, type ContextManagerOptions } from '@devs/context';
import { managerOptions, maxConversations as maxOf, optionsBag, recallOption } from './options.js';
import { summarizerFor, type SummarySlot } from './ai-sdk-summarizer.js';

/** What such an adapter runs with: its managers' options, the recall tool (AI SDK shape), and its own. */
export interface PromptSettings {
  /** A conversation's manager options: its system prompt, and where its summaries are written. */
  manager: (system: string, slot: SummarySlot) => ContextManagerOptions;
  /** `ContextManager.recallTool` in format 'ai-sdk': `{ description, inputSchema }`; undefined with `recall: false`. */
  recallTool: { description: string; inputSchema: unknown } | undefined;
  maxConversations: number;
}

/** `options` read by `entry`; `why` says why `format` and `vscode` are not the host's to set. */
export function readPromptOptions(options: unknown, entry: string, why: string): PromptSettings {
  const o = optionsBag(options);
  const recall = recallOption(o);
  const maxConversations = maxOf(o);
  // Refuses a name that is no one's option, and those set here, before any is used.
  const rest = managerOptions(o, entry, ['recall', 'maxConversations', 'system', 'summarizer'], { format: why, vscode: why });
  const { system, summarizer } = o as { system?: string; summarizer?: unknown };
  const base = { ...rest, format: 'ai-sdk' as const, recall } as unknown as ContextManagerOptions;
  // Checks every manager option now, `system` included, with the message naming the field.
  const probe = new ContextManager({ ...base, system, summarizer: summarizerFor(summarizer, {}) });
  const recallTool = recall ? (probe.recallTool as PromptSettings['recallTool']) : undefined;
  probe.free();
  return {
    manager: (promptSystem, slot) => {
      const texts = [system, promptSystem].filter((t): t is string => t !== undefined && t !== '');
      return { ...base, summarizer: summarizerFor(summarizer, slot), system: texts.length ? texts.join('\n\n') : undefined };
    },
    recallTool: recallTool && { description: recallTool.description, inputSchema: recallTool.inputSchema },
    maxConversations,
  };
}
