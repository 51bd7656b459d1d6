// A `ContextManager` written ahead into a store: every call's changes are one row,
// written before the call returns, so a process killed at any point resumes at its last
// acknowledged call. The rules stay in memory; the store holds what replays them
// (`Engine.changes`, `foldChanges`), the texts stored whole, and each summary the moment
// it is paid for, so a resumed session never asks for it again.
import type { CalibrationFigures, BuildOptions } from '../types.js';
import { Engine, foldChanges, type EngineState } from '../engine.js';
import { withChanges } from '../state.js';
import { give } from '../history.js';
import { buildTime } from '../clock.js';
import { ReentrantCallError, SessionConflictError, argumentError, coded, errorText, hasCode } from '../../errors/index.js';
import { buildOnce, engineOptions, managerParts, recallToolOf } from '../kernel.js';
import { readOptions, recallAnswer, recallText } from '../recall.js';
import { validateToolOutputEntry } from '../../stores/entry.js';
import { callMethod, holder, isObject, method, object, optionalBoolean, string, type Bag } from '../../core/read.js';
import { turnScope } from '../../core/wasm.js';
import { within } from '../../core/timeout.js';
import type { AppendExtraOf, ContextBuild, ContextFormat, ContextSessionOptions, ContextSnapshot, LedgerRecord, RecallAnswerOf, RecallOptions, RecallToolOf } from '../types.js';
import type { SessionCommit, SessionOutput, SessionRows, ToolOutputEntry } from '../../stores/types.js';
import { readSnapshot, toSnapshot } from '../snapshot.js';
import { checkedStart, ownerId, promptKey, readChanges, sameCall } from './rows.js';
import { fitsText } from '../../core/exact-text.js';
import { Queue } from '../../core/queue.js';
import { LONG, StoredOnce, readStored, type AddText } from './stored-once.js';
import { utf8Length } from '../../core/runtime.js';
import { Spacing } from './spacing.js';

/**
 * A claim lapses this long after its holder last renewed it; a live holder renews it
 * three times as often, so only a dead (or long-stalled) one loses it.
 */
const CLAIM_TTL_MS = 5_000;
/** How often a worker waiting for another's summary looks for it. */
const CLAIM_POLL_MS = 25;

/** Times a shared session's call starts over when another worker wrote first. */
const SHARED_ATTEMPTS = 20;

/** Sessions open in this process, per store: a second `open` of one is a conflict. */
const OPEN = new WeakMap<object, Set<string>>();

/**
 * A `ContextManager` kept in a store (`ContextManager.open`): `append`, `build` and
 * `recordUsage` each resolve once the call is written, in one transaction, so what they
 * acknowledged survives the process being killed. Open the session again, here or in
 * another process, and the next `build()` is the one this one would have given.
 * Calls run one at a time, in call order. A call whose write fails rejects and leaves the
 * session as it was: the next call reads it back from the store first.
 * @example
 * import { ContextManager } from '@devs/context';
 * import { SqliteStateRepository } from '@devs/context/sqlite';
 *
 * const store = new SqliteStateRepository('state.sqlite');
 * const options = { sessionId: 'task-7', store, format: 'anthropic', budget: 100_000 } as const;
 * const context = await ContextManager.open(options);
 * await context.append({ role: 'user', content: 'Fix the flaky test' });
 * const first = await context.build();
 * await context.close(); // or the process is killed here
 *
 * const resumed = await ContextManager.open(options);
 * const again = await resumed.build();
 * console.log(resumed.version, again.tokens === first.tokens); // 3 true
 * await resumed.close();
 */
