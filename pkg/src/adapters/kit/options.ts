// What every adapter reads of its host's options the same way: the manager's option names,
// a bad option's error, and how many conversations stay in memory. An adapter hands its
// managers every option of `ContextManager` it does not set itself, so an option the
// manager gains is an option of every adapter at once (LangChain's once lacked four).
import type { ContextManagerOptions } from '@devs/context';
import { argumentError } from '../../errors/index.js';
import { MANAGER_OPTIONS as MANAGER_OPTION_NAMES } from '../../core/protocol.js';

export { argumentError };

/**
 * Every option of `ContextManager`, by name: the rules' list (`config::MANAGER_OPTION_NAMES`,
 * written into core/protocol.ts). A name the list has and `ContextManagerOptions` lacks, or
 * one the type has and the list lacks (`EVERY_OPTION` below), is a compile error, so the
 * list cannot drift from the type.
 */
export const MANAGER_OPTIONS = MANAGER_OPTION_NAMES satisfies readonly (keyof ContextManagerOptions)[];

export type ManagerOption = (typeof MANAGER_OPTIONS)[number];
type Unlisted = Exclude<keyof ContextManagerOptions, ManagerOption>;
/** Fails to compile, naming the option, when `ContextManagerOptions` has one the list lacks. */
export const EVERY_OPTION: [Unlisted] extends [never] ? true : Unlisted = true;

/** The callbacks a manager calls, which an adapter wraps to add its conversation's name. */
export const MANAGER_CALLBACKS = ['onLedger', 'onWarning', 'onCompaction', 'beforeCompaction'] as const;

/** One default for every adapter: conversations (threads) kept in memory at once. */
export const DEFAULT_MAX_CONVERSATIONS = 100;

/** A value's kind in an error message. */
export const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** `options` as a bag of named values, or a TypeError naming `options`. */
export function optionsBag(options: unknown): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw argumentError(TypeError, 'options', `must be an object with a budget, got ${typeName(options)}`);
  return options as Record<string, unknown>;
}

/**
 * The manager's options among the host's: every option of `ContextManager` but those the
 * adapter sets itself (`fixed`, refused with the reason given) or takes as its own (`own`).
 * A name that is neither the manager's nor the adapter's is refused, naming both lists.
 */
export function managerOptions(o: Record<string, unknown>, entry: string, own: readonly string[], fixed: Readonly<Record<string, string>> = {}): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(o)) {
    if (o[key] === undefined || own.includes(key)) continue;
    if (key in fixed) throw argumentError(TypeError, `options.${key}`, fixed[key]!);
    if (!(MANAGER_OPTIONS as readonly string[]).includes(key)) {
      const names = [...MANAGER_OPTIONS.filter((k) => !(k in fixed)), ...own.filter((k) => !(MANAGER_OPTIONS as readonly string[]).includes(k))];
      throw argumentError(TypeError, `options.${key}`, `is not an option of ${entry} (its options: ${names.join(', ')})`);
    }
    picked[key] = o[key];
  }
  return picked;
}

/** `options.<name>`, a function when given. */
export function optionalCallback(o: Record<string, unknown>, name: string): void {
  if (o[name] !== undefined && typeof o[name] !== 'function') throw argumentError(TypeError, `options.${name}`, `must be a function, got ${typeName(o[name])}`);
}

/** `options.<name>`: a whole number >= 1, `DEFAULT_MAX_CONVERSATIONS` when left out. */
export function maxConversations(o: Record<string, unknown>, name = 'maxConversations'): number {
  const max = o[name] ?? DEFAULT_MAX_CONVERSATIONS;
  if (typeof max !== 'number') throw argumentError(TypeError, `options.${name}`, `must be a number, got ${typeName(max)}`);
  if (!Number.isInteger(max) || max < 1) throw argumentError(RangeError, `options.${name}`, `must be a whole number >= 1, got ${max}`);
  return max;
}

/** `options.recall`: a boolean, true when left out. */
export function recallOption(o: Record<string, unknown>): boolean {
  if (o.recall !== undefined && typeof o.recall !== 'boolean') throw argumentError(TypeError, 'options.recall', `must be a boolean, got ${typeName(o.recall)}`);
  return o.recall !== false;
}
