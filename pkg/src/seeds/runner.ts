// `AgentRunner`: the seeds wired into one host-agnostic turn loop. Which step comes next,
// the threshold, the handoff and the rollback are the rules' (`devs_context_rules::runner`);
// this loop does each step's host I/O, in JS, and answers.
import type { CalibrationFigures } from '../context/types.js';
import { argumentError, checked, ReentrantCallError, UseAfterFreeError } from '../errors/index.js';
import { BoundedHistory } from './bounded.js';
import { FrameReader, template } from '../core/frame.js';
import { LIMITS } from '../core/limits.js';
import { agentTurn, prepare, run, type Applied } from './context-management.js';
import { PendingOutputs } from './pending.js';
import { OrchestratorContextInjector, ContextRefresher, REFRESH_STATE } from './refresher.js';
import { array, callMethod, describe, holder, isObject, joinTexts, nonEmptyString, number, object, optionalNumber, probe, string, type Bag } from '../core/read.js';
import { readRunnerSnapshot, runnerSnapshot } from './runner-snapshot.js';
import { utf8Length } from '../core/runtime.js';
import { buildPrompt } from './prompt.js';
import { validateAll } from './saop.js';
import { vouch, vouched } from './shape.js';
import { answer, timeoutOption, within } from '../core/timeout.js';
import { count, counterOption } from '../tokens/count.js';
import { LOG_ENTRY, NEXT_ATTACH, TRACKER_STATE, TurnTracker } from './tracker.js';
import type { LedgerRecord } from '../context/types.js';
import type { AgentRunnerOptions, AgentRunnerSnapshot, AgentTurnResult, BoundedOptions } from './runner-types.js';
import type { ContextWindow, MediumTermSummary, SaopEnvelope, TokenCounter, TurnEntry } from './types.js';
import type { StateRepository } from '../stores/types.js';
import { SlidingRelevanceWindow, turnEntry } from './window.js';
import { rules, turnScope } from '../core/wasm.js';
import { CONTEXT_REFRESH, RunnerOp, RunnerStep, SeedFn, STEP_BASE } from '../core/protocol.js';
import { Queue } from '../core/queue.js';
import { writtenPieces } from '../providers/text.js';
import { WRITTEN_PIECES } from './written.js';


const contextRefresh = template(() => CONTEXT_REFRESH);

interface Config {
  agentId: string;
  taskGoal: string;
  llm: Bag;
  composer: Bag;
  handoff: Bag | null;
  counter: TokenCounter | undefined;
  management: { context: Bag; deps: unknown } | null;
  tracker: Bag | null;
  log: Bag | null;
  injector: Bag | null;
  bounded: BoundedHistory | null;
  /** The index of `contextManagement`'s pending outputs, carried from turn to turn. */
  pending: PendingOutputs | null;
  refreshOnContext: boolean;
  /** Milliseconds each awaited host callback may take; none by default. */
  timeoutMs: number | undefined;
}

/** The context's members a turn may replace, and so a failed turn puts back. */
const CONTEXT_MEMBERS = ['turns', 'envelopes', 'pendingToolOutputs', 'plan', 'currentObservation'] as const;

/**
 * Runs an agent turn by turn, refreshing its context from a summary at 800,000 tokens
 * (requirement 4_USER_FEATURES-REQ-083, listed in docs/guides/seeds.md, "Requirement IDs"): composes
 * the window, calls the LLM, records the response's tokens and hands off at the
 * threshold, then injects, stamps and logs the response's envelope. A failed turn changes
 * nothing: the history, turn count, token total, context, and this package's tracker,
 * refresher and log are left as they were.
 * @example
 * import { AgentRunner, ContextComposer, SummarizationHandoff } from '@devs/context';
 *
 * const runner = new AgentRunner({
 *   agentId: 'dev-agent',
 *   taskGoal: 'Make the parser tests pass',
 *   llm: { complete: async ({ prompt }) => ({ text: await llm.generate(prompt) }) },
 *   composer: new ContextComposer({ specs: [{ name: 'TAS', content: tasSummary }, { name: 'PRD', content: prdSummary }] }),
 *   handoff: new SummarizationHandoff({ llmClient: { summarize: (prompt) => llm.generate(prompt) } }),
 * });
 * const turn = await runner.runTurn('parser::tests::trailing_token fails');
 * turn.window.specInjected; // true on turns 10, 20, …
 */
