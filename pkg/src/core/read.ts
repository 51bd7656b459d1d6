// Reads host values once, into plain data, checking only their JS types: what a rule
// decides about the values (ranges, enums, emptiness) is decided in Rust. A getter or
// Proxy trap that throws throws here, in JS, with no wasm frame on the stack.
import { argumentError } from '../errors/index.js';

/** What a host passed, in words, for error messages. */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'number':
      return `the number ${String(value)}`;
    case 'string':
      return [...value].length <= 40 ? `the string ${JSON.stringify(value)}` : 'a string';
    case 'boolean':
      return `the boolean ${value}`;
    case 'bigint':
      return 'a bigint';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      return value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
  }
}

function wrongType(field: string, expected: string, value: unknown): Error {
  return argumentError(TypeError, field, `must be ${expected}, got ${describe(value)}`);
}

export type Bag = Record<string, unknown>;

export function isObject(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function object(field: string, value: unknown): Bag {
  if (!isObject(value)) throw wrongType(field, 'an object', value);
  return value;
}

export function string(field: string, value: unknown, expected = 'a string'): string {
  if (typeof value !== 'string') throw wrongType(field, expected, value);
  return value;
}

/** A function, or `undefined`. */
export function optionalFunction<F extends (...args: never[]) => unknown>(field: string, value: unknown): F | undefined {
  if (value !== undefined && typeof value !== 'function') throw wrongType(field, 'a function', value);
  return value as F | undefined;
}

/** A boolean, or `undefined`. */
export function optionalBoolean(field: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') throw wrongType(field, 'a boolean', value);
  return value;
}

/** A string, or `undefined`. */
export function optionalString(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : string(field, value);
}

/** A string with at least one character. */
export function nonEmptyString(field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw wrongType(field, 'a non-empty string', value);
  return value;
}

export function number(field: string, value: unknown): number {
  if (typeof value !== 'number') throw wrongType(field, 'a number', value);
  return value;
}

/** A number, or `undefined` for the default. */
export function optionalNumber(field: string, value: unknown): number | undefined {
  return value === undefined ? undefined : number(field, value);
}

export function array(field: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw wrongType(field, 'an array', value);
  return value;
}

/** The function at `target[key]`; `field` names it in errors. */
export function method(target: Bag, key: string, field: string): (...args: unknown[]) => unknown {
  const value = target[key];
  if (typeof value !== 'function') throw wrongType(field, 'a function', value);
  return value as (...args: unknown[]) => unknown;
}

/** `target[key](...args)`, checked to be a function first. */
export function callMethod(target: Bag, key: string, field: string, args: unknown[]): unknown {
  return method(target, key, field).apply(target, args);
}

/**
 * An object holding the functions `methods`, under `field`. Where one method is wanted, a
 * plain function stands for it: `summarizer: (prompt) => llm.generate(prompt)`.
 */
export function holder(field: string, value: unknown, methods: readonly string[]): Bag {
  if (typeof value === 'function' && methods.length === 1) return { [methods[0]]: value };
  if (!isObject(value)) throw wrongType(field, wanted(methods), value);
  for (const name of methods) method(value, name, `${field}.${name}`);
  return value;
}

/** What a holder of `methods` must be, in words. */
function wanted(methods: readonly string[]): string {
  const names = methods.map((m) => `${m}()`);
  if (names.length === 1) return `an object with ${names[0]}, or a function`;
  return `an object with ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Where a probe for a cut at `max` units starts (`devs_context_rules::text`): a plain cut
 * needs only the two units before the limit; a cut at a space needs the whole prefix.
 */
export function probeStart(max: number, atSpace: boolean): number {
  return atSpace ? 0 : Math.max(0, max - 1);
}

/** What a rule that cuts `text` at `max` units must see of it: `[units start..=max, start]`. */
export function probe(text: string, max: number, atSpace = false): [string, number] {
  const start = probeStart(max, atSpace);
  return [text.slice(start, max + 1), start];
}

/** Texts joined for one crossing, with their UTF-16 lengths: how a batch of strings reaches a rule. */
export function joinTexts(texts: readonly string[]): [string, Uint32Array] {
  const lens = new Uint32Array(texts.length);
  let joined = '';
  for (let i = 0; i < texts.length; i++) {
    lens[i] = texts[i].length;
    joined += texts[i];
  }
  return [joined, lens];
}

/** The probes of `texts` for a plain cut at `max`, joined: `[joined, lens, start]`. */
export function joinProbes(texts: readonly string[], max: number): [string, Uint32Array, number] {
  const start = probeStart(max, false);
  return [...joinTexts(texts.map((t) => t.slice(start, max + 1))), start];
}
