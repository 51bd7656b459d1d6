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
import { sameMessage } from '../kit/messages.js';
import { Queue } from '../kit/registry.js';

export interface Conversation {
  /** The host's name for it, or `#n` for one told apart by its items. */
  readonly name: string;
  readonly instructions: string | undefined;
  readonly manager: ContextManager;
  /** Where each item the manager holds is in the input (the items are kept as they came). */
  readonly positions: WeakMap<object, number>;
  /** The first item of the input it was made for (core shape): `NONE` for an empty input. */
  readonly first: unknown;
  /** The items taken in at its last call (core shape), their count, and the last of them. */
  items: readonly unknown[];
  count: number;
  last: unknown;

  /** The order of last use, for letting the least recently used one go. */
  used: number;
  /** Its model calls, one after another: a build never overlaps another call's `sync`; one queued is in use, and never let go of. */
  readonly queue: Queue;
  /** Let go of: its manager is freed. */
  freed: boolean;
}

/** No item: the first of an empty input. */
const NONE = Symbol('none');

export class Conversations {
  /** By name (`undefined`: unnamed), then by instructions. */
  readonly #byKey = new Map<string | undefined, Map<string | undefined, Conversation[]>>();
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
   * The conversation `items` (core shape) continue: `name`'s, or, unnamed, the one that
   * began with the same item and whose items so far begin `items`, the longest if several
   * do. Made when there is none. Items are compared by identity first (the filter keeps
   * each item's core form), then by their structure: a few items a call, not the history.
   */
  find(name: string | undefined, instructions: string | undefined, items: readonly unknown[]): Conversation {
    const list = this.#byKey.get(name)?.get(instructions) ?? [];
    const first = items.length ? items[0] : NONE;
    let found: Conversation | undefined = name === undefined ? undefined : list[0];
    if (name === undefined) {
      for (const c of list) {
        if (c.count > items.length || (found && c.count <= found.count)) continue;
        if (sameMessage(c.first, first) && (c.count === 0 || sameMessage(items[c.count - 1], c.last))) found = c;
      }
    }
    if (!found) {
      this.#evict();
      found = {
        name: name ?? `#${++this.#unnamed}`, instructions, manager: this.#make(name ?? `#${this.#unnamed}`, instructions),
        positions: new WeakMap(), first, items: [], count: 0, last: undefined, used: 0, queue: new Queue(), freed: false,
      };
      this.#set(name, instructions, [...(this.#byKey.get(name)?.get(instructions) ?? []), found]);
      this.#size++;
    }
    found.used = ++this.#clock;
    return found;
  }

  /** Every conversation held, the most recently used first. */
  list(): Conversation[] {
    return [...this.#lists()].flatMap(([, , list]) => list).sort((a, b) => b.used - a.used);
  }

  /** Lets go of every conversation not in use, freeing its manager. */
  clear(): void {
    for (const [name, instructions, list] of [...this.#lists()]) {
      const kept = list.filter((c) => c.queue.busy > 0);
      for (const c of list) if (c.queue.busy === 0) release(c);
      this.#size -= list.length - kept.length;
      this.#set(name, instructions, kept);
    }
  }

  /** Each list of conversations, with its name and instructions. */
  *#lists(): Generator<[string | undefined, string | undefined, Conversation[]]> {
    for (const [name, byInstructions] of this.#byKey) for (const [instructions, list] of byInstructions) yield [name, instructions, list];
  }

  /** Sets a list, dropping it (and its name's table) when empty. */
  #set(name: string | undefined, instructions: string | undefined, list: Conversation[]): void {
    let byInstructions = this.#byKey.get(name);
    if (!byInstructions) {
      if (!list.length) return;
      this.#byKey.set(name, (byInstructions = new Map()));
    }
    if (list.length) byInstructions.set(instructions, list);
    else byInstructions.delete(instructions);
    if (!byInstructions.size) this.#byKey.delete(name);
  }

  /** Room for one more: the least recently used conversations not in use are let go of. */
  #evict(): void {
    while (this.#size >= this.#max) {
      let oldest: [string | undefined, string | undefined, Conversation] | undefined;
      for (const [name, instructions, list] of this.#lists()) {
        for (const c of list) if (c.queue.busy === 0 && (!oldest || c.used < oldest[2].used)) oldest = [name, instructions, c];
      }
      if (!oldest) return;
      const [name, instructions, c] = oldest;
      this.#set(name, instructions, (this.#byKey.get(name)?.get(instructions) ?? []).filter((x) => x !== c));
      this.#size--;
      release(c);
    }
  }
}

function release(c: Conversation): void {
  c.freed = true;
  c.manager.free();
}
