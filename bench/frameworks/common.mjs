// What bench/frameworks.mjs's three drivers share: the sessions and their references (as
// bench/recall.mjs has them), each session's user turns, the per-call measure of what a
// framework's model was sent, and the timer of the time spent inside a hook.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { outputsById } from '../../pkg/test/provider-sessions.mjs';
import { SYSTEM, benchSessions } from '../cache/sessions.mjs';
import { chunks, measure } from '../cache/measure.mjs';
import { sessionReferences } from '../recall/references.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
export const { providerTurns } = require('@devs/context/replay');
export { outputsById };
export { o200k } from '../cache/measure.mjs';
export { summarize } from '../cache/strategies.mjs';

/** A package's version, from its package.json (not every package exports it). */
export const version = (name) => JSON.parse(readFileSync(new URL(`../../pkg/node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;

export { SYSTEM };

/** The real sessions of `half`, plus its longest three times over, as bench/recall.mjs has them; `refs` per model call. */
export function sessions(half = 'all') {
  return benchSessions('', half).map((s) => ({ ...s, refs: sessionReferences(providerTurns(s, 'openai-chat'), SYSTEM) }));
}

/**
 * A session as the runs a host makes of its framework's loop: one per user input, each of
 * the model turns (`turns`, indexes into `providerTurns`) up to the next input. A run whose
 * last turn calls tools is stopped after them, as the recording was.
 */
export function userTurns(session) {
  const out = [];
  session.steps.forEach((step, t) => {
    if (step.input !== undefined || !out.length) out.push({ input: step.input ?? '', turns: [] });
    out.at(-1).turns.push(t);
  });
  return out;
}

/**
 * The measure of each model call of one run: `see(request)` takes what the model was sent
 * (`{ system?, messages }` in a format bench/cache/measure.mjs reads) and returns its
 * `{ tokens, prefix }`, for the usage the scripted model reports.
 */
export function recorder(session) {
  const calls = [];
  let previous = [];
  return {
    calls,
    see(request) {
      const current = chunks(request);
      const m = measure(current, previous);
      previous = current;
      const text = current.join('\n');
      const r = { ...m, refs: 0, present: 0, long: 0, longPresent: 0 };
      for (const { ref, age } of session.refs[calls.length]?.refs ?? []) {
        const present = text.includes(ref);
        r.refs++;
        r.present += present;
        if (age >= 20) {
          r.long++;
          r.longPresent += present;
        }
      }
      calls.push(r);
      return m;
    },
  };
}

/**
 * `fn` timed into `ms`, less the time spent in the `inner` calls it makes (the model, the
 * rest of the framework): `timed(ms, (inner) => hook(args, inner(next)))`.
 */
export async function timed(ms, fn) {
  let spent = 0;
  const inner = (f) => async (...args) => {
    const start = performance.now();
    try {
      return await f(...args);
    } finally {
      spent += performance.now() - start;
    }
  };
  const start = performance.now();
  try {
    return await fn(inner);
  } finally {
    ms.push(performance.now() - start - spent);
  }
}