export class AgentRunner {
  #core: InstanceType<typeof rules.RunnerCore> | null;
  readonly #config: Config;
  /** The whole conversation, oldest first; a pruning swaps the array. */
  #history: TurnEntry[] = [];
  /** Turns one after another; a turn with none in flight starts at once, as an async function does. */
  readonly #turns = new Queue(undefined, true);
  /** The newest envelope's plan: pinned in a bounded prompt. */
  #plan = '';

  /**
   * @throws {TypeError} naming the option that is missing or of the wrong type.
   * @throws {RangeError} when `thresholdTokens` is not a whole number >= 1.
   */
  constructor(options: AgentRunnerOptions) {
    const opts = object('options', options);
    const agentId = nonEmptyString('options.agentId', opts.agentId);
    const taskGoal = string('options.taskGoal', opts.taskGoal);
    const threshold = optionalNumber('options.thresholdTokens', opts.thresholdTokens);
    const config: Config = {
      agentId,
      taskGoal,
      llm: holder('options.llm', opts.llm, ['complete']),
      // A plain sliding window unless the host wants the specs re-injected.
      composer: opts.composer === undefined ? (new SlidingRelevanceWindow() as unknown as Bag) : holder('options.composer', opts.composer, ['compose']),
      handoff: optionalHolder(opts, 'handoff', ['transfer']),
      counter: counterOption('options.countTokens', opts.countTokens),
      management: managementOption(opts.contextManagement),
      tracker: optionalHolder(opts, 'tracker', ['nextIndex', 'attach', 'toLogEntry']),
      log: optionalHolder(opts, 'log', ['append']),
      injector: optionalHolder(opts, 'injector', ['injectIfNeeded']),
      bounded: null,
      pending: null,
      refreshOnContext: refreshOption(opts.refreshOn),
      timeoutMs: timeoutOption('options.callbackTimeoutMs', opts.callbackTimeoutMs),
    };
    if (opts.bounded !== undefined) {
      const context = config.management?.context;
      const budget = context ? ((context.budget as Bag).totalBudget as number) : 800_000;
      const deps = config.management?.deps as Bag | undefined;
      config.bounded = new BoundedHistory(opts.bounded as BoundedOptions, {
        budget, store: deps?.stateRepository as StateRepository | undefined, goal: taskGoal, counter: config.counter, callbackTimeoutMs: config.timeoutMs,
      });
    }
    if (config.management) config.pending = new PendingOutputs(config.counter);
    this.#core = checked(() => new rules.RunnerCore(threshold, config.management !== null, config.injector !== null, config.tracker !== null, config.log !== null, config.refreshOnContext));
    this.#config = config;
  }

  /** Turns completed so far. */
  get turnCount(): number {
    return this.#live().op(RunnerOp.TurnCount, 0, 0, 0);
  }

  /** Response tokens counted since the last context refresh. */
  get accumulatedTokens(): number {
    return this.#live().op(RunnerOp.Accumulated, 0, 0, 0);
  }

  /**
   * How the provider's reported input tokens relate to the runner's count, learned from
   * `LlmResponse.usage` (`bounded` runners): `provider ≈ overhead + ratio × ours`.
   */
  get calibration(): CalibrationFigures | null {
    this.#live();
    return this.#config.bounded ? this.#config.bounded.calibration : null;
  }

  /**
   * Forgets what the provider reported (`bounded` runners): the next prompts are bounded by
   * this package's counter until new `usage` reports come in. For a host whose own input
   * (system prompt, tool definitions) changed so much that the calibration no longer
   * leaves room: the next turn works again.
   */
  resetCalibration(): void {
    this.#live();
    this.#config.bounded?.resetCalibration();
  }

  /** Every turn's ledger record so far (`bounded` runners), oldest first. */
  get ledger(): LedgerRecord[] {
    this.#live();
    return this.#config.bounded ? this.#config.bounded.records.slice() : [];
  }

  /** The ledger as JSON Lines: one record a line. */
  ledgerJsonl(): string {
    return this.ledger.map((r) => `${JSON.stringify(r)}\n`).join('');
  }

  /** The conversation so far, oldest first, in a new array. */
  get turns(): TurnEntry[] {
    this.#live();
    return this.#history.slice();
  }

