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

/** How long a text may be before its print keeps only its length and ends. */
const WHOLE = 96;
const END = 40;

/** A message's print: equal for two messages of the same content, in practice, and cheap for long texts and binary data. */
export function print(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value.length <= WHOLE ? JSON.stringify(value) : `${value.length}:${JSON.stringify(value.slice(0, END))}…${JSON.stringify(value.slice(-END))}`;
  if (value === null || typeof value !== 'object') return String(value);
  if (depth > 8) return '…';
  // A file part's bytes: their length and ends, never every index as a key.
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return `bytes${bytes.length}:${bytes.subarray(0, END).join('.')}…${bytes.subarray(-END).join('.')}`;
  }
  if (value instanceof URL) return `url:${print(value.href)}`;
  if (Array.isArray(value)) return `[${value.map((v) => print(v, depth + 1)).join(',')}]`;
  const bag = value as Record<string, unknown>;
  const keys = Object.keys(bag).filter((k) => bag[k] !== undefined).sort();
  return `{${keys.map((k) => `${k}:${print(bag[k], depth + 1)}`).join(',')}}`;
}

/** One conversation: its manager, what it last took in, and its queue. */
export class Conversation {
  /** The prints of the messages the manager last took in from the framework. */
  prints: string[] = [];
  /** Those messages, as the objects the manager got. */
  objects: unknown[] = [];
  /** The manager's operations, one after another: a build must not overlap a sync or an append. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(readonly manager: ContextManager, readonly system: string, readonly name: string | undefined) {}

  /**
   * Hands the manager the framework's list, `prints` its messages' prints. The SDK makes
   * every message anew at each call; those the manager already holds are handed back as
   * the objects it got, which it then need not compare. It sends the objects it got first
   * either way, so nothing sent changes; what is saved is its own print of each, which
   * reads a file part's every byte (about 0.4 s a call for a 1 MB image).
   */
  sync(messages: readonly unknown[], prints: readonly string[]): void {
    const list = messages.slice();
    for (let i = 0; i < list.length && i < this.prints.length && prints[i] === this.prints[i]; i++) list[i] = this.objects[i];
    this.manager.sync(list);
    this.prints = prints.slice();
    this.objects = list;
  }

  /** Runs `fn` after every operation queued before it. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.#tail.then(fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }
}

/** The conversations of one middleware, the least recently used first, at most `max`. */
export class Conversations {
  readonly #all = new Set<Conversation>();

  constructor(readonly max: number, readonly make: (system: string) => ContextManager) {}

  get size(): number {
    return this.#all.size;
  }

  /** The conversation of a call: `prints` are its messages' (after the system ones), `name` the one the call gave. */
  route(system: string, prints: readonly string[], name: string | undefined): Conversation {
    let found: Conversation | undefined;
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
        const shared = common(c.prints, prints);
        const extends_ = c.prints.length > 0 && shared === c.prints.length;
        // Extending beats editing; of two that extend, the longer is the closer.
        const score = extends_ ? shared + 1e9 : shared;
        if (score > best) {
          best = score;
          found = c;
        }
      }
    }
    if (!found) found = new Conversation(this.make(system), system, name);
    // Most recently used last.
    this.#all.delete(found);
    this.#all.add(found);
    // The least recently used go; a call still using one keeps it alive, and the manager's
    // memory is reclaimed when it is collected.
    for (const c of this.#all) {
      if (this.#all.size <= this.max) break;
      this.#all.delete(c);
    }
    return found;
  }
}

/** How many messages `a` and `b` share from the start. */
function common(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}
