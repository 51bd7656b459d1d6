// Seed 003: `TokenThresholdMonitor` ([4_USER_FEATURES-REQ-083]).
import { checked } from '../errors/index.js';
import { live, type WasmObject } from '../core/lifetime.js';
import { method, number, object, optionalNumber } from '../core/read.js';
import { count, counterOption } from '../tokens/count.js';
import type { ContextRefreshEvent, TokenCounter, TokenThresholdMonitorConfig } from './types.js';
import { rules } from '../core/wasm.js';
import { MonitorOp } from '../core/protocol.js';

/**
 * Accumulates token counts and calls `onThresholdExceeded` each time the total reaches
 * `thresholdTokens` (default 800,000), resetting before the callback runs
 * (requirement 4_USER_FEATURES-REQ-083, listed in docs/guides/seeds.md, "Requirement IDs").
 * @example
 * import { SummarizationHandoff, TokenThresholdMonitor } from '@devs/context';
 *
 * const handoff = new SummarizationHandoff({ llmClient: { summarize: (prompt) => llm.generate(prompt) } });
 * const monitor = new TokenThresholdMonitor({
 *   onThresholdExceeded: async () => { await handoff.transfer('dev-agent', turns.slice(-20)); },
 * });
 * await monitor.recordText(await llm.generate('Fix the failing parser test'));
 */
export class TokenThresholdMonitor {
  #core: (WasmObject & InstanceType<typeof rules.Monitor>) | null;
  readonly #callback: (event: ContextRefreshEvent) => unknown;
  readonly #counter: TokenCounter | undefined;

  /**
   * @throws {TypeError} when `onThresholdExceeded` (or `countTokens`) is not a function.
   * @throws {RangeError} when `thresholdTokens` is not a whole number >= 1.
   */
  constructor(config: TokenThresholdMonitorConfig) {
    const c = object('config', config);
    this.#callback = method(c, 'onThresholdExceeded', 'config.onThresholdExceeded') as (event: ContextRefreshEvent) => unknown;
    const threshold = optionalNumber('config.thresholdTokens', c.thresholdTokens);
    this.#counter = counterOption('config.countTokens', c.countTokens);
    this.#core = checked(() => new rules.Monitor('config.thresholdTokens', threshold));
  }

  /** The total at which `onThresholdExceeded` is called. */
  get thresholdTokens(): number {
    return live(this.#core, 'TokenThresholdMonitor').op(MonitorOp.Threshold, 0);
  }

  /**
   * Adds `tokens`. When the total reaches the threshold it captures
   * `{ totalTokens, triggeredAt }`, resets the total to 0, then awaits
   * `onThresholdExceeded(event)` before resolving. Tokens recorded while the callback
   * runs count toward the next window, and each crossing calls back exactly once. If the
   * callback fails, the promise rejects with its error and the window's tokens are put
   * back, so none are lost.
   * @throws {TypeError|RangeError} (as a rejection) for a non-number, negative, NaN or
   * infinite `tokens`.
   */
  record(tokens: number): Promise<void> {
    let total: number;
    try {
      total = this.#add(number('tokens', tokens));
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#crossed(total);
  }

  /** `record(countTokens(text))`, with this monitor's counter. */
  recordText(text: string): Promise<void> {
    let total: number;
    try {
      live(this.#core, 'TokenThresholdMonitor');
      total = this.#add(count(this.#counter, text, 'text'));
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#crossed(total);
  }

  /** Sets the running total to 0. */
  reset(): void {
    live(this.#core, 'TokenThresholdMonitor').op(MonitorOp.Reset, 0);
  }

  /** The running total since the last reset. */
  getAccumulatedTokens(): number {
    return live(this.#core, 'TokenThresholdMonitor').op(MonitorOp.Accumulated, 0);
  }

  /** Frees the monitor's wasm state now; it is also reclaimed when collected. */
  free(): void {
    this.#core?.free();
    this.#core = null;
  }

  /** The total that crossed the threshold, or -1. */
  #add(tokens: number): number {
    const core = live(this.#core, 'TokenThresholdMonitor');
    return checked(() => core.op(MonitorOp.Record, tokens));
  }

  #crossed(total: number): Promise<void> {
    if (total < 0) return Promise.resolve();
    const undo = () => this.#core?.op(MonitorOp.Rollback, total);
    let called: unknown;
    try {
      // Called at once, as the seed does. Queueing callbacks behind one another would
      // deadlock a callback that itself awaits a record crossing the threshold again.
      called = this.#callback.call(undefined, { totalTokens: total, triggeredAt: new Date() });
    } catch (error) {
      undo();
      return Promise.reject(error);
    }
    return Promise.resolve(called).then(
      () => undefined,
      (error: unknown) => {
        undo();
        throw error;
      },
    );
  }
}
