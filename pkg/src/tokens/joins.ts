// A mark on this package's exact counters (`createTokenCounter`), read by the seeds' window:
// its own module, so the tokenizers' entry takes nothing of the rules with it.

/**
 * Set (true) on a counter whose count of JSON objects joined by `\n` is the sum of each
 * object's count with its `\n` and the last one's alone: o200k_base and cl100k_base end a
 * pretoken at `}\n` before a `{` (their patterns' ` ?[^\s\p{L}\p{N}]+[\r\n/]*` takes the `}`
 * and the newlines, and no pattern reaches back), and BPE counts each pretoken alone.
 * `Symbol.for`, so the entries, bundled apart, agree on it.
 */
export const JOINS_JSON: unique symbol = Symbol.for('@devs/context: counts add at JSON lines');
