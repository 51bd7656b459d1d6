// Token counting: `countTokens`, and the counter every counting rule accepts. A host's
// counter is called here, in JS; the rules check what it answers.
import { argumentError, checked } from '../errors/index.js';
import { describe } from '../core/read.js';
import type { TokenCounter } from '../core/types.js';
import { rules } from '../core/wasm.js';
import { SeedFn } from '../core/protocol.js';

/**
 * `Math.ceil(text.length / 4)`, with `length` in UTF-16 units exactly as a JS host
 * computes it (an emoji counts 2). A fast approximation of BPE token counts; pass an
 * exact counter (`@devs/context/tokenizers`) wherever a rule takes `countTokens` when the
 * difference matters.
 * @throws {TypeError} when `text` is not a string.
 * @example
 * import { countTokens } from '@devs/context';
 *
 * countTokens('hello world'); // 3
 */
export function countTokens(text: string): number {
  if (typeof text !== 'string') throw argumentError(TypeError, 'text', `must be a string, got ${describe(text)}`);
  return rules.seed(SeedFn.ApproxTokens, text.length, 0, 0);
}

/** A counter option: `undefined` for the default, or the host's function. */
export function counterOption(field: string, value: unknown): TokenCounter | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') {
    throw argumentError(TypeError, field, `must be a function (text: string) => number, got ${describe(value)}`);
  }
  return value as TokenCounter;
}

/** The host counter's answer, checked: a number (here), finite and >= 0 (by the rules). */
function hostCount(counter: TokenCounter, text: string): number {
  const n = counter(text);
  if (typeof n !== 'number') throw argumentError(TypeError, 'countTokens()', `must be a number, got ${describe(n)}`);
  return checked(() => rules.seed(SeedFn.CheckedCount, n, 0, 0));
}

/**
 * Long texts each counter has counted, for the seeds' rules (`countEach`, `countAll`):
 * they recount their whole context on every turn (the pending outputs, the recent past),
 * so without this a session's outputs reach the counter 40–80 times each; with it, once.
 * Those texts are in the host's context anyway. Short texts cost less to count than to
 * keep. The memo forgets everything past `MEMO_UNITS` of text. `count`, for texts counted
 * once by design, keeps nothing.
 */
const MEMO_MIN = 256;
const MEMO_UNITS = 1 << 25;
const memos = new WeakMap<TokenCounter, { counts: Map<string, number>; units: number }>();

function memoCount(counter: TokenCounter, text: string): number {
  if (text.length < MEMO_MIN) return hostCount(counter, text);
  let memo = memos.get(counter);
  if (!memo) memos.set(counter, (memo = { counts: new Map(), units: 0 }));
  const hit = memo.counts.get(text);
  if (hit !== undefined) return hit;
  const n = hostCount(counter, text);
  if (memo.units + text.length > MEMO_UNITS) {
    memo.counts.clear();
    memo.units = 0;
  }
  memo.counts.set(text, n);
  memo.units += text.length;
  return n;
}

/** Tokens of `text` (checked to be a string under `field`). */
export function count(counter: TokenCounter | undefined, text: unknown, field: string): number {
  if (typeof text !== 'string') throw argumentError(TypeError, field, `must be a string, got ${describe(text)}`);
  return counter ? hostCount(counter, text) : rules.seed(SeedFn.ApproxTokens, text.length, 0, 0);
}

/**
 * Counts per item, per counter: a history is only tokenized where it changed. Keyed by the
 * item object and checked against its text, so an edited turn is counted again. Counters
 * must be deterministic, as BPE counters are.
 */
const counted = new WeakMap<TokenCounter, WeakMap<object, { text: string; tokens: number }>>();

/**
 * Tokens of `items[i][key]` for every item, in one crossing for the default counter.
 * `field` names the array in errors: `context.turns` → `context.turns[3].content`.
 */
export function countEach(counter: TokenCounter | undefined, items: readonly unknown[], key: string, field: string): Float64Array {
  const out = measureEach(counter, items, key, field);
  return counter ? out : rules.approxEach(out);
}

/** `countEach`, but for the default counter the texts' lengths, for a rule that counts them as they cross. */
export function measureEach(counter: TokenCounter | undefined, items: readonly unknown[], key: string, field: string): Float64Array {
  const out = new Float64Array(items.length);
  let cache = counter && counted.get(counter);
  if (counter && !cache) counted.set(counter, (cache = new WeakMap()));
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'object' || item === null) throw argumentError(TypeError, `${field}[${i}]`, 'must be an object');
    const text = (item as Record<string, unknown>)[key];
    if (typeof text !== 'string') throw argumentError(TypeError, `${field}[${i}].${key}`, `must be a string, got ${describe(text)}`);
    if (!counter || !cache) {
      out[i] = text.length;
      continue;
    }
    const hit = cache.get(item);
    if (hit && hit.text === text) {
      out[i] = hit.tokens;
    } else {
      const tokens = memoCount(counter, text);
      cache.set(item, { text, tokens });
      out[i] = tokens;
    }
  }
  return out;
}

/** Tokens of each of `texts` (strings already) followed by `suffix`, in one crossing either way. */
export function countAll(counter: TokenCounter | undefined, texts: readonly string[], suffix = ''): Float64Array {
  if (!counter) return rules.approxEach(measureAll(texts, suffix));
  const out = new Float64Array(texts.length);
  for (let i = 0; i < texts.length; i++) out[i] = memoCount(counter, suffix === '' ? texts[i] : texts[i] + suffix);
  checked(() => rules.checkedTotal(out));
  return out;
}

/** The lengths of each of `texts` followed by `suffix`: the default counter's counts, for a rule that counts them as they cross. */
export function measureAll(texts: readonly string[], suffix = ''): Float64Array {
  const out = new Float64Array(texts.length);
  for (let i = 0; i < texts.length; i++) out[i] = texts[i].length + suffix.length;
  return out;
}

export function sum(values: Float64Array): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i];
  return total;
}