export class ContextSession<Message = unknown, Format extends ContextFormat = ContextFormat> {
  /** The session's name in the store. */
  readonly sessionId: string;
  readonly #store: Bag;
  readonly #parts: ReturnType<typeof managerParts>;
  readonly #summarizer: Bag | undefined;
  #engine: Engine | null = null;
  #version = 0;
  /** Texts stored by committed calls. */
  #outputs = 0;
  /** Texts the engine stored since the last commit: written with the next one. */
  #pending: SessionOutput[] = [];
  /** A write failed: the state is read back from the store before the next call. */
  #stale = false;
  /** Rebuilt from rows earlier rules wrote (`Engine.migrate`): the next call's row carries a checkpoint. */
  #checkpointNext = false;
  /** The last write failed without saying whether it landed: what it wrote, to find it in the store. */
  #unsure: { version: number; changes: string; outputs: number } | null = null;
  /** A shared session's append that failed: its text and id, for a retry to reuse. */
  #unsureAppend: { text: string; id: string } | null = null;
  /** That write had landed: the changes the next call must make to be taken as it. */
  #landed: string | null = null;
  /** Another worker moved the session on, or it was closed: every call rejects with this. */
  #lost: Error | null = null;
  /** Its calls, one after another. */
  readonly #calls = new Queue();
  /** Summaries paid for that the store could not keep yet (it was down): never asked for again here. */
  readonly #paid = new Map<string, string>();
  /** Long strings of its rows and checkpoints, stored once (ADR 0011). */
  #once: StoredOnce | null = null;
  /** When the next checkpoint is due. */
  readonly #spacing = new Spacing();
  /** Who this manager is in a summary's claim. */
  readonly #owner = ownerId();
  #summarizerTimeoutMs = 0;
  /** Workers in several processes append to it (`options.shared`). */
  readonly #shared: boolean;

  private constructor(opts: Bag, store: Bag, sessionId: string) {
    this.sessionId = sessionId;
    this.#store = store;
    this.#parts = managerParts(opts);
    this.#shared = optionalBoolean('options.shared', opts.shared) === true;
    this.#summarizer = opts.summarizer === undefined ? undefined : holder('options.summarizer', opts.summarizer, ['summarize']);
  }

  /** @internal `ContextManager.open`. */
  static async open<M, F extends ContextFormat>(options: ContextSessionOptions & { format: F }): Promise<ContextSession<M, F>> {
    const opts = object('options', options);
    const sessionId = string('options.sessionId', opts.sessionId);
    if (sessionId === '' || sessionId.length > 1024 || !fitsText(sessionId, false)) {
      throw argumentError(TypeError, 'options.sessionId', 'must be a non-empty string of at most 1024 characters, with no NUL and no lone surrogate (a database key holds neither)');
    }
    const store = object('options.store', opts.store);
    for (const name of ['loadSession', 'commitSession', 'readSummary', 'claim', 'release', 'writeSummary', 'enqueue', 'getRawToolOutput']) method(store, name, `options.store.${name}`);
    const session = new ContextSession<M, F>(opts, store, sessionId);
    const open = OPEN.get(store) ?? new Set<string>();
    if (open.has(sessionId)) throw new SessionConflictError(sessionId, 0, 0, 'it is already open in this process: close() the other manager first');
    open.add(sessionId);
    OPEN.set(store, open);
    try {
      await session.#load();
    } catch (error) {
      open.delete(sessionId);
      throw error;
    }
    return session;
  }

  /** Calls committed to the store: a host that drives a session call by call resumes at this one. */
  get version(): number {
    return this.#version;
  }

  /** Every request's ledger record so far, oldest first. */
  get ledger(): LedgerRecord[] {
    return this.#live().records.slice();
  }

  /** How the provider's reported input tokens relate to ours: `provider ≈ overhead + ratio × ours`. */
  get calibration(): CalibrationFigures {
    return this.#live().calibration;
  }

