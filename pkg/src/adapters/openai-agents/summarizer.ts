// The agent's own model as the summarizer, where the context holds it (`boundedModel`, or a
// filtered agent whose `model` is a `Model`), unless the host names another `Model`, its own
// function, or none: it is sent the input the manager last built (as SDK items) with the
// summarizing instruction last, and the last request's tools and settings as they were, so
// the provider reads the prefix from its cache. Its usage comes back with the summary.
import type { Model, ModelRequest } from '@openai/agents';
import type { ContextManagerOptions } from '@devs/context';
import { callNames, fromCore } from './items.js';
import { responsesUsage } from './usage.js';

type Bag = Record<string, unknown>;

/** Where a conversation's summaries are written: the model of its call in flight, and that call's request. */
export interface SummarySlot {
  model?: Model;
  request?: ModelRequest;
}

export const isAgentModel = (value: unknown): value is Model =>
  typeof value === 'object' && value !== null && typeof (value as Bag).getResponse === 'function';

/** The text of a response's message items. */
function textOf(output: readonly unknown[]): string {
  const out: string[] = [];
  for (const item of output) {
    const i = item as Bag;
    if (i?.type !== 'message' || !Array.isArray(i.content)) continue;
    for (const c of i.content as Bag[]) if (c?.type === 'output_text' && typeof c.text === 'string') out.push(c.text);
  }
  return out.join('');
}

/** The manager's `summarizer` for one conversation: the host's, none (`false`), or a `Model` (the agent's own by default). */
export function summarizerFor(option: unknown, slot: SummarySlot): ContextManagerOptions['summarizer'] {
  if (option === false) return undefined;
  if (option !== undefined && !isAgentModel(option)) return option as ContextManagerOptions['summarizer'];
  const named = option as Model | undefined;
  return async (prompt: string, request?: { system?: unknown; messages: unknown[] }) => {
    const model = named ?? slot.model;
    if (!model) throw new Error("no model is in hand to summarize with: pass the agent's model through boundedModel(), or name one as options.summarizer");
    const last = slot.request;
    const names = request ? callNames(request.messages) : new Map<string, string>();
    const input = request
      ? request.messages.filter((m, k) => !(k === 0 && (m as Bag)?.role === 'system' && (m as Bag)?.type === undefined)).map((m) => fromCore(m, names))
      : [{ type: 'message', role: 'user', content: prompt }];
    const system = typeof request?.system === 'string' ? request.system : last?.systemInstructions;
    const base = last ?? { modelSettings: {}, tools: [], outputType: 'text', handoffs: [], tracing: false };
    const response = await model.getResponse({ ...base, input, systemInstructions: system, previousResponseId: undefined, conversationId: undefined } as ModelRequest);
    const summary = textOf(response.output);
    const usage = responsesUsage(response.usage);
    return usage ? { summary, usage } : summary;
  };
}
