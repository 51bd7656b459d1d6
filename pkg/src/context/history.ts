// The conversation as the shell keeps it (crates/rules/src/context/history.rs is the
// rules' half): each host message as its adapter read it, what the rules show in place of
// a part, and the calls by id. What an append adds, what a commit writes into a message
// and lets go; every change noted in the build's `Undo`.
import { argumentError, checked } from '../errors/index.js';
import { type Answer, encodeAnswer } from '../core/protocol.js';
import { type Adapter, type NeutralMessage, type NeutralPart, type PlannedMessage, Kind, NONE, Role, WHOLE } from '../providers/neutral.js';
import { count } from '../tokens/count.js';
import { rules } from '../core/wasm.js';
import type { TokenCounter } from '../core/types.js';
import type { KeptMessage } from './types.js';
import type { Undo } from './undo.js';
import { measureMedia, type MediaNote, type MediaRules } from './media.js';
import { PartFlag } from './codes.js';

/** The rules' machine, as the binding exports it. */
export type Core = InstanceType<typeof rules.ManagerCore>;

/** Gives the rules an event of the host's (`journal::ANSWERS`) through `advance`: a build's begin, the tail, a usage, …. */
export const give = (core: Core, answer: Answer): void => {
  checked(() => core.advance(encodeAnswer(answer)));
};

/** What the shell reads of the rules after a step (`ManagerCore::status`, returned by `commit` too). */
export interface Status {
  firstLive: number;
  /** The pinned opening messages `[start, end)`, sent in every request. */
  opening: [number, number];
  /** Calls before this one are folded away: their ids go. */
  foldedCalls: number;
  hasSummary: boolean;
  messages: number;
  calls: number;
  tokens: number;
  calibration: { overhead: number; ratio: number; samples: number; mediaRatio: number };
}

/** The figures of `ManagerCore::status`, named in its order: their one reader. */
export const statusOf = (f: Float64Array): Status => ({
  firstLive: f[0], opening: [f[1], f[2]], foldedCalls: f[3], hasSummary: f[4] === 1, messages: f[5], calls: f[6], tokens: f[7],
  calibration: { overhead: f[8], ratio: f[9], samples: f[10], mediaRatio: f[11] },
});

const STATUS_FIGURES = 12;

/**
 * What `ManagerCore::append` returns, read in its order: `refused` as `[message, part (-1:
 * the message), rejection]`, or the journal it took (empty in a build).
 */
export function appended(r: Uint8Array): { refused?: [number, number, string]; journal: Uint8Array } {
  if (r[0] !== 1) return { journal: r.subarray(1) };
  const v = new DataView(r.buffer, r.byteOffset, r.byteLength);
  return { refused: [v.getUint32(1, true), v.getUint32(5, true) - 1, utf8.decode(r.subarray(10))], journal: r.subarray(0, 0) };
}

const utf8 = new TextDecoder();

/**
 * What `ManagerCore::commit` returns, read in its order: the rules' figures, a byte per part
 * shown in the build (`shown` of them, 1: stored), and the journal taken.
 */
export function committed(r: Uint8Array, shown: number): { status: Status; stored: Uint8Array; journal: Uint8Array } {
  const v = new DataView(r.buffer, r.byteOffset, r.byteLength);
  const figures = Float64Array.from({ length: STATUS_FIGURES }, (_, i) => v.getFloat64(8 * i, true));
  const at = 8 * STATUS_FIGURES;
  return { status: statusOf(figures), stored: r.subarray(at, at + shown), journal: r.subarray(at + shown) };
}

/** A part whose shown text is now in its message's `source` itself, its raw text gone (stored), is `baked`. */
export interface KeptPart extends NeutralPart {
  baked?: boolean;
}

/**
 * A message as the engine keeps it: the adapter's reading, and how each part is shown.
 * A class, so every kept message shares one hidden class: built from a spread and
 * extended later, each got its own, and a long session kept thousands.
 */