  /**
   * Runs one turn, with `input` (if given) as the user's message. Calls made before
   * earlier turns finish wait their turn. If a callback fails (`llm`, `composer`,
   * `handoff`, `countTokens`, `injector`, `tracker`, `log`, `contextManagement`'s
   * composer, pruner or counter, `bounded.onLedger`, `bounded.onWarning`), the promise
   * rejects with its error and the runner and its context are left exactly as before the
   * call. Two callbacks fall back instead, and the turn goes on: a failed
   * `bounded.store` (the output is cut, not masked) and a failed `bounded.summarizer`
   * (the oldest items are dropped); the ledger's warning, and `onWarning`, carry their
   * error.
   */
  runTurn(input?: string): Promise<AgentTurnResult> {
    try {
      this.#live();
      if (input !== undefined) string('input', input);
    } catch (error) {
      return Promise.reject(error);
    }
    if (turnScope?.inside(this)) return Promise.reject(new ReentrantCallError('AgentRunner.runTurn'));
    return this.#turns.run(() => (turnScope ? turnScope.run(this, () => this.#turn(input)) : this.#turn(input)));
  }

  /**
   * The runner between turns as JSON data (`bounded` runners), to store and give to
   * `AgentRunner.restore` after a crash or in another process: its next turn sends the
   * prompt this runner would have sent. Raw outputs stay in the store.
   * @throws {TypeError} naming `options.bounded` for a runner without it.
   * @throws {Error} during a turn (`ERR_TURN_IN_FLIGHT`): await it first.
   */
  snapshot(): AgentRunnerSnapshot {
    const core = this.#live();
    const bounded = this.#config.bounded;
    if (!bounded) throw argumentError(TypeError, 'options.bounded', 'is not set: snapshot() takes a runner whose conversation is bounded, the state it can give back whole');
    if (this.#turns.busy > 0) throw Object.assign(new Error('AgentRunner.snapshot() was called while a turn is in flight; await the turn, then take the snapshot'), { code: 'ERR_TURN_IN_FLIGHT' });
    return runnerSnapshot({ runner: Array.from(core.state()), turns: this.#history, plan: this.#plan, ...bounded.snapshot() });
  }

  /**
   * A runner made from `snapshot`, with the options of the one that took it (the callbacks
   * may be new ones): its next turn's prompt is byte for byte the one the first runner
   * would have sent. No callback is called, so a summary already paid for is not asked
   * for again.
   * @throws {Error} for a snapshot newer than this package, naming both versions.
   * @throws {TypeError} naming the first field of a snapshot that is altered or cut short, or that does not match `options`.
   * @example
   * import { AgentRunner, type AgentRunnerOptions } from '@devs/context';
   *
   * const options: AgentRunnerOptions = { agentId: 'dev-agent', taskGoal: 'Fix the parser', llm: async () => ({ text: 'done' }), bounded: { budget: 50_000 } };
   * const runner = new AgentRunner(options);
   * await runner.runTurn('go');
   * const saved = JSON.stringify(runner.snapshot());
   * const again = AgentRunner.restore(JSON.parse(saved), options);
   * console.log(again.turnCount); // 1
   */
  static restore(snapshot: AgentRunnerSnapshot, options: AgentRunnerOptions): AgentRunner {
    const runner = new AgentRunner(options);
    const bounded = runner.#config.bounded;
    if (!bounded) throw argumentError(TypeError, 'options.bounded', 'is not set: a runner is restored with the options it was made with, `bounded` among them');
    const snap = readRunnerSnapshot(snapshot);
    bounded.restore(snap.bounded, snap.known, 'snapshot.bounded');
    checked(() => runner.#live().resume('snapshot.runner', Float64Array.from(snap.runner)));
    runner.#history = snap.turns;
    runner.#plan = snap.plan;
    return runner;
  }

  /** Frees the runner's wasm state now; it is also reclaimed when collected. */
  free(): void {
    this.#core?.free();
    this.#core = null;
  }

  #live(): InstanceType<typeof rules.RunnerCore> {
    if (this.#core === null) throw new UseAfterFreeError('AgentRunner');
    return this.#core;
  }

  async #turn(input: string | undefined): Promise<AgentTurnResult> {
    const core = this.#live();
    const cfg = this.#config;
    const ctx = cfg.management?.context;
    // Turns run one at a time, so nothing else changes this state in between.
    const saved = { history: this.#history, length: this.#history.length, context: ctx && CONTEXT_MEMBERS.map((k) => ctx[k]) };
    const undoTracker = cfg.tracker instanceof TurnTracker ? cfg.tracker[TRACKER_STATE]() : null;
    const refresher = cfg.injector instanceof OrchestratorContextInjector ? cfg.injector[REFRESH_STATE] : null;
    const undoRefresher = refresher instanceof ContextRefresher ? refresher[REFRESH_STATE]() : null;
    const turn = core.op(RunnerOp.Begin, input !== undefined ? 1 : 0, 0, 0);
    const bounded = cfg.bounded;
    bounded?.begin();
    let history = this.#history;
    let prompted = { promptTokens: 0, rawTokens: 0 };
    let contextTokens = 0;
    const monitorBefore = core.op(RunnerOp.Accumulated, 0, 0, 0);
    let monitorTokens = monitorBefore;
    let ledger: LedgerRecord | null = null;
    let applied: Applied | null = null;
    let window: ContextWindow | undefined;
    let windowTurns = 0;
    let undoAgeing: (() => void) | null = null;
    const pending = cfg.pending;
    let ticked = false;
    let request: unknown;
    let response: Bag | undefined;
    let extra: unknown[] = [];
    let tokens = 0;
    let envelope: unknown;
    let refresh: MediumTermSummary | null = null;
    try {
      const {
        AddInput: ADD_INPUT, Manage: MANAGE, Compose: COMPOSE, CallLlm: CALL_LLM, Handoff: HANDOFF, Inject: INJECT, Stamp: STAMP,
        KeepEnvelope: KEEP_ENVELOPE, Log: LOG, Commit: COMMIT,
      } = RunnerStep;
      const steps: number[] = [];
      // The rules hand out the steps they planned as base-STEP_BASE digits after a leading 1 (`runner::pack_steps`).
      const plan = (packed: number) => {
        const planned: number[] = [];
        for (let v = packed; v > 1; v = Math.floor(v / STEP_BASE)) planned.push(v % STEP_BASE);
        steps.push(...planned.reverse());
      };
      plan(core.op(RunnerOp.Steps, 0, 0, 0));
      for (let step = steps.shift(); step !== undefined; step = steps.shift()) {
        switch (step) {
          case ADD_INPUT:
            history.push(turnEntry(turn, cfg.agentId, 'user', input as string));
            if (ctx) append(ctx, 'turns', agentTurn('user', input as string));
            if (bounded) contextTokens += bounded.addUser(turn, input as string);
            else if (cfg.refreshOnContext) contextTokens += count(cfg.counter, input, 'input');
            break;
          case MANAGE: {
            const c = ctx as Bag;
            // The index ages every output by one tick; when it cannot describe the outputs,
            // the seed's walk ages them one by one (and names a bad entry).
            ticked = pending !== null && pending.sync(c);
            if (ticked) pending?.tick();
            else undoAgeing = ageToolOutputs(c);
            const job = prepare(c, cfg.management?.deps);
            job.timeoutMs = cfg.timeoutMs;
            if (ticked) job.pending = pending;
            if (bounded) job.repo = bounded.sharing(job.repo);
            applied = await run(job);
            if (applied.result.prunedOccurred) history = this.#history = historyFrom(c.turns, turn, cfg.agentId);
            break;
          }
          case COMPOSE: {
            window = object('composer.compose()', callMethod(cfg.composer, 'compose', 'composer.compose', [history, cfg.taskGoal, turn])) as unknown as ContextWindow;
            windowTurns = array('composer.compose().turns', (window as unknown as Bag).turns).length;
            let prompt: string;
            if (bounded) {
              // The specs, when due, join the conversation at its tail, where they leave the
              // cached prefix as it was; the seeds' prompt is not built to be thrown away.
              if (window.specInjected) contextTokens += bounded.addUser(turn, window.turns[0].content);
              const built = await bounded.prompt(typeof ctx?.plan === 'string' ? ctx.plan : this.#plan);
              prompt = built.prompt;
              prompted = built;
            } else {
              prompt = buildPrompt(cfg.taskGoal, cfg.pending, cfg.management?.context ?? null, window, applied);
            }
            // Unbounded, the prompt is counted whole: by the default counter at once (its
            // length is all it reads), by a host's only when a host reads the count.
            if (!bounded && !cfg.counter) prompted = { promptTokens: count(undefined, prompt, 'prompt'), rawTokens: 0 };
            request = { agentId: cfg.agentId, turnIndex: turn, prompt, window, promptTokens: prompted.promptTokens };
            if (!bounded && cfg.counter) lazyCount(request as Bag, 'promptTokens', cfg.counter, prompt);
            break;
          }
          case CALL_LLM: {
            const got = answer(cfg.timeoutMs, callMethod(cfg.llm, 'complete', 'llm.complete', [request]), 'llm.complete');
            const r = (response = object('llm.complete()', got instanceof Promise ? await got : got));
            tokens = count(cfg.counter, r.text, 'llm.complete().text');
            envelope = r.envelope;
            if (r.envelopes !== undefined) {
              // Parallel tool calls of one model turn: one turn, several calls.
              extra = array('llm.complete().envelopes', r.envelopes);
              validateAll(extra, 'llm.complete().envelopes', Uint32Array.from(extra, (_, i) => i));
              if (envelope === undefined || envelope === null) [envelope, ...extra] = extra;
            }
            const has = envelope !== undefined && envelope !== null;
            if (has) validateAll([envelope], 'llm.complete().envelope');
            if (r.usage !== undefined) {
              const reported = number('llm.complete().usage.inputTokens', object('llm.complete().usage', r.usage).inputTokens);
              const inputTokens = checked(() => rules.seed(SeedFn.CheckInputTokens, reported, 0, 0));
              bounded?.observe(inputTokens);
            }
            history.push(turnEntry(turn, cfg.agentId, 'assistant', r.text as string));
            if (ctx) append(ctx, 'turns', agentTurn('model', r.text as string));
            if (bounded) {
              contextTokens += bounded.addResponse(turn, r.text as string, (has ? [envelope, ...extra] : extra) as SaopEnvelope[]);
            } else if (cfg.refreshOnContext) {
              contextTokens += tokens;
              for (const e of has ? [envelope, ...extra] : []) {
                const { action, observation } = e as SaopEnvelope;
                contextTokens += count(cfg.counter, JSON.stringify(action.arguments), 'envelope.action.arguments')
                  + count(cfg.counter, observation.output, 'envelope.observation.output');
              }
            }
            // Recording answers with the steps it planned.
            const next = checked(() => core.op(RunnerOp.Record, tokens, contextTokens, has ? 1 : 0));
            monitorTokens = monitorBefore + (cfg.refreshOnContext ? contextTokens : tokens);
            plan(next);
            break;
          }
          case HANDOFF: {
            if (!cfg.handoff) break;
            const recent = history.slice(rules.seed(SeedFn.RecentStart, history.length, windowTurns, 0));
            const summary = await within(cfg.timeoutMs, callMethod(cfg.handoff, 'transfer', 'handoff.transfer', [cfg.agentId, recent]), 'handoff.transfer');
            if (summary !== null && summary !== undefined) {
              const text = string('handoff.transfer().summaryText', object('handoff.transfer()', summary).summaryText);
              // Appended without recording: the summary's tokens bypass the monitor.
              const refreshText = contextRefresh([text]);
              history.push(turnEntry(turn, cfg.agentId, 'user', refreshText));
              bounded?.addUser(turn, refreshText);
              refresh = summary as MediumTermSummary;
            }
            break;
          }
          case INJECT: {
            const got = answer(cfg.timeoutMs, callMethod(cfg.injector as Bag, 'injectIfNeeded', 'injector.injectIfNeeded', [envelope, turn]), 'injector.injectIfNeeded');
            envelope = got instanceof Promise ? await got : got;
            break;
          }
          case STAMP:
            if (ownStamp(cfg.tracker)) {
              envelope = (cfg.tracker as unknown as TurnTracker)[NEXT_ATTACH](envelope as SaopEnvelope);
              break;
            }
            callMethod(cfg.tracker as Bag, 'nextIndex', 'tracker.nextIndex', []);
            envelope = callMethod(cfg.tracker as Bag, 'attach', 'tracker.attach', [envelope]);
            break;
          case KEEP_ENVELOPE:
            for (const e of extra) keepEnvelope(ctx as Bag, e, pending);
            keepEnvelope(ctx as Bag, envelope, pending);
            break;
          case LOG: {
            const entry = ownLogEntry(cfg.tracker) ? (cfg.tracker as unknown as TurnTracker)[LOG_ENTRY]() : callMethod(cfg.tracker as Bag, 'toLogEntry', 'tracker.toLogEntry', []);
            callMethod(cfg.log as Bag, 'append', 'log.append', [entry]);
            break;
          }
          case COMMIT:
            // The host hears of the turn before it stands: a listener that throws undoes
            // it, as any other callback's error does.
            if (bounded) ledger = bounded.report();
            if (envelope !== undefined && envelope !== null) this.#plan = (envelope as SaopEnvelope).thought.plan;
            core.op(RunnerOp.Commit, 0, 0, 0);
            bounded?.commit();
            break;
          default:
            throw Object.assign(new Error(`AgentRunner: unknown step ${step}`), { code: 'ERR_INTERNAL' });
        }
      }
    } catch (error) {
      undoAgeing?.();
      if (ticked) pending?.untick();
      pending?.forget();
      if (ctx && saved.context) CONTEXT_MEMBERS.forEach((k, i) => (ctx[k] = (saved.context as unknown[])[i]));
      saved.history.length = saved.length;
      this.#history = saved.history;
      undoTracker?.();
      undoRefresher?.();
      core.op(RunnerOp.Rollback, 0, 0, 0);
      bounded?.rollback();
      throw error;
    }
    const has = envelope !== undefined && envelope !== null;
    const result = {
      turnIndex: turn,
      response: response as unknown as AgentTurnResult['response'],
      window: window as ContextWindow,
      tokensRecorded: tokens,
      monitorTokens,
      contextRefresh: refresh,
      envelope: has ? (envelope as SaopEnvelope) : null,
      contextManagement: applied ? applied.result : null,
      promptTokens: prompted.promptTokens,
      ledger,
    };
    if (!bounded && cfg.counter) Object.defineProperty(result, 'promptTokens', Object.getOwnPropertyDescriptor(request as Bag, 'promptTokens') as PropertyDescriptor);
    return result;
  }
}

// The pieces of the prompt a bounded runner wrote last, for the replay's preview (`written.ts`);
// not a member the types show.
Object.defineProperty(AgentRunner, WRITTEN_PIECES, { value: writtenPieces });

/** This package's `TurnTracker` with its own `nextIndex` and `attach`: stamped in one crossing. */
function ownStamp(tracker: Bag | null): boolean {
  return tracker instanceof TurnTracker && tracker.nextIndex === TurnTracker.prototype.nextIndex && tracker.attach === TurnTracker.prototype.attach;
}

/** This package's `TurnTracker` with its own `toLogEntry`, after the stamp of `ownStamp`'s: its index is the one stamped. */
function ownLogEntry(tracker: Bag | null): boolean {
  return ownStamp(tracker) && tracker?.toLogEntry === TurnTracker.prototype.toLogEntry;
}

/** `target[key]`: `counter(text)`, computed on first read and kept. */
function lazyCount(target: Bag, key: string, counter: TokenCounter, text: string): void {
  let tokens: number | undefined;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (tokens ??= count(counter, text, 'prompt')),
  });
}

function refreshOption(value: unknown): boolean {
  if (value === undefined || value === 'response') return false;
  if (value === 'context') return true;
  throw argumentError(typeof value === 'string' ? RangeError : TypeError, 'options.refreshOn', `must be 'response' or 'context', got ${describe(value)}`);
}

function optionalHolder(options: Bag, key: string, methods: readonly string[]): Bag | null {
  return options[key] === undefined ? null : holder(`options.${key}`, options[key], methods);
}

function managementOption(value: unknown): Config['management'] {
  if (value === undefined) return null;
  const m = object('options.contextManagement', value);
  // Checked now, so a bad context fails at construction rather than on turn one.
  prepare(m.context, m.deps, 'options.contextManagement.context');
  return { context: m.context as Bag, deps: m.deps };
}

/** `context[key] = [...context[key], value]`: a new array, never the host's mutated. */
function append(ctx: Bag, key: string, value: unknown): void {
  ctx[key] = [...array(`context.${key}`, ctx[key]), value];
}

/** One turn older: whole outputs get a copy with `turnAge + 1`; truncated ones stay. */
/**
 * Ages every pending output by a turn. The runner's own entries (`OWN_ENTRIES`) age in
 * place, so that each keeps its identity and what was read from it stays cached; a host's
 * are copied, as it may hold them. Returns how to take the ageing back.
 */
function ageToolOutputs(ctx: Bag): () => void {
  const outputs = array('context.pendingToolOutputs', ctx.pendingToolOutputs);
  const ages = new Float64Array(outputs.length);
  for (let i = 0; i < outputs.length; i++) {
    const age = isObject(outputs[i]) ? (outputs[i] as Bag).turnAge : undefined;
    ages[i] = typeof age === 'number' ? age : NaN;
  }
  const aged = rules.agedOutputs(ages);
  const own: Array<[Bag, unknown]> = [];
  let copied: unknown[] | null = null;
  for (let i = 0; i < outputs.length; i++) {
    if (Number.isNaN(ages[i])) continue;
    const o = outputs[i] as Bag;
    if (OWN_ENTRIES.has(o)) {
      own.push([o, o.turnAge]);
      o.turnAge = aged[i];
    } else {
      copied ??= outputs.slice();
      copied[i] = { ...o, turnAge: aged[i] };
    }
  }
  if (copied) ctx.pendingToolOutputs = copied;
  return () => {
    for (const [o, age] of own) o.turnAge = age;
  };
}

/** Pending outputs the runner made itself, from envelopes: no host holds them. */
const OWN_ENTRIES = new WeakSet<object>();

function ownEntry<T extends object>(entry: T): T {
  OWN_ENTRIES.add(entry);
  return entry;
}

/**
 * Keeps the envelope, its plan and observation, and its output as a pending tool output.
 * The context's copy of the envelope holds only the head of a long output, so the whole
 * output is in the window once, under Tool outputs, where it is persisted and truncated.
 */
function keepEnvelope(ctx: Bag, envelope: unknown, pending: PendingOutputs | null): void {
  const env = envelope as Bag;
  const thought = env.thought as Bag;
  const observation = env.observation as Bag;
  const output = string('envelope.observation.output', observation.output);
  const status = typeof observation.status === 'string' ? observation.status : '';
  const toolName = (env.action as Bag).tool_name;
  const frame = new FrameReader(rules.observationText(...probe(output, LIMITS.observationChars), output.length));
  const due = frame.flag();
  const long = frame.flag();
  const hosts = [status, output];
  const currentObservation = frame.text(hosts);
  const kept = long ? { ...env, observation: { ...observation, output: frame.text(hosts) } } : env;
  // Valid as the envelope it was cut from (an output is any string): the window need not ask again.
  if (kept !== env && vouched(env)) vouch(kept);
  const envelopes = [...array('context.envelopes', ctx.envelopes), kept];
  let outputs = ctx.pendingToolOutputs;
  if (due) {
    const from = ctx.pendingToolOutputs;
    const list = [...array('context.pendingToolOutputs', from)];
    const fields = { toolName, rawContent: output, byteSize: utf8Length(output), capturedAt: Date.now() };
    // The index's entry reads its age off the index's clock; without one, a plain entry.
    if (pending) pending.push(from, list, fields);
    else list.push(ownEntry({ toolName, rawContent: output, byteSize: fields.byteSize, turnAge: 0, capturedAt: fields.capturedAt }));
    outputs = list;
  }
  ctx.plan = thought.plan;
  ctx.currentObservation = currentObservation;
  ctx.envelopes = envelopes;
  ctx.pendingToolOutputs = outputs;
}

/** After a pruning, the runner's history restarts from the pruned turns. */
function historyFrom(turns: unknown, turn: number, agentId: string): TurnEntry[] {
  const list = array('context.turns', turns) as Bag[];
  const roles = list.map((t) => (typeof t.role === 'string' ? t.role : ''));
  const assistant = rules.historyRoles(...joinTexts(roles));
  return list.map((t, i) => turnEntry(turn, agentId, assistant[i] === 1 ? 'assistant' : 'user', t.content as string));
}
