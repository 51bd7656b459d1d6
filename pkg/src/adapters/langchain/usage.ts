// The provider's usage, as LangChain reports it on the model's answer
// (`AIMessage.usage_metadata`), in the shape the manager reads for 'openai-chat'
// (`CompletionUsage`). LangChain's `input_tokens` is the whole input, the part read from the
// cache included, as OpenAI's `prompt_tokens` is: it maps as it is.
import type { AIMessage } from '@langchain/core/messages';

/** OpenAI Chat's usage of a request: what `ContextManager.recordUsage` reads. */
export interface ChatUsage {
  prompt_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
}

const count = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);

/** The answer's usage, or `undefined` when the model reported none (a fake, a provider that says nothing). */
export function usageOf(answer: AIMessage): ChatUsage | undefined {
  const u = answer.usage_metadata;
  const input = count(u?.input_tokens);
  if (!u || input === undefined || input === 0) return undefined;
  const details = u.input_token_details ?? {};
  const usage: ChatUsage = { prompt_tokens: input };
  const read = count(details.cache_read);
  const write = count(details.cache_creation);
  if (read !== undefined || write !== undefined) usage.prompt_tokens_details = { cached_tokens: read, cache_write_tokens: write };
  return usage;
}
