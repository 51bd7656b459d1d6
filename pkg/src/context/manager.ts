// `ContextManager`: provider-native messages in, a bounded, cache-stable request out. It
// reads the host's options once and runs the engine (`engine.ts`) one build at a time.
import type { CalibrationFigures, BuildOptions } from './types.js';
import { Engine, restored } from './engine.js';
import { give, statusOf } from './history.js';
import { ReentrantCallError, argumentError } from '../errors/index.js';
import { live } from '../core/lifetime.js';
import { turnScope } from '../core/wasm.js';
import type { Adapter } from '../providers/neutral.js';
import { object } from '../core/read.js';
import { Queue } from '../core/queue.js';
import { readSnapshot, toSnapshot } from './snapshot.js';
import { readOptions, recallAnswer, recallText } from './recall.js';
import { MessagePrints } from './sync.js';
import { buildTime } from './clock.js';
import { ContextSession } from './session/session.js';
import { buildOnce, engineOptions, managerParts, recallToolOf, type Hooks } from './kernel.js';
import type { AppendExtraOf, RecallAnswerOf, RecallToolOf, CompactionEvent, ContextBuild, ContextFormat, ContextReminder, LedgerRecord, ContextManagerOptions, ContextSessionOptions, ContextSnapshot, ContextWarning, RecallOptions } from './types.js';

/**
 * The implementation of `ContextManager`. Hosts see it through `manager-api.ts`, whose
 * construct signatures type the format from `options.format` when only the message type is
 * named. The class's own documentation, its constructor's and its statics' are there; its
 * members' are here.
 */
export class ContextManagerClass<Message = unknown, Format extends ContextFormat = ContextFormat> {
  static {
    // The name hosts know it by, in stack traces and `console.log`.
    Object.defineProperty(this, 'name', { value: 'ContextManager' });
  }

  #engine: Engine | null;
  readonly #adapter: Adapter;
  readonly #onLedger: ((record: LedgerRecord) => void) | undefined;
  readonly #onCompaction: ((event: CompactionEvent) => void) | undefined;
  readonly #beforeCompaction: Hooks['beforeCompaction'];
  readonly #tracer: Hooks['tracer'];
  readonly #conversation: string | undefined;
  readonly #onWarning: ((warning: ContextWarning) => void) | undefined;
  readonly #reminders: ContextReminder[];
  readonly #timeoutMs: number | undefined;
  readonly #format: ContextFormat;
  /** Builds run one after another. */
  readonly #queue = new Queue();
  /** The engine's options, to make it anew when a framework's list is taken in again. */
  readonly #engineOptions: ReturnType<typeof engineOptions>;
  /** The messages `sync` took in, by print. */
  readonly #prints = new MessagePrints();
  /** An append taken in after a pending build that did not fit: the next build's error. */
  #refused: unknown;

  /** See `ContextManagerConstructor`. */
  constructor(options: ContextManagerOptions & { format: Format }) {
    const parts = managerParts(object('options', options));
    this.#format = parts.format;
    this.#adapter = parts.adapter;
    this.#onLedger = parts.onLedger;
    this.#onCompaction = parts.onCompaction;
    this.#beforeCompaction = parts.beforeCompaction;
    this.#tracer = parts.tracer;
    this.#conversation = parts.conversation;
    this.#onWarning = parts.onWarning;
    this.#reminders = parts.reminders;
    this.#timeoutMs = parts.timeoutMs;
    this.#engineOptions = engineOptions('options', parts.opts, this.#adapter);
    this.#engine = new Engine(this.#engineOptions);
  }

