// The engine behind `ContextManager` and `AgentRunner`'s `bounded` option: one pipeline.
// The rules decide what each request holds (`devs_context_rules::context`); the engine
// holds the host's side of it, one concern a module: the messages (`history.ts`), the
// texts stored and their index lines (`texts.ts`), a build's needs (`build.ts`) and the
// request written from the plan (`render.ts`, `plan.ts`), its state as JSON data
// (`state.ts`) and the rules' journal (`journal.ts`). Everything it changes between
// `begin()` and `commit()` is taken back by `rollback()` (`undo.ts`, and the rules' own).
import type { CalibrationFigures } from './types.js';
import { argumentError, checked } from '../errors/index.js';
import { frameTexts } from '../core/frame.js';
import { OTHER_COUNTS, OTHER_MARKS, OUT_OF_PLACE, applyJournal, journalChunk, oldEvents, orNone, replayRecorded, replayV1, takeJournal, type LoggedCall } from './journal.js';
import { decodeBase64, encodeBase64 } from '../core/base64.js';
import { joinTexts, type Bag } from '../core/read.js';
import { count } from '../tokens/count.js';
import { rules } from '../core/wasm.js';
import { build, Held, type Building, type Built, type EngineOptions, type Request } from './build.js';
import type { BuildTrace, TelemetryFault } from './tracing.js';
import { committed, give, History, OTHER_PARTS, RELEASED, statusOf, type Kept } from './history.js';
import { ownText } from './render.js';
import { BODY } from './texts.js';
import { collapse, entries, LEDGER_KEPT, type EngineChanges, type EngineState } from './state.js';
import { StoredTexts } from './texts.js';
import { Undo } from './undo.js';
import { splitWorking } from './working.js';
import { measureMedia } from './media.js';
import { adopt, watch } from '../core/host.js';
import type { NeutralPart } from '../providers/neutral.js';
import type { KeptMessage, LedgerRecord } from './types.js';
import { RULE_DECISIONS } from '../core/protocol.js';

export type { Built, EngineOptions } from './build.js';
export { foldChanges, type EngineChanges, type EngineState } from './state.js';
export type { KeptMessage };

export class Engine {
  readonly core: InstanceType<typeof rules.ManagerCore>;
  /**
   * The journal's chunks taken so far (base64), in order: the state, as events. Taken at
   * every commit and every change between builds, so that they always hold what was
   * committed: what the rules are made again from after a trap (`recover`).
   */
  #chunks: string[] = [];
  /** The rules' state this engine was restored from, if any: the chunks follow it. */
  #base: Uint8Array | undefined;
  /** How the rules were made: made again the same after a trap. */
  readonly #made: ConstructorParameters<typeof rules.ManagerCore>;
  /** A build is open (`begin` to `commit` or `rollback`). */
  #building_ = false;
  /** The rules were made again while a build was open: its rollback has nothing of theirs to undo. */
  #interrupted = false;
  /** What the rules were made with: a snapshot is restored only into an engine made the same. */
  readonly config: string;
  readonly #o: EngineOptions;
  readonly #undo = new Undo();
  readonly #history: History;
  readonly #texts: StoredTexts;
  readonly #held = new Held();
  /** What a build works on. */
  readonly #building: Building;
  /** Committed records, oldest first (those since the state it was restored from). */
  readonly records: LedgerRecord[] = [];
  /**
   * Telemetry calls that threw where no ledger could say so (a span ended after its build's
   * commit, or a build rolled back): the next build's ledger does (`reportFaults`).
   */
  readonly telemetryFaults: TelemetryFault[] = [];
  /** How many records came before `records[0]`. */
  #ledgerBase = 0;
  /** What of the rest `changes()` has given. */
  #given = { log: 0, calls: 0, ledger: 0, summary: '', tail: '', lines: 0 };

