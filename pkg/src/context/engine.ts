// The engine behind `ContextManager` and `AgentRunner`'s `bounded` option: one pipeline.
// The rules decide what each request holds (`devs_context_rules::context`); this reads the
// host's messages through an adapter, counts each text once, stores and summarizes as the
// rules ask, and writes the request back through the adapter. Everything it changes
// between `begin()` and `commit()` is taken back by `rollback()`.
import { argumentError, checked, errorText } from '../errors/index.js';
import { FrameReader, frameTemplates, frameText, frameTexts } from '../core/frame.js';
import { type Adapter, type NeutralMessage, type NeutralPart, type Plan, type PlannedMessage, Kind, NONE, Role, WHOLE } from '../providers/neutral.js';
import { NeedKind as Need, ShownCode } from './codes.js';
import { readPlan } from './plan.js';
import { applyJournal, encodeBase64, replayV1, takeJournal, type LoggedCall } from './journal.js';
import { decodeBase64 } from '../core/base64.js';
import { callMethod, joinTexts, string, type Bag } from '../core/read.js';
import { utf8Length } from '../core/runtime.js';
import { textKey } from '../core/text-key.js';
import { within } from '../core/timeout.js';
import { count } from '../tokens/count.js';
import type { LedgerRecord, ContextWarning, KeptMessage } from './types.js';
import type { TokenCounter } from '../seeds/types.js';

export type { KeptMessage };
import { rules } from '../core/wasm.js';

/** The manager's own words (`render::own_texts`): 0 the summary message over `summary`, 1 an unanswered call's result, 2 the note for dropped turns. */
let own: string | undefined;
function ownText(n: 0 | 1 | 2, summary = ''): string {
  const reader = new FrameReader((own ??= rules.managerTexts()));
  let text = '';
  for (let i = 0; i <= n; i++) text = reader.text(i === 0 ? [summary] : []);
  return text;
}

/**
 * `text` in a string of its own. A placeholder is pasted from pieces and a cut is a slice of
 * the whole output: kept as they are, they would keep the raw text they came from alive.
 */
