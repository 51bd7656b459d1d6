// Seed 004: packages/core/src/protocol/__tests__/agent-log-store.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AgentLogStore, TurnTracker } from '@devs/context';
import { assertFieldError, thrown } from './helpers.mjs';

function entries(agentId, count, phase = 'implement') {
  const t = new TurnTracker(agentId, phase);
  return Array.from({ length: count }, () => {
    t.nextIndex();
    return t.toLogEntry();
  });
}

describe('AgentLogStore (seed 004)', () => {
  it('append() stores an entry without error', () => {
    const store = new AgentLogStore();
    const [entry] = entries('a', 1);
    store.append(entry);
    assert.equal(store.size, 1);
  });

  it('getAll() returns entries in insertion order, as a copy', () => {
    const store = new AgentLogStore();
    const all = entries('a', 3);
    all.forEach((e) => store.append(e));
    const got = store.getAll();
    assert.deepEqual(got.map((e) => e.turn_index), [1, 2, 3]);
    assert.equal(got[0], all[0], 'the entries themselves, not copies');
    got.pop();
    assert.equal(store.getAll().length, 3, 'mutating the returned array does not touch the store');
  });

  it('getByAgent() returns only that agent\'s entries', () => {
    const store = new AgentLogStore();
    const a = entries('agent-a', 3);
    const b = entries('agent-b', 2);
    [a[0], b[0], a[1], b[1], a[2]].forEach((e) => store.append(e));
    assert.deepEqual(store.getByAgent('agent-b'), [b[0], b[1]]);
    assert.deepEqual(store.getByAgent('nobody'), []);
  });

  it('getByTurnIndex() returns the first matching entry or undefined', () => {
    const store = new AgentLogStore();
    const a = entries('agent-a', 3);
    const b = entries('agent-b', 3);
    [...a, ...b].forEach((e) => store.append(e));
    assert.equal(store.getByTurnIndex(2), a[1]);
    assert.equal(store.getByTurnIndex(99), undefined);
  });

  it('enforces maxSize with FIFO eviction, never holding more', () => {
    const store = new AgentLogStore(1000);
    const all = entries('a', 2500);
    for (const e of all) {
      store.append(e);
      assert.ok(store.size <= 1000);
    }
    const kept = store.getAll();
    assert.equal(kept.length, 1000);
    assert.equal(kept[0], all[1500]);
    assert.equal(kept[999], all[2499]);
    assert.equal(store.getByTurnIndex(1), undefined, 'the oldest were dropped');
  });

  it('defaults maxSize to 1000', () => {
    assert.equal(new AgentLogStore().maxSize, 1000);
    assert.equal(new AgentLogStore(3).maxSize, 3);
  });

  it('entries appended in sequence have strictly increasing timestamp_ns', () => {
    const store = new AgentLogStore(50);
    entries('a', 200).forEach((e) => store.append(e));
    const stamps = store.getAll().map((e) => e.timestamp_ns);
    for (let i = 1; i < stamps.length; i++) assert.ok(stamps[i] > stamps[i - 1]);
  });

  it('clear() empties the log', () => {
    const store = new AgentLogStore();
    entries('a', 5).forEach((e) => store.append(e));
    store.clear();
    assert.deepEqual(store.getAll(), []);
    assert.equal(store.size, 0);
    store.append(entries('b', 1)[0]);
    assert.equal(store.size, 1);
  });

  it('rejects maxSize 0, negative, fractional or NaN with a RangeError naming maxSize', () => {
    for (const bad of [0, -1, 2.5, NaN]) assertFieldError(thrown(() => new AgentLogStore(bad)), RangeError, 'maxSize');
    assertFieldError(thrown(() => new AgentLogStore('10')), TypeError, 'maxSize');
  });

  it('rejects malformed entries, naming the field', () => {
    const store = new AgentLogStore();
    const good = entries('a', 1)[0];
    assertFieldError(thrown(() => store.append(null)), TypeError, 'entry');
    assertFieldError(thrown(() => store.append({ ...good, timestamp_ns: 5 })), TypeError, 'entry.timestamp_ns');
    assertFieldError(thrown(() => store.append({ ...good, agent_id: 1 })), TypeError, 'entry.agent_id');
    assertFieldError(thrown(() => store.append({ ...good, turn_index: -1 })), TypeError, 'entry.turn_index');
    assertFieldError(thrown(() => store.getByAgent(3)), TypeError, 'agentId');
    assert.equal(store.size, 0);
  });
});
