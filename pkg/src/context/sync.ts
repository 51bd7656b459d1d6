// Taking in a framework's whole message list at every call (the AI SDK's prompt, a
// LangChain agent's state, the Agents SDK's input): what is new since the last call is
// appended; a list that no longer begins with what the manager holds (the framework
// removed or replaced a message) is taken in anew. Each message is compared with the one
// taken in at its place: the same object is the same message at once; another object is
// compared by its structure, which stops at the first difference and at every value the
// two share by reference (a framework that makes its messages anew at each call mostly
// keeps their texts and parts). Nothing is built to compare (no print, no sorted keys):
// a call costs a few operations per message it holds, however long their texts.

/** How deep two messages are compared: below this, any two objects are taken as the same. */
const DEPTH = 8;
/** Bytes compared at each end of a binary value, and between them. */
const END = 40;
const SPREAD = 64;

type Bag = Record<string, unknown>;


/**
 * Whether `a` and `b` are the same message, in practice: equal primitives; arrays of the
 * same values; objects whose enumerable keys with a value other than `undefined` are the
 * same, in any order, holding the same values; bytes (an image part's data) by their
 * length, ends and 64 bytes spread between them, not every byte; an object with no such
 * keys and a `toJSON` (a URL, a Date) by its JSON form; functions are alike. Below
 * `DEPTH` levels, anything is alike.
 */
export function sameMessage(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN is NaN; a function carries no content a provider reads.
    return (a !== a && b !== b) || (typeof a === 'function' && typeof b === 'function');
  }
  if (depth > DEPTH) return true;
  const list = Array.isArray(a);
  if (list !== Array.isArray(b)) return false;
  if (list) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      const v = x[i];
      const w = y[i];
      if (v !== w && !sameMessage(v, w, depth + 1)) return false;
    }
    return true;
  }
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) return isBinary(a) && isBinary(b) && sameBytes(a, b);
  const x = a as Bag;
  const y = b as Bag;
  let keys = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined) continue;
    keys++;
    const w = y[k];
    if (v !== w && !sameMessage(v, w, depth + 1)) return false;
  }
  const some = keys > 0;
  for (const k in y) if (y[k] !== undefined) keys--;
  if (keys !== 0) return false;
  return some || sameKeyless(x, y, depth);
}

/** Two objects with no keys to tell them apart: an ArrayBuffer by its bytes, a URL or a Date by its JSON form. */
function sameKeyless(x: Bag, y: Bag, depth: number): boolean {
  const buffer = x instanceof ArrayBuffer;
  if (buffer !== y instanceof ArrayBuffer) return false;
  if (buffer) return sameBytes(x as unknown as ArrayBuffer, y as unknown as ArrayBuffer);
  const json = typeof x.toJSON === 'function';
  if (json !== (typeof y.toJSON === 'function')) return false;
  return !json || sameMessage((x.toJSON as () => unknown)(), (y.toJSON as () => unknown)(), depth + 1);
}

const isBinary = (value: object): value is ArrayBufferView | ArrayBuffer => ArrayBuffer.isView(value) || value instanceof ArrayBuffer;

/** Two binary values by their length, their first and last bytes and a sample of the rest. */
function sameBytes(a: ArrayBufferView | ArrayBuffer, b: ArrayBufferView | ArrayBuffer): boolean {
  const x = asBytes(a);
  const y = asBytes(b);
  const n = x.length;
  if (n !== y.length) return false;
  for (let i = 0; i < Math.min(n, END); i++) if (x[i] !== y[i]) return false;
  if (n > 2 * END) {
    for (let k = 1; k <= SPREAD; k++) {
      const i = Math.floor((k * n) / (SPREAD + 1));
      if (x[i] !== y[i]) return false;
    }
  }
  for (let i = Math.max(END, n - END); i < n; i++) if (x[i] !== y[i]) return false;
  return true;
}

const asBytes = (value: ArrayBufferView | ArrayBuffer) => (value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength));

/** What to do with a framework's list: append the messages from `from` on, or take it in anew. */
export type SyncPlan = { append: number } | { rebuild: true };

/** The messages taken in so far, in order, as the objects last compared at each place. */
export class MessagePrints {
  #objects: unknown[] = [];

  get length(): number {
    return this.#objects.length;
  }

  /** Where `list` departs from what was taken in. */
  plan(list: readonly unknown[]): SyncPlan {
    const held = this.#objects;
    if (list.length < held.length) return { rebuild: true };
    for (let i = 0; i < held.length; i++) {
      const m = list[i];
      if (m === held[i]) continue;
      if (!sameMessage(m, held[i])) return { rebuild: true };
      // The same message: the next call, if it hands this object again, need not compare it.
      held[i] = m;
    }
    return { append: held.length };
  }

  /** `list` from `from` on was taken in. */
  took(list: readonly unknown[], from: number): void {
    for (let i = from; i < list.length; i++) this.#objects.push(list[i]);
  }

  /** Every message held before was trusted to be the list's first (after a restore, which keeps no objects to compare). */
  trust(count: number, list: readonly unknown[]): void {
    this.#objects = list.slice(0, count);
  }

  clear(): void {
    this.#objects = [];
  }
}
