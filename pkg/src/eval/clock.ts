// The cache priced by the clock. A provider keeps a prefix for a while after its last read
// or write (the TTL); a request whose previous read or write of its prefix is older than
// that finds nothing and writes its whole prefix again. Each request of one session under
// one strategy is its own model call, in order; the previous request read or wrote all of
// itself, so the prefix a request shares with it was last touched at the previous request's
// time.
//
// Summary requests: a strategy that asks a model for a summary (auto-compact, LangChain's
// summarization, ours when it summarizes) makes one more model call, at the time of the
// request it builds. Its prompt is what it summarizes; while the cache is warm it is taken
// to read from it as much as the previous request held (the conversation it summarizes
// opens the same way) and to write the rest; after a pause longer than the TTL it writes
// all of it. Only input is priced: the summary's output is the same stand-in for everyone.
//
// With nothing expiring (TTL Infinity, or a session without timestamps) and no summary
// requests, this is `spend` of measure.ts at the same prices.
import type { Measure } from './measure.js';
import type { Prices, Ttl } from './prices.js';

/** One request as the clock meter reads it: its measure, and its time (ms since the epoch) where the session has one. */
export interface TimedRequest extends Measure {
  time?: number;
  /** The tokens of each summary request made while building it. */
  summaries?: readonly number[];
}

/** A session's requests priced by the clock. */
export interface ClockSpend {
  /** All of it, requests and summary requests, in uncached-input-token units. */
  spend: number;
  /** The summary requests' share of `spend`. */
  summarySpend: number;
  /** Tokens read from the cache, and written to it. */
  read: number;
  written: number;
  /** Requests whose prefix had expired (they wrote it again). */
  expired: number;
  /** Per request, what it read and wrote (its summary requests included). */
  perRequest: Array<{ read: number; written: number }>;
}

/** `requests` priced at `prices` with entries living `ttl` ms; untimed requests never find their prefix expired. */
export function clockSpend(requests: readonly TimedRequest[], prices: Prices, ttl: Ttl): ClockSpend {
  const out: ClockSpend = { spend: 0, summarySpend: 0, read: 0, written: 0, expired: 0, perRequest: [] };
  let last: number | undefined;
  let previousTokens = 0;
  for (const r of requests) {
    const expired = r.time !== undefined && last !== undefined && r.time - last > ttl;
    let read = 0;
    let written = 0;
    for (const s of r.summaries ?? []) {
      const sRead = expired ? 0 : Math.min(s, previousTokens);
      const cost = prices.read * sRead + prices.write * (s - sRead);
      out.summarySpend += cost;
      out.spend += cost;
      read += sRead;
      written += s - sRead;
    }
    const prefix = expired ? 0 : r.prefix;
    out.spend += prices.read * prefix + prices.write * (r.tokens - prefix);
    read += prefix;
    written += r.tokens - prefix;
    out.read += read;
    out.written += written;
    out.expired += Number(expired);
    out.perRequest.push({ read, written });
    if (r.time !== undefined) last = r.time;
    previousTokens = r.tokens;
  }
  return out;
}

/** A step's time in ms since the epoch, where the reader kept one (`time` or `timestamp`: ms, s, or an ISO date). */
export function stepTime(step: object): number | undefined {
  const s = step as { time?: unknown; timestamp?: unknown };
  const v = s.time ?? s.timestamp;
  if (typeof v === 'number' && Number.isFinite(v)) return v < 1e11 ? v * 1000 : v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isFinite(t) ? t : undefined;
  }
  if (v instanceof Date && Number.isFinite(v.getTime())) return v.getTime();
  return undefined;
}
