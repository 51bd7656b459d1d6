// Seed 004: `TurnTracker` ([3_MCP-TAS-088]).
import { vouch, vouched } from './shape.js';
import { checked } from '../errors/index.js';
import { live, type WasmObject } from '../core/lifetime.js';
import { object, string } from '../core/read.js';
import { clockNs } from '../core/runtime.js';
import type { SaopEnvelope, TurnLogEntry } from './types.js';
import { rules } from '../core/wasm.js';
import { TrackerOp } from '../core/protocol.js';

/** Internal: the runner snapshots and restores a tracker around a turn. */
export const TRACKER_STATE = Symbol('tracker state');
/** Internal: `nextIndex()` then `attach(envelope)`, in one crossing (the runner's stamp). */
export const NEXT_ATTACH = Symbol('next and attach');
/** Internal: `toLogEntry()` after `NEXT_ATTACH`, with the index it handed out. */
export const LOG_ENTRY = Symbol('log entry');

/** A strictly increasing nanosecond time: it never repeats and never goes backwards. */
export function monotonicNowNs(): bigint {
  return rules.stampNs(clockNs());
}

/**
 * Stamps envelopes with a `turn_index` for one agent/phase pair. Not a singleton: create
 * one per agent and phase.
 * @example
 * import { AgentLogStore, TurnTracker } from '@devs/context';
 *
 * const log = new AgentLogStore();
 * const tracker = new TurnTracker('dev-agent', 'implement');
 * tracker.nextIndex();                     // 1
 * const stamped = tracker.attach(envelope); // { ...envelope, turn_index: 1 }
 * log.append(tracker.toLogEntry());         // { turn_index: 1, agent_id, phase, timestamp_ns }
 */
export class TurnTracker {
  #core: (WasmObject & InstanceType<typeof rules.Tracker>) | null;
  readonly #agentId: string;
  readonly #phase: string;
  /**
   * The rules' index as their last answer gave it (every change of it goes through this
   * class): the runner reads it, for its log entry and a turn's rollback, without a crossing.
   */
  #index = 0;

  /** @throws {TypeError} when `agentId` or `phase` is not a non-empty string. */
  constructor(agentId: string, phase: string) {
    this.#agentId = string('agentId', agentId, 'a non-empty string');
    this.#phase = string('phase', phase, 'a non-empty string');
    this.#core = checked(() => new rules.Tracker(agentId.length, phase.length));
  }

  /** The last index handed out by `nextIndex` (0 before the first). */
  get currentIndex(): number {
    return live(this.#core, 'TurnTracker').op(TrackerOp.Index, 0);
  }

  /** The agent whose turns this tracker stamps. */
  get agentId(): string {
    live(this.#core, 'TurnTracker');
    return this.#agentId;
  }

  /** The orchestrator phase whose turns this tracker stamps. */
  get phase(): string {
    live(this.#core, 'TurnTracker');
    return this.#phase;
  }

  /** Advances `currentIndex` by one and returns the new value. */
  nextIndex(): number {
    return (this.#index = live(this.#core, 'TurnTracker').op(TrackerOp.Next, 0));
  }

  /** Sets `currentIndex` back to 0. */
  reset(): void {
    live(this.#core, 'TurnTracker').op(TrackerOp.Reset, 0);
    this.#index = 0;
  }

  /**
   * A shallow clone of `envelope` with `turn_index` set to `currentIndex`. The input
   * (frozen or not) is never mutated.
   */
  attach(envelope: SaopEnvelope): SaopEnvelope {
    const core = live(this.#core, 'TurnTracker');
    const stamped = { ...(object('envelope', envelope) as unknown as SaopEnvelope), turn_index: core.op(TrackerOp.Index, 0) };
    // A valid envelope stamped with the tracker's index (a whole number >= 0) is valid.
    if (vouched(envelope)) vouch(stamped);
    return stamped;
  }

  /** @internal `nextIndex()` then `attach(envelope)`: the index `next` returns is the one `attach` reads. */
  [NEXT_ATTACH](envelope: SaopEnvelope): SaopEnvelope {
    const index = (this.#index = live(this.#core, 'TurnTracker').op(TrackerOp.Next, 0));
    const stamped = { ...(object('envelope', envelope) as unknown as SaopEnvelope), turn_index: index };
    if (vouched(envelope)) vouch(stamped);
    return stamped;
  }

  /** `{ turn_index, agent_id, phase, timestamp_ns }`, stamped now. */
  toLogEntry(): TurnLogEntry {
    const core = live(this.#core, 'TurnTracker');
    return { turn_index: core.op(TrackerOp.Index, 0), agent_id: this.#agentId, phase: this.#phase, timestamp_ns: monotonicNowNs() };
  }

  /** @internal `toLogEntry()` right after the runner's stamp (`NEXT_ATTACH`), whose index it has. */
  [LOG_ENTRY](): TurnLogEntry {
    live(this.#core, 'TurnTracker');
    return { turn_index: this.#index, agent_id: this.#agentId, phase: this.#phase, timestamp_ns: monotonicNowNs() };
  }

  /** Frees the tracker's wasm state now; it is also reclaimed when collected. */
  free(): void {
    this.#core?.free();
    this.#core = null;
  }

  /** @internal */
  [TRACKER_STATE](): () => void {
    live(this.#core, 'TurnTracker');
    const index = this.#index;
    return () => {
      this.#core?.op(TrackerOp.Restore, index);
      this.#index = index;
    };
  }
}
