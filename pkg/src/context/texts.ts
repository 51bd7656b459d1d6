// What leaves the request, kept where the agent can get it back: texts written to the
// host's store (once each, even across a build that failed and was tried again), read
// back, and named in the index by one line each (crates/rules/src/context/index.rs, the
// bodies; fold.rs, the spans, listings and merges). The rules decide what is stored and
// what each line says; this does the store's I/O and keeps the lines.
import { FrameReader, frameTemplates, frameText } from '../core/frame.js';
import { callMethod, type Bag } from '../core/read.js';
import { utf8Length } from '../core/runtime.js';
import { textKey } from '../core/text-key.js';
import { within } from '../core/timeout.js';
import { count } from '../tokens/count.js';
import { Kind } from './codes.js';
import type { History, KeptPart } from './history.js';
import { storedText } from '../providers/media.js';
import { shortenedCall } from './render.js';
import type { Undo } from './undo.js';
import type { TokenCounter } from '../core/types.js';
import type { Need } from '../core/protocol.js';
import { BODY_FRAMES, INDEX_HEADER, INDEX_HEADER_RECALL } from '../core/protocol.js';

/** Need `K`, with its fields and what it carries. */
type Needed<K extends Need['kind']> = Extract<Need, { kind: K }>;

/** A stored text's body as an index line, as a placeholder, and an unknown text's body (`index.rs`). */
export const BODY = (() => {
  let frames: Array<(hosts: readonly string[]) => string> | undefined;
  const at = (n: number) => (hosts: readonly string[]) => (frames ??= frameTemplates(BODY_FRAMES))[n](hosts);
  return { line: at(0), placeholder: at(1), unknown: at(2) };
})();

/** A media part's size as measured, as its line's body takes it: an image's `[width, height]`, a document's `[pages]`. */
function dimensions(p: KeptPart): number[] {
  const m = p.measured;
  if (!p.media || !m) return [];
  return p.kind === Kind.Image ? [m.width, m.height] : [m.pages];
}

/**
 * Says to the rules what the pending need's text is (`Event::Described`): the text, the
 * arguments of the call a result answers, a media part's size. Their reply is the body of
 * its index line or placeholder, over `[id, label]` (`Need::Measure`).
 */
export type Describe = (text: string, args: string, media: readonly number[]) => string;

/** Where texts go, as the engine's options say. */
export interface StoreOptions {
  store: Bag;
  counter: TokenCounter | undefined;
  /** Milliseconds a store write may take before it counts as failed; none by default. */
  callbackTimeoutMs?: number;
  /** Ids of texts in the store by `textKey`, shared with whoever else stores there: none is stored twice. */
  known?: Map<string, string>;
  /** The agent has the recall tool: the index says how to read a text back. */
  recall?: boolean;
}

export class StoredTexts {
  /** The index line of each text stored, by store id, in the order stored. */
  readonly lines = new Map<string, string>();
  /**
   * Texts stored by a build that was then rolled back: a store cannot take them back, so
   * the retry reuses their ids instead of storing them twice. Cleared on commit.
   */
  readonly storedBefore = new Map<string, { raw: string; id: string }>();
  /** The index as last written, and the ids it was written from, joined. */
  #index = { ids: '', text: '' };
  readonly #o: StoreOptions;
  readonly #history: History;
  readonly #undo: Undo;

  constructor(o: StoreOptions, history: History, undo: Undo) {
    this.#o = o;
    this.#history = history;
    this.#undo = undo;
  }

