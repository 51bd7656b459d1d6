// The agent's own model as the summarizer, unless the host names another chat model, its
// own function, or none: it is sent the messages the model was last called with (as far as
// the summary folds), then the summarizing instruction as a human message, with the call's
// tools bound as they were, so the provider reads the prefix from its cache. The run is
// tagged as a compaction (`ls_agent_type: 'compaction'`) for LangSmith, and its usage comes
// back with the summary, as the compaction's cost.
import { HumanMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatMessageParam } from './messages.js';
import { BackToLangChain } from './messages.js';
import { usageOf } from './usage.js';

/** A LangChain chat model, as the summaries need it. */
export interface ChatModel {
  invoke(input: BaseMessage[] | string, config?: Record<string, unknown>): Promise<unknown>;
  bindTools?(tools: readonly unknown[]): ChatModel;
}

/** A thread's model call in flight: its model, its tools, and how its messages map back. */
export interface ModelCall {
  model: unknown;
  tools: readonly unknown[] | undefined;
  back: BackToLangChain;
}

/** What LangSmith groups a compaction's run by. */
export const COMPACTION_RUN = { runName: 'context compaction', metadata: { ls_agent_type: 'compaction' }, tags: ['compaction'] };

export const isChatModel = (value: unknown): value is ChatModel =>
  typeof value === 'object' && value !== null && typeof (value as { invoke?: unknown }).invoke === 'function';

const textOf = (m: ChatMessageParam): string => (typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? String(p.text) : '')).join(''));

/** A summary by `model` (else the call's own) of `prompt`, or of the call's request with the instruction last. */
export async function modelSummary(model: ChatModel | undefined, call: ModelCall | undefined, prompt: string, request: { messages: unknown[] } | undefined) {
  const chosen = model ?? (isChatModel(call?.model) ? call.model : undefined);
  if (!chosen) throw new Error('no model call is in flight to summarize with');
  let input: BaseMessage[] | string = prompt;
  let runner = chosen;
  if (request && call) {
    const list = request.messages as ChatMessageParam[];
    const last = list.length - 1;
    // The instruction goes as a human message: a system message mid-conversation is one some providers refuse.
    input = list.map((m, i) => (i === last ? new HumanMessage(textOf(m)) : call.back.message(m)));
    if (!model && call.tools?.length && typeof chosen.bindTools === 'function') runner = chosen.bindTools(call.tools);
  }
  const answer = (await runner.invoke(input, COMPACTION_RUN)) as AIMessage;
  const summary = typeof answer?.text === 'string' ? answer.text : typeof answer?.content === 'string' ? answer.content : '';
  const usage = answer && typeof answer === 'object' ? usageOf(answer) : undefined;
  return usage ? { summary, usage } : summary;
}
