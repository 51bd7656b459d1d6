// An `AgentRunner`'s snapshot (`bounded` runners): the runner's own counts, its
// conversation and plan, and its bounded history as a `ContextSnapshot` of its own. Read
// back field by field before anything is made of it, as `snapshot.ts` reads a manager's.
import { argumentError } from '../errors/index.js';
import { array, number, object, string } from '../core/read.js';
import { SNAPSHOT_VERSION, checkOf, newerSnapshot } from '../context/snapshot.js';
import type { AgentRunnerSnapshot } from './runner-types.js';
import type { TurnEntry } from './types.js';

type Unchecked = Omit<AgentRunnerSnapshot, 'check'>;

/** The snapshot, with its check. */
export function runnerSnapshot(parts: Omit<Unchecked, 'version' | 'kind'>): AgentRunnerSnapshot {
  const body: Unchecked = JSON.parse(JSON.stringify({ version: SNAPSHOT_VERSION, kind: 'agent-runner', ...parts })) as Unchecked;
  return { ...body, check: checkOf(body) };
}

/** What `AgentRunner.restore` takes from a snapshot, once its shape and check are right (the bounded part is read by the engine). */
export function readRunnerSnapshot(value: unknown): Unchecked {
  const snap = object('snapshot', value);
  const version = number('snapshot.version', snap.version);
  if (version > SNAPSHOT_VERSION) throw newerSnapshot(version);
  // Version 1 differs only in its bounded part (the rules' calls by name), read as such.
  if (version !== 1 && version !== SNAPSHOT_VERSION) throw argumentError(RangeError, 'snapshot.version', `must be 1 or ${SNAPSHOT_VERSION}, got ${version}`);
  if (snap.kind !== 'agent-runner') throw argumentError(TypeError, 'snapshot.kind', `must be 'agent-runner' (an AgentRunner's snapshot), got ${JSON.stringify(snap.kind)}`);
  const runner = array('snapshot.runner', snap.runner).map((n, i) => number(`snapshot.runner[${i}]`, n));
  const turns = array('snapshot.turns', snap.turns).map((t, i) => object(`snapshot.turns[${i}]`, t)) as unknown as TurnEntry[];
  const times = turns.map((t, i) => {
    const at = new Date(string(`snapshot.turns[${i}].createdAt`, t.createdAt));
    if (Number.isNaN(at.getTime())) throw argumentError(TypeError, `snapshot.turns[${i}].createdAt`, `must be an ISO date, got ${JSON.stringify(t.createdAt)}`);
    return at;
  });
  const known = array('snapshot.known', snap.known).map((pair, i) => {
    const p = array(`snapshot.known[${i}]`, pair);
    return [string(`snapshot.known[${i}][0]`, p[0]), string(`snapshot.known[${i}][1]`, p[1])] as [string, string];
  });
  const body: Unchecked = { version, kind: 'agent-runner', runner, turns, plan: string('snapshot.plan', snap.plan), known, bounded: object('snapshot.bounded', snap.bounded) as unknown as Unchecked['bounded'] };
  if (string('snapshot.check', snap.check) !== checkOf(body)) {
    throw argumentError(TypeError, 'snapshot.check', 'does not match the snapshot: it was altered or cut short after it was taken');
  }
  // The turns as the runner keeps them: `createdAt` a Date again.
  return { ...body, turns: turns.map((t, i) => ({ ...t, createdAt: times[i] })) };
}
