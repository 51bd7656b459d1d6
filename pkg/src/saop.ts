// The SAOP envelope validator. The shell walks a host's envelope once into a skeleton of
// plain data (kinds, lengths, short strings); the rules validate the skeleton and name
// the first bad field. A getter or Proxy trap that throws does so here, in JS.
import { ruleError } from './errors.js';
import type { SaopEnvelope } from './types.js';
import { rules } from './wasm.js';

/** Strings up to this long are sent whole; the validator reads only short ones. */
const SHORT = 256;
/**
 * The walk stops here: the rules allow `action.arguments` 64 levels and reject the rest,
 * so nothing deeper can change the verdict, and a host's 20,000-level object never
 * overflows the stack.
 */
const WALK_LIMIT = 70;

type Skeleton = Record<string, unknown>;

/** The text as the validator may read it: lone surrogates become U+FFFD (same length). */
function wellFormed(text: string): string {
  const s = text as string & { isWellFormed?: () => boolean; toWellFormed?: () => string };
  if (typeof s.isWellFormed === 'function') return s.isWellFormed() ? text : (s.toWellFormed as () => string)();
  return text.replace(/\p{Cs}/gu, '\uFFFD');
}

function skeleton(value: unknown, ancestors: object[]): Skeleton {
  switch (typeof value) {
    case 'string':
      return value.length <= SHORT ? { s: value.length, t: wellFormed(value) } : { s: value.length };
    case 'number':
      return Number.isFinite(value) ? { n: value } : { f: String(value) };
    case 'boolean':
      return { b: value };
    case 'undefined':
      return { u: 1 };
    case 'bigint':
    case 'function':
    case 'symbol':
      return { x: typeof value };
  }
  if (value === null) return { z: 1 };
  const obj = value as object;
  if (ancestors.includes(obj)) return { x: 'cycle' };
  if (ancestors.length >= WALK_LIMIT) return Array.isArray(obj) ? { a: [] } : { o: [] };
  ancestors.push(obj);
  let out: Skeleton;
  if (Array.isArray(obj)) {
    out = { a: Array.from(obj, (item) => skeleton(item, ancestors)) };
  } else {
    const bag = obj as Record<string, unknown>;
    out = { o: Object.keys(bag).map((key) => [wellFormed(key), skeleton(bag[key], ancestors)]) };
  }
  ancestors.pop();
  return out;
}

/**
 * Validates `envelopes`; a fault is named under `prefix` (`prefix[indexes[k]].field` when
 * `indexes` are given, else `prefix.field`).
 */
export function validateAll(envelopes: readonly unknown[], prefix: string, indexes: Uint32Array = new Uint32Array(0)): void {
  const json = JSON.stringify(envelopes.map((e) => skeleton(e, [])));
  try {
    rules.validateSkeletons(json, prefix, indexes);
  } catch (thrown) {
    throw ruleError(thrown);
  }
}

/**
 * Returns `envelope` unchanged when it is a valid SAOP 1.x envelope.
 * @throws {TypeError} whose `field` (and message) name the JSON path of the first bad
 * field, e.g. `observation.status`; its `code` is `ERR_INVALID_SAOP_ENVELOPE`.
 * @example
 * validateSaopEnvelope(JSON.parse(line)); // throws TypeError: observation.status must be one of …
 */
export function validateSaopEnvelope(envelope: unknown): SaopEnvelope {
  validateAll([envelope], '');
  return envelope as SaopEnvelope;
}

/**
 * `true` when `value` is a valid SAOP 1.x envelope. An error thrown by one of the host's
 * getters or Proxy traps while reading `value` is thrown as it is.
 * @example
 * if (isSaopEnvelope(message)) log.append(tracker.toLogEntry());
 */
export function isSaopEnvelope(value: unknown): value is SaopEnvelope {
  try {
    validateAll([value], '');
    return true;
  } catch (error) {
    if ((error as { code?: unknown })?.code === 'ERR_INVALID_SAOP_ENVELOPE') return false;
    throw error;
  }
}
