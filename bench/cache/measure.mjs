// How a request is measured, the same way for every strategy whatever its format: as the
// texts a provider reads (the system prompt, then each message as its role and the text of
// each part, calls and results included), each counted once with the exact o200k counter.
// Markers such as `cache_control` are not text, so moving one changes nothing here, as on
// the provider's side. The prefix a request shares with the previous one is counted in
// whole messages, plus the common start of the first message that differs.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
export const o200k = require('@devs/context/tokenizers').createTokenCounter('o200k_base');

const counted = new Map();
/** A text's o200k tokens, each distinct text counted once per run. */
export function tokens(text) {
  let n = counted.get(text);
  if (n === undefined) {
    n = o200k(text);
    if (counted.size > 100_000) counted.clear();
    counted.set(text, n);
  }
  return n;
}

const json = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
const texts = (content) => (typeof content === 'string' ? [content] : (content ?? []).map(part));

function part(p) {
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
function messageText(m) {
  if (m.type === 'function_call') return `assistant\ncall ${m.name} ${m.call_id} ${m.arguments}`;
  if (m.type === 'function_call_output') return `tool\nresult ${m.call_id}\n${json(m.output)}`;
  const lines = [m.role === 'tool' && m.tool_call_id ? `tool\nresult ${m.tool_call_id}` : m.role, ...texts(m.content)];
  for (const c of m.tool_calls ?? []) lines.push(`call ${c.function.name} ${c.id} ${c.function.arguments}`);
  return lines.join('\n');
}

/** A request (`{ system?, messages }`) as the texts a provider reads, in order. */
export function chunks({ system, messages }) {
  const out = [];
  if (system !== undefined) out.push(`system\n${typeof system === 'string' ? system : system.map((b) => b.text).join('\n')}`);
  for (const m of messages) out.push(messageText(m));
  return out;
}

/** `{ tokens, prefix }`: the request's tokens, and those it shares with `previous` (its chunks). */
export function measure(current, previous) {
  let total = 0;
  for (const c of current) total += tokens(c);
  let prefix = 0;
  for (let i = 0; i < current.length && i < previous.length; i++) {
    if (current[i] === previous[i]) {
      prefix += tokens(current[i]);
      continue;
    }
    const a = current[i];
    const b = previous[i];
    let k = 0;
    while (k < a.length && k < b.length && a.charCodeAt(k) === b.charCodeAt(k)) k++;
    if (k > 0) prefix += o200k(a.slice(0, k));
    break;
  }
  return { tokens: total, prefix };
}

/** Input cost in uncached-token units: a cache read costs 0.1, a write 1.25. */
export function cost({ tokens: total, prefix }) {
  return 0.1 * prefix + 1.25 * (total - prefix);
}

export const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);
/** Of all the tokens `requests` sent, the share read from the cache (shared with the request before). */
export const cacheShare = (requests) => sum(requests, (r) => r.prefix) / sum(requests, (r) => r.tokens);
/** What `requests` cost, in uncached-token units (`cost`). */
export const spend = (requests) => sum(requests, cost);

/** The median and 95th percentile of `values`. */
export function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}
