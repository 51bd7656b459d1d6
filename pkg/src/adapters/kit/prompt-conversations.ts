// Which manager a call belongs to. One wrapped model serves every conversation of its host,
// and the AI SDK says nothing of which one a call is; a call carries only its whole prompt.
// A conversation is therefore a chain of prompts, each extending the one before:
// - a prompt that extends a conversation's last one (same system, its messages first) goes
//   to that conversation, whose manager takes in the new messages;
// - else, when it shares more than its opening message with one, it is that conversation
//   with its history edited by the framework, and its manager takes it in anew (a
//   `history-rebuilt` warning);
// - else it is a new conversation. Two conversations that open with the same message part
//   at the model's first answer, which differs (a tool call's id, at the least); were the
//   opening message enough to take one for the other, two such conversations running at
//   once would each take the other's manager in anew at every call, compacting the whole
//   history again each time. The price: an edit that keeps only the opening message
//   (`pruneMessages` of every tool call) starts a new manager, which takes the list in
//   whole as a rebuild would, without the warning.
// `providerOptions.devsContext.conversation` names a call's conversation outright, and then
// every edit of it is a rebuild. Changed system messages start a new
// conversation: the manager's system prompt is fixed.
import type { ContextManager } from '@devs/context';
import { sameMessage } from './messages.js';
import { Queue } from './registry.js';

/** Whether two prompt messages are the same message (the SDK makes every message anew at each call). */
export type SameMessage = (a: unknown, b: unknown) => boolean;

/** One conversation: its manager, what it last took in, and its queue. */
export class Conversation {
  /**
   * The messages the manager last took in from the framework, as the objects it got: a
   * message the SDK made anew, the same as the one held at its place, is the held one.
   */
  objects: unknown[] = [];
  /** The manager's operations, one after another: a build must not overlap a sync or an append. */
  readonly queue = new Queue();

  constructor(readonly manager: ContextManager, readonly system: string, readonly name: string | undefined, readonly same: SameMessage = sameMessage) {}

  /** How many of `messages`, from the start, are the messages last taken in. */
  shared(messages: readonly unknown[]): number {
    return common(this.objects, messages, this.same);
  }

  /**
   * Hands the manager the framework's list. The SDK makes every message anew at each call;
   * those the manager already holds (the first `route.shared`, when `route` was measured
   * against what is held now) are handed back as the objects it got, which it then need
   * not compare. It sends the objects it got first either way, so nothing sent changes.
   */
  sync(messages: readonly unknown[], route?: Route): void {
    const held = this.objects;
    const shared = route && route.conversation === this && route.against === held ? route.shared : this.shared(messages);
    const list = messages.slice();
    for (let i = 0; i < shared; i++) list[i] = held[i];
    this.manager.sync(list);
    this.objects = list;
  }

  /** Runs `fn` after every operation queued before it. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.queue.run(fn);
  }
}

/** A call's conversation, and how many of its messages were found the same as those the conversation held (`against`). */
export interface Route {
  conversation: Conversation;
  shared: number;
  against: readonly unknown[] | undefined;
}

/** The conversations of one middleware, the least recently used first, at most `max`. */
export class Conversations {
  readonly #all = new Set<Conversation>();

  constructor(readonly max: number, readonly make: (system: string) => ContextManager, readonly same: SameMessage = sameMessage) {}

  get size(): number {
    return this.#all.size;
  }

  /** The conversation of a call: `messages` are its messages (after the system ones), `name` the one the call gave. */
  route(system: string, messages: readonly unknown[], name: string | undefined): Route {
    let found: Conversation | undefined;
    let shared = 0;
    if (name !== undefined) {
      for (const c of this.#all) if (c.name === name) found = c;
      // The same name with other system messages: a new manager, for a new system prompt.
      if (found && found.system !== system) {
        this.#all.delete(found);
        found = undefined;
      }
    } else {
      let best = 1;
      for (const c of this.#all) {
        if (c.name !== undefined || c.system !== system) continue;
        const n = c.shared(messages);
        const extends_ = c.objects.length > 0 && n === c.objects.length;
        // Extending beats editing; of two that extend, the longer is the closer.
        const score = extends_ ? n + 1e9 : n;
        if (score > best) {
          best = score;
          found = c;
          shared = n;
        }
      }
    }
    // A named conversation is measured when it syncs.
    const route: Route = found
      ? { conversation: found, shared, against: name === undefined ? found.objects : undefined }
      : { conversation: new Conversation(this.make(system), system, name, this.same), shared: 0, against: undefined };
    found = route.conversation;
    // Most recently used last.
    this.#all.delete(found);
    this.#all.add(found);
    // The least recently used go; a call still using one keeps it alive, and the manager's
    // memory is reclaimed when it is collected.
    for (const c of this.#all) {
      if (this.#all.size <= this.max) break;
      this.#all.delete(c);
    }
    return route;
  }
}

/** How many messages `a` and `b` share from the start. */
function common(a: readonly unknown[], b: readonly unknown[], same: SameMessage): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && same(a[i], b[i])) i++;
  return i;
}
