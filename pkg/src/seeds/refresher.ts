// Seed 000: `ContextRefresher` and `OrchestratorContextInjector` ([3_MCP-TAS-089]).
import { checked } from '../errors/index.js';
import { template } from '../core/frame.js';
import { live, type WasmObject } from '../core/lifetime.js';
import { callMethod, holder, number, object, optionalNumber, string, type Bag } from '../core/read.js';
import type { ContextRefresherOptions, RefreshResult, SaopEnvelope } from './types.js';
import { rules } from '../core/wasm.js';
import { INJECTED_SUMMARY, PREPENDED_REASONING, RefresherOp } from '../core/protocol.js';

const injectedSummary = template(() => INJECTED_SUMMARY);
const prependedReasoning = template(() => PREPENDED_REASONING);

/** Internal: the runner snapshots and restores a refresher around a turn. */
export const REFRESH_STATE = Symbol('refresh state');

/**
 * Re-injects the TAS and PRD summaries every `threshold` turns (default 5) within one
 * orchestrator node (requirement 3_MCP-TAS-089, listed in docs/guides/seeds.md, "Requirement IDs"). Call `resetNode()` when the orchestrator moves to
 * another node. The refresh is decided when `onTurn` is called, so turns the host does
 * not await still count exactly.
 * @example
 * import { ContextRefresher } from '@devs/context';
 *
 * const refresher = new ContextRefresher({
 *   threshold: 5,
 *   summaryProvider: { getSummary: async () => ({ tasSummary: 'TAS', prdSummary: 'PRD' }) },
 * });
 * for (let turn = 1; turn <= 5; turn++) {
 *   const result = await refresher.onTurn(turn);
 *   if (result.refreshed) console.log(result.injectedSummary); // on turn 5
 * }
 */
export class ContextRefresher {
  #core: (WasmObject & InstanceType<typeof rules.Refresher>) | null;
  readonly #provider: Bag;

  /**
   * @throws {TypeError} when `summaryProvider.getSummary` is not a function.
   * @throws {RangeError} when `threshold` is not a whole number >= 1.
   */
  constructor(options: ContextRefresherOptions) {
    const opts = object('options', options);
    this.#provider = holder('options.summaryProvider', opts.summaryProvider, ['getSummary']);
    const threshold = optionalNumber('options.threshold', opts.threshold);
    this.#core = checked(() => new rules.Refresher(threshold));
  }

