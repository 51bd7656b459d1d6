// The conversations (threads) an adapter holds, each with its manager and its queue, at
// most `max` at once: past it, the least recently used one not in use is let go, once its
// queued calls have run, and its manager freed. One registry for every adapter, so each
// frees what it evicts and waits for it before the same key is made anew.
import { Queue } from '../../core/queue.js';

export { Queue };

/** What a registry holds: its calls' queue, and how it is let go (its manager freed, its session closed). */
export interface Held {
  readonly queue: Queue;
  release(): void | Promise<void>;
}

export class Registry<K, V extends Held> {
  /** Least recently used first. */
  readonly #all = new Map<K, V>();
  /** Let go and not yet released: the same key made anew waits for it. */
  readonly #releasing = new Map<K, Promise<unknown>>();

  constructor(readonly max: number) {}

  get size(): number {
    return this.#all.size;
  }

  get(key: K): V | undefined {
    return this.#all.get(key);
  }

  /** Every one held, least recently used first. */
  values(): V[] {
    return [...this.#all.values()];
  }

  /**
   * `key`'s, made by `make` when there is none (`after`: the release of its previous holder,
   * for its queue to wait for), as the most recently used; then the registry is brought
   * back to `max`.
   */
  use(key: K, make: (after: Promise<unknown> | undefined) => V): V {
    let found = this.#all.get(key);
    this.#all.delete(key);
    found ??= make(this.#releasing.get(key));
    this.#all.set(key, found);
    for (const [k, held] of this.#all) {
      if (this.#all.size <= this.max) break;
      if (held.queue.busy > 0 || held === found) continue;
      this.delete(k);
    }
    return found;
  }

  /** Lets `key`'s go, once its queued calls have run. */
  delete(key: K): Promise<void> {
    const held = this.#all.get(key);
    if (!held) return Promise.resolve();
    this.#all.delete(key);
    const released = held.queue.run(() => held.release()).catch(() => undefined).finally(() => {
      if (this.#releasing.get(key) === released) this.#releasing.delete(key);
    });
    this.#releasing.set(key, released);
    return released;
  }

  /** Lets every one go, once its calls have run. */
  async close(): Promise<void> {
    const keys = [...this.#all.keys()];
    await Promise.all([...keys.map((k) => this.delete(k)), ...this.#releasing.values()]);
  }
}
