// Bounds on host callbacks: a callback that never settles would hold its runner or manager
// for good, since turns and builds run one at a time. One that runs past the host's
// bound rejects with an error naming it; the turn or build is undone, and the next works.
import { argumentError, brand, branded } from '../errors/index.js';

/**
 * A host callback that did not settle within the time its host allowed.
 * @example
 * import { AgentRunner, CallbackTimeoutError } from '@devs/context';
 *
 * const runner = new AgentRunner({
 *   agentId: 'dev-agent', taskGoal: 'Fix the parser', callbackTimeoutMs: 60_000,
 *   llm: () => new Promise<never>(() => {}), // a request that never comes back
 * });
 * const error = await runner.runTurn('go').catch((e: unknown) => e);
 * if (error instanceof CallbackTimeoutError) console.log(error.callback); // 'llm.complete'
 */
export class CallbackTimeoutError extends Error {
  /** @internal By the brand: an error of either copy of the package (CommonJS, ES module) is an instance. (Not declared: a host whose lib lacks `Symbol.hasInstance` compiles.) */
  static [Symbol.hasInstance](value: unknown): boolean {
    return branded(value, 'CallbackTimeoutError');
  }

  /** Always `ERR_CALLBACK_TIMEOUT`. */
  readonly code = 'ERR_CALLBACK_TIMEOUT';
  /** The callback, as the options name it: `llm.complete`, `store.insertRawToolOutput`, … */
  readonly callback: string;
  /** The bound, in milliseconds. */
  readonly timeoutMs: number;

  /** `option`: the option that set the bound. */
  constructor(callback: string, timeoutMs: number, option = 'callbackTimeoutMs') {
    super(`${callback} did not settle within ${timeoutMs} ms (${option}); the call was abandoned and nothing of it was kept`);
    this.name = 'CallbackTimeoutError';
    brand(this, 'CallbackTimeoutError');
    this.callback = callback;
    this.timeoutMs = timeoutMs;
  }
}

/** Whether a callback answered with a promise or any other thenable: something to wait for. */
function thenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as PromiseLike<T>).then === 'function';
}

/** `value` (a callback's answer, or its promise), or a `CallbackTimeoutError` once `ms` have passed. */
export function within<T>(ms: number | undefined, value: T | PromiseLike<T>, callback: string, option?: string): Promise<T> {
  if (ms === undefined || !thenable(value)) return Promise.resolve(value);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallbackTimeoutError(callback, ms, option)), ms);
  });
  return Promise.race([Promise.resolve(value), late]).finally(() => clearTimeout(timer));
}

/**
 * `within` for a turn's hot path: an answer that is not a promise comes back as it is, so
 * the caller goes on at once. (`await` on a plain value still allocates a promise and
 * waits a microtask, and a turn asks several callbacks that answer synchronously, such as
 * this package's own composer and pruners.) A promise, or any thenable, is `within`'s.
 */
export function answer<T>(ms: number | undefined, value: T | PromiseLike<T>, callback: string): T | Promise<T> {
  return thenable(value) ? within(ms, value, callback) : value;
}

/** The `callbackTimeoutMs` option: a number of milliseconds > 0, or undefined for no bound. */
export function timeoutOption(field: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number') throw argumentError(TypeError, field, `must be a number of milliseconds, got ${typeof value}`);
  if (!(value > 0) || !Number.isFinite(value)) throw argumentError(RangeError, field, `must be a number of milliseconds > 0, got ${value}`);
  return value;
}
