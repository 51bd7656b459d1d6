// The SAOP envelope validator. The shell walks a host's envelope once into a skeleton of
// plain data (kinds, lengths, short strings); the rules validate the skeleton and name
// the first bad field. A getter or Proxy trap that throws does so here, in JS.
import { checked } from '../errors/index.js';
import type { SaopEnvelope } from './types.js';
import { vouch } from './shape.js';
import { rules } from '../core/wasm.js';

/** The strings the validator reads are sent whole up to this long (only their length past it). */
const SHORT = 256;
/**
 * The walk stops here: the rules allow `action.arguments` 64 levels and reject the rest,
 * so nothing deeper can change the verdict, and a host's 20,000-level object never
 * overflows the stack.
 */
const WALK_LIMIT = 70;

/** Where a value sits: the envelope itself, its `observation`, or anywhere else. */
const ROOT = 0;
const OBSERVATION = 1;
const ELSEWHERE = 2;
type Place = typeof ROOT | typeof OBSERVATION | typeof ELSEWHERE;

/**
 * Whether the validator reads the text of the string under `key` at `place`: it reads only
 * `schema_version` and `observation.status` (of every other string, its kind and length),
 * so only those two are sent whole.
 */
function textRead(place: Place, key: string): boolean {
  return place === ROOT ? key === 'schema_version' : place === OBSERVATION && key === 'status';
}

/**
 * Writes what the validator may read of `value` (see src/saop.rs for the form): kinds,
 * lengths, and the text of the short strings it reads (`read`).
 */
function skeleton(value: unknown, ancestors: object[], place: Place = ROOT, read = false): string {
  switch (typeof value) {
    case 'string':
      return read && value.length <= SHORT ? `S${value.length}:${value}` : `s${value.length};`;
    case 'number':
      return `n${value};`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'undefined':
      return 'u';
    case 'bigint':
    case 'function':
    case 'symbol':
      return `x${typeof value};`;
  }
  if (value === null) return 'z';
  const obj = value as object;
  if (ancestors.includes(obj)) return 'xcycle;';
  const array = Array.isArray(obj);
  if (ancestors.length >= WALK_LIMIT) return array ? 'a0;' : 'o0;';
  ancestors.push(obj);
  let out: string;
  if (array) {
    const items = obj as unknown[];
    out = `a${items.length};`;
    for (let i = 0; i < items.length; i++) out += skeleton(items[i], ancestors, ELSEWHERE);
  } else {
    const bag = obj as Record<string, unknown>;
    const keys = Object.keys(bag);
    out = `o${keys.length};`;
    for (const key of keys) {
      const inner = place === ROOT && key === 'observation' ? OBSERVATION : ELSEWHERE;
      out += `${key.length}:${key}${skeleton(bag[key], ancestors, inner, textRead(place, key))}`;
    }
  }
  ancestors.pop();
  return out;
}

/**
 * Validates `envelopes`; a fault is named under `prefix` (`prefix[indexes[k]].field` when
 * `indexes` are given, else `prefix.field`). Each one valid is vouched for as it is
 * (`shape.ts`): unchanged, it is not sent to the rules again.
 */
export function validateAll(envelopes: readonly unknown[], prefix: string, indexes?: Uint32Array): void {
  // The prefix and the skeletons cross as one string.
  let text = prefix;
  for (const e of envelopes) text += skeleton(e, []);
  checked(() => rules.validateSkeletons(text, prefix.length, indexes));
  for (const e of envelopes) vouch(e);
}

/**
 * Returns `envelope` unchanged when it is a valid SAOP 1.x envelope.
 * @throws {TypeError} whose `field` (and message) name the JSON path of the first bad
 * field, e.g. `observation.status`; its `code` is `ERR_INVALID_SAOP_ENVELOPE`.
 * @example
 * import { validateSaopEnvelope } from '@devs/context';
 *
 * const checked = validateSaopEnvelope(JSON.parse(line)); // throws TypeError: observation.status must be one of …
 */
export function validateSaopEnvelope(envelope: unknown): SaopEnvelope {
  validateAll([envelope], '');
  return envelope as SaopEnvelope;
}

/**
 * `true` when `value` is a valid SAOP 1.x envelope. An error thrown by one of the host's
 * getters or Proxy traps while reading `value` is thrown as it is.
 * @example
 * import { isSaopEnvelope } from '@devs/context';
 *
 * const message: unknown = JSON.parse(line);
 * if (isSaopEnvelope(message)) console.log(message.observation.status); // `message` is a SaopEnvelope here
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
