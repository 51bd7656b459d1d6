// The wrapped model as the summarizer, unless the host names another or none: it is sent
// the request the manager last built (the prompt the model was last called with, as far
// as the summary folds) with the summarizing instruction appended, and the call's options
// (its tools, its provider options) as they were, so the provider reads the prefix from its
// cache. Its usage comes back with the summary, as the compaction's cost.
import { ContextManager, type ContextManagerOptions } from '@devs/context';
import { providerPrompt, usageFigures } from './ai-sdk-prompt.js';
import type { ModelCallOptions, ModelGenerateResult } from './ai-sdk-prompt.js';

type Bag = Record<string, unknown>;

/** A provider-level model: what `wrapLanguageModel` wraps (`LanguageModelV3`). */
export interface GeneratingModel {
  readonly specificationVersion: string;
  doGenerate(options: ModelCallOptions): PromiseLike<ModelGenerateResult>;
}

/** Where a conversation's summaries are written: the model of its call in flight, and that call's options. */
export interface SummarySlot {
  model?: GeneratingModel;
  params?: ModelCallOptions;
}

export const isModel = (value: unknown): value is GeneratingModel =>
  typeof value === 'object' && value !== null && typeof (value as Bag).specificationVersion === 'string' && typeof (value as Bag).doGenerate === 'function';

/** The manager's `summarizer` for one conversation: the host's, none (`false`), or a model (the wrapped one by default). */
export function summarizerFor(option: unknown, slot: SummarySlot): ContextManagerOptions['summarizer'] {
  if (option === false) return undefined;
  if (option !== undefined && !isModel(option)) return option as ContextManagerOptions['summarizer'];
  const named = option as GeneratingModel | undefined;
  return async (prompt: string, request?: { messages: unknown[] }) => {
    const model = named ?? slot.model;
    if (!model) throw new Error('no model call is in flight to summarize with');
    const messages = request ? providerPrompt(request.messages) : [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
    const result = await model.doGenerate({ ...(slot.params ?? {}), prompt: messages });
    const summary = result.content.filter((p): p is Bag => (p as Bag)?.type === 'text').map((p) => String(p.text)).join('');
    const usage = usageFigures(result.usage);
    return usage ? { summary, usage } : summary;
  };
}

/**
 * Managers made with a summary slot each, and the slot of each: `options(system, slot)`
 * gives a conversation's manager options, its summarizer writing through `slot`.
 */
export function slottedManagers(options: (system: string, slot: SummarySlot) => ContextManagerOptions) {
  const slots = new WeakMap<ContextManager, SummarySlot>();
  return {
    make(system: string): ContextManager {
      const slot: SummarySlot = {};
      const manager = new ContextManager(options(system, slot));
      slots.set(manager, slot);
      return manager;
    },
    slotOf: (manager: ContextManager) => slots.get(manager),
  };
}
