// What the cache costs, per provider, and how long an entry lives. Prices are per token,
// relative to the provider's uncached input price: a spend of 1 is one uncached input token.
//
//   anthropic  reads 0.1×; writes 1.25× with the 5-minute lifetime, 2× with the 1-hour one
//              (Anthropic's prompt-caching prices: every cached-prefix model has these
//              multipliers). An entry lives 5 minutes from its last read or write (1 hour
//              at the 2× write price).
//   openai     reads 0.1× (the cached-input price of the GPT-5 family on OpenAI's pricing
//              page: GPT-5.5 $0.50 against $5.00, GPT-5.4 $0.25 against $2.50 per million;
//              GPT-4.1 reads 0.25×, GPT-4o 0.5×: pass `--prices` for those); writes cost the
//              uncached price, 1×. The in-memory cache is cleared after 5 to 10 minutes of
//              inactivity: 5 minutes here, unless `ttl` says otherwise.
//   r,w,i      any other provider: the read, write and uncached input prices, in any one
//              unit (dollars per million tokens, say), taken relative to `i`.
// docs/guides/eval.md cites the sources.

/** Read and write prices relative to the uncached input price, and where they come from. */
export interface Prices {
  /** `anthropic`, `openai`, or `custom`. */
  name: string;
  /** A cache read, per token. */
  read: number;
  /** A cache write, per token (an uncached token that the cache then holds). */
  write: number;
  /** What the figures are, in words, for the output. */
  source: string;
}

/** How long a cache entry lives after its last read or write, in milliseconds; `Infinity`: nothing expires. */
export type Ttl = number;

const MINUTE = 60_000;

/** A TTL's name as given (`5m`, `1h`, `none`, or minutes as `30m`, seconds as `90s`) in milliseconds. */
export function parseTtl(value: unknown, field = 'ttl'): Ttl {
  if (typeof value === 'number') {
    if (!(value > 0)) throw new RangeError(`${field}: a TTL in milliseconds must be over 0, got ${value}`);
    return value;
  }
  if (typeof value !== 'string') throw new TypeError(`${field}: expected '5m', '1h', 'none' or milliseconds, got ${typeof value}`);
  if (value === 'none') return Infinity;
  const m = /^(\d+(?:\.\d+)?)(s|m|h)$/.exec(value.trim());
  if (!m || Number(m[1]) <= 0) throw new RangeError(`${field}: expected '5m', '1h', 'none', or a duration such as '30m' or '90s', got ${JSON.stringify(value.slice(0, 40))}`);
  return Number(m[1]) * (m[2] === 's' ? 1000 : m[2] === 'm' ? MINUTE : 60 * MINUTE);
}

/** A TTL in words: `5 min`, `1 h`, `no expiry`. */
export function ttlName(ttl: Ttl): string {
  if (ttl === Infinity) return 'no expiry';
  if (ttl % (60 * MINUTE) === 0) return `${ttl / (60 * MINUTE)} h`;
  if (ttl % MINUTE === 0) return `${ttl / MINUTE} min`;
  return `${ttl / 1000} s`;
}

/**
 * The prices of `value` (`anthropic`, `openai`, `r,w,i`, or `[r, w, i]`) for a cache
 * whose entries live `ttl`: Anthropic's writes cost 2× when the lifetime is over 5 minutes
 * (the 1-hour cache), 1.25× otherwise, and with nothing expiring (the figures before the
 * clock were priced so).
 */
export function parsePrices(value: unknown, ttl: Ttl = 5 * MINUTE, field = 'prices'): Prices {
  if (value === 'anthropic') {
    const hour = ttl > 5 * MINUTE && ttl !== Infinity;
    return { name: 'anthropic', read: 0.1, write: hour ? 2 : 1.25, source: `Anthropic: reads 0.1×, writes ${hour ? '2× (1-hour cache)' : '1.25× (5-minute cache)'}` };
  }
  if (value === 'openai') return { name: 'openai', read: 0.1, write: 1, source: 'OpenAI GPT-5 family: cached input 0.1×, no write premium (1×)' };
  const parts = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : Array.isArray(value) ? value : undefined;
  if (parts === undefined) throw new TypeError(`${field}: expected 'anthropic', 'openai' or 'r,w,i', got ${typeof value}`);
  const n = parts.map((p) => (typeof p === 'number' ? p : typeof p === 'string' && p !== '' ? Number(p) : NaN));
  if (n.length !== 3 || n.some((x) => !Number.isFinite(x) || x < 0) || n[2] === 0) {
    throw new RangeError(`${field}: expected 'anthropic', 'openai' or three prices 'read,write,input' (non-negative, input over 0), got ${JSON.stringify(String(value).slice(0, 40))}`);
  }
  const [r, w, i] = n;
  return { name: 'custom', read: r / i, write: w / i, source: `custom: reads ${(r / i).toFixed(3)}×, writes ${(w / i).toFixed(3)}× (${r},${w},${i})` };
}
