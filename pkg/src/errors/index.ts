// The package's errors. The rules return their errors as plain data (a frame of class,
// code, field and message); they become real JS errors here, so hosts can `instanceof`
// them and read `code` and `field`.
import { FrameReader } from '../core/frame.js';
import { ErrorClass } from '../core/protocol.js';

/**
 * The brand each error class of the package gives its errors, registered with
 * `Symbol.for`: a host that loads both the CommonJS and the ES module copy of the package
 * (a CJS dependency beside ESM code, a bundled extension) has two of each class, and
 * `instanceof` answers by the brand, so an error of one copy is an instance of the other's
 * class. The package itself checks `code`, never classes.
 */
const BRAND = Symbol.for('@devs/context/error-class');

/** Gives `error` the brand of class `name`. */
export function brand<E extends Error>(error: E, name: string): E {
  Object.defineProperty(error, BRAND, { value: name });
  return error;
}

/** Whether `value` is an error of the package's class `name`, from either copy. */
export function branded(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === name;
}

/** Whether `error` carries `code`: how the package tells its errors apart. */
export function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** `error` with a stable `code`, for the errors the package throws that are not one of its classes. */
export function coded<E extends Error>(error: E, code: string): E & { code: string } {
  return Object.assign(error, { code });
}

/** Codes of the `TypeError`s and `RangeError`s this package throws for bad arguments. */
export type ArgumentErrorCode = 'ERR_INVALID_ARG_TYPE' | 'ERR_OUT_OF_RANGE' | 'ERR_INVALID_SAOP_ENVELOPE';

/** A `TypeError` or `RangeError` for a bad argument: `code`, and the `field` at fault. */
export interface ArgumentError extends Error {
  /** What is wrong: the type (`ERR_INVALID_ARG_TYPE`), the range (`ERR_OUT_OF_RANGE`) or an envelope (`ERR_INVALID_SAOP_ENVELOPE`). */
  readonly code: ArgumentErrorCode;
  /** Dotted path of the field at fault, e.g. `options.threshold` or `observation.status`. */
  readonly field: string;
}

/** Options of `SummarizationError`. */
export interface SummarizationErrorOptions {
  /** The agent whose turns were being summarized, when known. */
  agentId?: string;
  /** Machine-readable reason: `ERR_EMPTY_SUMMARY`. */
  code: 'ERR_EMPTY_SUMMARY';
  /** The underlying error, if any, as `Error.cause`. */
  cause?: unknown;
}

/**
 * The summarizer LLM gave no usable summary (`code: 'ERR_EMPTY_SUMMARY'`). Rejected by
 * `SummarizationHandoff.transfer` and `ContextPruner.prune`; nothing is saved.
 * @example
 * import { SummarizationError, SummarizationHandoff } from '@devs/context';
 *
 * const handoff = new SummarizationHandoff({ llmClient: { summarize: () => '' } });
 * const turns = [{ turnIndex: 1, agentId: 'dev-agent', role: 'user' as const, content: 'hi', createdAt: new Date() }];
 * try {
 *   await handoff.transfer('dev-agent', turns);
 * } catch (error) {
 *   if (error instanceof SummarizationError) console.log(error.code, error.agentId); // ERR_EMPTY_SUMMARY dev-agent
 * }
 */
export class SummarizationError extends Error {
  /** @internal By the brand: an error of either copy of the package (CommonJS, ES module) is an instance. (Not declared: a host whose lib lacks `Symbol.hasInstance` compiles.) */
  static [Symbol.hasInstance](value: unknown): boolean {
    return branded(value, 'SummarizationError');
  }

  /** Always `ERR_EMPTY_SUMMARY`. */
  readonly code: 'ERR_EMPTY_SUMMARY';
  /** The agent whose turns were being summarized, when known. */
  readonly agentId: string | undefined;

  /** `message` says what failed; `options` gives the code, the agent and the cause. */
  constructor(message: string, options: SummarizationErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SummarizationError';
    brand(this, 'SummarizationError');
    this.code = options.code;
    this.agentId = options.agentId;
  }
}

/**
 * A method was called on an object after its `free()` (or `[Symbol.dispose]()`). Thrown
 * every time, and harmless to the module: no other object is affected.
 * @example
 * import { TurnTracker, UseAfterFreeError } from '@devs/context';
 *
 * const tracker = new TurnTracker('dev-agent', 'implement');
 * tracker.free();
 * try {
 *   tracker.nextIndex();
 * } catch (error) {
 *   if (error instanceof UseAfterFreeError) console.log(error.code); // ERR_USE_AFTER_FREE
 * }
 */
export class UseAfterFreeError extends Error {
  /** @internal By the brand: an error of either copy of the package (CommonJS, ES module) is an instance. (Not declared: a host whose lib lacks `Symbol.hasInstance` compiles.) */
  static [Symbol.hasInstance](value: unknown): boolean {
    return branded(value, 'UseAfterFreeError');
  }

  /** Always `ERR_USE_AFTER_FREE`. */
  readonly code: 'ERR_USE_AFTER_FREE' = 'ERR_USE_AFTER_FREE';

  /** The message names `className`, the class of the freed object. */
  constructor(className: string) {
    super(`this ${className} was freed; create a new one`);
    this.name = 'UseAfterFreeError';
    brand(this, 'UseAfterFreeError');
  }
}

