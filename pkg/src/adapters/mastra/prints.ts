// Prompt messages compared as the AI SDK adapter compares them, less what Mastra stamps on
// messages and parts: `providerOptions.mastra` (`createdAt`), which no provider reads, and
// which a message sent again in a later run gets anew. Without this, a history sent again
// would share nothing with the conversation it continues.
import { sameMessage } from '../kit/messages.js';

type Bag = Record<string, unknown>;

const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Two `providerOptions` alike but for `mastra`; none is as good as no option but `mastra`. */
function sameOptions(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  const x = a === undefined ? {} : a;
  const y = b === undefined ? {} : b;
  if (!isBag(x) || !isBag(y)) return sameMessage(x, y, depth);
  let keys = 0;
  for (const k in x) {
    if (k === 'mastra' || x[k] === undefined) continue;
    keys++;
    if (!sameMessage(x[k], y[k], depth + 1)) return false;
  }
  for (const k in y) if (k !== 'mastra' && y[k] !== undefined) keys--;
  return keys === 0;
}

/** A message (`depth` 0) or one of its content parts (`depth` 2) alike but for their `providerOptions.mastra`. */
function sameStampless(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (!isBag(a) || !isBag(b)) return sameMessage(a, b, depth);
  if (!sameOptions(a.providerOptions, b.providerOptions, depth + 1)) return false;
  let keys = 0;
  for (const k in a) {
    if (k === 'providerOptions' || a[k] === undefined) continue;
    keys++;
    const x = a[k];
    const y = b[k];
    const same = depth === 0 && k === 'content' && Array.isArray(x) && Array.isArray(y)
      ? x.length === y.length && x.every((p, i) => sameStampless(p, y[i], depth + 2))
      : sameMessage(x, y, depth + 1);
    if (!same) return false;
  }
  for (const k in b) if (k !== 'providerOptions' && b[k] !== undefined) keys--;
  return keys === 0;
}

/** Whether two prompt messages are the same, their Mastra stamps aside: what the conversations compare them by. */
export function sameUnstamped(a: unknown, b: unknown): boolean {
  return sameStampless(a, b, 0);
}