  /** Turns counted in the current node since the last refresh. */
  get turnsInCurrentNode(): number {
    return live(this.#core, 'ContextRefresher').op(RefresherOp.Turns, 0, 0);
  }

  /** The number of turns between refreshes. */
  get threshold(): number {
    return live(this.#core, 'ContextRefresher').op(RefresherOp.Threshold, 0, 0);
  }

  /**
   * Counts one turn. On the `threshold`-th turn it awaits `summaryProvider.getSummary()`
   * and resolves `{ refreshed: true, injectedSummary }`; otherwise `{ refreshed: false }`.
   * If the provider throws or rejects, the promise rejects with that same error and the
   * turn is undone, so the next turn retries the refresh.
   */
  onTurn(turnIndex: number): Promise<RefreshResult> {
    let ticket: number;
    try {
      const core = live(this.#core, 'ContextRefresher');
      const index = number('turnIndex', turnIndex);
      ticket = checked(() => core.op(RefresherOp.Tick, index, 0));
    } catch (error) {
      return Promise.reject(error);
    }
    if (ticket < 0) return Promise.resolve({ refreshed: false });
    const undo = () => this.#core?.op(RefresherOp.Rollback, ticket, 0);
    let called: unknown;
    try {
      // Called now, not on a later microtask, as the seed's `async onTurn` would.
      called = callMethod(this.#provider, 'getSummary', 'summaryProvider.getSummary', []);
    } catch (error) {
      undo();
      return Promise.reject(error);
    }
    return Promise.resolve(called).then(
      (value) => {
        try {
          const field = 'summaryProvider.getSummary()';
          const summaries = object(field, value);
          const tas = string(`${field}.tasSummary`, summaries.tasSummary);
          const prd = string(`${field}.prdSummary`, summaries.prdSummary);
          return { refreshed: true, injectedSummary: injectedSummary([tas, prd]) };
        } catch (error) {
          undo();
          throw error;
        }
      },
      (error: unknown) => {
        undo();
        throw error;
      },
    );
  }

  /** Starts a new node: the turn count goes back to 0 and no refresh is triggered. */
  resetNode(): void {
    live(this.#core, 'ContextRefresher').op(RefresherOp.ResetNode, 0, 0);
  }

  /** Frees the refresher's wasm state now; it is also reclaimed when collected. */
  free(): void {
    this.#core?.free();
    this.#core = null;
  }

  /** @internal */
  [REFRESH_STATE](): () => void {
    const core = live(this.#core, 'ContextRefresher');
    const turns = core.op(RefresherOp.Turns, 0, 0);
    const node = core.op(RefresherOp.Node, 0, 0);
    return () => this.#core?.op(RefresherOp.Restore, turns, node);
  }
}

/**
 * Prepends the refresher's summary to `thought.reasoning` whenever it fires.
 * @example
 * import { ContextRefresher, OrchestratorContextInjector, TurnTracker } from '@devs/context';
 *
 * const refresher = new ContextRefresher({ summaryProvider: { getSummary: () => ({ tasSummary, prdSummary }) } });
 * const injector = new OrchestratorContextInjector(refresher);
 * const tracker = new TurnTracker('dev-agent', 'implement');
 * const turn = tracker.nextIndex();
 * const injected = await injector.injectIfNeeded(tracker.attach(envelope), turn); // a new object on refresh turns
 */
export class OrchestratorContextInjector {
  #refresher: Bag | null;

  /** Takes a `ContextRefresher`, or any object with the same `onTurn`. */
  constructor(refresher: Pick<ContextRefresher, 'onTurn'>) {
    this.#refresher = holder('refresher', refresher, ['onTurn']);
  }

  /**
   * Resolves `envelope` itself when no refresh is due, otherwise a new envelope (the
   * input is never mutated) whose `thought.reasoning` starts with the refresh.
   */
  injectIfNeeded(envelope: SaopEnvelope, turnIndex: number): Promise<SaopEnvelope> {
    let called: unknown;
    let copy: Bag;
    let thought: Bag;
    let reasoning: string;
    try {
      const refresher = live(this.#refresher, 'OrchestratorContextInjector');
      // Read and copied before the refresher counts the turn: a bad envelope, or a getter
      // or Proxy trap that throws, never uses up a turn of the refresher.
      [thought, reasoning] = reasoningOf(envelope);
      copy = { ...(envelope as unknown as Bag) };
      thought = { ...thought };
      called = callMethod(refresher, 'onTurn', 'refresher.onTurn', [turnIndex]);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(called).then((value) => {
      const result = object('refresher.onTurn()', value);
      if (!result.refreshed) return envelope;
      const injected = string('refresher.onTurn().injectedSummary', result.injectedSummary);
      return { ...copy, thought: { ...thought, reasoning: prependedReasoning([injected, reasoning]) } } as unknown as SaopEnvelope;
    });
  }

  /** The refresher, for the runner's rollback when it is this package's. */
  get [REFRESH_STATE](): Bag | null {
    return this.#refresher;
  }

  /** Marks the injector freed (it holds no wasm state of its own). */
  free(): void {
    this.#refresher = null;
  }
}

function reasoningOf(envelope: unknown): [Bag, string] {
  const env = object('envelope', envelope);
  const thought = object('envelope.thought', env.thought);
  return [thought, string('envelope.thought.reasoning', thought.reasoning)];
}
