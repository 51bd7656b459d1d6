// Seed 004: `AgentLogStore` ([3_MCP-TAS-088]).
import { argumentError, checked } from '../errors/index.js';
import { live, type WasmObject } from '../core/lifetime.js';
import { describe, number, object, optionalNumber, string } from '../core/read.js';
import type { TurnLogEntry } from './types.js';
import { rules } from '../core/wasm.js';
import { LogOp } from '../core/protocol.js';

const RELEASED = 4_294_967_296;

/**
 * An in-memory ring buffer of `TurnLogEntry` records. It never holds more than `maxSize`
 * entries (default 1000): appending to a full store drops the oldest (FIFO), in O(1).
 * @example
 * import { AgentLogStore, TurnTracker } from '@devs/context';
 *
 * const log = new AgentLogStore(1000);
 * const tracker = new TurnTracker('dev-agent', 'implement');
 * tracker.nextIndex();
 * log.append(tracker.toLogEntry());
 * log.getByAgent('dev-agent'); // oldest first
 */
export class AgentLogStore {
  #core: (WasmObject & InstanceType<typeof rules.LogSlots>) | null;
  /** The entries, in the slots the rules assign. */
  #entries: TurnLogEntry[] = [];
  /** Each distinct `agent_id` held, as the key the rules index it by: exact string equality. */
  #agents = new Map<string, number>();
  #agentIds = new Map<number, string>();
  #nextAgent = 0;

  /** @throws {RangeError} when `maxSize` is not a whole number >= 1. */
  constructor(maxSize?: number) {
    const size = optionalNumber('maxSize', maxSize);
    this.#core = checked(() => new rules.LogSlots(size));
  }

  /** The most entries the store holds before it drops the oldest. */
  get maxSize(): number {
    return live(this.#core, 'AgentLogStore').op(LogOp.MaxSize, 0, 0);
  }

  /** How many entries the store holds now. */
  get size(): number {
    return live(this.#core, 'AgentLogStore').op(LogOp.Size, 0, 0);
  }

  /**
   * Appends `entry` in O(1), evicting the oldest entry when the store is full.
   * @throws {TypeError} naming the field when `entry` is not a `TurnLogEntry`.
   */
  append(entry: TurnLogEntry): void {
    const core = live(this.#core, 'AgentLogStore');
    const e = object('entry', entry);
    const turnIndex = number('entry.turn_index', e.turn_index);
    const agentId = string('entry.agent_id', e.agent_id);
    string('entry.phase', e.phase);
    const stamp = e.timestamp_ns;
    if (typeof stamp !== 'bigint') {
      throw argumentError(TypeError, 'entry.timestamp_ns', `must be a bigint, got ${describe(stamp)}`);
    }
    let agent = this.#agents.get(agentId);
    const isNew = agent === undefined;
    if (agent === undefined) agent = this.#nextAgent;
    const key = agent;
    const placed = checked(() => core.op(LogOp.Append, key, turnIndex));
    if (isNew) {
      this.#agents.set(agentId, agent);
      this.#agentIds.set(agent, agentId);
      this.#nextAgent++;
    }
    const released = Math.floor(placed / RELEASED);
    if (released > 0) {
      const key = released - 1;
      this.#agents.delete(this.#agentIds.get(key) as string);
      this.#agentIds.delete(key);
    }
    this.#entries[placed % RELEASED] = entry;
  }

  /** Every entry, oldest first, in a new array. */
  getAll(): TurnLogEntry[] {
    return this.#at(live(this.#core, 'AgentLogStore').slots(undefined));
  }

  /** The entries whose `agent_id` is `agentId`, oldest first. */
  getByAgent(agentId: string): TurnLogEntry[] {
    const core = live(this.#core, 'AgentLogStore');
    const agent = this.#agents.get(string('agentId', agentId));
    return agent === undefined ? [] : this.#at(core.slots(agent));
  }

  /** The oldest entry whose `turn_index` is `index`, or `undefined`. */
  getByTurnIndex(index: number): TurnLogEntry | undefined {
    const slot = live(this.#core, 'AgentLogStore').op(LogOp.ByTurnIndex, number('index', index), 0);
    return slot < 0 ? undefined : this.#entries[slot];
  }

  /** Empties the store. */
  clear(): void {
    live(this.#core, 'AgentLogStore').op(LogOp.Clear, 0, 0);
    this.#entries = [];
    this.#agents.clear();
    this.#agentIds.clear();
  }

  /** Frees the store's wasm state now; it is also reclaimed when collected. */
  free(): void {
    this.#core?.free();
    this.#core = null;
    this.#entries = [];
    this.#agents.clear();
    this.#agentIds.clear();
  }

  #at(slots: Uint32Array): TurnLogEntry[] {
    const out = new Array<TurnLogEntry>(slots.length);
    for (let i = 0; i < slots.length; i++) out[i] = this.#entries[slots[i]];
    return out;
  }
}