function detached(text: string): string {
  return text.length < 16 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/**
 * A message as the engine keeps it: the adapter's reading, and how each part is shown.
 * A class, so every kept message shares one hidden class: built from a spread and
 * extended later, each got its own, and a long session kept thousands.
 */
/** A part whose shown text is now in its message's `source` itself, its raw text gone (stored), is `baked`. */
interface KeptPart extends NeutralPart {
  baked?: boolean;
}

class Kept implements NeutralMessage, PlannedMessage {
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

/** A stored text's body as an index line, as a placeholder, and an unknown text's body (`index.rs`). */
const BODY = (() => {
  let frames: Array<(hosts: readonly string[]) => string> | undefined;
  const at = (n: number) => (hosts: readonly string[]) => (frames ??= frameTemplates(rules.bodyFrames()))[n](hosts);
  return { line: at(0), placeholder: at(1), unknown: at(2) };
})();

/** Units a cut's probes reach past its bounds, to end on a line break (`render::LINE_WINDOW`). */
let cutWindow: number | undefined;

/** In the place of a message behind the summary: nothing of it is read again. */
const RELEASED = new Kept({ role: -1, parts: [], source: null });


export interface EngineOptions {
  /** Names the options in errors: `options`, or `options.bounded`. */
  field: string;
  adapter: Adapter;
  budget: number;
  /** The options the rules read, by name: NaN for a default. */
  options: { names: readonly string[]; values: Float64Array };
  counter: TokenCounter | undefined;
  store: Bag;
  summarizer: Bag | undefined;
  /** No bound when undefined: a session bounds the host's summarizer itself, not its wait for another worker's. */
  summarizerTimeoutMs: number | undefined;
  system: string | undefined;
  pinned: string[];
  cacheControl: boolean;
  /** Milliseconds a store write may take before it counts as failed; none by default. */
  callbackTimeoutMs?: number;
  /** Ids of texts in the store by `textKey`, shared with whoever else stores there: none is stored twice. */
  known?: Map<string, string>;
  calibrate: boolean;
  /** The agent has the recall tool: the index says how to read a text back. */
  recall?: boolean;
}

/** One built request: what to send, its record, and the warnings with their host errors. */
export interface Built {
  request: { system?: unknown; messages: unknown[] };
  record: LedgerRecord;
  warnings: ContextWarning[];
}

/** What an engine is, as JSON data: see `Engine.state`. */
export interface EngineState {
  /** The rules' state, encoded by them (base64): what a snapshot and a session's checkpoint hold. */
  rules?: string;
  /** The journal since `rules` (or since the start): base64 chunks, in order. */
  events?: string[];
  /** Format 1: the rules' calls that made their state, replayed before `events`. */
  log?: LoggedCall[];
  /**
   * Each message as kept, with the texts shown for its parts and the parts written into it;
   * `null`: released. In a state taken whole (`Engine.state`), a run of released ones is
   * their count: its size follows what is live, not the session's age.
   */
  messages: Array<KeptMessage | null | number>;
  /** Each call's id and tool name, in the rules' order; a count: that many calls let go (folded away). */
  calls: Array<[string, string] | number>;
  summary: string;
  tail: string;
  ledger: LedgerRecord[];
  /** How many records came before `ledger[0]` (a snapshot keeps the last few). */
  ledgerFrom?: number;
  /** The index line of each text the engine stored, by store id (absent in snapshots written before the index). */
  lines?: Record<string, string>;
}

/** Records a snapshot or a checkpoint keeps: the last, for `recordUsage`, and a few before it. */
const LEDGER_KEPT = 8;

/**
 * What changed in an engine since the last `changes()`, as JSON data: a session writes one
 * per call, and the states they fold into (`foldChanges`) are the engine's, call by call.
 */
export interface EngineChanges {
  /** The journal's chunks of this call (format 2), as base64: one, unless a snapshot took one on the way. */
  events?: string[];
  /** Format 1: the rules' calls of this call. */
  log?: LoggedCall[];
  /** Messages new or changed, by index (`null`: released). */
  messages: Array<[number, KeptMessage | null]>;
  calls: Array<[string, string]>;
  summary?: string;
  tail?: string;
  /** Records from this index on replace the ledger's (`recordUsage` fills in the last one). */
  ledgerFrom: number;
  ledger: LedgerRecord[];
  /** Index lines of the texts stored since, `[id, line]`. */
  lines?: Array<[string, string]>;
}

/**
 * The state `list` makes, each from the state the one before it left, from a new engine. A
 * session with a checkpoint restores it, then applies the rows after it (`Engine.apply`).
 */
export function foldChanges(list: Iterable<EngineChanges>): EngineState {
  const state: EngineState = { messages: [], calls: [], summary: '', tail: '', ledger: [] };
  const messages = state.messages as Array<KeptMessage | null>;
  for (const c of list) {
    // Rows of format 1 come before any of format 2: a session is only ever upgraded.
    if (c.log?.length) (state.log ??= []).push(...c.log);
    if (c.events?.length) (state.events ??= []).push(...c.events);
    for (const [i, m] of c.messages) messages[i] = m;
    for (const call of c.calls) state.calls.push(call);
    if (c.summary !== undefined) state.summary = c.summary;
    if (c.tail !== undefined) state.tail = c.tail;
    state.ledger.length = Math.max(0, c.ledgerFrom);
    for (const r of c.ledger) state.ledger.push(r);
    for (const [id, line] of c.lines ?? []) (state.lines ??= {})[id] = line;
  }
  return state;
}

/** `list` with each run of items that are `gone` as its count. */
function collapse<T>(list: readonly T[], gone: (item: T) => boolean): Array<T | number> {
  const out: Array<T | number> = [];
  for (const item of list) {
    if (!gone(item)) out.push(item);
    else if (typeof out[out.length - 1] === 'number') (out[out.length - 1] as number)++;
    else out.push(1);
  }
  return out;
}

/**
 * How many entries `list` stands for (a count, that many), checked to be `length`, the
 * rules' own: a count altered to a billion is refused before anything is made of it.
 */
function entries(list: ReadonlyArray<unknown>, length: number, field: string): number {
  let total = 0;
  for (const item of list) total += typeof item === 'number' ? item : 1;
  if (total !== length) throw argumentError(TypeError, field, `holds ${total} entries, but the rules' state has ${length}: it was altered`);
  return total;
}

export class Engine {
  readonly core: InstanceType<typeof rules.ManagerCore>;
  /** The journal's chunks taken so far (base64), in order: the state, as events. */
  #chunks: string[] = [];
  /** What the rules were made with: a snapshot is restored only into an engine made the same. */
  readonly config: string;
  readonly #o: EngineOptions;
  readonly #counterName: string;
  #messages: Kept[] = [];
  /** Messages before this one are released (`#release`). */
  #released = 0;
  /** Call ids and tool names by the rules' call index, and each id's index. */
  #callIds: string[] = [];
  #callNames: string[] = [];
  #callIndex = new Map<string, number>();
  /** Calls before this one are let go (`#forgetCalls`). */
  #forgotten = 0;
  #summary = '';
  #tail = '';
  /** The index line of each text stored, by store id, in the order stored. */
  #lines = new Map<string, string>();
  /** The request last built, for a summarizer that reads its prefix from the cache. */
  #lastRequest: { system?: unknown; messages: unknown[] } | undefined = undefined;
  /** The index as last written, and the frame of ids it was written from. */
  #index = { ids: '', text: '' };
  /** Committed records, oldest first (those since the state it was restored from). */
  readonly records: LedgerRecord[] = [];
  /** How many records came before `records[0]`. */
  #ledgerBase = 0;
  /** While a journal is open: how to take back what changed, newest last. */
  #undo: Array<() => void> | null = null;
  /**
   * Texts stored by a build that was then rolled back: a store cannot take them back, so
   * the retry reuses their ids instead of storing them twice. Cleared on commit.
   */
  #storedBefore = new Map<string, { raw: string; id: string }>();
  /** Parts shown anew by the open build, `[message, part]`: baked into their messages on commit. */
  #shownNow: Array<[number, number]> = [];
  /** Messages changed since the last `changes()`; what of the rest `changes()` has given. */
  #dirty = new Set<number>();
  #given = { log: 0, calls: 0, ledger: 0, summary: '', tail: '', lines: 0 };

  constructor(o: EngineOptions) {
    this.#o = o;
    this.#counterName = o.counter ? o.counter.name || 'custom' : 'length/4';
    const framing = o.adapter.framing.message;
    const systemTokens = (o.system ? count(o.counter, o.system, 'options.system') + framing : 0) + (o.adapter.framing.request ?? 0);
    const pinnedTokens = o.pinned.reduce((n, p, i) => n + count(o.counter, p, `options.pinned[${i}]`) + framing, 0);
    const [names, lens] = joinTexts(o.options.names);
    this.core = checked(() => new rules.ManagerCore(o.field, o.budget, names, lens, o.options.values, systemTokens, pinnedTokens));
    // Options added later are left out while unset, so a config key stays what it was.
    const shares = Array.from(o.options.values);
    while (shares.length > 5 && Number.isNaN(shares[shares.length - 1])) shares.pop();
    const key: unknown[] = [o.budget, shares, systemTokens, pinnedTokens, o.cacheControl];
    if (o.recall) key.push('recall');
    this.config = textKey(JSON.stringify(key));
  }

  /** The engine between builds, as JSON data of its own: what `restore` makes the same engine from. */
  state(): EngineState {
    // Runs of released messages and of calls let go as their counts.
    const messages = collapse(this.#messages.map((_, i) => this.#kept(i)), (m) => m === null);
    const calls = collapse(this.#callIds.map((id, c): [string, string] => [id, this.#callNames[c]]), ([id, name]) => id === '' && name === '');
    const ledger = this.records.slice(-LEDGER_KEPT);
    // The rules' state, not the journal that made it: what it costs is its size, not its age.
    const state: EngineState = {
      rules: encodeBase64(this.core.state()), messages, calls, summary: this.#summary, tail: this.#tail, ledger, ledgerFrom: this.requestCount - ledger.length,
    };
    // The lines the index will need: those it names, and those of the parts still shown.
    const needed = frameTexts(this.core.needed_lines()).filter((id) => this.#lines.has(id));
    if (needed.length) state.lines = Object.fromEntries(needed.map((id) => [id, this.#lines.get(id) as string]));
    // A copy through JSON: the caller's snapshot shares nothing with the engine. (Not
    // through the canonical JSON: a message's keys stay in the host's order, as sent.)
    return JSON.parse(JSON.stringify(state)) as EngineState;
  }

  /** Requests built so far, the records before the state it was restored from included. */
  get requestCount(): number {
    return this.#ledgerBase + this.records.length;
  }

  #kept(i: number): KeptMessage | null {
    const m = this.#messages[i];
    if (m === RELEASED) return null;
    const { adapter } = this.#o;
    const kept: KeptMessage = { source: adapter.plain ? adapter.plain(m.source, `messages[${i}]`) : m.source };
    m.display?.forEach((text, k) => {
      if (typeof text === 'string' && !m.parts[k].baked) (kept.shown ??= {})[k] = text;
    });
    const baked = m.parts.flatMap((p, k) => (p.baked ? [k] : []));
    if (baked.length) kept.baked = baked;
    return kept;
  }

  /**
   * What changed since the last call (or since `restore`), as JSON data of its own, taken
   * between builds. Folded after the states before it (`foldChanges`), it gives `state()`.
   */
  changes(): EngineChanges {
    const given = this.#given;
    const messages: EngineChanges['messages'] = [];
    for (const i of [...this.#dirty].sort((a, b) => a - b)) if (i < this.#messages.length) messages.push([i, this.#kept(i)]);
    const chunks = this.#journal();
    const ledgerFrom = Math.min(given.ledger, this.requestCount);
    const changes: EngineChanges = {
      messages,
      calls: this.#callIds.slice(given.calls).map((id, c): [string, string] => [id, this.#callNames[given.calls + c]]),
      ledgerFrom,
      ledger: this.records.slice(Math.max(0, ledgerFrom - this.#ledgerBase)),
    };
    if (this.#summary !== given.summary) changes.summary = this.#summary;
    if (this.#tail !== given.tail) changes.tail = this.#tail;
    if (this.#lines.size > given.lines) changes.lines = [...this.#lines].slice(given.lines);
    if (chunks.length > given.log) changes.events = chunks.slice(given.log);
    this.#dirty.clear();
    this.#given = { log: this.#chunks.length, calls: this.#callIds.length, ledger: this.requestCount, summary: this.#summary, tail: this.#tail, lines: this.#lines.size };
    return JSON.parse(JSON.stringify(changes)) as EngineChanges;
  }

  /**
   * Makes this new engine the one `state` was taken from: the rules' calls replayed (no
   * host is asked anything), each message read again by the adapter. `state` was checked
   * by the caller for its shape; `field` names it in errors.
   */
  restore(state: EngineState, field: string): void {
    if (state.rules !== undefined) {
      let bytes: Uint8Array;
      try {
        bytes = decodeBase64(state.rules);
      } catch {
        throw argumentError(TypeError, `${field}.rules`, 'is not base64: it was altered');
      }
      checked(() => this.core.restore_state(bytes, `${field}.rules`));
    }
    this.#ledgerBase = state.ledgerFrom ?? 0;
    this.#replay(state.log, state.events ?? [], field);
    // Released messages are made once, by count; the kept ones are read by the adapter.
    const messages: Array<[number, KeptMessage]> = [];
    let n = entries(state.messages, this.core.message_count, `${field}.messages`);
    this.#messages = new Array<Kept>(n).fill(RELEASED);
    n = 0;
    for (const m of state.messages) {
      if (typeof m === 'number') n += m;
      else if (m === null) n++;
      else messages.push([n++, m]);
    }
    entries(state.calls, this.core.call_count, `${field}.calls`);
    const calls: Array<[string, string]> = [];
    for (const c of state.calls) {
      if (typeof c !== 'number') calls.push(c);
      else for (let k = 0; k < c; k++) calls.push(['', '']);
    }
    this.apply({ ...state, log: undefined, events: undefined, messages, calls, ledgerFrom: 0, lines: Object.entries(state.lines ?? {}) }, field);
    this.verify(field);
  }

  /**
   * Checks the messages and calls this engine holds against the rules' own, once they are
   * made again from stored data: each message the rules keep is here, of the same role
   * and parts, with the same call ids, and each they let go is released. Stored data
   * altered in a way each half accepts alone is refused here, naming it, not sent.
   */
  verify(field: string): void {
    const n = this.core.message_count;
    if (this.#messages.length !== n) throw argumentError(TypeError, `${field}.messages`, `holds ${this.#messages.length} messages, but the rules' state has ${n}: it was altered`);
    const shapes = this.core.shapes();
    const altered = (at: string, what: string) => argumentError(TypeError, `${field}.${at}`, `${what}: it was altered`);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const m = this.#messages[i];
      if (at >= shapes.length || shapes[at] !== i) {
        if (m !== RELEASED) throw altered(`messages[${i}]`, m === undefined ? 'is missing' : 'is kept, but the rules folded it away');
        continue;
      }
      const [role, count] = [shapes[at + 1], shapes[at + 2]];
      at += 3;
      if (m === undefined) throw altered(`messages[${i}]`, 'is missing');
      if (m === RELEASED) throw altered(`messages[${i}]`, 'is released, but the rules keep it');
      if (m.role !== role || m.parts.length !== count) throw altered(`messages[${i}]`, `is not the message the rules hold (role ${role}, ${count} parts)`);
      for (let k = 0; k < count; k++, at += 2) {
        const [kind, call] = [shapes[at], shapes[at + 1]];
        const p = m.parts[k];
        if (p.kind !== kind) throw altered(`messages[${i}].source`, `part ${k} is not of the kind the rules hold`);
        const id = call > 0 ? this.#callIds[call - 1] : undefined;
        if (id && p.id !== undefined && p.id !== id) throw altered(`calls[${call - 1}]`, `is not the call of messages[${i}] part ${k}`);
      }
    }
  }

  /**
   * The rules' state made again: format 1's calls, then the journal's chunks, each checked
   * whole by the rules before it is applied. What format 1 makes is journaled as events.
   */
  #replay(log: LoggedCall[] | undefined, events: readonly string[], field: string): void {
    if (log?.length) {
      checked(() => replayV1(this.core, log, field));
      this.#journal();
    }
    checked(() => applyJournal(this.core, events, field));
    this.#chunks.push(...events);
  }

  /** The journal's chunks so far, the events of the calls since the last taken first. */
  #journal(): string[] {
    const chunk = takeJournal(this.core);
    if (chunk !== undefined) this.#chunks.push(chunk);
    return this.#chunks;
  }


  /**
   * Brings this engine, between builds, to where `changes` (given by another engine that
   * was where this one is) left that one: a session catching up with what other workers
   * wrote. An engine it fails on is left half-changed, to be made anew.
   */
  apply(changes: EngineChanges, field: string): void {
    this.applyAll([changes], field, () => field);
  }

  /**
   * Several calls' changes, in order, as `apply` each: the rules take all their events in
   * one pass. `field` names them together, `fieldOf(i)` the `i`-th.
   */
  applyAll(list: readonly EngineChanges[], field: string, fieldOf: (i: number) => string): void {
    const { adapter } = this.#o;
    const kept = list.map((changes, r) => changes.messages.map(([i, m]): [number, Kept] => {
      if (m === null) return [i, RELEASED];
      const at = `${fieldOf(r)}.messages[${i}]`;
      const source = adapter.revive && m.source !== null && typeof m.source === 'object' ? adapter.revive(m.source) : m.source;
      const k = new Kept(adapter.read(source, `${at}.source`));
      const part = (n: number, key: string) => {
        if (n >= k.parts.length) throw argumentError(RangeError, `${at}.${key}`, `names part ${n} of a message of ${k.parts.length}`);
        return n;
      };
      for (const [n, text] of Object.entries(m.shown ?? {})) (k.display ??= [])[part(Number(n), 'shown')] = text;
      for (const n of m.baked ?? []) k.parts[part(n, 'baked')] = { ...k.parts[n], baked: true };
      return [i, k];
    }));
    if (list.some((c) => c.log !== undefined || c.events !== undefined)) {
      const log = list.flatMap((c) => c.log ?? []);
      this.#replay(log.length ? log : undefined, list.flatMap((c) => c.events ?? []), field);
    }
    list.forEach((changes, r) => {
      for (const [i, k] of kept[r]) this.#messages[i] = k;
      for (const [id, name] of changes.calls) {
        if (id !== '') this.#callIndex.set(id, this.#callIds.length);
        this.#callIds.push(id);
        this.#callNames.push(name);
      }
      if (changes.summary !== undefined) this.#summary = changes.summary;
      if (changes.tail !== undefined) this.#tail = changes.tail;
      this.records.length = Math.max(0, changes.ledgerFrom - this.#ledgerBase);
      this.records.push(...changes.ledger);
      for (const [id, line] of changes.lines ?? []) this.#lines.set(id, line);
    });
    this.#released = this.core.first_live;
    this.#forgetCalls();
    this.#dirty.clear();
    this.#given = { log: this.#chunks.length, calls: this.#callIds.length, ledger: this.requestCount, summary: this.#summary, tail: this.#tail, lines: this.#lines.size };
  }

  /** Opens a journal: `rollback()` takes back everything until `commit()`. */
  begin(): void {
    checked(() => this.core.begin());
    this.#undo = [];
    this.#shownNow = [];
  }

  commit(record?: LedgerRecord): void {
    checked(() => this.core.commit());
    this.#undo = null;
    this.#storedBefore.clear();
    this.#bake();
    this.#release();
    if (record) this.records.push(record);
  }

  rollback(): void {
    this.core.rollback();
    const undo = this.#undo ?? [];
    for (let i = undo.length - 1; i >= 0; i--) undo[i]();
    this.#undo = null;
    this.#shownNow = [];
  }

  /**
   * A part stored whole and shown as a placeholder or a cut is written into its message,
   * and its raw text let go: memory holds what the next request needs, and the store the
   * rest. Only after a commit, since a rollback may show the part whole again.
   */
  #bake(): void {
    const byMessage = new Map<number, number[]>();
    for (const [i, k] of this.#shownNow) {
      const m = this.#messages[i];
      if (!m || typeof m.display?.[k] !== 'string' || this.core.store_id(i, k) === undefined) continue;
      const parts = byMessage.get(i) ?? [];
      parts.push(k);
      byMessage.set(i, parts);
    }
    this.#shownNow = [];
    for (const [i, ks] of byMessage) {
      const m = this.#messages[i];
      const display = m.display as string[];
      for (const k of ks) display[k] = detached(display[k]);
      const shown = m.parts.map((_, k) => (ks.includes(k) ? display[k] : undefined));
      m.source = this.#o.adapter.rewrite(m.source, m, shown);
      for (const k of ks) m.parts[k] = { ...m.parts[k], text: display[k], raw: undefined, baked: true };
      this.#dirty.add(i);
      // The parts now say it themselves.
      if (display.every((text, k) => text === undefined || m.parts[k].baked)) m.display = undefined;
    }
  }

  /**
   * Messages behind the summary, or dropped, are never sent or summarized again: their
   * texts go. Their places stay, since the rules number messages from the first.
   */
  #release(): void {
    const live = this.core.first_live;
    const opening = this.core.pins_first;
    for (; this.#released < live; this.#released++) {
      // The opening message is sent in every request (`keepFirstMessage`).
      if (this.#released === 0 && opening) continue;
      this.#messages[this.#released] = RELEASED;
      this.#dirty.add(this.#released);
    }
    this.#forgetCalls();
  }

  /** The calls of messages folded away are let go too: no result can answer them now. */
  #forgetCalls(): void {
    const [ids, names, index, to] = [this.#callIds, this.#callNames, this.#callIndex, this.core.folded_calls];
    let c = this.#forgotten;
    for (; c < to; c++) {
      if (ids[c] === '' && names[c] === '') continue;
      if (index.get(ids[c]) === c) index.delete(ids[c]);
      ids[c] = names[c] = '';
    }
    this.#forgotten = c;
  }

  /** Where texts are stored, and read back from by the recall tool. */
  get store(): Bag {
    return this.#o.store;
  }

  /** The agent has the recall tool (`options.recall`). */
  get recall(): boolean {
    return this.#o.recall === true;
  }

  get callbackTimeoutMs(): number | undefined {
    return this.#o.callbackTimeoutMs;
  }

  /** Tokens of `text` by the host's counter, as a part of a message. */
  count(text: string, field: string): number {
    return count(this.#o.counter, text, field) + this.#o.adapter.framing.part;
  }

  /** The rules' index of the call with id `id`, if the conversation has it. */
  callOf(id: string): number | undefined {
    return this.#callIndex.get(id);
  }

  /** From now on, ids of stored texts go to `known` too, and a text found there is not stored again. */
  remember(known: Map<string, string>): void {
    this.#o.known = known;
  }

  #changed(undo: () => void): void {
    this.#undo?.push(undo);
  }

  /**
   * Appends messages, all or none; `field(i)` names message `i` in errors. A message that
   * does not fit its format, or a result whose call is not in the turn before it, is a
   * TypeError naming its field. Returns the tokens the messages hold, framing aside.
   */
  append(list: readonly unknown[], field: (i: number) => string): number {
    const { adapter, counter } = this.#o;
    const read = list.map((m, i) => adapter.read(m, field(i)));
    const ids = new Map<string, number>();
    let next = this.#callIds.length;
    const roles = new Uint8Array(read.length);
    const framing = new Float64Array(read.length).fill(adapter.framing.message);
    const partCount = new Uint32Array(read.length);
    const kinds: number[] = [];
    const units: number[] = [];
    const tokens: number[] = [];
    const calls: number[] = [];
    let total = 0;
    read.forEach((m, i) => {
      roles[i] = m.role;
      partCount[i] = m.parts.length;
      for (const p of m.parts) {
        kinds.push(p.kind);
        units.push(p.text.length);
        const n = p.tokens ?? count(counter, p.text, `${field(i)}.${p.path}`);
        total += n;
        tokens.push(n + adapter.framing.part);
        if (p.kind === Kind.Call) {
          if (p.id !== undefined) ids.set(p.id, next);
          calls.push(next++);
        } else if (p.kind === Kind.Result) {
          calls.push(p.id === undefined ? -1 : ids.get(p.id) ?? this.#callIndex.get(p.id) ?? -1);
        } else {
          calls.push(-1);
        }
      }
    });
    const refused = this.core.append(roles, framing, partCount, Uint8Array.from(kinds), Uint32Array.from(units), Float64Array.from(tokens), Float64Array.from(calls));
    if (refused.length) {
      const [i, k, code] = refused;
      const part = k >= 0 ? read[i].parts[k] : undefined;
      throw argumentError(TypeError, part ? `${field(i)}.${part.idPath ?? part.path}` : field(i), rules.rejectionWords(code));
    }
    const lengths = [this.#messages.length, this.#callIds.length];
    const added: string[] = [];
    for (const m of read) {
      this.#dirty.add(this.#messages.length);
      this.#messages.push(new Kept(m));
      for (const p of m.parts) {
        if (p.kind !== Kind.Call) continue;
        const n = this.#callIds.length;
        this.#callIds.push(p.id ?? '');
        this.#callNames.push(p.label);
        if (p.id !== undefined) {
          this.#callIndex.set(p.id, n);
          added.push(p.id);
        }
      }
    }
    this.#changed(() => {
      this.#messages.length = lengths[0];
      this.#callIds.length = this.#callNames.length = lengths[1];
      for (const id of added) this.#callIndex.delete(id);
    });
    return total;
  }

  /** The host's text after the conversation (the runner's plan): last, never cut. */
  setTail(text: string): void {
    if (text === this.#tail) return;
    const before = this.#tail;
    this.#changed(() => {
      this.#tail = before;
    });
    this.#tail = text;
    const tokens = text === '' ? 0 : count(this.#o.counter, text, 'plan') + this.#o.adapter.framing.message;
    checked(() => this.core.set_tail(tokens));
  }

  /** The provider's count of the request last built, with its cache figures where it says. */
  observe(figures: { input: number; read?: number; write?: number }): void {
    if (this.#o.calibrate) checked(() => this.core.observe(figures.input));
    const last = this.records[this.records.length - 1];
    if (last) {
      // Its figures change: the next `changes()` gives it again.
      this.#given.ledger = Math.min(this.#given.ledger, this.requestCount - 1);
      if (figures.read !== undefined) last.cache.observedRead = figures.read;
      if (figures.write !== undefined) last.cache.observedWrite = figures.write;
    }
  }

  get calibration(): { overhead: number; ratio: number; samples: number } {
    const [overhead, ratio, samples] = this.core.calibration();
    return { overhead, ratio, samples };
  }

  /** Builds the request as the rules plan it, storing and summarizing as they ask. Opens no journal. */
  async build(started = performance.now()): Promise<Built> {
    const core = this.core;
    const failures = { store: [] as unknown[], summarizer: [] as unknown[] };
    let need = checked(() => core.plan());
    while (need[0] !== Need.Done) {
      const [code, a, b, c, d] = need;
      if (code === Need.Persist) {
        const [id, line] = await this.#persist(a, b, failures.store);
        need = checked(() => core.persisted(id, line));
      } else if (code === Need.PersistSpan) {
        const [id, line] = await this.#persistSpan(a, b, failures.store);
        need = checked(() => core.span_persisted(id, line));
      } else if (code === Need.PersistGroup) {
        const [id, line] = await this.#persistGroup(a, failures.store);
        need = checked(() => core.group_persisted(id, line));
      } else if (code === Need.MergeSpans) {
        const [id, line] = await this.#mergeSpans(a, failures.store);
        need = checked(() => core.spans_merged(id, line));
      } else if (code === Need.Placeholder) {
        const tokens = this.#show(a, b, this.#placeholder(a, b));
        need = checked(() => core.measured(tokens));
      } else if (code === Need.Cut) {
        const tokens = this.#show(a, b, this.#cut(a, b, c, d));
        need = checked(() => core.measured(tokens));
      }
      else if (code === Need.Summarize) need = await this.#summarize(a, b, failures.summarizer);
      else throw Object.assign(new Error(`context engine: unknown step ${code}`), { code: 'ERR_INTERNAL' });
    }
    const hasFixed = this.#o.system !== undefined || this.#o.pinned.length > 0;
    const request = this.#o.adapter.write(this.#plan(checked(() => core.render(hasFixed))));
    const before = this.#lastRequest;
    this.#changed(() => {
      this.#lastRequest = before;
    });
    this.#lastRequest = request;
    const record = JSON.parse(core.ledger(performance.now() - started, this.#counterName)) as LedgerRecord;
    return { request, record, warnings: this.#explain(record, failures) };
  }

  /** Shows part `k` of message `i` as `text`; its tokens. */
  #show(i: number, k: number, text: string): number {
    const m = this.#messages[i];
    const display = (m.display ??= []);
    const before = display[k];
    const part = m.parts[k];
    const baked = part.baked === true;
    this.#changed(() => {
      display[k] = before;
      if (baked) part.baked = true;
    });
    display[k] = text;
    this.#dirty.add(i);
    // A part already written into its message is shown anew over it.
    if (baked) part.baked = false;
    this.#shownNow.push([i, k]);
    return count(this.#o.counter, text, 'placeholder') + this.#o.adapter.framing.part;
  }

  #label(i: number, k: number): string {
    const m = this.#messages[i];
    const p = m.parts[k];
    if (p.label) return p.label;
    if (p.kind === Kind.Result && p.id !== undefined) return this.#callNames[this.#callIndex.get(p.id) ?? -1] ?? 'tool';
    return m.role === Role.Assistant ? 'assistant' : m.role === Role.System ? 'system' : 'user';
  }

  #placeholder(i: number, k: number): string {
    const body = frameText(this.core.placeholder_body(i, k, this.#args(i, k)), [this.core.store_id(i, k) ?? '', this.#label(i, k)]);
    return BODY.placeholder([body]);
  }

  /** The arguments of the call a result answers ('' for any other part). */
  #args(i: number, k: number): string {
    if (this.#messages[i].parts[k].kind !== Kind.Result) return '';
    const [m, c] = this.core.call_of(i, k);
    return m === undefined ? '' : this.#messages[m]?.parts[c]?.text ?? '';
  }

  #cut(i: number, k: number, head: number, tail: number): string {
    const whole = this.#messages[i].parts[k].text;
    const id = this.core.store_id(i, k);
    const tailStart = Math.max(0, whole.length - tail);
    const w = (cutWindow ??= rules.cutWindow());
    const frame = new FrameReader(rules.cutText(whole.length, head, whole.slice(Math.max(0, head - w), head + 1), tail,
      whole.slice(Math.max(0, tailStart - 1), tailStart + w), id !== undefined));
    frame.num();
    frame.num();
    return frame.text([whole, id ?? '']);
  }

  /** Stores part `k` of message `i` whole: its id and its index line's tokens, or nothing when the store failed. */
  async #persist(i: number, k: number, failed: unknown[]): Promise<[string?, number?]> {
    const p = this.#messages[i].parts[k];
    const raw = p.raw ?? p.text;
    const id = await this.#storeText(`message-${i}/part-${k}`, raw, this.#label(i, k), failed);
    if (id === undefined) return [];
    return [id, this.#line(id, this.core.index_body(i, k, raw, this.#args(i, k)), this.#label(i, k))];
  }

  /**
   * Stores the transcript of messages `from..to` for the index: each text whole, outputs
   * stored before read back from the store, so one recall of it gives back the whole span.
   */
  async #persistSpan(from: number, to: number, failed: unknown[]): Promise<[string | undefined, number]> {
    const hosts: Array<string | Promise<string>> = [];
    for (let i = from; i < to; i++) {
      const m = this.#messages[i];
      m.parts.forEach((p, k) => {
        const shown = m.display?.[k];
        const id = this.core.store_id(i, k);
        const whole = p.baked && id !== undefined ? this.#readStored(id).then((t) => t ?? p.text) : p.raw ?? p.text;
        hosts.push(shown === null && p.kind === Kind.Thinking ? '' : whole, this.#label(i, k));
      });
    }
    const text = frameText(this.core.transcript(from, to), await Promise.all(hosts));
    const id = await this.#storeText(`messages-${from}-${to}`, text, 'transcript', failed);
    return id === undefined ? [undefined, NaN] : [id, this.#line(id, this.core.span_body(from, to, text), '')];
  }

  /** Stores the listing of the index's oldest `count` entries, after the listing before them. */
  async #persistGroup(count: number, failed: unknown[]): Promise<[string | undefined, number]> {
    const ids = frameTexts(this.core.grouped_ids(count));
    const frame = new FrameReader(this.core.group_body(count));
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
  async #mergeSpans(count: number, failed: unknown[]): Promise<[string | undefined, number]> {
    const texts = await Promise.all(frameTexts(this.core.merged_ids(count)).map((id) => this.#readStored(id)));
    if (texts.some((t) => t === undefined)) return [undefined, NaN];
    const text = texts.join('\n\n');
    const id = await this.#storeText(`merge-${count}-${text.length}`, text, 'transcript', failed);
    return id === undefined ? [undefined, NaN] : [id, this.#line(id, this.core.merged_body(count, text), '')];
  }

  /** The text stored as `id`, read back, or `undefined` when the store cannot say. */
  async #readStored(id: string): Promise<string | undefined> {
    const store = this.#o.store;
    if (typeof store.getRawToolOutput !== 'function') return undefined;
    try {
      const row = await within(this.#o.callbackTimeoutMs, Promise.resolve(callMethod(store, 'getRawToolOutput', 'store.getRawToolOutput', [id])), 'store.getRawToolOutput') as Bag | undefined;
      return typeof row?.rawContent === 'string' ? row.rawContent : undefined;
    } catch {
      return undefined;
    }
  }

  /** The body of stored text `id` from its frame: kept, and the tokens of its index line. */
  #line(id: string, frame: string, label: string): number {
    return this.#noteLine(id, frameText(frame, [id, label]));
  }

  #noteLine(id: string, body: string): number {
    if (!this.#lines.has(id)) {
      this.#lines.set(id, body);
      this.#changed(() => this.#lines.delete(id));
    }
    return count(this.#o.counter, BODY.line([body]), 'index line') + 1;
  }

  /** What stored text `id` is, in one line (`index::body`). */
  #body(id: string): string {
    return this.#lines.get(id) ?? BODY.unknown([id]);
  }

  /**
   * Stores `raw` (what `key` names in this build), once: its id, or nothing when the store
   * failed. A store that gives no id leaves `key` as the text's name.
   */
  async #storeText(key: string, raw: string, toolName: string, failed: unknown[]): Promise<string | undefined> {
    const earlier = this.#storedBefore.get(key);
    if (earlier && earlier.raw === raw) return earlier.id;
    const textKeyOf = this.#o.known ? textKey(raw) : '';
    const known = this.#o.known?.get(textKeyOf);
    if (known !== undefined) return known;
    try {
      const id = await within(this.#o.callbackTimeoutMs, callMethod(this.#o.store, 'insertRawToolOutput', 'store.insertRawToolOutput', [{
        toolName, rawContent: raw, byteSize: utf8Length(raw), turnAge: 0, capturedAt: Date.now(),
      }]), 'store.insertRawToolOutput');
      const stored = typeof id === 'string' || typeof id === 'number' ? String(id) : key;
      this.#storedBefore.set(key, { raw, id: stored });
      if (stored === String(id)) this.#o.known?.set(textKeyOf, stored);
      return stored;
    } catch (error) {
      failed.push(error);
      return undefined;
    }
  }

  async #summarize(from: number, to: number, failed: unknown[]): Promise<Float64Array> {
    const core = this.core;
    const summarizer = this.#o.summarizer;
    if (!summarizer) return checked(() => core.no_summarizer());
    const hosts = [this.#summary];
    for (let i = from; i < to; i++) {
      const m = this.#messages[i];
      m.parts.forEach((p, k) => {
        const shown = m.display?.[k];
        hosts.push(shown === null ? '' : shown ?? p.text, this.#label(i, k));
      });
    }
    const prompt = frameText(core.summarizer_prompt(from, to), hosts);
    const args: unknown[] = [prompt];
    const last = this.#lastRequest;
    if (last && this.#o.adapter.format !== 'text') {
      // The request as it was sent, then the instruction: its prefix is in the provider's cache.
      const end = this.#messages[to - 1]?.parts.find((p) => p.kind === Kind.Text)?.text ?? '';
      const instruction = frameText(core.summarizer_instruction(from, to), [end.slice(0, 100)]);
      args.push({ ...last, messages: [...last.messages, this.#o.adapter.reminder!(instruction)] });
    }
    let summary: string;
    try {
      const answer = await within(this.#o.summarizerTimeoutMs, Promise.resolve(callMethod(summarizer, 'summarize', 'summarizer.summarize', args)), 'summarizer.summarize', 'summarizerTimeoutMs');
      summary = string('summarizer.summarize()', answer);
      if (rules.isBlank(summary)) throw new TypeError('summarizer.summarize() returned an empty text');
    } catch (error) {
      failed.push(error);
      return checked(() => core.summary_failed());
    }
    // Counted as sent: in the manager's wrapper, with a message's framing.
    const tokens = count(this.#o.counter, ownText(0, summary), 'summarizer.summarize()') + this.#o.adapter.framing.message;
    const need = checked(() => core.summarized(tokens));
    if (core.has_summary && core.first_live === to) {
      const before = this.#summary;
      this.#changed(() => {
        this.#summary = before;
      });
      this.#summary = summary;
    }
    return need;
  }

  /** The rules' plan (`render::Plan::encode`), with the host's texts, read in one pass. */
  #plan(encoded: Float64Array): Plan {
    const cache = this.#o.cacheControl;
    const plan: Plan = {
      system: this.#o.system, pinned: this.#o.pinned, fixedBreakpoint: false, summary: undefined, summaryBreakpoint: false,
      messages: [], summaryAt: 0, tail: this.#tail, leftOut: false,
      unansweredText: ownText(1), leftOutText: ownText(2), cacheControl: cache,
    };
    const messages = this.#messages;
    const [callIds, callNames] = [this.#callIds, this.#callNames];
    let m = RELEASED;
    // Most messages are sent as they are kept (parts written into them count as whole):
    // the kept message is the entry, made a full one only when a part or a call says so.
    type Entry = { source: unknown; neutral: NeutralMessage; shown: Array<string | null | undefined>; breakpoint: boolean; unanswered: Array<{ id: string; name: string }> };
    let entry: Entry | null = null;
    const full = (mark: boolean): Entry => (entry = { source: m.source, neutral: m, shown: WHOLE as Array<undefined>, breakpoint: mark, unanswered: [] });
    readPlan(encoded, {
      fixed: (mark) => {
        plan.fixedBreakpoint = cache && mark;
      },
      summary: (mark) => {
        plan.summaryAt = plan.messages.length;
        plan.summary = [this.core.has_summary ? ownText(0, this.#summary) : '', this.#indexText()].filter(Boolean).join('\n\n');
        plan.summaryBreakpoint = cache && mark;
      },
      leftOut: () => {
        plan.leftOut = true;
        plan.summaryAt = plan.messages.length;
      },
      tail: () => {},
      message: (index, mark) => {
        m = messages[index];
        entry = null;
        plan.messages.push(cache && mark ? full(true) : m);
      },
      part: (k, shown) => {
        if (shown === ShownCode.Whole || m.parts[k].baked) return;
        const e = entry ?? (plan.messages[plan.messages.length - 1] = full(false));
        if (e.shown === WHOLE) e.shown = m.parts.map(() => undefined);
        e.shown[k] = shown === ShownCode.Dropped ? null : m.display?.[k];
      },
      unanswered: (c) => {
        const e = entry ?? (plan.messages[plan.messages.length - 1] = full(false));
        e.unanswered.push({ id: callIds[c], name: callNames[c] });
      },
    });
    // Turns dropped with no summary, but an index: the note opens it, in one message.
    if (plan.leftOut && plan.summary !== undefined && !this.core.has_summary) {
      plan.summary = `${plan.leftOutText}\n\n${plan.summary}`;
      plan.leftOut = false;
    }
    return plan;
  }

  /** The index of the texts folded out of the request, as it carries it after the summary. */
  #indexText(): string {
    const ids = this.core.index_ids();
    if (ids === this.#index.ids) return this.#index.text;
    const lines = frameTexts(ids).map((id) => BODY.line([this.#body(id)]));
    const text = lines.length ? [frameText(rules.indexHeader(this.#o.recall === true), []), ...lines].join('\n') : '';
    this.#index = { ids, text };
    return text;
  }

  /** The record's warnings, each with the host error behind it. */
  #explain(record: LedgerRecord, failures: { store: unknown[]; summarizer: unknown[] }): ContextWarning[] {
    const queue: Record<string, unknown[]> = { 'store-failed': failures.store, 'summarizer-failed': failures.summarizer };
    return record.warnings.map((w) => {
      const warning: ContextWarning = { request: record.request, code: w.code, message: w.message };
      const errors = queue[w.code];
      if (errors?.length) {
        warning.error = errors[errors.length - 1];
        warning.message = w.message = `${w.message} (${errorText(warning.error)})`;
      }
      return warning;
    });
  }
}
