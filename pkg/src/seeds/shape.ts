// The walk that vouches an object is what it was: its keys and leaf values, in order, as
// its JSON is made of them. Every envelope the rules validate is vouched for
// (`validateAll`), and so is one the package makes from a vouched one (the tracker's stamp,
// the runner's cut copy), so a window never asks the rules to validate again what they
// validated and nothing changed since.
import type { Bag } from '../core/read.js';

/** Deeper than this, an envelope is compared by its JSON. */
const DEPTH = 70;
/** Marks, in a shape, where an object or an array begins (its key count or length follows). */
const OBJECT = Symbol('object');
const ARRAY = Symbol('array');

/**
 * Appends to `out` what `value`'s JSON is made of; false when it holds something whose
 * JSON does not follow from its keys and leaf values alone.
 */
function shape(value: unknown, out: unknown[], depth: number): boolean {
  if (typeof value !== 'object' || value === null) {
    const kind = typeof value;
    if (kind === 'function' || kind === 'symbol' || kind === 'bigint' || (kind === 'number' && Number.isNaN(value))) return false;
    out.push(value);
    return true;
  }
  if (depth > DEPTH) return false;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return false;
    out.push(ARRAY, value.length);
    for (let i = 0; i < value.length; i++) if (!shape(value[i], out, depth + 1)) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  const bag = value as Bag;
  const keys = Object.keys(bag);
  out.push(OBJECT, keys.length);
  for (const key of keys) {
    out.push(key);
    if (!shape(bag[key], out, depth + 1)) return false;
  }
  return true;
}

/** Where the walk of `value` ends in `recorded` from `at`, or -1 where it differs. */
export function same(value: unknown, recorded: unknown[], at: number, depth: number): number {
  if (typeof value !== 'object' || value === null) return recorded[at] === value ? at + 1 : -1;
  if (depth > DEPTH) return -1;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype || recorded[at] !== ARRAY || recorded[at + 1] !== value.length) return -1;
    let k = at + 2;
    for (let i = 0; i < value.length && k >= 0; i++) k = same(value[i], recorded, k, depth + 1);
    return k;
  }
  if ((proto !== Object.prototype && proto !== null) || recorded[at] !== OBJECT) return -1;
  const bag = value as Bag;
  const keys = Object.keys(bag);
  if (recorded[at + 1] !== keys.length) return -1;
  let k = at + 2;
  for (let i = 0; i < keys.length && k >= 0; i++) {
    if (recorded[k] !== keys[i]) return -1;
    k = same(bag[keys[i]], recorded, k + 1, depth + 1);
  }
  return k;
}

/** A `toJSON` on the prototypes plain objects and arrays share would change every JSON. */
export function plainJson(): boolean {
  return !('toJSON' in Object.prototype) && !('toJSON' in Array.prototype);
}

/** Envelopes known valid as they are, with their walk then: validated, or made by the package from one that was. */
const VOUCHED = new WeakMap<object, unknown[]>();

/** Records `e` as valid as it is now: the caller validated it, or made it from one `vouched`. */
export function vouch(e: unknown): void {
  if (typeof e !== 'object' || e === null) return;
  const walked: unknown[] = [];
  if (shape(e, walked, 0)) VOUCHED.set(e, walked);
}

/** The walk `e` was vouched for with, if it was. */
export function walkOf(e: object): unknown[] | undefined {
  return VOUCHED.get(e);
}

/** Whether `e` was vouched for and nothing of it changed since. */
export function vouched(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const walked = VOUCHED.get(e);
  if (walked === undefined || !plainJson()) return false;
  try {
    return same(e, walked, 0, 0) === walked.length;
  } catch {
    // A getter that throws now: the validator names it.
    return false;
  }
}