export class Kept implements NeutralMessage, PlannedMessage {
  readonly role: number;
  parts: KeptPart[];
  source: unknown;
  /** Per part, what the rules show in its place, once they show one otherwise and until it is baked. */
  display: Array<string | null | undefined> | undefined = undefined;

  constructor(m: NeutralMessage) {
    this.role = m.role;
    this.parts = m.parts;
    this.source = m.source;
  }

  // A kept message is its own plan entry when it is sent as kept: whole, unmarked, answered.
  get neutral(): NeutralMessage {
    return this;
  }

  get shown(): ReadonlyArray<undefined> {
    return WHOLE;
  }

  get breakpoint(): boolean {
    return false;
  }

  get unanswered(): ReadonlyArray<never> {
    return NONE;
  }
}

/** The code of a message read as other parts than the rules' state holds (`History.verify`). */
export const OTHER_PARTS = 'ERR_OTHER_PARTS';

/** In the place of a message behind the summary: nothing of it is read again. */
export const RELEASED = new Kept({ role: -1, parts: [], source: null });

/**
 * `text` in a string of its own. A placeholder is pasted from pieces and a cut is a slice of
 * the whole output: kept as they are, they would keep the raw text they came from alive.
 */
function detached(text: string): string {
  return text.length < 16 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/**
 * Throws a TypeError naming the first field of `value` that holds an object it is inside
 * of: no provider's JSON can carry it, and the SDK would fail on it when sending, far from
 * the append that took it. Walked without recursion, so a deep message cannot overflow
 * the stack; bytes are not walked, and an object met twice off the same path is fine.
 */
export function acyclic(value: unknown, field: string): void {
  if (value === null || typeof value !== 'object') return;
  type Frame = { node: object; keys: string[]; next: number; path: string };
  // A getter or a proxy that throws is left to the adapter's reading, which names it.
  const keysOf = (node: object): string[] => {
    try {
      return Object.keys(node);
    } catch {
      return [];
    }
  };
  const path = new Set<object>([value]);
  const stack: Frame[] = [{ node: value, keys: keysOf(value), next: 0, path: field }];
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.next === top.keys.length) {
      path.delete(top.node);
      stack.pop();
      continue;
    }
    const key = top.keys[top.next++];
    let child: unknown;
    try {
      child = (top.node as Record<string, unknown>)[key];
    } catch {
      continue;
    }
    if (child === null || typeof child !== 'object' || ArrayBuffer.isView(child) || child instanceof ArrayBuffer) continue;
    const at = Array.isArray(top.node) ? `${top.path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${top.path}.${key}` : `${top.path}[${JSON.stringify(key)}]`;
    if (path.has(child)) throw argumentError(TypeError, at, 'refers back to an object that holds it (a circular reference): a message must be plain data a provider can take as JSON');
    path.add(child);
    stack.push({ node: child, keys: keysOf(child), next: 0, path: at });
  }
}

/**
 * What a part names beside its text, billed with it however the part is shown: a call's
 * tool name and id, a result's id; '' for any other part.
 */
export function namesOf(p: NeutralPart): string {
  if (p.kind !== Kind.Call && p.kind !== Kind.ServerCall && p.kind !== Kind.Result) return '';
  const named = p.kind === Kind.Result ? p.id ?? '' : `${p.label} ${p.id ?? ''}`;
  return named.trim() === '' ? '' : named;
}

export class History {
  messages: Kept[] = [];
  /** The journal the last append took with it, outside a build (`appended`). */
  taken: Uint8Array = new Uint8Array(0);

  /** Messages before this one are released (`release`). */
  released = 0;
  /** Call ids and tool names by the rules' call index, and each id's index. */
  readonly callIds: string[] = [];
  readonly callNames: string[] = [];
  readonly callIndex = new Map<string, number>();
  /** Calls before this one are let go (`forgetCalls`). */
  #forgotten = 0;
  /** The messages `release` kept as pinned, last time. */
  #pinned: number[] = [];
  /** What the media rules noted of parts appended, for the next build's ledger (`unsaid`). */
  notes: MediaNote[] = [];
  /** How many of `notes` the open build's ledger said. */
  #said = 0;
  /** Parts shown anew by the open build, `[message, part]`: baked into their messages on commit. */
  shownNow: Array<[number, number]> = [];
  /** Messages changed since the last `changes()`. */
  readonly dirty = new Set<number>();
  readonly #core: Core;
  readonly #adapter: Adapter;
  readonly #counter: TokenCounter | undefined;
  readonly #undo: Undo;
  readonly #media: MediaRules;
  /** The tools whose calls and results the rules protect (`protectedTools`). */
  readonly protects: ReadonlySet<string>;