/**
 * A call made from inside one of the same object's own callbacks that would wait for
 * the call it is inside (turns and builds run one at a time): refused at once, on Node.
 * @example
 * import { AgentRunner, ReentrantCallError } from '@devs/context';
 *
 * const runner: AgentRunner = new AgentRunner({
 *   agentId: 'dev-agent', taskGoal: 'Fix the parser',
 *   llm: async () => {
 *     const inner = await runner.runTurn('again').catch((e: unknown) => e);
 *     console.log(inner instanceof ReentrantCallError); // true: it would wait for this very turn
 *     return { text: 'done' };
 *   },
 * });
 * await runner.runTurn('go');
 */
export class ReentrantCallError extends Error {
  /** @internal By the brand: an error of either copy of the package (CommonJS, ES module) is an instance. (Not declared: a host whose lib lacks `Symbol.hasInstance` compiles.) */
  static [Symbol.hasInstance](value: unknown): boolean {
    return branded(value, 'ReentrantCallError');
  }

  /** Always `ERR_REENTRANT_CALL`. */
  readonly code: 'ERR_REENTRANT_CALL' = 'ERR_REENTRANT_CALL';

  /** `call`: `AgentRunner.runTurn` or `ContextManager.build`. */
  constructor(call: string) {
    super(`${call} was called from inside one of this object's own callbacks, so it would wait for the turn that called it; call it after that one settles`);
    this.name = 'ReentrantCallError';
    brand(this, 'ReentrantCallError');
  }
}

/**
 * A session advanced by someone else: another worker moved it on since this one read it,
 * or it is already open in this process. Nothing of the call that got it was written; a
 * worker that gets it has lost the session, and opens it again to go on from where the
 * other one left it.
 * @example
 * import { ContextManager, SessionConflictError } from '@devs/context';
 * import { SqliteStateRepository } from '@devs/context/sqlite';
 *
 * const store = new SqliteStateRepository('state.sqlite');
 * const first = await ContextManager.open({ sessionId: 'task-42', store, format: 'openai-chat', budget: 100_000 });
 * const second = await ContextManager.open({ sessionId: 'task-42', store, format: 'openai-chat', budget: 100_000 }).catch((e: unknown) => e);
 * console.log(second instanceof SessionConflictError); // true: one manager per session
 * await first.close();
 */
export class SessionConflictError extends Error {
  /** @internal By the brand: an error of either copy of the package (CommonJS, ES module) is an instance. (Not declared: a host whose lib lacks `Symbol.hasInstance` compiles.) */
  static [Symbol.hasInstance](value: unknown): boolean {
    return branded(value, 'SessionConflictError');
  }

  /** Always `ERR_SESSION_CONFLICT`. */
  readonly code: 'ERR_SESSION_CONFLICT' = 'ERR_SESSION_CONFLICT';
  /** The session. */
  readonly sessionId: string;
  /** The version this manager had read: the calls it had seen committed. */
  readonly expectedVersion: number;
  /** The session's version in the store: `expectedVersion` or more. */
  readonly actualVersion: number;

  /** `reason` replaces the default explanation (a session already open in this process). */
  constructor(sessionId: string, expectedVersion: number, actualVersion: number, reason?: string) {
    super(`session ${JSON.stringify(sessionId)}: ${reason ?? `this manager read it at version ${expectedVersion}, but the store has version ${actualVersion}: another worker moved it on; nothing of this call was written`}`);
    this.name = 'SessionConflictError';
    brand(this, 'SessionConflictError');
    this.sessionId = sessionId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}

// The JS class of a rule's error, by the code its frame opens with: the rules' table,
// written into core/protocol.ts by crates/protocol.
export { ErrorClass };

/** How a frame's number opens: a rule's error frame opens with its class. */
const FRAME_NUM = '\uFDD3';
/**
 * A `TypeError`/`RangeError` from a wasm module's error, the rules' or the tokenizers':
 * a frame of its class, code, field and message, each apart (`FieldError::frame`).
 */
export function fromReport(report: string): ArgumentError | Error {
  // Anything else is no report of a module's: an internal error, raised without its marks.
  if (!report.startsWith(FRAME_NUM)) return Object.assign(new Error(`@devs/context: an internal error: ${report.replace(/[\uFDD0-\uFDEF]/g, '')}`), { code: 'ERR_INTERNAL' });
  const frame = new FrameReader(report);
  const range = frame.num() === ErrorClass.RangeError;
  const [code, field, message] = [frame.text([]), frame.text([]), frame.text([])];
  const error = range ? new RangeError(message) : new TypeError(message);
  return Object.assign(error, { code: code as ArgumentErrorCode, field });
}

/**
 * What a wasm call threw, as the error to raise: a rule's report becomes its error. A
 * wasm call throws nothing else, because the module never calls host code.
 */
export function ruleError(thrown: unknown): unknown {
  return typeof thrown === 'string' ? fromReport(thrown) : thrown;
}

/** `fn()`, with a rule's report thrown as its error. */
export function checked<T>(fn: () => T): T {
  try {
    return fn();
  } catch (thrown) {
    throw ruleError(thrown);
  }
}

/** A bad argument found while reading a host value, before any rule saw it. */
export function argumentError(kind: typeof TypeError | typeof RangeError, field: string, message: string): ArgumentError {
  const code = kind === RangeError ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE';
  return Object.assign(new kind(`${field} ${message}`), { code, field }) as ArgumentError;
}

/** A host's error in one line, for a warning: `TypeError: …`, a thrown string as it is. */
export function errorText(error: unknown): string {
  let text: string;
  if (error instanceof Error) text = `${error.name}: ${error.message}`;
  else if (typeof error === 'string') text = error;
  else {
    try {
      text = JSON.stringify(error) ?? String(error);
    } catch {
      text = Object.prototype.toString.call(error);
    }
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
