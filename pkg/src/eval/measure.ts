// How a request is measured, the same way for every strategy whatever its format: as the
// texts a provider reads (the system prompt, then each message as its role and the text of
// each part, calls and results included), each counted once with one exact counter.
// Markers such as `cache_control` are not text, so moving one changes nothing here, as on
// the provider's side. The prefix a request shares with the previous one is counted in
// whole messages, plus the common start of the first message that differs.

/** Counts a text's tokens. */
export type Counter = (text: string) => number;

/** A request as a strategy builds it: `{ system?, messages }` in one of the provider formats. */
export interface EvalRequest {
  system?: unknown;
  messages: readonly unknown[];
}

/** One request's size: its tokens, and those it shares with the request before it. */
export interface Measure {
  tokens: number;
  prefix: number;
}

/** A counter with its memo, and the measure over it. */
export interface Meter {
  /** The exact counter, unmemoized. */
  counter: Counter;
  /** A text's tokens, each distinct text counted once per meter. */
  count: Counter;
  /** `{ tokens, prefix }` of `current` (its chunks) against `previous`. */
  measure(current: readonly string[], previous: readonly string[]): Measure;
  /** A request's tokens, as the measure counts them. */
  requestTokens(request: EvalRequest): number;
}

// Provider messages are plain JSON of four formats: read loosely, field by field.
type Loose = any;

const json = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const texts = (content: Loose): string[] => (typeof content === 'string' ? [content] : ((content ?? []) as Loose[]).map(part));

function part(p: Loose): string {
  switch (p.type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return p.text;
    case 'thinking':
      return p.thinking;
    case 'reasoning':
      return p.text;
    case 'tool_use':
      return `call ${p.name} ${p.id} ${json(p.input)}`;
    case 'tool_result':
      return `result ${p.tool_use_id}\n${texts(p.content).join('\n')}`;
    case 'tool-call':
      return `call ${p.toolName} ${p.toolCallId} ${json(p.input)}`;
    case 'tool-result':
      return `result ${p.toolCallId}\n${json(p.output.value)}`;
    default:
      return json(p);
  }
}

/** One message of any of the four formats as the text a provider reads. */
function messageText(m: Loose): string {
  if (m.type === 'function_call') return `assistant\ncall ${m.name} ${m.call_id} ${m.arguments}`;
  if (m.type === 'function_call_output') return `tool\nresult ${m.call_id}\n${json(m.output)}`;
  const lines = [m.role === 'tool' && m.tool_call_id ? `tool\nresult ${m.tool_call_id}` : m.role, ...texts(m.content)];
  for (const c of m.tool_calls ?? []) lines.push(`call ${c.function.name} ${c.id} ${c.function.arguments}`);
  return lines.join('\n');
}

/** A request (`{ system?, messages }`) as the texts a provider reads, in order. */
export function chunks({ system, messages }: EvalRequest): string[] {
  const out: string[] = [];
  if (system !== undefined) out.push(`system\n${typeof system === 'string' ? system : (system as Loose[]).map((b) => b.text).join('\n')}`);
  for (const m of messages) out.push(messageText(m));
  return out;
}

/** A meter over `counter`: its memo holds up to 100,000 texts, then starts again. */
export function createMeter(counter: Counter): Meter {
  const counted = new Map<string, number>();
  const count = (text: string): number => {
    let n = counted.get(text);
    if (n === undefined) {
      n = counter(text);
      if (counted.size > 100_000) counted.clear();
      counted.set(text, n);
    }
    return n;
  };
  const measure = (current: readonly string[], previous: readonly string[]): Measure => {
    let total = 0;
    for (const c of current) total += count(c);
    let prefix = 0;
    for (let i = 0; i < current.length && i < previous.length; i++) {
      if (current[i] === previous[i]) {
        prefix += count(current[i]);
        continue;
      }
      const a = current[i];
      const b = previous[i];
      let k = 0;
      while (k < a.length && k < b.length && a.charCodeAt(k) === b.charCodeAt(k)) k++;
      if (k > 0) prefix += counter(a.slice(0, k));
      break;
    }
    return { tokens: total, prefix };
  };
  const requestTokens = (request: EvalRequest): number => chunks(request).reduce((n, c) => n + count(c), 0);
  return { counter, count, measure, requestTokens };
}

/** Input cost in uncached-token units, nothing expiring: a cache read costs 0.1, a write 1.25 (Anthropic's 5-minute prices). */
export function cost({ tokens, prefix }: Measure): number {
  return 0.1 * prefix + 1.25 * (tokens - prefix);
}

/** `f` summed over `xs`. */
export function sum<T>(xs: readonly T[], f: (x: T) => number): number {
  return xs.reduce((n, x) => n + f(x), 0);
}

/** Of all the tokens `requests` sent, the share read from the cache (shared with the request before). */
export const cacheShare = (requests: readonly Measure[]): number => sum(requests, (r) => r.prefix) / sum(requests, (r) => r.tokens);

/** What `requests` cost, in uncached-token units (`cost`), nothing expiring. */
export const spend = (requests: readonly Measure[]): number => sum(requests, cost);

/** The median and 95th percentile of `values`. */
export function percentiles(values: readonly number[]): { p50: number; p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}
