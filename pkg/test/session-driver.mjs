// A real session driven call by call, the same way by the tests, the fleet's workers and
// bench/persistence.mjs: call k is the k-th `append`, `build` or `recordUsage` of the
// session's turns, so a session opened again after a crash goes on at call `version`.
import { createHash } from 'node:crypto';
import { HOST_FREE_FORMATS as FORMATS } from './formats.mjs';
import { fakeVscode, providerTurns, realSessions } from './provider-sessions.mjs';

export { FORMATS };

/** A provider's usage report in each format's own shape, as its SDK returns it. */
export const USAGE = {
  anthropic: (n) => ({ input_tokens: n, cache_read_input_tokens: Math.floor(n / 2) }),
  'openai-chat': (n) => ({ prompt_tokens: n }),
  'openai-responses': (n) => ({ input_tokens: n }),
  'ai-sdk': (n) => ({ inputTokens: n }),
  vscode: (n) => ({ inputTokens: n }),
  gemini: (n) => ({ promptTokenCount: n, cachedContentTokenCount: Math.floor(n / 2) }),
};

let sessions;
const real = () => (sessions ??= realSessions());

/**
 * `count` sessions made from the real ones: each fixture in each format, cut at a
 * different turn, under a different budget. Plain data, to hand to a worker process.
 */
export function sessionSpecs(count, prefix = 'fleet') {
  const all = real();
  return Array.from({ length: count }, (_, i) => {
    const fixture = i % all.length;
    const format = FORMATS[Math.floor(i / all.length) % FORMATS.length];
    const length = Math.min(all[fixture].steps.length, 8 + ((i * 7) % 29));
    return { id: `${prefix}-${String(i).padStart(3, '0')}`, fixture, format, turns: length, budget: 6_000 + (i % 5) * 1_000 };
  });
}

/** The session's calls, each `(context) => Promise` with its `kind`: build calls resolve the request's JSON. */
export function sessionCalls(spec) {
  // `repeat`: the session that many times over (its calls renumbered), for a long one.
  const recorded = real()[spec.fixture];
  const session = spec.repeat ? { ...recorded, steps: Array.from({ length: spec.repeat }, () => recorded.steps).flat() } : recorded;
  const turns = providerTurns(session, spec.format).slice(0, spec.turns);
  const calls = [];
  const add = (kind, call) => calls.push(Object.assign(call, { kind }));
  for (const turn of turns) {
    if (turn.input.length) add('append', (c) => c.append(turn.input));
    add('build', async (c) => {
      const built = await c.build();
      return JSON.stringify([built.system, built.messages]);
    });
    // The provider counts a little more than we do: the calibration moves.
    add('recordUsage', (c) => c.recordUsage(USAGE[spec.format](Math.round(c.ledger.at(-1).rawTokens * 1.07) + 40)));
    const after = [...turn.response, ...turn.results];
    if (after.length) add('append', (c) => c.append(after));
  }
  return calls;
}

/** A summarizer whose answer is a function of its prompt alone; `paid(key)` is told of each answer as it is given. */
export function summarizer(paid = () => {}) {
  return async (prompt) => {
    const key = createHash('sha256').update(prompt).digest('hex').slice(0, 16);
    paid(key);
    return `Earlier: ${prompt.length} characters (${key}).`;
  };
}

/** `ContextManager.open`'s options for `spec` on `store`. */
export function sessionOptions(spec, store, paid) {
  return { sessionId: spec.id, store, format: spec.format, vscode: fakeVscode, budget: spec.budget, summarizer: summarizer(paid) };
}

/** Runs `spec`'s calls from the session's version to the end; each build's request by call number. */
export async function drive(context, spec, requests = new Map(), each = async () => {}) {
  const calls = sessionCalls(spec);
  for (let k = context.version; k < calls.length; k++) {
    const result = await calls[k](context);
    if (typeof result === 'string') requests.set(k, result);
    await each(k);
  }
  return requests;
}

/**
 * A session's snapshot without the time each build took (the ledger's `ms`, an argument of
 * the rules' `ledger` call): what two runs of one session must have the same.
 */
export function timeless(snapshot) {
  const s = typeof snapshot === 'string' ? JSON.parse(snapshot) : structuredClone(snapshot);
  for (const call of s.log ?? []) if (call[0] === 'ledger') call[1] = 0;
  for (const record of s.ledger) record.ms = 0;
  delete s.check;
  return JSON.stringify(s);
}
