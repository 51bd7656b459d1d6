// Which thread a call belongs to: the `thread_id` the agent was invoked with (LangGraph's
// key for its checkpoints). An agent invoked with none has no thread beyond that one
// invocation; its messages then name it, by the id LangGraph gave its first message, the
// same for every call of that invocation and its tools.
import type { BaseMessage } from '@langchain/core/messages';

export function threadIdOf(configurable: Record<string, unknown> | undefined, messages: readonly BaseMessage[] | undefined, durable: boolean): string {
  const id = configurable?.thread_id;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  if (durable) {
    throw Object.assign(new Error('contextMiddleware keeps each thread in options.store under its thread_id, and this call has none: invoke the agent with { configurable: { thread_id } } (and a checkpointer)'), { code: 'ERR_NO_THREAD_ID' });
  }
  const first = messages?.[0]?.id;
  return typeof first === 'string' && first !== '' ? `\u001fmessage ${first}` : '\u001fdefault';
}
