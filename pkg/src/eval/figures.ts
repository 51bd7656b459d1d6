// The figures of a set of runs: per strategy at one budget, over all sessions or one.
import { clockSpend } from './clock.js';
import type { ClockSpend } from './clock.js';
import { cacheShare, percentiles, spend, sum } from './measure.js';
import type { Prices, Ttl } from './prices.js';
import type { RequestFigures } from './run.js';

/** One session through one strategy at one budget. */
export interface EvalRun {
  session: string;
  budget: number;
  /** The strategy's id. */
  strategy: string;
  requests: RequestFigures[];
  /** The requests priced by the clock (the session's timestamps, the TTL, the prices). */
  clock: ClockSpend;
  /** Wall time of the whole run (builds, measure, recall), ms. */
  ms: number;
  /** The process's CPU time during the run (user and system), ms: what other work on the machine does not inflate. */
  cpuMs: number;
}

/** A strategy's figures at one budget, over the sessions named (`session`: one, or all). */
export interface EvalFigures {
  budget: number;
  strategy: string;
  /** The session, or undefined for the totals over all sessions. */
  session?: string;
  requests: number;
  /** References of the next output present in the request, over references (null: none). */
  recall: number | null;
  longRange: number | null;
  /** Present, or held by a stored text the request names (ours). */
  recoverable: number | null;
  recoverableLong: number | null;
  userWords: number | null;
  fileTrail: number | null;
  /** Tokens read from the cache over tokens sent, nothing expiring. */
  cacheShare: number | null;
  /** Input spend in uncached-token units, nothing expiring, at Anthropic's 5-minute prices (reads 0.1×, writes 1.25×): the bench's figure before the clock. */
  spend: number;
  /** Input spend in uncached-token units at the run's prices, by the clock, summary requests included. */
  clockSpend: number;
  /** The summary requests' part of `clockSpend`. */
  summarySpend: number;
  /** `spend` and `clockSpend` over the baseline strategy's (null when it did not run). */
  spendRatio: number | null;
  clockSpendRatio: number | null;
  /** Requests whose prefix had expired. */
  expired: number;
  overBudget: number;
  invalid: number;
  empty: number;
  compactions: number;
  summaryRequests: number;
  largest: number;
  /** Build time per request, ms. */
  buildMs: { p50: number; p95: number; total: number };
  /** Wall time of the runs, ms. */
  runMs: number;
  /** CPU time of the runs, ms. */
  cpuMs: number;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

/** `runs` (one strategy, one budget) summed; `base`: the baseline strategy's runs of the same sessions. */
export function figures(runs: readonly EvalRun[], base: readonly EvalRun[] | undefined, session?: string): Omit<EvalFigures, 'budget' | 'strategy'> {
  const all = runs.flatMap((r) => r.requests);
  const clock = sum(runs, (r) => r.clock.spend);
  const plain = spend(all);
  const baseAll = base?.flatMap((r) => r.requests);
  const times = percentiles(all.map((r) => r.ms));
  return {
    ...(session === undefined ? {} : { session }),
    requests: all.length,
    recall: ratio(sum(all, (r) => r.present), sum(all, (r) => r.refs)),
    longRange: ratio(sum(all, (r) => r.longPresent), sum(all, (r) => r.long)),
    recoverable: ratio(sum(all, (r) => r.recoverable), sum(all, (r) => r.refs)),
    recoverableLong: ratio(sum(all, (r) => r.longRecoverable), sum(all, (r) => r.long)),
    userWords: ratio(sum(all, (r) => r.wordsKept), sum(all, (r) => r.words)),
    fileTrail: ratio(sum(all, (r) => r.pathsKept), sum(all, (r) => r.paths)),
    cacheShare: all.length ? cacheShare(all) : null,
    spend: plain,
    clockSpend: clock,
    summarySpend: sum(runs, (r) => r.clock.summarySpend),
    spendRatio: baseAll ? ratio(plain, spend(baseAll)) : null,
    clockSpendRatio: base ? ratio(clock, sum(base, (r) => r.clock.spend)) : null,
    expired: sum(runs, (r) => r.clock.expired),
    overBudget: sum(all, (r) => Number(r.over)),
    invalid: sum(all, (r) => Number(r.invalid)),
    empty: sum(all, (r) => Number(r.empty)),
    compactions: sum(all, (r) => Number(r.compaction)),
    summaryRequests: sum(all, (r) => r.summaries.length),
    largest: all.length ? Math.max(...all.map((r) => r.tokens)) : 0,
    buildMs: { ...times, total: sum(all, (r) => r.ms) },
    runMs: sum(runs, (r) => r.ms),
    cpuMs: sum(runs, (r) => r.cpuMs),
  };
}

/** A run's clock price. */
export function priceRun(requests: readonly RequestFigures[], prices: Prices, ttl: Ttl): ClockSpend {
  return clockSpend(requests, prices, ttl);
}
