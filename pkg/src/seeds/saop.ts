// The SAOP envelope validator. The shell walks a host's envelope once into a skeleton of
// plain data (kinds, lengths, short strings); the rules validate the skeleton and name
// the first bad field. A getter or Proxy trap that throws does so here, in JS.
import { checked } from '../errors/index.js';
import type { SaopEnvelope } from './types.js';
import { rules } from '../core/wasm.js';

/** Strings up to this long are sent whole; the validator reads only short ones. */
const SHORT = 256;
/**
 * The walk stops here: the rules allow `action.arguments` 64 levels and reject the rest,
 * so nothing deeper can change the verdict, and a host's 20,000-level object never
 * overflows the stack.
 */
const WALK_LIMIT = 70;

/**
 * Writes what the validator may read of `value` (see src/saop.rs for the form): kinds,
 * lengths, and the text of short strings only.
 */
function skeleton(value: unknown, ancestors: object[]): string {
  switch (typeof value) {
    case 'string':
      return value.length <= SHORT ? `S${value.length}:${value}` : `s${value.length};`;
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
    for (let i = 0; i < items.length; i++) out += skeleton(items[i], ancestors);
  } else {
    const bag = obj as Record<string, unknown>;
    const keys = Object.keys(bag);
    out = `o${keys.length};`;
    for (const key of keys) out += `${key.length}:${key}${skeleton(bag[key], ancestors)}`;
  }
  ancestors.pop();
  return out;
}

/**
 * Validates `envelopes`; a fault is named under `prefix` (`prefix[indexes[k]].field` when
 * `indexes` are given, else `prefix.field`).
 */
export function validateAll(envelopes: readonly unknown[], prefix: string, indexes: Uint32Array = new Uint32Array(0)): void {
  let skeletons = '';
  for (const e of envelopes) skeletons += skeleton(e, []);
  checked(() => rules.validateSkeletons(skeletons, prefix, indexes));
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
