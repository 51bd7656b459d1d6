// An engine as JSON data of its own (crates/rules/src/context/state.rs encodes the rules'
// half): its state between builds (`Engine.state`, what a snapshot and a checkpoint hold),
// the changes of one call (`Engine.changes`, a session's row), and how rows fold into a
// state. Stored data is checked against the rules' own counts before anything is made of it.
import { argumentError } from '../errors/index.js';
import type { LoggedCall } from './journal.js';
import type { KeptMessage, LedgerRecord } from './types.js';

/** What an engine is, as JSON data: see `Engine.state`. */
export interface EngineState {
  /** The rules' state, encoded by them (base64): what a snapshot and a session's checkpoint hold. */
  rules?: string;
  /** The journal since `rules` (or since the start): base64 chunks, in order. */
  events?: string[];
  /** Format 1: the rules' calls that made their state, replayed before `events`. */
  log?: LoggedCall[];
  /**
   * Each message as kept, with the texts shown for its parts and the parts written into it;
   * `null`: released. In a state taken whole (`Engine.state`), a run of released ones is
   * their count: its size follows what is live, not the session's age.
   */
  messages: Array<KeptMessage | null | number>;
  /** Each call's id and tool name, in the rules' order; a count: that many calls let go (folded away). */
  calls: Array<[string, string] | number>;
  summary: string;
  tail: string;
  ledger: LedgerRecord[];
  /** How many records came before `ledger[0]` (a snapshot keeps the last few). */
  ledgerFrom?: number;
  /** The index line of each text the engine stored, by store id (absent in snapshots written before the index). */
  lines?: Record<string, string>;
  /** The rules' decisions it was written by (`migrate::DECISIONS`); absent in data of rules before they were numbered. */
  decisions?: number;
}

/** Records a snapshot or a checkpoint keeps: the last, for `recordUsage`, and a few before it. */
export const LEDGER_KEPT = 8;

/**
 * What changed in an engine since the last `changes()`, as JSON data: a session writes one
 * per call, and the states they fold into (`foldChanges`) are the engine's, call by call.
 */
export interface EngineChanges {
  /** The journal's chunks of this call (format 2), as base64: one, unless a snapshot took one on the way. */
  events?: string[];
  /** Format 1: the rules' calls of this call. */
  log?: LoggedCall[];
  /** Messages new or changed, by index (`null`: released). */
  messages: Array<[number, KeptMessage | null]>;
  calls: Array<[string, string]>;
  summary?: string;
  tail?: string;
  /** Records from this index on replace the ledger's (`recordUsage` fills in the last one). */
  ledgerFrom: number;
  ledger: LedgerRecord[];
  /** Index lines of the texts stored since, `[id, line]`. */
  lines?: Array<[string, string]>;
  /** The rules' decisions it was written by (as `EngineState.decisions`). */
  decisions?: number;
}

/**
 * The state `list` makes, each from the state the one before it left, from a new engine. A
 * session with a checkpoint restores it, then applies the rows after it (`Engine.apply`).
 */
export function foldChanges(list: Iterable<EngineChanges>): EngineState {
  const state: EngineState = { messages: [], calls: [], summary: '', tail: '', ledger: [] };
  const messages = state.messages as Array<KeptMessage | null>;
  let first = true;
  for (const c of list) {
    // Rows of format 1 come before any of format 2: a session is only ever upgraded.
    if (c.log?.length) (state.log ??= []).push(...c.log);
    if (c.events?.length) (state.events ??= []).push(...c.events);
    for (const [i, m] of c.messages) messages[i] = m;
    for (const call of c.calls) state.calls.push(call);
    if (c.summary !== undefined) state.summary = c.summary;
    if (c.tail !== undefined) state.tail = c.tail;
    state.ledger.length = Math.max(0, c.ledgerFrom);
    for (const r of c.ledger) state.ledger.push(r);
    for (const [id, line] of c.lines ?? []) (state.lines ??= {})[id] = line;
    state.decisions = first ? c.decisions ?? 1 : oldest(state.decisions, c.decisions);
    first = false;
  }
  return state;
}

/** The older of two records' decisions (`undefined`: before they were numbered, 1): data is as old as its oldest part. */
function oldest(a: number | undefined, b: number | undefined): number {
  return Math.min(a ?? 1, b ?? 1);
}

/** The state `base` (a checkpoint) and the `changes` after it make, as JSON data: what a session holds, to rebuild from. */
export function withChanges(base: EngineState, changes: readonly EngineChanges[]): EngineState {
  // Messages by number: the base's kept ones (a run of released ones counts), then each row's.
  const byNumber = new Map<number, KeptMessage | null>();
  let total = 0;
  for (const m of base.messages) {
    if (typeof m === 'number') total += m;
    else byNumber.set(total++, m);
  }
  const state: EngineState = { ...base, ledger: [...base.ledger], lines: { ...base.lines }, events: [...base.events ?? []] };
  for (const c of changes) {
    if (c.log?.length) (state.log ??= []).push(...c.log);
    state.events!.push(...c.events ?? []);
    for (const [i, m] of c.messages) {
      byNumber.set(i, m);
      total = Math.max(total, i + 1);
    }
    if (c.summary !== undefined) state.summary = c.summary;
    if (c.tail !== undefined) state.tail = c.tail;
    for (const [id, line] of c.lines ?? []) state.lines![id] = line;
    state.ledger.length = Math.max(0, c.ledgerFrom - (base.ledgerFrom ?? 0));
    state.ledger.push(...c.ledger);
    state.decisions = oldest(state.decisions, c.decisions);
  }
  // Back as a list with runs of released messages counted.
  const messages: Array<KeptMessage | null | number> = [];
  let at = 0;
  for (const i of [...byNumber.keys()].sort((a, b) => a - b)) {
    if (i > at) messages.push(i - at);
    messages.push(byNumber.get(i) ?? null);
    at = i + 1;
  }
  if (total > at) messages.push(total - at);
  state.messages = messages;
  return state;
}

/** `list` with each run of items that are `gone` as its count. */
export function collapse<T>(list: readonly T[], gone: (item: T) => boolean): Array<T | number> {
  const out: Array<T | number> = [];
  for (const item of list) {
    if (!gone(item)) out.push(item);
    else if (typeof out[out.length - 1] === 'number') (out[out.length - 1] as number)++;
    else out.push(1);
  }
  return out;
}

/**
 * How many entries `list` stands for (a count, that many), checked to be `length`, the
 * rules' own: a count altered to a billion is refused before anything is made of it.
 */
export function entries(list: ReadonlyArray<unknown>, length: number, field: string): number {
  let total = 0;
  for (const item of list) total += typeof item === 'number' ? item : 1;
  if (total !== length) throw argumentError(TypeError, field, `holds ${total} entries, but the rules' state has ${length}: it was altered`);
  return total;
}
