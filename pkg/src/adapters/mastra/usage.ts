// The usage of a model call, as Mastra reports it in the response's `finish` chunk
// (`payload.output.usage`: the AI SDK's usage, flat), in the shape `recordUsage` reads for
// format 'ai-sdk'.
type Bag = Record<string, unknown>;

const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A count of the usage: a whole number >= 0, or `undefined`. */
const count = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);

/**
 * The usage of a model call, from its `finish` chunk, as `recordUsage` takes it for format
 * 'ai-sdk'; `undefined` when the model reported no input count. Mastra's usage is the AI
 * SDK's, flat: `inputTokens` is the whole input, `cachedInputTokens` what was read from the
 * cache and `cacheCreationInputTokens` what was written to it.
 */
export function usageOf(chunks: readonly { type: string; payload: unknown }[]): Bag | undefined {
  let finish: { type: string; payload: unknown } | undefined;
  for (let i = chunks.length - 1; i >= 0 && !finish; i--) if (chunks[i]?.type === 'finish') finish = chunks[i];
  const payload = finish?.payload;
  const output = isBag(payload) ? payload.output : undefined;
  const usage = isBag(output) ? output.usage : undefined;
  if (!isBag(usage)) return undefined;
  const input = count(usage.inputTokens);
  if (!input) return undefined;
  const details: Bag = {};
  const read = count(usage.cachedInputTokens);
  const write = count(usage.cacheCreationInputTokens);
  if (read !== undefined) details.cacheReadTokens = read;
  if (write !== undefined) details.cacheWriteTokens = write;
  return { inputTokens: input, inputTokenDetails: details };
}
