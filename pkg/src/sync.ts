// Taking in a framework's whole message list at every call (the AI SDK's prompt, a
// LangChain agent's state, the Agents SDK's input): what is new since the last call is
// appended; a list that no longer begins with what the manager holds (the framework
// removed or replaced a message) is taken in anew. Messages are told apart by a print of
// their structure that reads a long text's length and ends, not the whole text: a call
// costs a few operations per message, however long the outputs.

/** How long a text may be before its print keeps only its length and ends. */
const WHOLE = 96;
const END = 40;

/** A message's print: equal for two messages of the same content, in practice. */
export function messagePrint(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value.length <= WHOLE ? JSON.stringify(value) : `${value.length}:${JSON.stringify(value.slice(0, END))}…${JSON.stringify(value.slice(-END))}`;
  if (value === null || typeof value !== 'object') return String(value);
  if (depth > 6) return '…';
  if (Array.isArray(value)) return `[${value.map((v) => messagePrint(v, depth + 1)).join(',')}]`;
  // Bytes (an image part's data): their length and a hash, not one key per byte.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return bytesPrint(value);
  const bag = value as Record<string, unknown>;
  // A URL or a Date has no own keys: its JSON form tells two apart.
  if (typeof bag.toJSON === 'function') return `json:${messagePrint(bag.toJSON(), depth + 1)}`;
  const keys = Object.keys(bag).filter((k) => bag[k] !== undefined).sort();
  return `{${keys.map((k) => `${k}:${messagePrint(bag[k], depth + 1)}`).join(',')}}`;
}

function bytesPrint(value: ArrayBufferView | ArrayBuffer): string {
  const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  // As for a long text: the length, the ends, and 64 bytes spread between them, not every byte.
  const n = bytes.length;
  const at = (i: number) => bytes[i].toString(16).padStart(2, '0');
  let print = `bytes:${n}:`;
  for (let i = 0; i < Math.min(n, END); i++) print += at(i);
  if (n > 2 * END) for (let k = 1; k <= 64; k++) print += at(Math.floor((k * n) / 65));
  for (let i = Math.max(END, n - END); i < n; i++) print += at(i);
  return print;
}

/** What to do with a framework's list: append the messages from `from` on, or take it in anew. */
export type SyncPlan = { append: number } | { rebuild: true };

/** The prints of the messages taken in so far, in order. */
export class MessagePrints {
  #prints: string[] = [];
  /** Same object as last time: no print needed. */
  #objects: unknown[] = [];

  get length(): number {
    return this.#prints.length;
  }

  /** Where `list` departs from what was taken in. */
  plan(list: readonly unknown[]): SyncPlan {
    const held = this.#prints.length;
    if (list.length < held) return { rebuild: true };
    for (let i = 0; i < held; i++) {
      if (list[i] === this.#objects[i]) continue;
      if (messagePrint(list[i]) !== this.#prints[i]) return { rebuild: true };
      this.#objects[i] = list[i];
    }
    return { append: held };
  }

  /** `list` from `from` on was taken in. */
  took(list: readonly unknown[], from: number): void {
    for (let i = from; i < list.length; i++) {
      this.#prints.push(messagePrint(list[i]));
      this.#objects.push(list[i]);
    }
  }

  /** Every message held before was trusted to be the list's first (after a restore, whose prints are not kept). */
  trust(count: number, list: readonly unknown[]): void {
    this.#prints = list.slice(0, count).map((m) => messagePrint(m));
    this.#objects = list.slice(0, count);
  }

  clear(): void {
    this.#prints = [];
    this.#objects = [];
  }
}
