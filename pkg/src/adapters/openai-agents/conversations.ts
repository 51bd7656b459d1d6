// The managers of the conversations one filter serves, bounded.
//
// A conversation is what the filter sees grow from one model call to the next. The host
// may name it (the `conversation` option: a thread id from its context, say); then its
// calls share one manager, and a history edited in between is taken in anew by `sync`,
// with a `history-rebuilt` warning. Unnamed, a call belongs to the conversation whose
// items so far begin its input: two runs that open with the same message go their own
// ways at their first different item, instead of taking turns rebuilding one manager.
//
// The agent's instructions are the manager's system prompt, fixed when it is made, so a
// manager is per conversation and instructions: after a handoff the other agent gets its
// own, which takes in the same growing history; back to the first agent, its manager
// takes in only what was added meanwhile.
import type { ContextManager } from '@devs/context';
import { print } from './items.js';

export interface Conversation {
  /** The host's name for it, or `#n` for one told apart by its items. */
  readonly name: string;
  readonly instructions: string | undefined;
  readonly manager: ContextManager;
  /** Where each item the manager holds is in the input (the items are kept as they came). */
  readonly positions: WeakMap<object, number>;
  /** Items taken in, and the print of the last of them (core shape). */
  count: number;
  last: string;
  /** Builds not yet settled: a conversation in use is never let go of. */
  busy: number;
  /** The order of last use, for letting the least recently used one go. */
  used: number;
  /** Its model calls, one after another: a build never overlaps another call's `sync`. */
  tail: Promise<unknown>;
  /** Let go of: its manager is freed. */
  freed: boolean;
}

export class Conversations {
  readonly #byKey = new Map<string, Conversation[]>();
  readonly #max: number;
  readonly #make: (name: string, instructions: string | undefined) => ContextManager;
  #clock = 0;
  #unnamed = 0;
  #size = 0;

  constructor(max: number, make: (name: string, instructions: string | undefined) => ContextManager) {
    this.#max = max;
    this.#make = make;
  }

  /**
   * The conversation `items` (core shape) continue: `name`'s, or, unnamed, the one whose
   * items so far begin `items`, the longest if several do. Made when there is none.
   */
  find(name: string | undefined, instructions: string | undefined, items: readonly unknown[]): Conversation {
    const key = `${name === undefined ? `\u0001${items.length ? print(items[0]) : ''}` : `\u0002${name}`}\u0000${instructions === undefined ? '\u0001' : `\u0002${instructions}`}`;
    const list = this.#byKey.get(key) ?? [];
    let found: Conversation | undefined = name === undefined ? undefined : list[0];
    if (name === undefined) {
      for (const c of list) {
        if (c.count <= items.length && (c.count === 0 || print(items[c.count - 1]) === c.last) && (!found || c.count > found.count)) found = c;
      }
    }
    if (!found) {
      this.#evict();
      found = {
        name: name ?? `#${++this.#unnamed}`, instructions, manager: this.#make(name ?? `#${this.#unnamed}`, instructions),
        positions: new WeakMap(), count: 0, last: '', busy: 0, used: 0, tail: Promise.resolve(), freed: false,
      };
      list.push(found);
      this.#byKey.set(key, list);
      this.#size++;
    }
    found.used = ++this.#clock;
    return found;
  }

  /** Every conversation held, the most recently used first. */
  list(): Conversation[] {
    return [...this.#byKey.values()].flat().sort((a, b) => b.used - a.used);
  }

  /** Lets go of every conversation not in use, freeing its manager. */
  clear(): void {
    for (const [key, list] of this.#byKey) {
      const kept = list.filter((c) => c.busy > 0);
      for (const c of list) if (c.busy === 0) release(c);
      this.#size -= list.length - kept.length;
      if (kept.length) this.#byKey.set(key, kept);
      else this.#byKey.delete(key);
    }
  }

  /** Room for one more: the least recently used conversations not in use are let go of. */
  #evict(): void {
    while (this.#size >= this.#max) {
      let oldest: [string, Conversation] | undefined;
      for (const [key, list] of this.#byKey) {
        for (const c of list) if (c.busy === 0 && (!oldest || c.used < oldest[1].used)) oldest = [key, c];
      }
      if (!oldest) return;
      const [key, c] = oldest;
      const list = (this.#byKey.get(key) as Conversation[]).filter((x) => x !== c);
      if (list.length) this.#byKey.set(key, list);
      else this.#byKey.delete(key);
      this.#size--;
      release(c);
    }
  }
}

function release(c: Conversation): void {
  c.freed = true;
  c.manager.free();
}
