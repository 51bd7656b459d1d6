// One session through one strategy at one budget: per request, its measure, its validity,
// what it holds of what the agent goes on to use, and the summary requests made for it.
import { chunks } from './measure.js';
import type { Measure, Meter } from './measure.js';
import type { PreparedSession } from './session.js';
import { standInSummary } from './strategies/summarize.js';
import type { StrategyArgs, StrategyInfo } from './strategies/types.js';
import { survival } from './survival.js';
import { PROBLEMS } from './validity.js';

/** A reference last seen this many recorded messages back, or more, is long-range. */
export const LONG_RANGE = 20;

/** One request's figures. */
export interface RequestFigures extends Measure {
  /** Build time, ms. */
  ms: number;
  /** The request's time (ms since the epoch), where the session has one. */
  time?: number;
  /** The tokens of each summary request made while building it. */
  summaries: number[];
  /** It did not extend the request before it (a compaction, an edit: the cache breaks there). */
  compaction: boolean;
  refs: number;
  present: number;
  recoverable: number;
  long: number;
  longPresent: number;
  longRecoverable: number;
  words: number;
  wordsKept: number;
  paths: number;
  pathsKept: number;
  over: boolean;
  invalid: boolean;
  empty: boolean;
}

/** What a run is given beyond the strategy: the meter, the system prompt, options for ours. */
export interface RunContext {
  meter: Meter;
  system: string;
  format?: StrategyArgs['format'];
  options?: Record<string, unknown>;
  persist?: boolean;
}

/** `prepared` through `info`'s strategy at `budget`: each request's figures, in order. */
export async function runSession(prepared: PreparedSession, budget: number, info: StrategyInfo, ctx: RunContext): Promise<RequestFigures[]> {
  let pending: number[] = [];
  const summarize = (text: string): string => {
    pending.push(ctx.meter.count(String(text)));
    return standInSummary(String(text));
  };
  const strategy = info.make({ budget, system: ctx.system, meter: ctx.meter, summarize, format: ctx.format, options: ctx.options, persist: ctx.persist });
  const requests: RequestFigures[] = [];
  try {
    let previous: string[] = [];
    let previousTokens = 0;
    for (const [t, turn] of prepared.turns(strategy.format).entries()) {
      strategy.append(turn.input);
      const start = performance.now();
      const request = await strategy.build();
      const ms = performance.now() - start;
      const current = chunks(request);
      const m = ctx.meter.measure(current, previous);
      previous = current;
      strategy.usage?.(m);
      const empty = !request.messages.some((msg) => (msg as { role?: unknown }).role !== 'system');
      const invalid = PROBLEMS[strategy.format](request).length > 0 && !empty;
      const text = current.join('\n');
      let stored: string[] | undefined;
      const storedTexts = (): string[] => (stored ??= (strategy.namedIds?.(text) ?? []).map((id) => strategy.stored?.(id)).filter((s): s is string => typeof s === 'string'));
      const r = { refs: 0, present: 0, recoverable: 0, long: 0, longPresent: 0, longRecoverable: 0 };
      for (const { ref, age } of prepared.refs[t].refs) {
        const present = text.includes(ref);
        const recoverable = present || (strategy.stored !== undefined && storedTexts().some((s) => s.includes(ref)));
        r.refs++;
        r.present += Number(present);
        r.recoverable += Number(recoverable);
        if (age >= LONG_RANGE) {
          r.long++;
          r.longPresent += Number(present);
          r.longRecoverable += Number(recoverable);
        }
      }
      const survived = survival({ words: prepared.words, trail: prepared.trail, turn: t, text, stored: strategy.stored ? storedTexts : undefined });
      const time = prepared.times[t];
      requests.push({
        ...m, ms, ...(time === undefined ? {} : { time }), summaries: pending, compaction: pending.length > 0 || (t > 0 && m.prefix < previousTokens),
        ...r, ...survived, over: m.tokens > budget, invalid, empty,
      });
      pending = [];
      previousTokens = m.tokens;
      strategy.append(turn.response);
      strategy.append(turn.results);
    }
  } finally {
    strategy.free?.();
  }
  return requests;
}
