// A session's long strings, stored once however many times they are named (ADR 0011). A
// string of a message's source at least `LONG` units long is written as a text of the
// session (the `raw_tool_outputs` rows every store already keeps, `<sessionId>:<seq>`),
// and a row or a checkpoint names it by reference: `\0<seq>/<from>/<length>/<key>`, the
// `length` units from `from` of that text. An image is stored as the text the engine
// stores it as when it masks it (`data:<type>;base64,…`), so that store finds it there and
// names the same text rather than writing it again. A source string that starts with NUL
// is written with one more. Rows and checkpoints written so carry `stored: 1`; those
// without it are read as before.
import { argumentError, coded } from '../../errors/index.js';
import { encodeBase64 } from '../../core/base64.js';
import { fitsText } from '../../core/exact-text.js';
import { textKey } from '../../core/text-key.js';
import { sha256 } from '../../core/host.js';
import { storedText } from '../../providers/media.js';
import type { Adapter } from '../../providers/neutral.js';

/** Source strings this long (UTF-16 units) or longer are stored texts, named by reference. */
export const LONG = 1024;

const MARK = '\u0000';
const REF = /^\u0000(\d+)\/(\d+)\/(\d+)\/([\w:-]+)$/;

/** Where a long string is: `length` units from `from` of the session's text `seq`. */
interface Named {
  seq: number;
  from: number;
  length: number;
  /** Known to hold the string (written or read back here), not only said so by a row. */
  sure: boolean;
  /** The text's first `from` units, when sure. */
  head?: string;
}

/** The string's key: its SHA-256 (of its UTF-8 when well formed, else of its UTF-16 units), or two 32-bit hashes without one. */
export async function contentKey(text: string): Promise<string> {
  const formed = fitsText(text);
  const tag = formed ? 's' : 'u';
  if (sha256) return tag + sha256(text, formed ? 'utf8' : 'utf16le');
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) return `f${textKey(text).replaceAll(':', '-')}`;
  let bytes: Uint8Array;
  if (formed) bytes = new TextEncoder().encode(text);
  else {
    const units = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
    bytes = new Uint8Array(units.buffer);
  }
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes as unknown as ArrayBuffer));
  return tag + encodeBase64(digest).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
}

const refText = (n: Named, key: string) => `${MARK}${n.seq}/${n.from}/${n.length}/${key}`;

