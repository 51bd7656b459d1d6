// One serialization of a request, used both to count its tokens and to find the prefix it
// shares with the request before it: the system prompt, then one line per message, each
// its role and the JSON of its content blocks. `cache_control` markers are left out: they
// are not text, and a provider's cache ignores where they move.
//
// Every line starts with a letter and ends with `]\n`, and o200k never merges across such
// a boundary, so a request's tokens are exactly the sum of its lines' tokens. Strategies
// use that to count cheaply (`requestTokens`); the bench counts the whole string.

const withoutMarkers = (key, value) => (key === 'cache_control' ? undefined : value);
const blocks = (content) => (typeof content === 'string' ? [{ type: 'text', text: content }] : content ?? []);

export const systemLine = (system) => (system === undefined ? '' : `system ${JSON.stringify(blocks(system), withoutMarkers)}\n`);
export const messageLine = (m) => `${m.role} ${JSON.stringify(blocks(m.content), withoutMarkers)}\n`;

/** An Anthropic request `{ system?, messages }` as the one string both measures read. */
export function serialize({ system, messages }) {
  return systemLine(system) + messages.map(messageLine).join('');
}

// Messages are shared between requests, so each is counted once.
const counted = new WeakMap();
const systems = new Map();

/** The request's tokens by `counter`, each message counted once per run. */
export function requestTokens({ system, messages }, counter) {
  let total = 0;
  if (system !== undefined) {
    const line = systemLine(system);
    if (!systems.has(line)) systems.set(line, counter(line));
    total += systems.get(line);
  }
  for (const m of messages) total += messageTokens(m, counter);
  return total;
}

export function messageTokens(m, counter) {
  let n = counted.get(m);
  if (n === undefined) counted.set(m, (n = counter(messageLine(m))));
  return n;
}

/**
 * `{ tokens, prefix }` of the serialized request `current` against `previous`: its tokens,
 * and the tokens of the longest character prefix the two share.
 */
export function measure(current, previous, counter) {
  const end = Math.min(current.length, previous.length);
  let k = 0;
  while (k < end && current.charCodeAt(k) === previous.charCodeAt(k)) k++;
  const tokens = counter(current);
  return { tokens, prefix: k === current.length ? tokens : counter(current.slice(0, k)) };
}

/** Input cost in uncached-token units: a cache read costs 0.1, the rest is written at 1.25. */
export const spend = ({ tokens, prefix }) => 0.1 * prefix + 1.25 * (tokens - prefix);
