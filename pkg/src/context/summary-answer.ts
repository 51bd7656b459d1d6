// A summarizer's answer: the summary's text, or `{ summary, usage }` with the provider's
// usage of the call that wrote it, read as `recordUsage` reads the manager's format, and
// priced by the rules (cache reads at 0.1 an input token, writes at 1.25).
import { argumentError } from '../errors/index.js';
import { isObject, string } from '../core/read.js';
import { rules } from '../core/wasm.js';
import type { Adapter } from '../providers/neutral.js';
import type { SummaryUsage } from './types.js';

const FIELD = 'summarizer.summarize()';

/** The summary, and its usage if the answer gave one. */
export function summaryAnswer(answer: unknown, adapter: Adapter): { summary: string; usage?: SummaryUsage } {
  const object = isObject(answer) && !Array.isArray(answer);
  const summary = object ? string(`${FIELD}.summary`, answer.summary) : string(FIELD, answer);
  if (rules.isBlank(summary)) throw new TypeError(`${FIELD} returned an empty text`);
  if (!object || answer.usage === undefined) return { summary };
  const figures = adapter.usage(answer.usage, `${FIELD}.usage`);
  const read = figures.read ?? 0;
  const write = figures.write ?? 0;
  if (read + write > figures.input) throw argumentError(RangeError, `${FIELD}.usage`, `reads ${read} and writes ${write} tokens of the cache, more than its ${figures.input} input tokens`);
  return { summary, usage: { input: figures.input, cacheRead: read, cacheWrite: write, cost: rules.billedInput(figures.input, read, write) } };
}

/** Two calls' usage, summed. */
export function addUsage(a: SummaryUsage | undefined, b: SummaryUsage): SummaryUsage {
  if (!a) return b;
  return { input: a.input + b.input, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite, cost: a.cost + b.cost };
}
