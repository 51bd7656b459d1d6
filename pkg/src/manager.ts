// `ContextManager`: provider-native messages in, a bounded, cache-stable request out.
// The rules decide what each request holds (`devs_context_rules::context`); this shell
// reads the host's messages through its provider's adapter, counts each text once, stores
// and summarizes as the rules ask, and writes the request back in the provider's shape.
import { argumentError, checked, errorText } from './errors.js';
import { FrameReader, frameText } from './frame.js';
import { live } from './lifetime.js';
import { MemoryStateRepository } from './memory-store.js';
import { ADAPTERS } from './providers/index.js';
import { type Adapter, type NeutralMessage, type Plan, FORMATS, Kind, Role, lazy } from './providers/neutral.js';
import {
  callMethod, holder, method, number, object, optionalBoolean, optionalFunction, optionalNumber, optionalString, string,
  type Bag,
} from './read.js';
import { utf8Length } from './runtime.js';
import { count } from './tokens.js';
import type {
  ContextBuild, ContextFormat, ContextLedgerRecord, ContextManagerOptions, ContextWarning, TokenCounter,
} from './types.js';
import { rules } from './wasm.js';

const Need = lazy(() => rules.NeedCode);
const Emit = lazy(() => rules.EmitCode);
const Shown = lazy(() => rules.ShownCode);
const DEFAULT_SUMMARIZER_TIMEOUT_MS = 120_000;

/** The manager's own words (`render::own_texts`): 0 the summary message over `summary`, 1 an unanswered call's result, 2 the note for dropped turns. */
let own: string | undefined;
function ownText(n: 0 | 1 | 2, summary = ''): string {
  const reader = new FrameReader((own ??= rules.managerTexts()));
  let text = '';
  for (let i = 0; i <= n; i++) text = reader.text(i === 0 ? [summary] : []);
  return text;
}

/** A message as the manager keeps it: the adapter's reading, and how each part is shown. */
interface Kept extends NeutralMessage {
  shown: Array<string | null | undefined>;
}

/**
 * Keeps a coding agent's conversation inside a token budget, in its provider's own
 * message shape, with the provider's prompt cache kept. `append` the messages you send
 * and receive, exactly as you have them; `await build()` before each model call, and pass
 * its `system` and `messages` straight to your SDK; `recordUsage` the usage it returns.
 *
 * Every request is at most `budget` tokens. Between compactions a request is the previous
 * one plus what you appended, so the provider reads it from its cache. When a request
 * passes `highWater` (90% of the budget), one compaction brings it under `lowWater` (60%):
 * old tool outputs and texts are stored whole, then replaced by a line naming their store
 * id; then the oldest turns are summarized (or dropped, without a summarizer). Every tool
 * call keeps its result; signed thinking is never edited.
 * @example
 * import { ContextManager } from '@devs/context';
 * import { createTokenCounter } from '@devs/context/tokenizers';
 *
 * // Your Anthropic client: `new Anthropic()` from '@anthropic-ai/sdk'.
 * declare const client: { messages: { create(request: object): Promise<{ content: object[]; usage: object }> } };
 * const context = new ContextManager({ format: 'anthropic', budget: 150_000, countTokens: createTokenCounter('o200k_base'), system: 'You are a coding agent.' });
 * context.append({ role: 'user', content: 'Make the parser tests pass' });
 * const { system, messages } = await context.build();
 * const response = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 4096, system, messages });
 * context.append({ role: 'assistant', content: response.content });
 * context.recordUsage(response.usage);
 */
