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

const hasOwn = (bag: object, key: string) => Object.prototype.hasOwnProperty.call(bag, key);

/**
 * Whether `a` and `b` are the same message, in practice: equal primitives; arrays of the
 * same values; objects with the same own keys whose values are not `undefined`, in any
 * order, holding the same values; bytes (an image part's data) by their length, ends and
 * 64 bytes spread between them, not every byte; an object with `toJSON` (a URL, a Date)
 * by its JSON form; functions are alike. Below `DEPTH` levels, anything is alike.
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
    for (let i = 0; i < x.length; i++) if (!sameMessage(x[i], y[i], depth + 1)) return false;
    return true;
  }
  const bytes = ArrayBuffer.isView(a) || a instanceof ArrayBuffer;
  if (bytes !== (ArrayBuffer.isView(b) || b instanceof ArrayBuffer)) return false;
  if (bytes) return sameBytes(a as ArrayBufferView | ArrayBuffer, b as ArrayBufferView | ArrayBuffer);
  const x = a as Bag;
  const y = b as Bag;
  // A URL or a Date has no own keys: its JSON form tells two apart.
  const json = typeof x.toJSON === 'function';
  if (json !== (typeof y.toJSON === 'function')) return false;
  if (json) return sameMessage((x.toJSON as () => unknown)(), (y.toJSON as () => unknown)(), depth + 1);
  let keys = 0;
  for (const k in x) {
    if (!hasOwn(x, k)) continue;
    const v = x[k];
    if (v === undefined) continue;
    keys++;
    if (!sameMessage(v, hasOwn(y, k) ? y[k] : undefined, depth + 1)) return false;
  }
  for (const k in y) if (hasOwn(y, k) && y[k] !== undefined) keys--;
  return keys === 0;
}

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