  constructor(core: Core, adapter: Adapter, counter: TokenCounter | undefined, undo: Undo, media: MediaRules, protects: ReadonlySet<string> = new Set()) {
    this.protects = protects;
    this.#core = core;
    this.#adapter = adapter;
    this.#counter = counter;
    this.#undo = undo;
    this.#media = media;
  }

  /**
   * Appends messages, all or none; `field(i)` names message `i` in errors. A message that
   * does not fit its format, or a result whose call is not in the turn before it, is a
   * TypeError naming its field. Returns the tokens the messages hold, framing aside.
   */
  append(list: readonly unknown[], field: (i: number) => string): number {
    const adapter = this.#adapter;
    const counter = this.#counter;
    const read = list.map((m, i) => {
      acyclic(m, field(i));
      return adapter.read(m, field(i));
    });
    const media = read.flatMap((m, i) => m.parts.filter((p) => p.media !== undefined).map((part) => ({ part, field: `${field(i)}.${part.path}` })));
    const notes = measureMedia(media, this.#media);
    const ids = new Map<string, number>();
    const protects = this.protects;
    // The tool names of this batch's calls, by call index: its results name them by id.
    const names = new Map<number, string>();
    let next = this.callIds.length;
    const roles = new Uint8Array(read.length);
    const framing = new Float64Array(read.length).fill(adapter.framing.message);
    const partCount = new Uint32Array(read.length);
    const kinds: number[] = [];
    const units: number[] = [];
    const tokens: number[] = [];
    const calls: number[] = [];
    let total = 0;
    // A result with no id (Gemini's `functionResponse` may have none) is offered the calls
    // of its tool's name from the open turn on; the rules pair it with the first still open.
    const byName: number[] = [];
    let openFrom = -1;
    const candidates = (label: string): number[] => {
      if (openFrom < 0) openFrom = this.#core.open_from();
      const found = this.callsNamed(label, openFrom);
      for (const [c, name] of names) if (name === label) found.push(c);
      return found;
    };
    read.forEach((m, i) => {
      roles[i] = m.role;
      partCount[i] = m.parts.length;
      m.parts.forEach((p, k) => {
        const kindAt = kinds.length;
        kinds.push(p.kind);
        units.push(p.text.length);
        // A text's count, and what a stated rule or the media rules add for what no counter
        // reads; a call's name and id, and a result's id, are billed too.
        let n = (p.text === '' ? 0 : count(counter, p.text, `${field(i)}.${p.path}`)) + (p.tokens ?? 0);
        if (p.extra) n += count(counter, p.extra, `${field(i)}.${p.path}`);
        const named = namesOf(p);
        if (named !== '') n += count(counter, named, `${field(i)}.${p.idPath ?? p.path}`);
        total += n;
        tokens.push(n + adapter.framing.part);
        if (p.kind === Kind.Call || p.kind === Kind.ServerCall) {
          if (p.id !== undefined) {
            // A result names its call by id: two live calls of one id could not be told apart.
            if (ids.has(p.id) || this.callIndex.has(p.id)) throw argumentError(TypeError, `${field(i)}.${p.idPath ?? p.path}`, `has the id ${JSON.stringify(p.id.length > 80 ? `${p.id.slice(0, 80)}…` : p.id)} of an earlier call still in the conversation: each call needs an id of its own, or its result cannot be told apart`);
            ids.set(p.id, next);
          }
          names.set(next, p.label);
          if (protects.has(p.label)) kinds[kindAt] |= PartFlag.Protected;
          calls.push(next++);
        } else if (p.kind === Kind.Result || (p.id !== undefined && (p.kind === Kind.Image || p.kind === Kind.Document))) {
          const call = p.id === undefined ? -1 : ids.get(p.id) ?? this.callIndex.get(p.id) ?? -1;
          if (p.id === undefined && p.kind === Kind.Result && p.label !== '') {
            const offered = candidates(p.label);
            byName.push(i, k, offered.length, ...offered);
          }
          const tool = p.label || (call < 0 ? '' : names.get(call) ?? this.callNames[call] ?? '');
          if (p.kind === Kind.Result && protects.has(tool)) kinds[kindAt] |= PartFlag.Protected;
          calls.push(call);
        } else {
          calls.push(-1);
        }
      });
    });
    const reply = appended(this.#core.append(roles, framing, partCount, Uint8Array.from(kinds), Uint32Array.from(units), Float64Array.from(tokens), Float64Array.from(calls), Uint32Array.from(byName), true));
    if (reply.refused) {
      const [i, k, words] = reply.refused;
      const part = k >= 0 ? read[i].parts[k] : undefined;
      throw argumentError(TypeError, part ? `${field(i)}.${part.idPath ?? part.path}` : field(i), words);
    }
    this.taken = reply.journal;
    const lengths = [this.messages.length, this.callIds.length];
    const added: string[] = [];
    for (const m of read) {
      this.dirty.add(this.messages.length);
      this.messages.push(new Kept(m));
      for (const p of m.parts) {
        if (p.kind !== Kind.Call && p.kind !== Kind.ServerCall) continue;
        const n = this.callIds.length;
        this.callIds.push(p.id ?? '');
        this.callNames.push(p.label);
        if (p.id !== undefined) {
          this.callIndex.set(p.id, n);
          added.push(p.id);
        }
      }
    }
    const noted = this.notes.length;
    this.notes.push(...notes);
    this.#undo.push(() => {
      this.messages.length = lengths[0];
      this.callIds.length = this.callNames.length = lengths[1];
      for (const id of added) this.callIndex.delete(id);
      this.notes.length = noted;
    });
    return total;
  }

