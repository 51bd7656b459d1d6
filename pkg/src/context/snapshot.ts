// Reads a `ContextSnapshot` back, field by field, before anything is made of it: a
// snapshot from a newer version, or one altered or cut short, is refused naming the first
// field that is wrong, and nothing is touched.
import { argumentError } from '../errors/index.js';
import type { EngineState, KeptMessage } from './engine.js';
import { array, number, object, string } from '../core/read.js';
import { canonical } from '../core/canonical.js';
import { textKey } from '../core/text-key.js';
import type { ContextFormat, ContextSnapshot } from './types.js';

/**
 * The version `snapshot()` writes: 2, the rules' state as they encode it (`rules`), not the
 * history that made it. Version 1 held the rules' calls by name (`log`); it is read still,
 * and what it makes is written as 2.
 */
export const SNAPSHOT_VERSION = 2;

/** An `Error` for a snapshot newer than this package: it names both versions. */
export function newerSnapshot(version: number, at = 'snapshot'): Error {
  return Object.assign(new Error(`${at}.version is ${version}, newer than this package's ${SNAPSHOT_VERSION}: restore it with the version of @devs/context that wrote it, or a newer one`), { code: 'ERR_SNAPSHOT_VERSION', field: `${at}.version` });
}

/** The snapshot as the engine takes it, once its shape is right. */
export function readSnapshot(value: unknown, format: ContextFormat, config: string, at = 'snapshot'): EngineState {
  const snap = object(at, value);
  const version = number(`${at}.version`, snap.version);
  if (version > SNAPSHOT_VERSION) throw newerSnapshot(version, at);
  if (version !== 1 && version !== SNAPSHOT_VERSION) throw argumentError(RangeError, `${at}.version`, `must be 1 or ${SNAPSHOT_VERSION}, got ${version}`);
  if (snap.format !== format) throw argumentError(TypeError, `${at}.format`, `is ${JSON.stringify(snap.format)}, but options.format is '${format}'`);
  if (string(`${at}.config`, snap.config) !== config) {
    throw argumentError(TypeError, `${at}.config`, 'does not match the options: restore with the budget, shares, system prompt and pinned texts the manager had');
  }
  // Version 1: the rules' calls (checked call by call when replayed); version 2: the journal.
  const log = version === 1 ? array(`${at}.log`, snap.log).map((call, i) => {
    const c = array(`${at}.log[${i}]`, call);
    string(`${at}.log[${i}][0]`, c[0]);
    return c as [string, ...unknown[]];
  }) : undefined;
  // Version 2 as first released held the journal from the start (`events`) and no state.
  const rules = version === 1 || (snap.rules === undefined && snap.events !== undefined) ? undefined : string(`${at}.rules`, snap.rules);
  const events = snap.events === undefined ? undefined : array(`${at}.events`, snap.events).map((e, i) => string(`${at}.events[${i}]`, e));
  const ledgerFrom = snap.ledgerFrom === undefined ? undefined : number(`${at}.ledgerFrom`, snap.ledgerFrom);
  const messages = array(`${at}.messages`, snap.messages).map((m, i) => {
    if (m === null) return null;
    const field = `${at}.messages[${i}]`;
    // Version 2: a run of released messages, as its count.
    if (typeof m === 'number' && version > 1) return run(field, m);
    const kept = object(field, m);
    if (!('source' in kept)) throw argumentError(TypeError, `${field}.source`, 'is missing');
    if (kept.shown !== undefined) {
      for (const [k, text] of Object.entries(object(`${field}.shown`, kept.shown))) {
        if (!/^\d+$/.test(k)) throw argumentError(TypeError, `${field}.shown`, `must have part numbers as keys, got ${JSON.stringify(k)}`);
        string(`${field}.shown.${k}`, text);
      }
    }
    if (kept.baked !== undefined) array(`${field}.baked`, kept.baked).forEach((k, j) => partIndex(`${field}.baked[${j}]`, k));
    return kept as unknown as KeptMessage;
  });
  const calls = array(`${at}.calls`, snap.calls).map((c, i) => {
    // Version 2: a run of calls let go (folded away), as its count.
    if (typeof c === 'number' && version > 1) return run(`${at}.calls[${i}]`, c);
    const pair = array(`${at}.calls[${i}]`, c);
    return [string(`${at}.calls[${i}][0]`, pair[0]), string(`${at}.calls[${i}][1]`, pair[1])] as [string, string];
  });
  const ledger = array(`${at}.ledger`, snap.ledger).map((r, i) => object(`${at}.ledger[${i}]`, r)) as unknown as EngineState['ledger'];
  const state: EngineState = { messages, calls, summary: string(`${at}.summary`, snap.summary), tail: string(`${at}.tail`, snap.tail), ledger };
  if (log) state.log = log;
  if (rules !== undefined) state.rules = rules;
  if (events) state.events = events;
  if (ledgerFrom !== undefined) state.ledgerFrom = ledgerFrom;
  if (snap.decisions !== undefined) state.decisions = number(`${at}.decisions`, snap.decisions);
  if (snap.lines !== undefined) {
    const lines = object(`${at}.lines`, snap.lines);
    for (const [id, line] of Object.entries(lines)) string(`${at}.lines[${JSON.stringify(id)}]`, line);
    state.lines = lines as Record<string, string>;
  }
  if (string(`${at}.check`, snap.check) !== check(version, format, config, state)) {
    throw argumentError(TypeError, `${at}.check`, 'does not match the snapshot: it was altered or cut short after it was taken');
  }
  return state;
}

/**
 * A check of everything a snapshot holds, over its JSON with keys in order: a database
 * that reorders keys (PostgreSQL's jsonb) keeps it valid, an edit does not.
 */
function check(version: number, format: string, config: string, state: EngineState): string {
  return checkOf({ version, format, config, ...state });
}

/** The check of any JSON data: its canonical JSON's key. */
export function checkOf(value: unknown): string {
  return textKey(canonical(value));
}

/** A run's count: a whole number >= 1 (its total is checked against the rules' own). */
function run(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw argumentError(RangeError, field, `must be a message or call, or a count of them >= 1, got ${value}`);
  return value;
}

function partIndex(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw argumentError(typeof value === 'number' ? RangeError : TypeError, field, 'must be a part number, a whole number >= 0');
  }
  return value;
}

/** The snapshot of an engine's state, with what `readSnapshot` checks it against. */
export function toSnapshot(state: EngineState, format: ContextFormat, config: string): ContextSnapshot {
  return { version: SNAPSHOT_VERSION, format, config, ...state, check: check(SNAPSHOT_VERSION, format, config, state) } as ContextSnapshot;
}