  /**
   * Appends messages, as `ContextManager.append`; resolves once written. A bad message
   * rejects with a TypeError naming it, and nothing is written. In a shared session the
   * messages are queued, checked for their shape now and against the history when the
   * next build takes them in (one that does not fit then is left out, with an
   * `append-refused` warning).
   */
  append(message: Message | Message[] | AppendExtraOf<Format>): Promise<void> {
    const field = (i: number) => (Array.isArray(message) ? `messages[${i}]` : 'message');
    if (this.#shared) {
      return this.#queue(async () => {
        const list: unknown[] = Array.isArray(message) ? message : [message];
        list.forEach((m, i) => this.#parts.adapter.read(m, field(i)));
        const text = JSON.stringify(list);
        // The same append again after a failed one may be a retry of one that was queued: the same id queues it once.
        const id = this.#unsureAppend?.text === text ? this.#unsureAppend.id : ownerId();
        try {
          await this.#ask('enqueue', text, id);
        } catch (error) {
          this.#unsureAppend = { text, id };
          throw error;
        }
        this.#unsureAppend = null;
      });
    }
    return this.#call(async (engine) => {
      const list: unknown[] = Array.isArray(message) ? message : [message];
      engine.begin();
      try {
        engine.append(list, field);
      } catch (error) {
        engine.rollback();
        throw error;
      }
      engine.commit();
    });
  }

  /** The request to send now, as `ContextManager.build` (`options.now` too); resolves once the build is written. */
  build(options?: BuildOptions): Promise<ContextBuild<Message, Format>> {
    if (turnScope?.inside(this)) return Promise.reject(new ReentrantCallError('ContextSession.build'));
    let now: number | undefined;
    try {
      now = buildTime(options);
    } catch (error) {
      return Promise.reject(error);
    }
    const p = this.#parts;
    const hooks = { adapter: p.adapter, reminders: p.reminders, timeoutMs: p.timeoutMs, onLedger: p.onLedger, onWarning: p.onWarning, onCompaction: p.onCompaction, beforeCompaction: p.beforeCompaction, tracer: p.tracer, conversation: p.conversation ?? this.sessionId };
    return this.#call((engine, inbox) => {
      if (now !== undefined) give(engine.core, { kind: 'Time', now });
      const build = () => buildOnce<Message, Format>(engine, { ...hooks, before: () => this.#takeIn(engine, inbox) });
      return turnScope ? turnScope.run(this, build) : build();
    }, () => this.#paid.clear(), true);
  }

  /** Records the provider's usage of the request last built, as `ContextManager.recordUsage`; resolves once written. */
  recordUsage(usage: unknown): Promise<void> {
    return this.#call(async (engine) => engine.observe(this.#parts.adapter.usage(usage, 'usage')));
  }

  /** The recall tool in the session's provider shape, as `ContextManager.recallTool`. */
  get recallTool(): RecallToolOf<Format> {
    return recallToolOf(this.#live(), this.#parts.adapter) as RecallToolOf<Format>;
  }

  /**
   * Answers a call of the recall tool, or reads a stored text by id, as
   * `ContextManager.recall`: only this session's own texts, never another session's in
   * the same store. Runs after the calls before it; what it notes is written with the next.
   */
  recall(call: unknown): Promise<Message & RecallAnswerOf<Format>>;
  recall(id: string, options?: RecallOptions): Promise<string>;
  recall(call: unknown, options?: RecallOptions): Promise<unknown> {
    let ask: RecallOptions | undefined;
    try {
      ask = typeof call === 'string' ? readOptions(options, 'options') : undefined;
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#queue(async () => {
      const engine = this.#live();
      return ask ? recallText(engine, call as string, ask) : recallAnswer(engine, this.#parts.adapter, call);
    });
  }

  /** The next build compacts, whatever the request's size; resolves once written. */
  compact(): Promise<void> {
    return this.#call(async (engine) => give(engine.core, { kind: 'Compact' }));
  }

  /** The session as a `ContextSnapshot`, as `ContextManager.snapshot` gives it. */
  snapshot(): ContextSnapshot {
    const engine = this.#live();
    return toSnapshot(engine.state(), this.#parts.format, engine.config);
  }

  /** Waits for the calls in flight, then lets the session go: it can be opened again. */
  async close(): Promise<void> {
    await this.#calls.idle();
    this.#lost ??= Object.assign(new Error(`session ${JSON.stringify(this.sessionId)} was closed; open it again to go on`), { code: 'ERR_SESSION_CLOSED' });
    this.#release();
  }

  #release(): void {
    OPEN.get(this.#store)?.delete(this.sessionId);
    this.#engine?.core.free();
    this.#engine = null;
  }

  #live(): Engine {
    if (this.#lost) throw this.#lost;
    if (!this.#engine) throw coded(new Error(`session ${JSON.stringify(this.sessionId)}: its last write failed; the next call reads it back from the store`), 'ERR_SESSION_UNREAD');
    return this.#engine;
  }

  /** Runs `body` after the calls before it. */
  #queue<T>(body: () => Promise<T>): Promise<T> {
    return this.#calls.run(() => {
      if (this.#lost) throw this.#lost;
      return body();
    });
  }

  /** Runs `body` after the calls before it, then writes what it changed (in a shared session, as the one worker building). */
  #call<T>(body: (engine: Engine, inbox: Array<[number, string]>) => Promise<T>, written = () => {}, takesIn = false): Promise<T> {
    return this.#queue(() => (this.#shared ? this.#sharedRun(body, written, takesIn) : this.#run(body, written, [])));
  }

  async #run<T>(body: (engine: Engine, inbox: Array<[number, string]>) => Promise<T>, written: () => void, inbox: Array<[number, string]>): Promise<T> {
    for (;;) {
      if (this.#stale) await this.#load();
      const engine = this.#engine as Engine;
      const once = this.#once as StoredOnce;
      // Now and then the state before the call is written with it (`Spacing`): opening the
      // session reads the newest, and the calls from it on, however old the session.
      let checkpoint: string | undefined;
      if (this.#checkpointNext || this.#spacing.due()) {
        const snapshot = toSnapshot(engine.state(), this.#parts.format, engine.config) as unknown as { messages: Array<{ source: unknown } | null | number> };
        await once.checkpoint(snapshot.messages, this.#add);
        checkpoint = JSON.stringify({ ...snapshot, stored: 1 });
      }
      const result = await body(engine, inbox);
      const made = engine.changes();
      await once.row(made.messages, this.#add);
      const changes = JSON.stringify({ ...made, stored: 1 });
      const landed = this.#landed;
      this.#landed = null;
      if (landed === null) {
        await this.#commit(engine, changes, inbox.map(([seq]) => seq), checkpoint);
        this.#checkpointNext = false;
      }
      else if (!sameCall(landed, changes)) {
        // Another call than the one whose write landed: the session goes on from that write, then this call is made.
        this.#stale = true;
        continue;
      } else this.#written(this.#pending.length);
      this.#spacing.wrote(changes, checkpoint);
      written();
      return result;
    }
  }

  /**
   * A call on a shared session: made by one worker at a time (the session's `'build'`
   * claim), on the session as the others left it, with the appends they queued. A worker
   * whose claim ran out while it worked starts over from what was written meanwhile.
   */
  async #sharedRun<T>(body: (engine: Engine, inbox: Array<[number, string]>) => Promise<T>, written: () => void, takesIn: boolean): Promise<T> {
    const hold = await this.#hold('build');
    try {
      for (let attempt = 1; ; attempt++) {
        if (this.#stale) await this.#load();
        const rows = (await this.#ask('loadSession', this.#version)) as SessionRows | undefined;
        if (rows && rows.version > this.#version) {
          // Texts this worker stored and never wrote are numbered from a count others moved on.
          // A checkpoint since: the rows before it are not given, so the session is read anew.
          if (this.#pending.length || rows.checkpoint) await this.#load();
          else await this.#catchUp(rows);
        }
        try {
          return await this.#run(body, written, takesIn ? rows?.inbox ?? [] : []);
        } catch (error) {
          if (!hasCode(error, 'ERR_SESSION_CONFLICT') || attempt >= SHARED_ATTEMPTS) throw error;
        }
      }
    } finally {
      await hold.release();
    }
  }

  /** Applies what other workers wrote after this one's version. */
  async #catchUp(rows: SessionRows): Promise<void> {
    const engine = this.#engine as Engine;
    try {
      checkedStart(this.sessionId, rows, this.#version);
      const fieldOf = (i: number) => `store: session ${this.sessionId}, version ${this.#version + i + 1}`;
      const changes = rows.changes.map((c, i) => readChanges(c, fieldOf(i)));
      const cache = new Map<number, string>();
      for (const [i, c] of changes.entries()) await readStored(this.#once as StoredOnce, c, rows.outputs, cache, fieldOf(i));
      engine.applyAll(changes, `store: session ${this.sessionId}, versions ${this.#version + 1} to ${rows.version}`, fieldOf);
      engine.verify(`store: session ${this.sessionId}, version ${rows.version}`);
    } catch (error) {
      this.#stale = true;
      throw error;
    }
    this.#spacing.caughtUp(rows.changes);
    this.#version = rows.version;
    this.#outputs = rows.outputs;
  }

  /** Takes in a shared session's queued appends, inside the build's journal; one that no longer fits is left out, with a warning. */
  #takeIn(engine: Engine, inbox: Array<[number, string]>): void {
    for (const [seq, text] of inbox) {
      try {
        engine.append(JSON.parse(text) as unknown[], (i) => `queued append ${seq}, messages[${i}]`);
      } catch (error) {
        this.#parts.onWarning?.({ request: engine.requestCount + 1, code: 'append-refused', message: `a queued append was left out: ${errorText(error)}`, error });
      }
    }
  }

  /**
   * Waits until this manager holds `key` of the session (a dead holder's claim lapses),
   * then renews it until released. `ready()`, asked while waiting, ends the wait early
   * (the summary it waits for came): the claim is then not held, and its release does nothing.
   */
  async #hold(key: string, ready: () => Promise<boolean> = async () => false): Promise<{ release(): Promise<void> }> {
    while (!(await this.#ask('claim', key, this.#owner, CLAIM_TTL_MS))) {
      if (await ready()) return { release: async () => undefined };
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
    // A renewal that fails leaves the claim to lapse: the version check keeps the session whole.
    const timer = setInterval(() => void this.#ask('claim', key, this.#owner, CLAIM_TTL_MS).catch(() => undefined), CLAIM_TTL_MS / 3);
    (timer as { unref?: () => void }).unref?.();
    return {
      release: async () => {
        clearInterval(timer);
        await this.#ask('release', key, this.#owner).catch(() => undefined);
      },
    };
  }

  /** The store's `name(sessionId, ...args)`, as a promise. */
  #ask(name: string, ...args: unknown[]): Promise<unknown> {
    try {
      return Promise.resolve(callMethod(this.#store, name, `options.store.${name}`, [this.sessionId, ...args]));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async #commit(engine: Engine, changes: string, inbox: number[], checkpoint?: string): Promise<void> {
    const outputs = this.#pending;
    const commit: SessionCommit = { sessionId: this.sessionId, version: this.#version, format: this.#parts.format, config: engine.config, changes, outputs, inbox };
    if (checkpoint !== undefined) commit.checkpoint = checkpoint;
    try {
      await callMethod(this.#store, 'commitSession', 'options.store.commitSession', [commit]);
    } catch (error) {
      if (hasCode(error, 'ERR_SESSION_CONFLICT') && !this.#shared) {
        this.#lost = error as Error;
        this.#release();
      } else {
        this.#stale = true;
        // The write may have landed and only its answer been lost: the next load finds out.
        if (!this.#shared) this.#unsure = { version: this.#version, changes, outputs: outputs.length };
      }
      throw error;
    }
    this.#written(outputs.length);
  }

  #written(outputs: number): void {
    this.#version++;
    this.#outputs += outputs;
    this.#pending = [];
  }

  /** Makes the engine the store's session (a new one if there is none). */
  async #load(): Promise<void> {
    let rows = (await callMethod(this.#store, 'loadSession', 'options.store.loadSession', [this.sessionId])) as SessionRows | undefined;
    const after = rows ? checkedStart(this.sessionId, rows, 0) : 0;
    // A write reported failed that is in the store after all: the session is read as before
    // it, and the next call, if it is the same one, is taken as written (not made twice).
    const unsure = this.#unsure;
    let landed: string | null = null;
    if (unsure && rows && rows.version === unsure.version + 1 && rows.changes.length > 0 && rows.changes[rows.changes.length - 1] === unsure.changes) {
      landed = unsure.changes;
      rows = { ...rows, version: unsure.version, outputs: rows.outputs - unsure.outputs, changes: rows.changes.slice(0, -1), versions: rows.versions?.slice(0, -1) };
    }
    const p = this.#parts;
    const opts: Bag = {
      ...p.opts,
      store: {
        insertRawToolOutput: (entry: ToolOutputEntry) => this.#stash(entry),
        // A text stored by the call in flight is not in the store yet.
        getRawToolOutput: (id: string) => this.#pending.find((e) => `${this.sessionId}:${e.seq}` === id) ?? callMethod(this.#store, 'getRawToolOutput', 'options.store.getRawToolOutput', [id]),
      },
    };
    if (this.#summarizer) opts.summarizer = { summarize: (prompt: string, request?: unknown) => this.#summarize(prompt, request) };
    const o = engineOptions('options', opts, p.adapter);
    this.#summarizerTimeoutMs = o.summarizerTimeoutMs;
    // The bound is on the host's summarizer (`#summarize`), not on waiting for another worker's answer.
    let engine = new Engine({ ...o, summarizerTimeoutMs: undefined });
    // Texts are read back from the store only: what a call in flight stored is not the session's.
    this.#pending = [];
    const once = new StoredOnce(p.adapter, (seq) => this.#text(seq));
    const cache = new Map<number, string>();
    // A shared session may have appends queued before its first call is written.
    if (rows && rows.version > 0) {
      if (rows.format !== p.format) throw argumentError(TypeError, 'options.format', `is '${p.format}', but session ${JSON.stringify(this.sessionId)} was made with ${JSON.stringify(rows.format)}`);
      if (rows.config !== engine.config) {
        throw argumentError(TypeError, 'options', `differ from those session ${JSON.stringify(this.sessionId)} was made with: open it with the budget, shares, system prompt and pinned texts it had`);
      }
      // The newest checkpoint (the state before call `after + 1`), then the calls from it on.
      let base: EngineState | undefined;
      if (rows.checkpoint) {
        const field = `store: session ${this.sessionId}, checkpoint at version ${rows.checkpoint.version}`;
        let value: unknown;
        try {
          value = JSON.parse(string(field, rows.checkpoint.state));
        } catch (error) {
          if (error instanceof TypeError) throw error;
          throw argumentError(TypeError, field, 'is not JSON: the row was altered or cut short');
        }
        await readStored(once, value, rows.outputs, cache, field, true);
        base = readSnapshot(value, p.format, engine.config, field);
      }
      const changes = rows.changes.map((c, i) => readChanges(c, `store: session ${this.sessionId}, version ${after + i + 1}`));
      for (const [i, c] of changes.entries()) await readStored(once, c, rows.outputs, cache, `store: session ${this.sessionId}, version ${after + i + 1}`);
      // The checkpoint, then each call after it, as a worker catching up applies them.
      try {
        if (base) {
          // Held to what they recorded once all are in: the rows after the checkpoint.
          engine.restore(base, `store: session ${this.sessionId}, checkpoint at version ${rows.checkpoint!.version}`, changes.length === 0);
          engine.applyAll(changes, `store: session ${this.sessionId}, versions ${after + 1} to ${rows.version}`, (i) => `store: session ${this.sessionId}, version ${after + i + 1}`, true);
          engine.verify(`store: session ${this.sessionId}, version ${rows.version}`);
        } else engine.restore(foldChanges(changes), `store: session ${this.sessionId}`, true);
      } catch (error) {
        // Rows earlier rules wrote that today's cannot replay: rebuilt once, and the next
        // call's row carries a checkpoint of it, so no open replays those rows again.
        const state = base ? withChanges(base, changes) : foldChanges(changes);
        const why = Engine.migration(error, state);
        engine.core.free();
        if (why === undefined) throw error;
        engine = new Engine({ ...o, summarizerTimeoutMs: undefined });
        engine.migrate(state, why, `store: session ${this.sessionId}`);
        this.#checkpointNext = true;
      }
    }
    this.#engine?.core.free();
    this.#engine = engine;
    this.#once = once;
    this.#spacing.loaded(rows);
    this.#version = rows?.version ?? 0;
    this.#outputs = rows?.outputs ?? 0;
    this.#pending = [];
    this.#stale = false;
    this.#unsure = null;
    this.#landed = landed;
  }

  /**
   * The engine stores a text: it is written with the call, under the session's next number,
   * unless the session holds it already (an image stored as it was appended): then that one.
   */
  #stash(entry: ToolOutputEntry): string | Promise<string> {
    validateToolOutputEntry(entry);
    // Numbered now, so texts are numbered in the order stored, whatever the look-up takes.
    const seq = this.#outputs + this.#pending.length + 1;
    const slot = { ...entry, seq };
    this.#pending.push(slot);
    const id = (n: number) => `${this.sessionId}:${n}`;
    if (entry.rawContent.length < LONG) return id(seq);
    return (this.#once as StoredOnce).find(entry.rawContent).then((held) => {
      // Taken back only if it is still the newest: never a gap in the numbers.
      if (held === undefined || this.#pending[this.#pending.length - 1] !== slot) return id(seq);
      this.#pending.pop();
      return id(held);
    });
  }

  /** Stores a long string of a row or a checkpoint (`StoredOnce`) with the call: its number. */
  readonly #add: AddText = (text, toolName) => {
    const seq = this.#outputs + this.#pending.length + 1;
    this.#pending.push({ toolName, rawContent: text, byteSize: utf8Length(text), turnAge: 0, capturedAt: Date.now(), seq });
    return seq;
  };

  /** Text `seq` of the session: one of the call in flight, or the store's. */
  async #text(seq: number): Promise<string | undefined> {
    const pending = this.#pending.find((e) => e.seq === seq);
    if (pending) return pending.rawContent;
    const row = (await callMethod(this.#store, 'getRawToolOutput', 'options.store.getRawToolOutput', [`${this.sessionId}:${seq}`])) as Bag | undefined;
    return typeof row?.rawContent === 'string' ? row.rawContent : undefined;
  }

  /**
   * A summary already paid for is read back. A new one is asked for by one worker at a
   * time (a claim in the store): the others wait for its answer. It is kept the moment it
   * comes, before the build goes on.
   */
  async #summarize(prompt: string, request?: unknown): Promise<unknown> {
    const key = await promptKey(prompt);
    const paid = this.#paid.get(key);
    if (paid !== undefined) return paid;
    let known: unknown;
    const came = async () => typeof (known = await this.#ask('readSummary', key)) === 'string';
    if (await came()) return known;
    // Held while the summarizer works: the others wait for its answer; a worker killed while asking holds it no longer.
    const hold = await this.#hold(key, came);
    if (typeof known === 'string') return known;
    let summary: unknown;
    try {
      const args = request === undefined ? [prompt] : [prompt, request];
      summary = await within(this.#summarizerTimeoutMs, Promise.resolve(callMethod(this.#summarizer as Bag, 'summarize', 'summarizer.summarize', args)), 'summarizer.summarize', 'summarizerTimeoutMs');
    } catch (error) {
      await hold.release();
      throw error;
    }
    // A summary with its usage (`SummaryAnswer`) is kept as its text: a replay costs nothing.
    const text = typeof summary === 'string' ? summary : isObject(summary) && typeof summary.summary === 'string' ? summary.summary : undefined;
    if (text !== undefined && text.trim() !== '') {
      this.#paid.set(key, text);
      // Writing it ends the claim. A store that fails here fails the build's own write too, which holds the summary as well.
      await this.#ask('writeSummary', key, text).catch(() => undefined);
    }
    await hold.release();
    return summary;
  }
}