export class ContextManager<Message = unknown> {
  #core: InstanceType<typeof rules.ManagerCore> | null;
  readonly #adapter: Adapter;
  readonly #counter: TokenCounter | undefined;
  readonly #counterName: string;
  readonly #store: Bag;
  readonly #summarizer: Bag | undefined;
  readonly #timeoutMs: number;
  readonly #system: string | undefined;
  readonly #pinned: string[];
  readonly #onLedger: ((record: ContextLedgerRecord) => void) | undefined;
  readonly #onWarning: ((warning: ContextWarning) => void) | undefined;
  readonly #cacheControl: boolean;
  readonly #calibrate: boolean;
  #messages: Kept[] = [];
  /** Call ids, by the rules' call index; and the index of each id. */
  #callIds: string[] = [];
  #callNames: string[] = [];
  #callIndex = new Map<string, number>();
  #summary = '';
  #records: ContextLedgerRecord[] = [];
  /** Builds run one after another. */
  #tail: Promise<unknown> = Promise.resolve();

  /**
   * @throws {TypeError} naming the option of the wrong type; an unknown `format` lists the formats.
   * @throws {RangeError} for a `budget` under 1000 or one that cannot hold `system`, `pinned` and the summary's reserve, naming each size.
   */
  constructor(options: ContextManagerOptions) {
    const opts = object('options', options);
    const format = opts.format;
    if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) {
      throw argumentError(typeof format === 'string' ? RangeError : TypeError, 'options.format', `must be one of ${FORMATS.map((f) => `'${f}'`).join(', ')}, got ${typeof format === 'string' ? JSON.stringify(format) : typeof format}`);
    }
    this.#adapter = ADAPTERS[format as ContextFormat](opts);
    const budget = number('options.budget', opts.budget);
    this.#counter = opts.countTokens === undefined ? undefined : (optionalFunction('options.countTokens', opts.countTokens) as TokenCounter);
    this.#counterName = this.#counter ? this.#counter.name || 'custom' : 'length/4';
    this.#store = opts.store === undefined ? (new MemoryStateRepository() as unknown as Bag) : object('options.store', opts.store);
    method(this.#store, 'insertRawToolOutput', 'options.store.insertRawToolOutput');
    this.#summarizer = opts.summarizer === undefined ? undefined : holder('options.summarizer', opts.summarizer, ['summarize']);
    this.#timeoutMs = optionalNumber('options.summarizerTimeoutMs', opts.summarizerTimeoutMs) ?? DEFAULT_SUMMARIZER_TIMEOUT_MS;
    if (!(this.#timeoutMs > 0)) throw argumentError(RangeError, 'options.summarizerTimeoutMs', `must be a number > 0, got ${this.#timeoutMs}`);
    this.#system = optionalString('options.system', opts.system);
    const pinned = opts.pinned === undefined ? [] : opts.pinned;
    if (!Array.isArray(pinned)) throw argumentError(TypeError, 'options.pinned', 'must be an array of strings');
    this.#pinned = pinned.map((p, i) => string(`options.pinned[${i}]`, p));
    this.#onLedger = optionalFunction('options.onLedger', opts.onLedger);
    this.#onWarning = optionalFunction('options.onWarning', opts.onWarning);
    this.#cacheControl = optionalBoolean('options.cacheControl', opts.cacheControl) !== false;
    this.#calibrate = optionalBoolean('options.calibrate', opts.calibrate) !== false;
    const share = (key: string) => optionalNumber(`options.${key}`, opts[key]) ?? NaN;
    const shares = Float64Array.from(['highWater', 'lowWater', 'recentShare', 'partShare', 'summarizerShare'], share);
    const framing = this.#adapter.framing.message;
    const systemTokens = this.#system ? count(this.#counter, this.#system, 'options.system') + framing : 0;
    const pinnedTokens = this.#pinned.reduce((n, p, i) => n + count(this.#counter, p, `options.pinned[${i}]`) + framing, 0);
    this.#core = checked(() => new rules.ManagerCore(budget, shares, systemTokens, pinnedTokens));
  }

  /**
   * Appends messages you sent or received, exactly as you have them: one message or an
   * array. All or none: a message that does not fit its format (a tool result in an
   * `anthropic` assistant message, a result whose call is not in the assistant message
   * before it) is a TypeError naming its index and field, and nothing is appended.
   */
  append(message: Message | Message[]): void {
    const core = live(this.#core, 'ContextManager');
    const list: unknown[] = Array.isArray(message) ? message : [message];
    const field = (i: number) => (Array.isArray(message) ? `messages[${i}]` : 'message');
    const read = list.map((m, i) => this.#adapter.read(m, field(i)));
    // Calls are numbered in order; a result names the index of the call it answers.
    const ids = new Map<string, number>();
    let next = this.#callIds.length;
    const partCount = new Uint32Array(read.length);
    const roles = new Uint8Array(read.length);
    const framing = new Float64Array(read.length);
    const kinds: number[] = [];
    const units: number[] = [];
    const tokens: number[] = [];
    const calls: number[] = [];
    const { part: partFraming } = this.#adapter.framing;
    read.forEach((m, i) => {
      roles[i] = m.role;
      partCount[i] = m.parts.length;
      framing[i] = this.#adapter.framing.message;
      m.parts.forEach((p, k) => {
        kinds.push(p.kind);
        units.push(p.text.length);
        tokens.push((p.tokens ?? count(this.#counter, p.text, `${field(i)}.${p.path}`)) + partFraming);
        if (p.kind === Kind.Call) {
          if (p.id !== undefined) ids.set(p.id, next);
          calls.push(next++);
        } else if (p.kind === Kind.Result) {
          calls.push(p.id === undefined ? -1 : ids.get(p.id) ?? this.#callIndex.get(p.id) ?? -1);
        } else {
          calls.push(-1);
        }
        void k;
      });
    });
    const refused = core.append(roles, framing, partCount, Uint8Array.from(kinds), Uint32Array.from(units), Float64Array.from(tokens), Float64Array.from(calls));
    if (refused.length) {
      const [i, k, code] = refused;
      const part = k >= 0 ? read[i].parts[k] : undefined;
      const path = part ? `${field(i)}.${part.idPath ?? part.path}` : field(i);
      throw argumentError(TypeError, path, rules.rejectionWords(code));
    }
    for (const m of read) {
      this.#messages.push({ ...m, shown: [] });
      for (const p of m.parts) {
        if (p.kind !== Kind.Call) continue;
        const n = this.#callIds.length;
        this.#callIds.push(p.id ?? '');
        this.#callNames.push(p.label);
        if (p.id !== undefined) this.#callIndex.set(p.id, n);
      }
    }
  }

  /**
   * The request to send now: `{ system?, messages, tokens, ledger }`, valid for the
   * provider and at most `budget` tokens. Builds run one at a time, in call order. A
   * callback that fails (the counter, `onLedger`, `onWarning`) rejects with its error and
   * changes nothing; a store or summarizer that fails falls back, with a warning.
   */
  build(): Promise<ContextBuild<Message>> {
    try {
      live(this.#core, 'ContextManager');
    } catch (error) {
      return Promise.reject(error);
    }
    const run = this.#tail.then(() => this.#build());
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Records the provider's usage of the request last built, as its SDK returns it: it
   * feeds the calibration and the ledger's observed cache figures. A usage of the wrong
   * shape is a TypeError naming the field, and changes nothing.
   */
  recordUsage(usage: unknown): void {
    const core = live(this.#core, 'ContextManager');
    const figures = this.#adapter.usage(usage, 'usage');
    if (this.#calibrate) checked(() => core.observe(figures.input));
    const last = this.#records[this.#records.length - 1];
    if (last) {
      if (figures.read !== undefined) last.cache.observedRead = figures.read;
      if (figures.write !== undefined) last.cache.observedWrite = figures.write;
    }
  }

  /** The next build compacts, whatever the request's size. */
  compact(): void {
    live(this.#core, 'ContextManager').compact();
  }

  /** Forgets what the provider reported: requests are counted as ours until new reports come. */
  resetCalibration(): void {
    live(this.#core, 'ContextManager').reset_calibration();
  }

  /** How the provider's reported input tokens relate to ours: `provider ≈ overhead + ratio × ours`. */
  get calibration(): { overhead: number; ratio: number; samples: number } {
    const [overhead, ratio, samples] = live(this.#core, 'ContextManager').calibration();
    return { overhead, ratio, samples };
  }

  /** Every request's ledger record so far, oldest first. */
  get ledger(): ContextLedgerRecord[] {
    live(this.#core, 'ContextManager');
    return this.#records.slice();
  }

  /** Frees the manager's wasm state now; it is also reclaimed when collected. */
  free(): void {
    this.#core?.free();
    this.#core = null;
  }

  async #build(): Promise<ContextBuild<Message>> {
    const core = live(this.#core, 'ContextManager');
    const started = performance.now();
    const undo: Array<() => void> = [];
    const failures = { store: [] as unknown[], summarizer: [] as unknown[] };
    core.begin();
    try {
      let need = checked(() => core.plan());
      while (need[0] !== Need.Done) {
        const [code, a, b, c, d] = need;
        if (code === Need.Persist) need = core.persisted(await this.#persist(a, b, failures.store));
        else if (code === Need.Placeholder) need = core.measured(this.#show(undo, a, b, this.#placeholder(core, a, b)));
        else if (code === Need.Cut) need = core.measured(this.#show(undo, a, b, this.#cut(core, a, b, c, d)));
        else if (code === Need.Summarize) need = await this.#summarize(core, undo, a, b, failures.summarizer);
        else throw new Error(`ContextManager: unknown step ${code}`);
      }
      const request = this.#adapter.write(this.#plan(core, core.render(this.#system !== undefined || this.#pinned.length > 0)));
      const record = JSON.parse(core.ledger(performance.now() - started, this.#counterName)) as ContextLedgerRecord;
      const warnings = this.#explain(record, failures);
      this.#onLedger?.(record);
      if (this.#onWarning) for (const w of warnings) this.#onWarning(w);
      core.commit();
      this.#records.push(record);
      return { ...request, tokens: record.tokens, ledger: record } as ContextBuild<Message>;
    } catch (error) {
      core.rollback();
      for (let i = undo.length - 1; i >= 0; i--) undo[i]();
      throw error;
    }
  }

  /** Shows part `k` of message `i` as `text`, to be put back if the build fails; its tokens. */
  #show(undo: Array<() => void>, i: number, k: number, text: string): number {
    const m = this.#messages[i];
    const before = m.shown[k];
    undo.push(() => {
      m.shown[k] = before;
    });
    m.shown[k] = text;
    return count(this.#counter, text, 'placeholder') + this.#adapter.framing.part;
  }

  #label(i: number, k: number): string {
    const m = this.#messages[i];
    const p = m.parts[k];
    if (p.label) return p.label;
    if (p.kind === Kind.Result && p.id !== undefined) return this.#callNames[this.#callIndex.get(p.id) ?? -1] ?? 'tool';
    return m.role === Role.Assistant ? 'assistant' : m.role === Role.System ? 'system' : 'user';
  }

  #placeholder(core: InstanceType<typeof rules.ManagerCore>, i: number, k: number): string {
    return frameText(core.placeholder(i, k), [this.#label(i, k), core.store_id(i, k) ?? '']);
  }

  #cut(core: InstanceType<typeof rules.ManagerCore>, i: number, k: number, head: number, tail: number): string {
    const whole = this.#messages[i].parts[k].text;
    const tailStart = Math.max(0, whole.length - tail);
    const frame = new FrameReader(rules.cutText(whole.length, head, whole.slice(Math.max(0, head - 1), head + 1), tail,
      whole.slice(Math.max(0, tailStart - 1), tailStart + 1), core.store_id(i, k) !== undefined));
    frame.num();
    frame.num();
    return frame.text([whole, core.store_id(i, k) ?? '']);
  }

  async #persist(i: number, k: number, failed: unknown[]): Promise<string | undefined> {
    const m = this.#messages[i];
    const p = m.parts[k];
    const raw = p.raw ?? p.text;
    try {
      const id = await callMethod(this.#store, 'insertRawToolOutput', 'store.insertRawToolOutput', [{
        toolName: this.#label(i, k), rawContent: raw, byteSize: utf8Length(raw), turnAge: 0, capturedAt: Date.now(),
      }]);
      return typeof id === 'string' || typeof id === 'number' ? String(id) : `message-${i}/part-${k}`;
    } catch (error) {
      failed.push(error);
      return undefined;
    }
  }

  async #summarize(core: InstanceType<typeof rules.ManagerCore>, undo: Array<() => void>, from: number, to: number, failed: unknown[]): Promise<Float64Array> {
    if (!this.#summarizer) return core.no_summarizer();
    const hosts = [this.#summary];
    for (let i = from; i < to; i++) {
      const m = this.#messages[i];
      m.parts.forEach((p, k) => {
        const shown = m.shown[k];
        hosts.push(shown === null ? '' : shown ?? p.text, this.#label(i, k));
      });
    }
    const prompt = frameText(core.summarizer_prompt(from, to), hosts);
    let summary: string;
    try {
      const answer = await within(this.#timeoutMs, Promise.resolve(callMethod(this.#summarizer, 'summarize', 'summarizer.summarize', [prompt])));
      summary = string('summarizer.summarize()', answer);
      if (rules.isBlank(summary)) throw new TypeError('summarizer.summarize() returned an empty text');
    } catch (error) {
      failed.push(error);
      return core.summary_failed();
    }
    const need = core.summarized(count(this.#counter, summary, 'summarizer.summarize()'));
    if (core.has_summary && core.first_live === to) {
      const before = this.#summary;
      undo.push(() => {
        this.#summary = before;
      });
      this.#summary = summary;
    }
    return need;
  }

  /** The plan of the rules (`render::Plan::encode`), with the host's texts. */
  #plan(core: InstanceType<typeof rules.ManagerCore>, encoded: Float64Array): Plan {
    let at = 0;
    const next = () => encoded[at++];
    const emits = next();
    const steps: Array<{ code: number; index?: number; changed?: Map<number, number>; unanswered?: number[] }> = [];
    for (let e = 0; e < emits; e++) {
      const code = next();
      if (code !== Emit.Message) {
        steps.push({ code });
        continue;
      }
      const index = next();
      const changed = new Map<number, number>();
      for (let n = next(); n > 0; n--) changed.set(next(), next());
      const unanswered: number[] = [];
      for (let n = next(); n > 0; n--) unanswered.push(next());
      steps.push({ code, index, changed, unanswered });
    }
    const breakpoints = new Set<number>();
    for (let n = next(); n > 0; n--) breakpoints.add(next());
    const cache = this.#cacheControl;
    const plan: Plan = {
      system: this.#system, pinned: this.#pinned, fixedBreakpoint: false, summary: undefined, summaryBreakpoint: false,
      messages: [], leftOut: core.first_live > 0 && !core.has_summary, unansweredText: ownText(1), leftOutText: ownText(2), cacheControl: cache,
    };
    steps.forEach((s, e) => {
      const mark = cache && breakpoints.has(e);
      if (s.code === Emit.Fixed) plan.fixedBreakpoint = mark;
      else if (s.code === Emit.Summary) {
        plan.summary = ownText(0, this.#summary);
        plan.summaryBreakpoint = mark;
      } else {
        const m = this.#messages[s.index as number];
        const shown = m.parts.map((_, k) => {
          const state = s.changed?.get(k);
          if (state === undefined || state === Shown.Whole) return undefined;
          return state === Shown.Dropped ? null : m.shown[k];
        });
        plan.messages.push({
          source: m.source, neutral: m, shown, breakpoint: mark,
          unanswered: (s.unanswered ?? []).map((c) => ({ id: this.#callIds[c], name: this.#callNames[c] })),
        });
      }
    });
    return plan;
  }

  /** The record's warnings, each with the host error behind it; the warnings to hand `onWarning`. */
  #explain(record: ContextLedgerRecord, failures: { store: unknown[]; summarizer: unknown[] }): ContextWarning[] {
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

/** `promise`, or a rejection once `ms` have passed. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the summarizer took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