  constructor(o: EngineOptions) {
    this.#o = o;
    const framing = o.adapter.framing.message;
    const systemTokens = (o.system ? count(o.counter, o.system, 'options.system') + framing : 0) + (o.adapter.framing.request ?? 0);
    const pinnedTokens = o.pinned.reduce((n, p, i) => n + count(o.counter, p, `options.pinned[${i}]`) + framing, 0);
    const [names, lens] = joinTexts(o.options.names);
    this.#made = [o.field, o.budget, names, lens, o.options.values, systemTokens, pinnedTokens];
    this.core = checked(() => new rules.ManagerCore(...this.#made));
    watch(this);
    // Which parts are protected is read from the messages by name: restored with other
    // names, the same history would be protected otherwise. The key's bytes are the rules'.
    const [tools, toolLens] = joinTexts(o.protectedTools);
    this.config = rules.configKey(o.budget, o.options.values, systemTokens, pinnedTokens, o.cacheControl, o.recall === true, tools, toolLens);
    this.#history = new History(this.core, o.adapter, o.counter, this.#undo, o.media, new Set(o.protectedTools));
    this.#texts = new StoredTexts(o, this.#history, this.#undo);
    this.#building = {
      core: this.core, o, history: this.#history, texts: this.#texts, held: this.#held, undo: this.#undo,
      counterName: o.counter ? o.counter.name || 'custom' : 'length/4',
    };
  }

  /** The engine between builds, as JSON data of its own: what `restore` makes the same engine from. */
  state(): EngineState {
    const h = this.#history;
    const lines = this.#texts.lines;
    // Runs of released messages and of calls let go as their counts.
    const messages = collapse(h.messages.map((_, i) => h.kept(i)), (m) => m === null);
    const calls = collapse(h.callIds.map((id, c): [string, string] => [id, h.callNames[c]]), ([id, name]) => id === '' && name === '');
    const ledger = this.records.slice(-LEDGER_KEPT);
    // The rules' state, not the journal that made it: what it costs is its size, not its age.
    const state: EngineState = {
      rules: encodeBase64(this.core.state()), messages, calls, summary: this.#held.summary, tail: this.#held.tail, ledger, ledgerFrom: this.requestCount - ledger.length,
      decisions: RULE_DECISIONS,
    };
    // The lines the index will need: those it names, and those of the parts still shown.
    const needed = frameTexts(this.core.needed_lines()).filter((id) => lines.has(id));
    if (needed.length) state.lines = Object.fromEntries(needed.map((id) => [id, lines.get(id) as string]));
    // A copy through JSON: the caller's snapshot shares nothing with the engine. (Not
    // through the canonical JSON: a message's keys stay in the host's order, as sent.)
    return JSON.parse(JSON.stringify(state)) as EngineState;
  }

  /** The bound on every request, in tokens. */
  get budget(): number {
    return this.#o.budget;
  }

  /** The working state the last compaction wrote after the summary ('' before the first): `working.ts`. */
  get workingState(): string {
    return splitWorking(this.#held.summary).section;
  }

  /** Requests built so far, the records before the state it was restored from included. */
  get requestCount(): number {
    return this.#ledgerBase + this.records.length;
  }

  /**
   * What changed since the last call (or since `restore`), as JSON data of its own, taken
   * between builds. Folded after the states before it (`foldChanges`), it gives `state()`.
   */
  changes(): EngineChanges {
    const given = this.#given;
    const h = this.#history;
    const messages: EngineChanges['messages'] = [];
    for (const i of [...h.dirty].sort((a, b) => a - b)) if (i < h.messages.length) messages.push([i, h.kept(i)]);
    const chunks = this.#journal();
    const ledgerFrom = Math.min(given.ledger, this.requestCount);
    const changes: EngineChanges = {
      messages,
      calls: h.callIds.slice(given.calls).map((id, c): [string, string] => [id, h.callNames[given.calls + c]]),
      ledgerFrom,
      ledger: this.records.slice(Math.max(0, ledgerFrom - this.#ledgerBase)),
      decisions: RULE_DECISIONS,
    };
    const { summary, tail } = this.#held;
    if (summary !== given.summary) changes.summary = summary;
    if (tail !== given.tail) changes.tail = tail;
    if (this.#texts.lines.size > given.lines) changes.lines = [...this.#texts.lines].slice(given.lines);
    if (chunks.length > given.log) changes.events = chunks.slice(given.log);
    h.dirty.clear();
    this.#gave();
    return JSON.parse(JSON.stringify(changes)) as EngineChanges;
  }

  /** Everything so far is given: the next `changes()` starts here. */
  #gave(): void {
    const { summary, tail } = this.#held;
    this.#given = { log: this.#chunks.length, calls: this.#history.callIds.length, ledger: this.requestCount, summary, tail, lines: this.#texts.lines.size };
  }

  /**
   * Makes this new engine the one `state` was taken from: the rules' calls replayed (no
   * host is asked anything), each message read again by the adapter. `state` was checked
   * by the caller for its shape; `field` names it in errors. `opened`: data a manager opens
   * as it is (a snapshot, a session with no rows after it), held to what it recorded (`#replay`).
   */
  restore(state: EngineState, field: string, opened = false): void {
    if (state.rules !== undefined) {
      let bytes: Uint8Array;
      try {
        bytes = decodeBase64(state.rules);
      } catch {
        throw argumentError(TypeError, `${field}.rules`, 'is not base64: it was altered');
      }
      checked(() => this.core.restore_state(bytes, `${field}.rules`));
      this.#base = bytes;
    }
    this.#ledgerBase = state.ledgerFrom ?? 0;
    this.#replay(state.log, state.events ?? [], field, opened ? { records: state.ledger, from: this.#ledgerBase, decisions: state.decisions } : undefined);
    // Released messages are made once, by count; the kept ones are read by the adapter.
    const messages: Array<[number, KeptMessage]> = [];
    const status = statusOf(this.core.status());
    let n = entries(state.messages, status.messages, `${field}.messages`);
    this.#history.messages = new Array<Kept>(n).fill(RELEASED);
    n = 0;
    for (const m of state.messages) {
      if (typeof m === 'number') n += m;
      else if (m === null) n++;
      else messages.push([n++, m]);
    }
    entries(state.calls, status.calls, `${field}.calls`);
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
   * made again from stored data (`History.verify`).
   */
  verify(field: string): void {
    this.#history.verify(field);
  }

  /**
   * The rules' state made again: format 1's calls, then the journal's chunks, each checked
   * whole by the rules before it is applied. What format 1 makes is journaled as events.
   * Data opened (`opened`) is held to what it recorded, when earlier rules wrote it: each
   * build to its ledger record (`records[i]`: request `from + i + 1`'s, `decisions` the
   * data's), and its next build to one that version would make (`replayRecorded`).
   */
  #replay(log: LoggedCall[] | undefined, events: readonly string[], field: string, opened?: Opened): void {
    const replay = () => {
      if (log?.length) {
        checked(() => replayV1(this.core, log, field));
        this.#journal();
      }
      checked(() => applyJournal(this.core, events, field));
    };
    if (opened) replayRecorded(this.core, opened.records, opened.from, opened.decisions, field, replay);
    else replay();
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
   * one pass. `field` names them together, `fieldOf(i)` the `i`-th. `opened`: the rows of a
   * session being opened, held to what they recorded (`#replay`), not a catch-up.
   */
  applyAll(list: readonly EngineChanges[], field: string, fieldOf: (i: number) => string, opened = false): void {
    const h = this.#history;
    const kept = list.map((changes, r) => changes.messages.map(([i, m]): [number, Kept] => [i, h.revive(m, `${fieldOf(r)}.messages[${i}]`)]));
    if (list.some((c) => c.log !== undefined || c.events !== undefined)) {
      const log = list.flatMap((c) => c.log ?? []);
      this.#replay(log.length ? log : undefined, list.flatMap((c) => c.events ?? []), field, opened ? openedRows(list) : undefined);
    }
    list.forEach((changes, r) => {
      for (const [i, k] of kept[r]) h.messages[i] = k;
      for (const [id, name] of changes.calls) h.addCall(id, name);
      if (changes.summary !== undefined) this.#held.summary = changes.summary;
      if (changes.tail !== undefined) this.#held.tail = changes.tail;
      this.records.length = Math.max(0, changes.ledgerFrom - this.#ledgerBase);
      this.records.push(...changes.ledger);
      for (const [id, line] of changes.lines ?? []) this.#texts.lines.set(id, line);
    });
    h.resume(statusOf(this.core.status()));
    h.dirty.clear();
    this.#gave();
  }

  /**
   * Whether `error`, met restoring `state`, is data earlier rules wrote that today's cannot
   * replay (`migrate.rs`): the reason to rebuild for, or `undefined` for data altered (or
   * any other error), which is refused.
   */
  static migration(error: unknown, state: EngineState): number | undefined {
    const code = (error as { code?: unknown } | null)?.code;
    const why = code === OUT_OF_PLACE ? 0 : code === OTHER_PARTS ? 1 : code === OTHER_COUNTS ? 2 : code === OTHER_MARKS ? 3 : undefined;
    if (why === undefined) return undefined;
    const { tags, journals } = oldEvents(state.log, state.events ?? []);
    return rules.migratable(state.decisions ?? NaN, tags, journals.joined, journals.lens) ? why : undefined;
  }

  /**
   * Makes this new engine the one old `state` describes, when today's rules cannot replay
   * it (`why`, from `migration`): its kept messages appended as they are now kept, the
   * opening one pinned when it was, its summary, and every text it stored, each its own
   * and named in the index. The next build says so (`format-migrated`).
   */
  migrate(state: EngineState, why: number, field: string): void {
    // The kept messages with their numbers: a run of released ones counts, never spelled out.
    const kept: Array<{ m: KeptMessage; i: number }> = [];
    let n = 0;
    for (const m of state.messages) {
      if (typeof m === 'number') n += m;
      else if (m === null) n++;
      else kept.push({ m, i: n++ });
    }
    const opening = kept.length > 0 && kept[0].i === 0 && (kept.length === 1 ? n > 1 : kept[1].i > 1);
    const adapter = this.#o.adapter;
    const sources = kept.map(({ m }) => (adapter.revive && m.source !== null && typeof m.source === 'object' ? adapter.revive(m.source) : m.source));
    this.append(sources, (k) => `${field}.messages[${kept[k].i}].source`);
    const held = this.#held;
    held.summary = state.summary;
    const summary = state.summary === '' ? 0 : count(this.#o.counter, ownText(0, state.summary), `${field}.summary`) + adapter.framing.message;
    // Every text it stored stays its own: those with a line, and those its log, its
    // journal or its state name (written before lines were, some have none).
    const known = new Map(Object.entries(state.lines ?? {}));
    const named: string[] = [];
    for (const call of state.log ?? []) {
      if (['persisted', 'span_persisted', 'group_persisted', 'spans_merged'].includes(call[0]) && typeof call[1] === 'string') named.push(call[1]);
      if (call[0] === 'recalled' && typeof call[2] === 'string') named.push(call[2]);
    }
    const { journals } = oldEvents(undefined, state.events ?? []);
    named.push(...frameTexts(rules.heldIds(journals.joined, journals.lens, orNone(state.rules))));
    for (const id of named) if (!known.has(id)) known.set(id, BODY.unknown([id]));
    const lines = [...known];
    for (const [id, line] of lines) this.#texts.lines.set(id, line);
    const [ids, lens] = joinTexts(lines.map(([id]) => id));
    const tokens = Float64Array.from(lines, ([, line]) => count(this.#o.counter, BODY.line([line]), 'index line') + 1);
    checked(() => this.core.migrate(opening, summary, ids, lens, tokens, state.decisions ?? 1, why));
    const status = statusOf(this.core.status());
    if (state.tail) this.setTail(state.tail);
    this.#ledgerBase = state.ledgerFrom ?? 0;
    this.records.push(...state.ledger);
    this.#history.release(status);
    this.#history.dirty.clear();
    this.#journal();
    this.#gave();
  }

  /** Opens a journal: `rollback()` takes back everything until `commit()`. */
  begin(): void {
    give(this.core, { kind: 'Begin' });
    this.#building_ = true;
    this.#undo.open();
    this.#history.shownNow = [];
  }

  /** Ends the build; `request` is the one it rendered, held from now on (a summary asked after it is asked as a follow-up of it). */
  commit(record?: LedgerRecord, request?: Request): void {
    // What every build reads after it comes in the commit's one crossing.
    const shown = this.#history.shownNow;
    const { status, stored, journal } = committed(checked(() => this.core.commit(Uint32Array.from(shown.flat()), true)), shown.length);
    this.#building_ = false;
    const chunk = journalChunk(journal);
    if (chunk !== undefined) this.#chunks.push(chunk);
    this.#undo.close();
    this.#texts.storedBefore.clear();
    this.#held.answered.clear();
    this.#history.bake(stored);
    this.#history.said();
    // Held only now: a build that fails leaves the last one held, with nothing to put back.
    if (request) this.#held.lastRequest = request;
    this.#history.release(status);
    if (record) this.records.push(record);
  }

  rollback(): void {
    // Rules made again after a trap hold only what was committed: nothing to take back.
    if (!this.#interrupted) this.core.rollback();
    this.#building_ = this.#interrupted = false;
    this.#undo.rollback();
    this.#history.shownNow = [];
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

  /** Measures one image or document part as an append would (`media.ts`): its tokens and size. */
  measure(part: NeutralPart): void {
    measureMedia([{ part, field: 'recall' }], this.#o.media);
  }

  /** Tokens of `text` by the host's counter, as a part of a message. */
  count(text: string, field: string): number {
    return count(this.#o.counter, text, field) + this.#o.adapter.framing.part;
  }

  /**
   * The rules' index of the call with id `id`, if the conversation has it. A call with no id
   * (Gemini's may have none) is the one of `name`'s the rules say is still open.
   */
  callOf(id: string, name?: string): number | undefined {
    if (id !== '' || name === undefined) return this.#history.callIndex.get(id);
    const h = this.#history;
    const offered = h.callsNamed(name, this.core.open_from()).filter((c) => h.callIds[c] === '');
    const call = this.core.open_recall(Uint32Array.from(offered));
    return call < 0 ? undefined : call;
  }

  /** From now on, ids of stored texts go to `known` too, and a text found there is not stored again. */
  remember(known: Map<string, string>): void {
    this.#o.known = known;
  }

  /**
   * Appends messages, all or none; `field(i)` names message `i` in errors. A message that
   * does not fit its format, or a result whose call is not in the turn before it, is a
   * TypeError naming its field. Returns the tokens the messages hold, framing aside.
   */
  append(list: readonly unknown[], field: (i: number) => string): number {
    const tokens = this.#history.append(list, field);
    // The rules took the journal with the append, outside a build.
    if (!this.#building_) {
      const chunk = journalChunk(this.#history.taken);
      if (chunk !== undefined) this.#chunks.push(chunk);
    }
    return tokens;
  }

  /**
   * @internal After a trap (`core/guard.ts`): the rules made again in the live instance
   * from what was committed (the state restored from, then every chunk taken since), and
   * moved into this engine's own object, which its history, texts and builds hold.
   */
  recover(): void {
    const fresh = new rules.ManagerCore(...this.#made);
    try {
      if (this.#base) fresh.restore_state(this.#base, 'recovery.rules');
      applyJournal(fresh, this.#chunks, 'recovery');
    } catch (error) {
      fresh.free();
      throw error;
    }
    adopt(this.core, fresh);
    this.#interrupted = this.#building_;
  }

  /** The host's text after the conversation (the runner's plan): last, never cut. */
  setTail(text: string): void {
    const held = this.#held;
    if (text === held.tail) return;
    const before = held.tail;
    this.#undo.push(() => {
      held.tail = before;
    });
    held.tail = text;
    const tokens = text === '' ? 0 : count(this.#o.counter, text, 'plan') + this.#o.adapter.framing.message;
    give(this.core, { kind: 'Tail', tokens });
    if (!this.#building_) this.#journal();
  }

  /** The provider's count of the request last built, with its cache figures where it says. */
  observe(figures: { input: number; read?: number; write?: number }): void {
    if (this.#o.calibrate) give(this.core, { kind: 'Observed', tokens: figures.input });
    if (!this.#building_) this.#journal();
    const last = this.records[this.records.length - 1];
    if (last) {
      // Its figures change: the next `changes()` gives it again.
      this.#given.ledger = Math.min(this.#given.ledger, this.requestCount - 1);
      if (figures.read !== undefined) last.cache.observedRead = figures.read;
      if (figures.write !== undefined) last.cache.observedWrite = figures.write;
    }
  }

  get calibration(): CalibrationFigures {
    const { overhead, ratio, samples, mediaRatio } = statusOf(this.core.status()).calibration;
    return { overhead, ratio, mediaRatio, samples };
  }

  /**
   * Builds the request as the rules plan it, storing and summarizing as they ask. Opens no
   * journal. `instructions`: the host's, for this build's summaries (`beforeCompaction`);
   * `trace`: the build's compaction span, whose child each summarizer call is.
   */
  build(started = performance.now(), instructions?: string, trace?: BuildTrace): Promise<Built> {
    return build(this.#building, started, instructions, trace);
  }
}

/** Data being opened, as `#replay` holds it to what it recorded. */
interface Opened {
  records: readonly LedgerRecord[];
  /** How many requests came before `records[0]`. */
  from: number;
  decisions: number | undefined;
}

/** Rows of a session being opened: each call's records by request number, the rows as old as the oldest of them. */
function openedRows(list: readonly EngineChanges[]): Opened {
  const from = Math.min(...list.map((c) => c.ledgerFrom));
  const records: LedgerRecord[] = [];
  for (const c of list) c.ledger.forEach((r, i) => (records[c.ledgerFrom - from + i] = r));
  return { records, from, decisions: Math.min(...list.map((c) => c.decisions ?? 1)) };
}

/**
 * `state` restored into a new engine (`make()`), or, for data earlier rules wrote that
 * today's cannot replay, rebuilt once in another (`Engine.migrate`). Data altered is
 * refused: its error is thrown, naming where.
 */
export function restored(make: () => Engine, state: EngineState, field: string, then?: (engine: Engine) => void): Engine {
  const engine = make();
  try {
    engine.restore(state, field, true);
    then?.(engine);
    return engine;
  } catch (error) {
    engine.core.free();
    const why = Engine.migration(error, state);
    if (why === undefined) throw error;
    const fresh = make();
    try {
      fresh.migrate(state, why, field);
    } catch (failed) {
      fresh.core.free();
      throw failed;
    }
    return fresh;
  }
}