  /**
   * Takes in a framework's whole message list, as it hands it over at every model call (the
   * AI SDK's prompt, a LangChain agent's state, the Agents SDK's input): the messages new
   * since the last `sync` are appended. A list that no longer begins with the messages taken
   * in (the framework removed or replaced one) is taken in anew, and the next build's ledger
   * says so (`history-rebuilt`); nothing invalid is ever sent. Messages are compared by
   * content, so a framework that makes new objects each call costs nothing more.
   * @throws {TypeError} as `append`, naming the message; nothing is taken in.
   */
  sync(messages: readonly Message[]): void {
    const engine = live(this.#engine, 'ContextManager');
    if (!Array.isArray(messages)) throw argumentError(TypeError, 'messages', 'must be an array of messages');
    if (this.#queue.busy > 0) throw Object.assign(new Error('ContextManager.sync() was called while a build is in flight; await the build first'), { code: 'ERR_BUILD_IN_FLIGHT' });
    // Taken in by `append` or restored from a snapshot: trusted to be the list's first.
    const held = statusOf(engine.core.status()).messages;
    if (this.#prints.length === 0 && held > 0) this.#prints.trust(Math.min(held, messages.length), messages);
    const plan = this.#prints.plan(messages);
    const field = (i: number) => `messages[${i}]`;
    if ('append' in plan) {
      const fresh = messages.slice(plan.append);
      if (fresh.length) engine.append(fresh, (i) => field(plan.append + i));
      this.#prints.took(messages, plan.append);
      return;
    }
    // Anew, in a new engine: the old one stays if a message is refused.
    const next = new Engine(this.#engineOptions);
    try {
      next.append(messages, field);
    } catch (error) {
      next.core.free();
      throw error;
    }
    next.records.push(...engine.records);
    give(next.core, { kind: 'HistoryRebuilt' });
    engine.core.free();
    this.#engine = next;
    this.#prints.clear();
    this.#prints.took(messages, 0);
  }

  /**
   * Appends messages you sent or received, exactly as you have them: one message or an
   * array. All or none: a message that does not fit its format (a tool result in an
   * `anthropic` assistant message, a result whose call is not in the assistant message
   * before it) is a TypeError naming its index and field, and nothing is appended.
   * While a build called before it is pending, the message is taken in after that build,
   * in call order (the build holds only what came before it), and one that does not fit
   * is the next build's error instead.
   */
  append(message: Message | Message[] | AppendExtraOf<Format>): void {
    const engine = live(this.#engine, 'ContextManager');
    const list = (Array.isArray(message) ? message : [message]) as readonly unknown[];
    const field = (i: number) => (Array.isArray(message) ? `messages[${i}]` : 'message');
    if (this.#queue.busy === 0) {
      engine.append(list, field);
      return;
    }
    // A build called before this append has not finished: the message is taken in after
    // it, in call order, so that build holds only what came before it (and a build taken
    // back cannot take the message with it). One that does not fit is the next build's error.
    const held = [...list];
    void this.#queue.run(() => {
      try {
        engine.append(held, field);
      } catch (error) {
        this.#refused ??= error;
      }
    });
  }

  /**
   * The request to send now: `{ system?, messages, tokens, ledger }`, valid for the
   * provider and at most `budget` tokens. Builds run one at a time, in call order. A
   * callback that fails (the counter, `onLedger`, `onWarning`) rejects with its error and
   * changes nothing; a store or summarizer that fails falls back, with a warning.
   * `options.now` is the request's time (`BuildOptions`).
   */
  build(options?: BuildOptions): Promise<ContextBuild<Message, Format>> {
    let engine: Engine;
    let now: number | undefined;
    try {
      engine = live(this.#engine, 'ContextManager');
      now = buildTime(options);
    } catch (error) {
      return Promise.reject(error);
    }
    if (turnScope?.inside(this)) return Promise.reject(new ReentrantCallError('ContextManager.build'));
    return this.#queue.run(() => (turnScope ? turnScope.run(this, () => this.#build(engine, now)) : this.#build(engine, now)));
  }

  /**
   * The manager as JSON data, to store and give to `ContextManager.restore` after a crash
   * or in another process: its next `build()` is the one this manager would give. Raw
   * outputs stay in the store. Taken between builds: during one it throws, so await the
   * build first.
   * @throws {Error} during a build.
   * @throws {TypeError} for a `vscode` message with a part JSON cannot hold (a data part), naming it: text, tool call and tool result parts are kept, and come back as the `vscode` module's own classes.
   */
  snapshot(): ContextSnapshot {
    const engine = live(this.#engine, 'ContextManager');
    if (this.#queue.busy > 0) throw Object.assign(new Error('ContextManager.snapshot() was called while a build is in flight; await the build, then take the snapshot'), { code: 'ERR_BUILD_IN_FLIGHT' });
    return toSnapshot(engine.state(), this.#format, engine.config);
  }

  /** See `ContextManagerConstructor.restore`. */
  static restore<M = unknown>(snapshot: ContextSnapshot, options: ContextManagerOptions): ContextManagerClass<M> {
    const manager = new ContextManagerClass<M>(options);
    const engine = manager.#engine as Engine;
    const state = readSnapshot(snapshot, manager.#format, engine.config);
    engine.core.free();
    // Data of earlier rules that today's cannot replay is rebuilt once (`format-migrated`).
    manager.#engine = restored(() => new Engine(manager.#engineOptions), state, 'snapshot');
    return manager;
  }

  /** See `ContextManagerConstructor.open`. */
  static open<M = unknown, F extends ContextFormat = ContextFormat>(options: ContextSessionOptions & { format: F }): Promise<ContextSession<M, F>> {
    try {
      return ContextSession.open<M, F>(options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Records the provider's usage of the request last built, as its SDK returns it: it
   * feeds the calibration and the ledger's observed cache figures. A usage of the wrong
   * shape is a TypeError naming the field, and changes nothing.
   */
  recordUsage(usage: unknown): void {
    const engine = live(this.#engine, 'ContextManager');
    engine.observe(this.#adapter.usage(usage, 'usage'));
  }

  /** The next build compacts, whatever the request's size. */
  compact(): void {
    give(live(this.#engine, 'ContextManager').core, { kind: 'Compact' });
  }

  /** Forgets what the provider reported: requests are counted as ours until new reports come. */
  resetCalibration(): void {
    give(live(this.#engine, 'ContextManager').core, { kind: 'CalibrationReset' });
  }

  /** How the provider's reported input tokens relate to ours: `provider ≈ overhead + ratio × text + mediaRatio × media`. */
  get calibration(): CalibrationFigures {
    return live(this.#engine, 'ContextManager').calibration;
  }

  /**
   * The working state the engine wrote after the summary at the last compaction, as the
   * request shows it: the user's own words, the files the agent changed, the calls still
   * open ('' before the first compaction). It changes only at a compaction.
   */
  get workingState(): string {
    return live(this.#engine, 'ContextManager').workingState;
  }

  /** Every request's ledger record so far, oldest first. */
  get ledger(): LedgerRecord[] {
    return live(this.#engine, 'ContextManager').records.slice();
  }

  /**
   * The recall tool's definition in this manager's provider shape (an Anthropic tool, an
   * OpenAI function tool, an AI SDK tool, a `LanguageModelChatTool`), to pass with your
   * own tools. Its name is `'recall'`: answer the model's calls of it with `recall(call)`.
   * @throws {Error} without `options.recall: true`: the requests would not say the tool is there.
   */
  get recallTool(): RecallToolOf<Format> {
    return recallToolOf(live(this.#engine, 'ContextManager'), this.#adapter) as RecallToolOf<Format>;
  }

  /**
   * Answers the model's call of the recall tool (a `tool_use` block, a `tool_calls` entry, a
   * `function_call` item, a `tool-call` part, a `LanguageModelToolCallPart`) with the message
   * to append: a page of the stored text it names, the lines holding its query, or a note
   * the model can read (an id of another conversation, one unknown, a page it already has).
   * Given an id instead, resolves to the text itself: a page at most a share of the budget.
   * @throws {TypeError} for a call of another tool, or not a call at all, naming the field.
   */
  recall(call: unknown): Promise<Message & RecallAnswerOf<Format>>;
  recall(id: string, options?: RecallOptions): Promise<string>;
  recall(call: unknown, options?: RecallOptions): Promise<unknown> {
    try {
      const engine = live(this.#engine, 'ContextManager');
      if (typeof call === 'string') return recallText(engine, call, readOptions(options, 'options'));
      return recallAnswer(engine, this.#adapter, call);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Frees the manager's wasm state now; it is also reclaimed when collected. */
  free(): void {
    this.#engine?.core.free();
    this.#engine = null;
  }

  #build(engine: Engine, now: number | undefined): Promise<ContextBuild<Message, Format>> {
    if (this.#refused !== undefined) {
      const error = this.#refused;
      this.#refused = undefined;
      return Promise.reject(error);
    }
    try {
      if (now !== undefined) give(engine.core, { kind: 'Time', now });
    } catch (error) {
      return Promise.reject(error);
    }
    const hooks = { adapter: this.#adapter, reminders: this.#reminders, timeoutMs: this.#timeoutMs, onLedger: this.#onLedger, onWarning: this.#onWarning, onCompaction: this.#onCompaction, beforeCompaction: this.#beforeCompaction, tracer: this.#tracer, conversation: this.#conversation };
    return buildOnce<Message, Format>(engine, hooks);
  }
}
