// The SDK's usage of one model response, as the Responses API reports it (what the
// 'openai-responses' format's `recordUsage` reads).
//
// The filter never sees a response, and the SDK 0.x has no hook on one (its run hooks are
// agent_start, agent_end, agent_handoff and the tool events). A response's usage is seen
// by the model itself, so `OpenAIAgentsContext.model()` wraps the host's `Model` and
// records it. The SDK adds the usage of failed attempts into a retried response's; its
// per-request entries say what the last, answered, request cost.

/** The SDK's `Usage` (or a streamed `response_done`'s usage), as far as it is read here. */
interface SdkUsage {
  requests?: number;
  inputTokens?: number;
  outputTokens?: number;
  inputTokensDetails?: Record<string, number> | Array<Record<string, number>>;
  requestUsageEntries?: Array<{ inputTokens?: number; outputTokens?: number; inputTokensDetails?: Record<string, number> }>;
}

/** Responses API usage: what `ContextManager.recordUsage` reads for 'openai-responses'. */
export interface ResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  input_tokens_details: { cached_tokens: number };
}

/**
 * `usage` as the Responses API reports it, or `undefined` when it says nothing of the
 * request's input (no input tokens: a model that does not report usage gives zeros;
 * several requests and no per-request entry: which one was answered is not known).
 */
export function responsesUsage(usage: unknown): ResponsesUsage | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as SdkUsage;
  const entries = Array.isArray(u.requestUsageEntries) ? u.requestUsageEntries : [];
  const one = entries.length ? entries[entries.length - 1] : (u.requests ?? 1) <= 1 ? u : undefined;
  if (!one || typeof one.inputTokens !== 'number' || !(one.inputTokens > 0)) return undefined;
  const details = one.inputTokensDetails === undefined ? [] : Array.isArray(one.inputTokensDetails) ? one.inputTokensDetails : [one.inputTokensDetails];
  let cached = 0;
  for (const d of details) if (d && typeof d.cached_tokens === 'number') cached += d.cached_tokens;
  return {
    input_tokens: one.inputTokens,
    output_tokens: typeof one.outputTokens === 'number' ? one.outputTokens : 0,
    input_tokens_details: { cached_tokens: Math.min(cached, one.inputTokens) },
  };
}