/** `[seq, from, length, key]` of a reference, or `undefined` for a plain string. */
function parseRef(text: string): [number, number, number, string] | undefined {
  const m = REF.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4]] : undefined;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets own property `key` (a message may have one named `__proto__`, which `=` would take for the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Stores a new text of the session now (with the call's row), giving its number. */
export type AddText = (text: string, toolName: string) => number;

/**
 * The session's long strings and where each is. What it knows is what the newest
 * checkpoint and the rows since name: a session opened again knows the same, so a call
 * made again writes the same row.
 */
export class StoredOnce {
  #named = new Map<string, Named>();
  /** Each live message's source as last written, by number: a checkpoint names its strings as that did. */
  #written = new Map<number, unknown>();
  readonly #adapter: Adapter;
  readonly #read: (seq: number) => Promise<string | undefined>;

  constructor(adapter: Adapter, read: (seq: number) => Promise<string | undefined>) {
    this.#adapter = adapter;
    this.#read = read;
  }

  /** A call's messages, `[number, kept]`, with their long strings named (in place); `add` stores those not yet stored. */
  async row(messages: Array<[number, { source: unknown } | null]>, add: AddText): Promise<void> {
    for (const [i, m] of messages) {
      if (m === null) {
        this.#written.delete(i);
        continue;
      }
      m.source = await this.#encode(m.source, this.#written.get(i), new Media(this.#adapter, m.source), add);
      this.#written.set(i, m.source);
    }
  }

  /** A checkpoint's messages (runs of released ones as counts), named (in place): from now on, only what it names is known. */
  async checkpoint(messages: Array<{ source: unknown } | null | number>, add: AddText): Promise<void> {
    const named = new Map<string, Named>();
    const written = new Map<number, unknown>();
    let i = 0;
    for (const m of messages) {
      if (typeof m === 'number') i += m;
      else if (m === null) i++;
      else {
        m.source = await this.#encode(m.source, this.#written.get(i), new Media(this.#adapter, m.source), add, named);
        written.set(i++, m.source);
      }
    }
    this.#named = named;
    this.#written = written;
  }

  /**
   * Messages as a row or a checkpoint wrote them, `[number, kept, field]`, their references
   * read back (in place). `fresh`: a checkpoint's, what is known starts from it.
   */
  async read(entries: Array<[number, { source: unknown } | null, string]>, outputs: number, cache: Map<number, string>, fresh = false): Promise<void> {
    if (fresh) this.clear();
    for (const [i, m, field] of entries) {
      if (m === null) {
        this.#written.delete(i);
        continue;
      }
      this.#written.set(i, m.source);
      m.source = await this.#decode(structuredClone(m.source), `${field}.source`, outputs, cache);
    }
  }

  /** Forgets what it knows: the session is read again from the store. */
  clear(): void {
    this.#named = new Map();
    this.#written = new Map();
  }

  /**
   * The number of a text already stored that is `text`, if there is one: the engine stores
   * an image it masks as the text it was stored as when appended.
   */
  async find(text: string): Promise<number | undefined> {
    const data = /^data:[^;,]*;base64,/.exec(text);
    const tries: Array<[string, number]> = data ? [[text.slice(data[0].length), data[0].length], [text, 0]] : [[text, 0]];
    for (const [part, from] of tries) {
      if (part.length < LONG || ![...this.#named.values()].some((n) => n.length === part.length && n.from === from)) continue;
      const n = this.#named.get(await contentKey(part));
      if (!n || n.length !== part.length || n.from !== from) continue;
      if (n.sure && n.head === text.slice(0, from)) return n.seq;
      if ((await this.#read(n.seq)) === text) return n.seq;
    }
    return undefined;
  }

  async #encode(value: unknown, was: unknown, media: Media, add: AddText, named?: Map<string, Named>): Promise<unknown> {
    if (typeof value === 'string') {
      if (value.length < LONG) return value.startsWith(MARK) ? MARK + value : value;
      const ref = typeof was === 'string' ? parseRef(was) : undefined;
      // Written so before: the same string, where a message's change did not reach.
      if (ref && ref[2] === value.length) {
        const n = this.#named.get(ref[3]) ?? { seq: ref[0], from: ref[1], length: ref[2], sure: false };
        (named ?? this.#named).set(ref[3], n);
        return was;
      }
      return this.#name(value, media, add, named);
    }
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const [k, v] of value.entries()) out.push(await this.#encode(v, Array.isArray(was) ? was[k] : undefined, media, add, named));
      return out;
    }
    if (isPlain(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) put(out, k, await this.#encode(v, isPlain(was) ? Object.getOwnPropertyDescriptor(was, k)?.value : undefined, media, add, named));
      return out;
    }
    return value;
  }

  /** The reference of long string `value`: to the text already holding it, or to one stored now. */
  async #name(value: string, media: Media, add: AddText, named?: Map<string, Named>): Promise<string> {
    const key = await contentKey(value);
    let n = this.#named.get(key) ?? named?.get(key);
    if (n && (n.length !== value.length || !(n.sure || (await this.#holds(n, value))))) n = undefined;
    if (!n) {
      const as = media.of(value);
      const text = as && as.text.endsWith(value) ? as.text : value;
      const from = text.length - value.length;
      n = { seq: add(text, as?.kind ?? media.label(value)), from, length: value.length, sure: true, head: text.slice(0, from) };
    }
    this.#named.set(key, n);
    named?.set(key, n);
    return refText(n, key);
  }

  /** Whether text `n` holds `value` where it says: read back once. */
  async #holds(n: Named, value: string): Promise<boolean> {
    const text = await this.#read(n.seq);
    if (text === undefined || text.slice(n.from, n.from + n.length) !== value) return false;
    n.sure = true;
    n.head = text.slice(0, n.from);
    return true;
  }

  async #decode(value: unknown, field: string, outputs: number, cache: Map<number, string>): Promise<unknown> {
    if (typeof value === 'string') {
      if (!value.startsWith(MARK)) return value;
      if (value.startsWith(MARK, 1)) return value.slice(1);
      const ref = parseRef(value);
      if (!ref) throw argumentError(TypeError, field, 'starts with NUL but is not a stored text\'s reference (\\0<seq>/<from>/<length>/<key>): the row was altered');
      const [seq, from, length, key] = ref;
      if (seq < 1 || seq > outputs) throw argumentError(RangeError, field, `names text ${seq} of the session, which has stored ${outputs}: the row was altered`);
      let text = cache.get(seq);
      if (text === undefined) {
        text = await this.#read(seq);
        if (text === undefined) throw coded(new Error(`${field} names text ${seq} of the session, which the store does not give back (deleted, or lost with a copy put back); it is not opened without it`), 'ERR_STORE_CORRUPT');
        cache.set(seq, text);
      }
      const part = text.slice(from, from + length);
      if (part.length !== length) throw argumentError(RangeError, field, `names ${length} units from ${from} of text ${seq}, which holds ${text.length}: the row was altered`);
      if (!this.#named.has(key)) this.#named.set(key, { seq, from, length, sure: false });
      return part;
    }
    if (Array.isArray(value)) {
      for (let k = 0; k < value.length; k++) value[k] = await this.#decode(value[k], `${field}[${k}]`, outputs, cache);
      return value;
    }
    if (isPlain(value)) {
      for (const [k, v] of Object.entries(value)) put(value, k, await this.#decode(v, `${field}.${k}`, outputs, cache));
    }
    return value;
  }
}

/** What the adapter reads of a message: each media part's stored text by its data, and each part's label by its text. Read once, when asked. */
class Media {
  #parts: Array<{ text: string; raw?: string; label: string; media?: { data?: unknown; kind: string } }> | undefined;
  readonly #adapter: Adapter;
  readonly #source: unknown;

  constructor(adapter: Adapter, source: unknown) {
    this.#adapter = adapter;
    this.#source = source;
  }

  #read() {
    if (this.#parts) return this.#parts;
    try {
      const a = this.#adapter;
      const host = a.revive && this.#source !== null && typeof this.#source === 'object' ? a.revive(this.#source) : this.#source;
      this.#parts = a.read(host, 'message').parts;
    } catch {
      this.#parts = [];
    }
    return this.#parts;
  }

  /** The text the engine stores for the media part whose data is `value`. */
  of(value: string): { text: string; kind: string } | undefined {
    const p = this.#read().find((q) => q.media?.data === value);
    return p?.media ? { text: storedText(p.media as Parameters<typeof storedText>[0]), kind: p.media.kind } : undefined;
  }

  /** The label of the part whose text is `value`: what the engine names it by when it stores it. */
  label(value: string): string {
    return this.#read().find((q) => (q.raw ?? q.text) === value)?.label || 'text';
  }
}

/**
 * A checkpoint's snapshot or a row's changes, parsed, as `StoredOnce` wrote them (`stored: 1`):
 * its messages' references read back and the mark taken off, in place. Data without the
 * mark, written before, is left as it is; a shape that is wrong is left to its reader.
 */
export async function readStored(once: StoredOnce, value: unknown, outputs: number, cache: Map<number, string>, field: string, checkpoint = false): Promise<void> {
  if (!isPlain(value) || value.stored === undefined) return;
  if (value.stored !== 1) throw argumentError(RangeError, `${field}.stored`, `must be 1, got ${JSON.stringify(value.stored)}: written by a newer version of @devs/context, open it with that one`);
  delete value.stored;
  const list = value.messages;
  if (!Array.isArray(list)) return;
  const entries: Array<[number, { source: unknown } | null, string]> = [];
  let n = 0;
  for (const [j, m] of list.entries()) {
    if (checkpoint) {
      if (typeof m === 'number') n += m;
      else if (m === null || isPlain(m)) entries.push([n++, m as { source: unknown } | null, `${field}.messages[${j}]`]);
    } else if (Array.isArray(m) && typeof m[0] === 'number' && (m[1] === null || isPlain(m[1]))) entries.push([m[0], m[1] as { source: unknown } | null, `${field}.messages[${j}][1]`]);
  }
  await once.read(entries, outputs, cache, checkpoint);
}
