// The bounded prompt (`AgentRunner`'s `bounded` option). The rules decide what the prompt
// holds (`devs_context_rules::bound`); this module keeps the texts, stores raw outputs,
// builds the placeholder, cut and summarizer texts the rules describe, and counts each
// text once.
import { checked, errorText } from './errors.js';
import { FrameReader, frameText } from './frame.js';
import { LIMITS } from './limits.js';
import { MemoryStateRepository } from './memory-store.js';
import { callMethod, holder, method, object, optionalBoolean, optionalFunction, optionalNumber, probe, string, type Bag } from './read.js';
import { utf8Length } from './runtime.js';
import { count } from './tokens.js';
import type { BoundedOptions, BoundedWarning, LedgerRecord, SaopEnvelope, StateRepository, TokenCounter } from './types.js';
import { rules } from './wasm.js';

// The rules' warnings that a host error explains (crates/rules/src/bound.rs).
const STORE_FAILED = 'a raw output could not be stored';
const SUMMARIZER_FAILED = 'the summarizer failed';

// What the bound needs next (see `need` in src/bound.rs).
const PERSIST = 0, PLACEHOLDER = 1, CUT_TEXT = 2, CUT_OUTPUT = 3, SUMMARIZE = 4, DONE = 5;
const KIND = { user: 0, assistant: 1, tool: 2 } as const;

interface ItemTexts {
  turn: number;
  /** The message, or the tool call's arguments as JSON. */
  text: string;
  output: string | undefined;
  tool: string;
  status: string;
  shownText: string;
  shownOutput: string;
  storeId: string | undefined;
}

/** The texts of a bounded history; the rules keep the counts and decisions. */
export class BoundedHistory {
  readonly #core: InstanceType<typeof rules.BoundCore>;
  readonly #counter: TokenCounter | undefined;
  readonly #counterName: string;
  readonly #store: Bag;
  readonly #summarizer: Bag | undefined;
  readonly #goal: string;
  readonly #pins: string;
  readonly #pinnedBase: number;
  readonly #agentId: string;
  readonly onLedger: ((record: LedgerRecord) => void) | undefined;
  readonly #onWarning: ((warning: BoundedWarning) => void) | undefined;
  readonly #calibrate: boolean;
  /**
   * The host errors behind this turn's warnings, in the order the rules raised them: a
   * ledger warning carries its error.
   */
  #failures: { store: unknown[]; summarizer: unknown[] } = { store: [], summarizer: [] };
  #warnings: BoundedWarning[] = [];
  #items: ItemTexts[] = [];
  #summary = '';
  #plan = '';
  #journal: { items: number; summary: string; plan: string; shown: Map<number, ItemTexts> } | null = null;
  /**
   * Outputs stored by a turn that then failed: the store cannot take them back, so the
   * retried turn reuses their ids instead of storing them again.
   */
  #storedBefore = new Map<number, { output: string; id: string }>();
  readonly records: LedgerRecord[] = [];
  /** The record of the turn in flight, kept once it commits. */
  #pending: LedgerRecord | null = null;
  /** The ledger JSON of the prompt last planned. */
  #planned = '{}';