  /** Stores part `k` of message `i` whole: its id and its index line's tokens, or nothing when the store failed. */
  async persist({ message: i, part: k, call }: Needed<'Persist'>, failed: unknown[], describe: Describe): Promise<[string?, number?]> {
    const h = this.#history;
    const p = h.messages[i].parts[k];
    // An image or a document is stored as one text of its bytes (`media.ts`); its line says its size, not its bytes.
    const raw = p.media ? storedText(p.media) : p.raw ?? p.text;
    const id = await this.#storeText(`message-${i}/part-${k}`, raw, p.media ? p.media.kind : h.label(i, k), failed);
    if (id === undefined) return [];
    const body = p.media ? describe('', '', dimensions(p)) : describe(raw, h.args(call), []);
    return [id, this.#line(id, body, h.label(i, k))];
  }

  /**
   * Stores the transcript of messages `from..to` for the index: each text whole, outputs
   * stored before read back from the store, so one recall of it gives back the whole span.
   */
  async persistSpan({ from, to, transcript, ids }: Needed<'PersistSpan'>, failed: unknown[], describe: Describe): Promise<[string | undefined, number]> {
    const h = this.#history;
    const hosts: Array<string | Promise<string>> = [];
    let n = 0;
    for (let i = from; i < to; i++) {
      const m = h.messages[i];
      m.parts.forEach((p, k) => {
        const shown = m.display?.[k];
        const id = ids[n++];
        // An image or a document is named by its store id, never given by its bytes.
        const whole = p.media ? id ?? '' : p.baked && id !== undefined ? this.read(id).then((t) => t ?? p.text) : p.raw ?? p.text;
        hosts.push(shown === null && p.kind === Kind.Thinking ? '' : whole, h.label(i, k));
      });
    }
    const text = frameText(transcript, await Promise.all(hosts));
    const id = await this.#storeText(`messages-${from}-${to}`, text, 'transcript', failed);
    return id === undefined ? [undefined, NaN] : [id, this.#line(id, describe(text, '', []), '')];
  }

  /** Stores the listing of the index's oldest `count` entries, after the listing before them. */
  async persistGroup({ ids, listing: listed }: Needed<'PersistGroup'>, failed: unknown[]): Promise<[string | undefined, number]> {
    const frame = new FrameReader(listed);
    const listing = [frame.text([]), ...ids.map((id) => BODY.line([this.#body(id)]))].join('\n');
    const id = await this.#storeText(`index-${ids.join(',')}`, listing, 'index', failed);
    if (id === undefined) return [undefined, NaN];
    const line = frame.text([id, '']);
    return [id, this.#noteLine(id, line)];
  }

  /**
   * Stores the oldest `count` transcripts of the index, read back and joined, as one: every
   * span stays one recall away however long the session. Nothing when one cannot be read.
   */
  async mergeSpans({ count, ids }: Needed<'MergeSpans'>, failed: unknown[], describe: Describe): Promise<[string | undefined, number]> {
    const texts = await Promise.all(ids.map((id) => this.read(id)));
    if (texts.some((t) => t === undefined)) return [undefined, NaN];
    const text = texts.join('\n\n');
    const id = await this.#storeText(`merge-${count}-${text.length}`, text, 'transcript', failed);
    return id === undefined ? [undefined, NaN] : [id, this.#line(id, describe(text, '', []), '')];
  }

  /** The text stored as `id`, read back, or `undefined` when the store cannot say. */
  async read(id: string): Promise<string | undefined> {
    const store = this.#o.store;
    if (typeof store.getRawToolOutput !== 'function') return undefined;
    try {
      const row = await within(this.#o.callbackTimeoutMs, Promise.resolve(callMethod(store, 'getRawToolOutput', 'store.getRawToolOutput', [id])), 'store.getRawToolOutput') as Bag | undefined;
      return typeof row?.rawContent === 'string' ? row.rawContent : undefined;
    } catch {
      return undefined;
    }
  }

  /** The placeholder of a part (`index::placeholder`): what it was, and its store id. */
  placeholder({ message: i, part: k, id, call }: Needed<'Placeholder'>, describe: Describe): string {
    const h = this.#history;
    const p = h.messages[i].parts[k];
    // A call keeps its keys, its long strings each a mark naming the stored input.
    if (p.kind === Kind.Call || p.kind === Kind.ServerCall) {
      const call = shortenedCall(p.text, NaN, id);
      if (call !== undefined) return call;
    }
    const body = frameText(describe('', h.args(call), dimensions(p)), [id ?? '', h.label(i, k)]);
    return BODY.placeholder([body]);
  }

  /** The body of stored text `id` from its frame: kept, and the tokens of its index line. */
  #line(id: string, frame: string, label: string): number {
    return this.#noteLine(id, frameText(frame, [id, label]));
  }

  #noteLine(id: string, body: string): number {
    if (!this.lines.has(id)) {
      this.lines.set(id, body);
      this.#undo.push(() => this.lines.delete(id));
    }
    return count(this.#o.counter, BODY.line([body]), 'index line') + 1;
  }

  /** What stored text `id` is, in one line (`index::body`). */
  #body(id: string): string {
    return this.lines.get(id) ?? BODY.unknown([id]);
  }

  /** The index of the texts folded out of the request (`ids`, as the rules list them), as it carries it after the summary. */
  indexText(ids: readonly string[]): string {
    const key = ids.join('\n');
    if (key === this.#index.ids) return this.#index.text;
    const lines = ids.map((id) => BODY.line([this.#body(id)]));
    const text = lines.length ? [frameText(this.#o.recall === true ? INDEX_HEADER_RECALL : INDEX_HEADER, []), ...lines].join('\n') : '';
    this.#index = { ids: key, text };
    return text;
  }

  /**
   * Stores `raw` (what `key` names in this build), once: its id, or nothing when the store
   * failed. A store that gives no id leaves `key` as the text's name.
   */
  async #storeText(key: string, raw: string, toolName: string, failed: unknown[]): Promise<string | undefined> {
    const earlier = this.storedBefore.get(key);
    if (earlier && earlier.raw === raw) return earlier.id;
    const known = this.#o.known;
    const textKeyOf = known ? textKey(raw) : '';
    const id = known?.get(textKeyOf);
    if (id !== undefined) return id;
    try {
      const given = await within(this.#o.callbackTimeoutMs, callMethod(this.#o.store, 'insertRawToolOutput', 'store.insertRawToolOutput', [{
        toolName, rawContent: raw, byteSize: utf8Length(raw), turnAge: 0, capturedAt: Date.now(),
      }]), 'store.insertRawToolOutput');
      const stored = typeof given === 'string' || typeof given === 'number' ? String(given) : key;
      this.storedBefore.set(key, { raw, id: stored });
      if (stored === String(given)) this.#o.known?.set(textKeyOf, stored);
      return stored;
    } catch (error) {
      failed.push(error);
      return undefined;
    }
  }
}