  /**
   * What the media rules noted of the parts appended since the last build committed
   * (parts counted at a bound), for the open build's ledger. Let go only when it commits
   * (`said`): a build that fails leaves them for the next, with nothing to put back.
   */
  unsaid(): MediaNote[] {
    this.#said = this.notes.length;
    return this.notes.slice();
  }

  /** The open build committed: the notes its ledger said are let go. */
  said(): void {
    this.notes.splice(0, this.#said);
    this.#said = 0;
  }

  /** The calls named `label` from call `from` on, in order: what a result with no id is offered. */
  callsNamed(label: string, from: number): number[] {
    const found: number[] = [];
    for (let c = from; c < this.callNames.length; c++) if (this.callNames[c] === label) found.push(c);
    return found;
  }

  /** A call of messages read again from stored data (`Engine.apply`); `''` for one let go. */
  addCall(id: string, name: string): void {
    if (id !== '') this.callIndex.set(id, this.callIds.length);
    this.callIds.push(id);
    this.callNames.push(name);
  }

  /** Message `i` as stored data gives it (`null`: released), read again by the adapter; `at` names it in errors. */
  revive(m: KeptMessage | null, at: string): Kept {
    if (m === null) return RELEASED;
    const adapter = this.#adapter;
    const source = adapter.revive && m.source !== null && typeof m.source === 'object' ? adapter.revive(m.source) : m.source;
    const k = new Kept(adapter.read(source, `${at}.source`));
    const part = (n: number, key: string) => {
      if (n >= k.parts.length) throw argumentError(RangeError, `${at}.${key}`, `names part ${n} of a message of ${k.parts.length}`);
      return n;
    };
    for (const [n, text] of Object.entries(m.shown ?? {})) (k.display ??= [])[part(Number(n), 'shown')] = text;
    for (const n of m.baked ?? []) k.parts[part(n, 'baked')] = { ...k.parts[n], baked: true };
    return k;
  }

  /** Message `i` as JSON data of its own (`null`: released), with the texts shown for its parts and the parts written into it. */
  kept(i: number): KeptMessage | null {
    const m = this.messages[i];
    if (m === RELEASED) return null;
    const adapter = this.#adapter;
    const kept: KeptMessage = { source: adapter.plain ? adapter.plain(m.source, `messages[${i}]`) : m.source };
    m.display?.forEach((text, k) => {
      if (typeof text === 'string' && !m.parts[k].baked) (kept.shown ??= {})[k] = text;
    });
    const baked = m.parts.flatMap((p, k) => (p.baked ? [k] : []));
    if (baked.length) kept.baked = baked;
    return kept;
  }

  /** Shows part `k` of message `i` as `text` (a placeholder, a cut) from now on. */
  show(i: number, k: number, text: string): void {
    const m = this.messages[i];
    const display = (m.display ??= []);
    const before = display[k];
    const part = m.parts[k];
    const baked = part.baked === true;
    this.#undo.push(() => {
      display[k] = before;
      if (baked) part.baked = true;
    });
    display[k] = text;
    this.dirty.add(i);
    // A part already written into its message is shown anew over it.
    if (baked) part.baked = false;
    this.shownNow.push([i, k]);
  }

  /** What part `k` of message `i` is called in a placeholder or a transcript: its tool's name, or its role. */
  label(i: number, k: number): string {
    const m = this.messages[i];
    const p = m.parts[k];
    if (p.label) return p.label;
    if (p.kind === Kind.Result && p.id !== undefined) return this.callNames[this.callIndex.get(p.id) ?? -1] ?? 'tool';
    return m.role === Role.Assistant ? 'assistant' : m.role === Role.System ? 'system' : 'user';
  }

  /** Whether part `k` of message `i` is the call or the result of a protected tool. */
  isProtected(i: number, k: number): boolean {
    if (this.protects.size === 0) return false;
    const kind = this.messages[i].parts[k].kind;
    if (kind !== Kind.Call && kind !== Kind.ServerCall && kind !== Kind.Result) return false;
    return this.protects.has(this.label(i, k));
  }

  /** The arguments of the call a result answers, at `call` (`[message, part]`, as a need carries it; '' for none). */
  args(call: readonly number[]): string {
    const [m, c] = call;
    return m === undefined ? '' : this.messages[m]?.parts[c]?.text ?? '';
  }

  /**
   * A part stored whole and shown as a placeholder or a cut is written into its message,
   * and its raw text let go: memory holds what the next request needs, and the store the
   * rest. Only after a commit, since a rollback may show the part whole again. `stored`:
   * per part of `shownNow`, 1 if it is stored (`committed`).
   */
  bake(stored: Uint8Array): void {
    const byMessage = new Map<number, number[]>();
    for (const [j, [i, k]] of this.shownNow.entries()) {
      const m = this.messages[i];
      if (!m || typeof m.display?.[k] !== 'string' || stored[j] !== 1) continue;
      const parts = byMessage.get(i) ?? [];
      parts.push(k);
      byMessage.set(i, parts);
    }
    this.shownNow = [];
    for (const [i, all] of byMessage) {
      const m = this.messages[i];
      const display = m.display as string[];
      for (const k of all) display[k] = detached(display[k]);
      // An image or a document keeps its place and kind in its message, its bytes let go:
      // it is shown by its line from `display`, and read back as what it was.
      const media = all.filter((k) => m.parts[k].media !== undefined);
      const ks = all.filter((k) => m.parts[k].media === undefined);
      if (media.length && this.#adapter.strip) {
        m.source = this.#adapter.strip(m.source, m, media);
        for (const k of media) m.parts[k] = { ...m.parts[k], media: { ...m.parts[k].media!, data: '' } };
      }
      if (ks.length) {
        const shown = m.parts.map((_, k) => (ks.includes(k) ? display[k] : undefined));
        m.source = this.#adapter.rewrite(m.source, m, shown);
        for (const k of ks) m.parts[k] = { ...m.parts[k], text: display[k], raw: undefined, baked: true };
      }
      this.dirty.add(i);
      // The parts now say it themselves.
      if (display.every((text, k) => text === undefined || m.parts[k].baked)) m.display = undefined;
    }
  }

  /**
   * Messages behind the summary, or dropped, are never sent or summarized again: their
   * texts go. Their places stay, since the rules number messages from the first.
   */
  release({ firstLive: live, opening: [from, to], foldedCalls }: Status): void {
    // The pinned messages (the opening one, or the group of the provider's compaction) are
    // sent in every request; those pinned before and no longer go now.
    const pinned = (i: number) => i >= from && i < to;
    const drop = (i: number) => {
      if (this.messages[i] === RELEASED) return;
      this.messages[i] = RELEASED;
      this.dirty.add(i);
    };
    for (const i of this.#pinned) if (i < live && !pinned(i)) drop(i);
    for (; this.released < live; this.released++) if (!pinned(this.released)) drop(this.released);
    this.#pinned = Array.from({ length: to - from }, (_, k) => from + k);
    this.forgetCalls(foldedCalls);
  }

  /** After messages made again from stored data: those before the first live one are released already but the pinned. */
  resume({ firstLive, opening: [from, to], foldedCalls }: Status): void {
    this.released = firstLive;
    this.#pinned = Array.from({ length: to - from }, (_, k) => from + k);
    this.forgetCalls(foldedCalls);
  }

  /** The calls of messages folded away (before `to`) are let go too: no result can answer them now. */
  forgetCalls(to: number): void {
    const [ids, names, index] = [this.callIds, this.callNames, this.callIndex];
    let c = this.#forgotten;
    for (; c < to; c++) {
      if (ids[c] === '' && names[c] === '') continue;
      if (index.get(ids[c]) === c) index.delete(ids[c]);
      ids[c] = names[c] = '';
    }
    this.#forgotten = c;
  }

  /**
   * Checks the messages and calls held here against the rules' own, once they are made
   * again from stored data: each message the rules keep is here, of the same role and
   * parts, with the same call ids, and each they let go is released. Stored data altered
   * in a way each half accepts alone is refused here, naming it, not sent.
   */
  verify(field: string): void {
    const n = statusOf(this.#core.status()).messages;
    if (this.messages.length !== n) throw argumentError(TypeError, `${field}.messages`, `holds ${this.messages.length} messages, but the rules' state has ${n}: it was altered`);
    const shapes = this.#core.shapes();
    const altered = (at: string, what: string) => argumentError(TypeError, `${field}.${at}`, `${what}: it was altered`);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const m = this.messages[i];
      if (at >= shapes.length || shapes[at] !== i) {
        if (m !== RELEASED) throw altered(`messages[${i}]`, m === undefined ? 'is missing' : 'is kept, but the rules folded it away');
        continue;
      }
      const [role, count] = [shapes[at + 1], shapes[at + 2]];
      at += 3;
      if (m === undefined) throw altered(`messages[${i}]`, 'is missing');
      if (m === RELEASED) throw altered(`messages[${i}]`, 'is released, but the rules keep it');
      // Read as other parts than the rules hold: by today's adapters, data of earlier ones (`ERR_OTHER_PARTS`, which a restore rebuilds from), or altered.
      const other = (at: string, what: string) => Object.assign(altered(at, what), { code: OTHER_PARTS });
      if (m.role !== role || m.parts.length !== count) throw other(`messages[${i}]`, `is not the message the rules hold (role ${role}, ${count} parts)`);
      for (let k = 0; k < count; k++, at += 2) {
        const [kind, call] = [shapes[at], shapes[at + 1]];
        const p = m.parts[k];
        if (p.kind !== kind) throw other(`messages[${i}].source`, `part ${k} is not of the kind the rules hold`);
        const id = call > 0 ? this.callIds[call - 1] : undefined;
        if (id && p.id !== undefined && p.id !== id) throw altered(`calls[${call - 1}]`, `is not the call of messages[${i}] part ${k}`);
      }
    }
  }
}