  constructor(options: BoundedOptions, defaults: { budget: number; store: StateRepository | undefined; goal: string; agentId: string; counter: TokenCounter | undefined }) {
    const field = 'options.bounded';
    const opts = object(field, options);
    const num = (key: string) => optionalNumber(`${field}.${key}`, opts[key]);
    const budget = num('budget'), recentItems = num('recentItems'), partShare = num('partShare'), summarizerShare = num('summarizerShare');
    // In memory unless the host gives a store: masking works with no setup.
    this.#store = opts.store !== undefined ? object(`${field}.store`, opts.store) : ((defaults.store as Bag | undefined) ?? (new MemoryStateRepository() as unknown as Bag));
    method(this.#store, 'insertRawToolOutput', `${field}.store.insertRawToolOutput`);
    this.#summarizer = opts.summarizer === undefined ? undefined : holder(`${field}.summarizer`, opts.summarizer, ['summarize']);
    const pinned = opts.pinned === undefined ? [] : (opts.pinned as unknown[]);
    if (!Array.isArray(pinned)) string(`${field}.pinned`, pinned, 'an array of strings');
    const pins = pinned.map((p, i) => string(`${field}.pinned[${i}]`, p));
    this.onLedger = optionalFunction(`${field}.onLedger`, opts.onLedger);
    this.#onWarning = optionalFunction(`${field}.onWarning`, opts.onWarning);
    this.#calibrate = optionalBoolean(`${field}.calibrate`, opts.calibrate) !== false;
    this.#counter = defaults.counter;
    this.#counterName = defaults.counter ? defaults.counter.name || 'custom' : 'length/4';
    this.#goal = defaults.goal;
    this.#agentId = defaults.agentId;
    this.#pins = pins.join('\n\n');
    this.#pinnedBase = count(this.#counter, this.#goal, 'taskGoal') + (pins.length ? count(this.#counter, this.#pins, `${field}.pinned`) : 0);
    this.#core = checked(() => new rules.BoundCore(budget ?? defaults.budget, recentItems, partShare, summarizerShare, this.#pinnedBase));
  }

  begin(): void {
    this.#core.begin();
    this.#failures = { store: [], summarizer: [] };
    this.#warnings = [];
    this.#journal = { items: this.#items.length, summary: this.#summary, plan: this.#plan, shown: new Map() };
  }

  commit(): void {
    if (this.#pending) this.records.push(this.#pending);
    this.#pending = null;
    this.#core.commit();
    this.#journal = null;
    this.#storedBefore.clear();
  }

  rollback(): void {
    this.#pending = null;
    this.#core.rollback();
    const j = this.#journal;
    if (!j) return;
    this.#items.length = j.items;
    for (const [i, texts] of j.shown) if (i < this.#items.length) this.#items[i] = texts;
    this.#summary = j.summary;
    this.#plan = j.plan;
    this.#journal = null;
  }

  /** The tokens entering the context with this item (for `refreshOn: 'context'`). */
  addMessage(role: 'user' | 'assistant', turn: number, text: string): number {
    const tokens = count(this.#counter, text, 'text');
    this.#core.add(KIND[role], turn, text.length, tokens, false, 0, 0);
    this.#items.push({ turn, text, output: undefined, tool: '', status: '', shownText: text, shownOutput: '', storeId: undefined });
    return tokens;
  }

  addTool(turn: number, envelope: SaopEnvelope): number {
    const call = JSON.stringify(envelope.action.arguments);
    const output = envelope.observation.output;
    const callTokens = count(this.#counter, call, 'envelope.action.arguments');
    const outputTokens = count(this.#counter, output, 'envelope.observation.output');
    this.#core.add(KIND.tool, turn, call.length, callTokens, true, output.length, outputTokens);
    this.#items.push({
      turn, text: call, output, tool: envelope.action.tool_name, status: envelope.observation.status,
      shownText: call, shownOutput: output, storeId: undefined,
    });
    return callTokens + outputTokens;
  }

  /** The plan is pinned: a new plan is counted once. */
  repin(plan: string): void {
    if (plan === this.#plan) return;
    this.#plan = plan;
    // Counted outside `checked`: a host counter's own throw passes through untouched.
    const pinned = this.#pinnedBase + count(this.#counter, plan, 'plan');
    checked(() => this.#core.repin(pinned));
  }

  /** Plans the prompt (storing, masking, cutting, summarizing as the rules ask) and renders it. */
  async prompt(): Promise<{ prompt: string; promptTokens: number; rawTokens: number; ms: number }> {
    const started = performance.now();
    let need: Float64Array;
    need = checked(() => this.#core.plan());
    for (;;) {
      const [code, a, b, c] = need;
      if (code === DONE) break;
      switch (code) {
        case PERSIST:
          need = this.#core.persisted(await this.#persist(a));
          break;
        case PLACEHOLDER: {
          const item = this.#touch(a);
          const [window, start] = probe(item.text, LIMITS.placeholderCallChars);
          const text = frameText(rules.placeholderText(this.#core.output_tokens(a), window, start), [item.tool, item.text, item.storeId ?? '', item.status]);
          item.shownOutput = text;
          need = this.#core.measured(count(this.#counter, text, 'placeholder'));
          break;
        }
        case CUT_TEXT:
        case CUT_OUTPUT: {
          const item = this.#touch(a);
          const whole = code === CUT_OUTPUT ? (item.output as string) : item.text;
          const tailStart = Math.max(0, whole.length - c);
          const frame = new FrameReader(rules.cutText(whole.length, b, whole.slice(Math.max(0, b - 1), b + 1), c,
            whole.slice(Math.max(0, tailStart - 1), tailStart + 1), code === CUT_OUTPUT && item.storeId !== undefined));
          frame.num();
          frame.num();
          const text = frame.text([whole, item.storeId ?? '']);
          if (code === CUT_OUTPUT) item.shownOutput = text;
          else item.shownText = text;
          need = this.#core.measured(count(this.#counter, text, 'cut'));
          break;
        }
        case SUMMARIZE:
          need = await this.#summarize(a, b);
          break;
        default:
          throw new Error(`bounded prompt: unknown step ${code}`);
      }
    }
    const first = this.#core.first_live;
    const hosts = [this.#goal, this.#plan, this.#pins, this.#summary];
    for (let i = first; i < this.#items.length; i++) {
      const item = this.#items[i];
      hosts.push(item.shownText, item.shownOutput, item.tool);
    }
    const prompt = frameText(this.#core.render(this.#pins !== ''), hosts);
    // The record of this prompt, before the response's items join the history.
    this.#planned = this.#core.ledger();
    return { prompt, promptTokens: this.#core.prompt_tokens, rawTokens: this.#core.raw_tokens, ms: performance.now() - started };
  }

  /** Learns from the provider's count of the prompt we counted as `rawTokens`. */
  observe(rawTokens: number, inputTokens: number): void {
    if (this.#calibrate) checked(() => this.#core.observe(rawTokens, inputTokens));
  }

  /** Forgets what the provider reported: prompts are counted as ours until new reports come. */
  resetCalibration(): void {
    this.#core.reset_calibration();
  }

  /**
   * The turn's ledger record, handed to `onLedger` and its warnings to `onWarning`; kept in
   * `records` when the turn commits.
   */
  report(turn: number, ms: number): LedgerRecord {
    const record = this.#record(turn, ms);
    this.onLedger?.(record);
    if (this.#onWarning) for (const w of this.#warnings) this.#onWarning(w);
    this.#pending = record;
    return record;
  }

  get calibration(): { overhead: number; ratio: number; samples: number } {
    const [overhead, ratio, samples] = this.#core.calibration();
    return { overhead, ratio, samples };
  }

  /** The turn's ledger record. */
  #record(turn: number, ms: number): LedgerRecord {
    const raw = JSON.parse(this.#planned) as Record<string, unknown> & {
      masked: Array<{ item: number; turn: number }>;
      cut: Array<{ item: number; turn: number; part: string }>;
    };
    const idOf = (i: number) => this.#items[i]?.storeId ?? null;
    const toolOf = (i: number) => this.#items[i]?.tool ?? '';
    const failures = { store: this.#failures.store.slice(), summarizer: this.#failures.summarizer.slice() };
    const warnings = (raw.warnings as string[]).map((message) => {
      const queue = message.startsWith(STORE_FAILED) ? failures.store : message.startsWith(SUMMARIZER_FAILED) ? failures.summarizer : null;
      const warning: BoundedWarning = { turn, message };
      if (queue && queue.length) {
        warning.error = queue.shift();
        warning.message = `${message} (${errorText(warning.error)})`;
      }
      this.#warnings.push(warning);
      return warning.message;
    });
    const record = {
      turn,
      ...raw,
      warnings,
      masked: raw.masked.map((m) => ({ turn: m.turn, tool: toolOf(m.item), storeId: idOf(m.item) })),
      cut: raw.cut.map((m) => ({ turn: m.turn, part: m.part, tool: toolOf(m.item), storeId: m.part === 'output' ? idOf(m.item) : null })),
      counter: this.#counterName,
      ms,
    } as unknown as LedgerRecord;
    return record;
  }

  #touch(i: number): ItemTexts {
    const j = this.#journal;
    if (j && i < j.items && !j.shown.has(i)) j.shown.set(i, { ...this.#items[i] });
    return this.#items[i];
  }

  async #persist(i: number): Promise<boolean> {
    const item = this.#touch(i);
    const output = item.output as string;
    const earlier = this.#storedBefore.get(i);
    if (earlier && earlier.output === output) {
      item.storeId = earlier.id;
      return true;
    }
    try {
      const id = await callMethod(this.#store, 'insertRawToolOutput', 'store.insertRawToolOutput', [{
        toolName: item.tool, rawContent: output, byteSize: utf8Length(output), turnAge: 0, capturedAt: Date.now(),
      }]);
      item.storeId = typeof id === 'string' || typeof id === 'number' ? String(id) : `${this.#agentId}/turn-${item.turn}/${item.tool}`;
      this.#storedBefore.set(i, { output, id: item.storeId });
      return true;
    } catch (error) {
      this.#failures.store.push(error);
      return false;
    }
  }

  async #summarize(from: number, to: number): Promise<Float64Array> {
    if (!this.#summarizer) return this.#core.no_summarizer();
    const hosts = [this.#summary];
    for (let i = from; i < to; i++) hosts.push(this.#items[i].shownText, this.#items[i].shownOutput, this.#items[i].tool);
    const prompt = frameText(this.#core.summarizer_prompt(from, to), hosts);
    let summary: string;
    try {
      summary = string('summarizer.summarize()', await callMethod(this.#summarizer, 'summarize', 'summarizer.summarize', [prompt]));
    } catch (error) {
      this.#failures.summarizer.push(error);
      return this.#core.summary_failed();
    }
    if (rules.isBlank(summary)) {
      this.#failures.summarizer.push(new TypeError('summarizer.summarize() returned an empty text'));
      return this.#core.summary_failed();
    }
    const tokens = count(this.#counter, summary, 'summarizer.summarize()');
    const need = this.#core.summarized(tokens);
    if (this.#core.has_summary && this.#core.first_live === to) this.#summary = summary;
    return need;
  }
}
