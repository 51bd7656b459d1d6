// The rules' state as the calls that made it. The rules are deterministic: a fresh core
// given the same calls, with the same arguments, is the same core. So a manager's state
// is kept as its log of calls that changed it, and restored by replaying them, with no
// host asked again (a store's ids and a summary's tokens are arguments in the log).
// A build that was rolled back left nothing, and leaves nothing in the log.

/** One call: the method's name, then its arguments as JSON data. */
export type LoggedCall = [string, ...unknown[]];

/**
 * The core's methods that change it. A method added to the core goes here or in READING
 * (pkg/test/snapshot.test.mjs fails on one in neither): one missing here would be left
 * out of every snapshot.
 */
const CHANGING = new Set([
  'append', 'begin', 'commit', 'rollback', 'plan', 'persisted', 'span_persisted', 'group_persisted', 'spans_merged', 'measured', 'summarized', 'summary_failed', 'no_summarizer',
  'set_tail', 'compact', 'render', 'ledger', 'observe', 'reset_calibration', 'recalled', 'history_rebuilt',
]);

/** The core's methods that only read it: not logged. */
const READING = new Set([
  'calibration', 'part_tokens', 'store_id', 'summarizer_prompt', 'summarizer_instruction', 'index_body', 'placeholder_body', 'span_body', 'group_body', 'transcript', 'index_ids', 'grouped_ids', 'merged_ids', 'merged_body',
  'call_of', 'recall_check', 'recall_fit',
]);

const plain = (value: unknown): unknown => (ArrayBuffer.isView(value) ? Array.from(value as unknown as ArrayLike<number>) : value);

export class CoreLog {
  /** Calls of committed builds and calls outside any build, in order. */
  readonly calls: LoggedCall[] = [];
  /** Calls of the build in flight, until it commits. */
  #open: LoggedCall[] | null = null;

  /** `core`, recording each call that changes it once it returned. */
  wrap<T extends object>(core: T): T {
    // Made once per method: a build calls the core per part, and a function per call would be garbage.
    const methods = new Map<PropertyKey, unknown>();
    return new Proxy(core, {
      get: (target, key) => {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        let method = methods.get(key);
        if (method === undefined) {
          method = this.#method(target, key, value as (...a: unknown[]) => unknown);
          methods.set(key, method);
        }
        return method;
      },
    });
  }

  #method(target: object, key: PropertyKey, value: (...a: unknown[]) => unknown): unknown {
    if (typeof key !== 'string' || READING.has(key) || key === 'free') return value.bind(target);
    if (!CHANGING.has(key)) throw Object.assign(new Error(`context engine: the rules' ${key}() is neither changing nor reading (src/core-log.ts)`), { code: 'ERR_INTERNAL' });
    return (...args: unknown[]) => {
      const result = value.apply(target, args);
      this.#note(key, args);
      return result;
    };
  }

  #note(method: string, args: unknown[]): void {
    if (method === 'begin') {
      this.#open = [[method]];
      return;
    }
    if (method === 'rollback') {
      this.#open = null;
      return;
    }
    const call: LoggedCall = [method, ...args.map(plain)];
    if (!this.#open) {
      this.calls.push(call);
      return;
    }
    this.#open.push(call);
    if (method === 'commit') {
      for (const c of this.#open) this.calls.push(c);
      this.#open = null;
    }
  }
}

/** Replays `calls` into a fresh, wrapped `core`: its log becomes `calls` again. */
export function replay(core: object, calls: readonly LoggedCall[]): void {
  const target = core as Record<string, (...args: unknown[]) => unknown>;
  for (const [method, ...args] of calls) target[method](...args);
}
