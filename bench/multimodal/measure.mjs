// How bench/multimodal.mjs measures a request: as the provider bills it (pkg/test/
// media-loops.mjs's `billed`: text by o200k, an image by the provider's rule from its
// bytes, a PDF by its pages, an encrypted field by the stated rule), message by message,
// so the part a request shares with the one before is billed the same way: that is what
// the provider reads from its cache. What comes before the newest provider compaction is
// not billed: the provider drops it.
import { createHash } from 'node:crypto';
import { FRAMING, billed } from '../../pkg/test/media-loops.mjs';

/**
 * A message as text, its bytes as base64, for hashing. Cache markers (`cache_control`, the
 * AI SDK's `providerOptions`) are not what the provider reads: moving one changes nothing.
 */
export const text = (m) => JSON.stringify(m, (k, v) => (k === 'cache_control' || k === 'providerOptions' ? undefined : v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
/** A message as text with its bytes left out, to search it for the words it holds. */
export const words = (m) => JSON.stringify(m, (_, v) => (v instanceof Uint8Array ? '' : typeof v === 'string' && v.length > 2000 && /^(data:|[A-Za-z0-9+/=]{2000})/.test(v) ? '' : v));

const bills = new Map();
/** What `provider` bills for `value` (a message, or a block of one with no framing), each distinct value billed once per run. */
function billOf(value, provider, block = false) {
  const key = createHash('sha1').update(provider).update(text(value)).digest('base64');
  let tokens = bills.get(key);
  if (tokens === undefined) {
    tokens = block ? billed({ messages: [{ content: [value] }] }, provider).tokens - FRAMING : billed({ messages: [value] }, provider).tokens;
    if (bills.size > 50_000) bills.clear();
    bills.set(key, tokens);
  }
  return { key, tokens };
}

/** Where the provider starts reading: the message holding the newest compaction, or 0. */
export function billedFrom(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.type === 'compaction' || (Array.isArray(m?.content) && m.content.some((b) => b?.type === 'compaction'))) return i;
  }
  return 0;
}

/**
 * A request as billed: `{ tokens, parts }`, `parts` one `{ key, tokens, blocks }` for the
 * system prompt and one per message read, `blocks` the same for each block of a message
 * whose content is a list. `tokens` is the whole request's bill.
 */
export function bill(request, provider) {
  const messages = request.messages.slice(billedFrom(request.messages));
  const parts = [];
  if (request.system !== undefined) parts.push(billOf({ system: request.system }, provider));
  for (const m of messages) {
    const part = billOf(m, provider);
    if (Array.isArray(m.content)) part.blocks = m.content.map((b) => billOf(b, provider, true));
    parts.push(part);
  }
  return { tokens: billed({ system: request.system, messages }, provider).tokens, parts };
}

/**
 * Tokens of `current` (a `bill`'s parts) that the request before (`previous`) began with:
 * the cache's share. Whole messages, then the leading blocks the first message that
 * differs shares with its counterpart (a message that grew at its end).
 */
export function shared(current, previous) {
  let prefix = 0;
  let i = 0;
  for (; i < current.length && i < previous.length && current[i].key === previous[i].key; i++) prefix += current[i].tokens;
  const [a, b] = [current[i]?.blocks, previous[i]?.blocks];
  if (a && b) for (let k = 0; k < a.length && k < b.length && a[k].key === b[k].key; k++) prefix += a[k].tokens;
  return prefix;
}

/** Input cost in uncached-token units: a cache read costs 0.1 of an input token, a write 1.25. */
export const cost = (tokens, prefix) => 0.1 * prefix + 1.25 * (tokens - prefix);
