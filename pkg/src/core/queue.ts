// One operation at a time, in call order: the manager's builds, a session's calls, the
// runner's turns, and each conversation an adapter holds. A build must not overlap a sync,
// an append or the usage it records, and a failure must not stop what was queued after it,
// so each operation waits for the one before it to settle, whatever its outcome.

/** Runs operations one after another, each once the one before it has settled. */
export class Queue {
  #tail: Promise<unknown>;
  #busy = 0;

  /**
   * @param after What must settle before the first operation (a conversation's previous
   *   holder letting it go, say).
   * @param eager Start an operation at once, as an async function would, when none is in
   *   flight: the chain of promises is only built when operations overlap (the runner's
   *   turns, whose synchronous start hosts rely on).
   */
  constructor(after: Promise<unknown> = Promise.resolve(), readonly eager = false) {
    this.#tail = after;
  }

  /** Operations queued and not yet settled. */
  get busy(): number {
    return this.#busy;
  }

  /** Runs `fn` after every operation queued before it; a throw or rejection of `fn` is the returned promise's. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const now = this.eager && this.#busy === 0;
    this.#busy++;
    const run = (now ? start(fn) : this.#tail.then(fn)).finally(() => this.#busy--);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Settles once everything queued so far has settled. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}

/** `fn` run now, its throw a rejection, as an async function's is. */
async function start<T>(fn: () => T | Promise<T>): Promise<T> {
  return fn();
}
