// A model call's usage, as TanStack AI reports it (`TokenUsage`, from the call's
// `RUN_FINISHED` chunk), in the shape the manager reads for 'openai-chat' (`CompletionUsage`).
// TanStack AI's `promptTokens` is what the provider says: the whole input for OpenAI, Gemini
// and most others (the part read from the cache included, as OpenAI's `prompt_tokens` is),
// but for Anthropic (`'anthropic'`, `'claude-code'`) only the input neither read from nor
// written to the cache, as Anthropic's `input_tokens` is: there the cache figures are added.

/** OpenAI Chat's usage of a request: what `ContextManager.recordUsage` reads. */
export interface CompletionUsage {
  prompt_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
}

/** Providers whose `promptTokens` leaves out the cached input. */
const UNCACHED_ONLY = new Set(['anthropic', 'claude-code']);

const count = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);

/** The call's usage, or `undefined` when the provider reported no input count. */
export function usageOf(usage: unknown, provider: string | undefined): CompletionUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as { promptTokens?: unknown; promptTokensDetails?: { cachedTokens?: unknown; cacheWriteTokens?: unknown } };
  const prompt = count(u.promptTokens);
  const read = count(u.promptTokensDetails?.cachedTokens);
  const write = count(u.promptTokensDetails?.cacheWriteTokens);
  if (prompt === undefined) return undefined;
  const whole = provider !== undefined && UNCACHED_ONLY.has(provider) ? prompt + (read ?? 0) + (write ?? 0) : prompt;
  if (whole === 0) return undefined;
  const out: CompletionUsage = { prompt_tokens: whole };
  if (read !== undefined || write !== undefined) out.prompt_tokens_details = { cached_tokens: read, cache_write_tokens: write };
  return out;
}
