// Seed 004: packages/core/src/protocol/__tests__/turn-tracker.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TurnTracker } from '@devs/context';
import { assertFieldError, envelope, thrown } from './helpers.mjs';

describe('TurnTracker (seed 004)', () => {
  it('starts at currentIndex 0', () => {
    assert.equal(new TurnTracker('agent-1', 'phase-3').currentIndex, 0);
  });

  it('nextIndex() adds exactly 1 and returns the new value', () => {
    const t = new TurnTracker('agent-1', 'phase-3');
    assert.equal(t.nextIndex(), 1);
    assert.equal(t.currentIndex, 1);
    assert.equal(t.nextIndex(), 2);
    assert.equal(t.currentIndex, 2);
  });

  it('is at 5 after five nextIndex() calls', () => {
    const t = new TurnTracker('agent-1', 'phase-3');
    for (let i = 0; i < 5; i++) t.nextIndex();
    assert.equal(t.currentIndex, 5);
  });

  it('reset() goes back to 0', () => {
    const t = new TurnTracker('agent-1', 'phase-3');
    t.nextIndex();
    t.nextIndex();
    t.reset();
    assert.equal(t.currentIndex, 0);
  });

  it('toLogEntry() returns { turn_index, agent_id, phase, timestamp_ns } with a bigint time', () => {
    const t = new TurnTracker('agent-1', 'phase-3');
    t.nextIndex();
    t.nextIndex();
    const entry = t.toLogEntry();
    assert.deepEqual(Object.keys(entry).sort(), ['agent_id', 'phase', 'timestamp_ns', 'turn_index']);
    assert.equal(typeof entry.timestamp_ns, 'bigint');
    assert.equal(entry.turn_index, t.currentIndex);
    assert.equal(entry.agent_id, 'agent-1');
    assert.equal(entry.phase, 'phase-3');
  });

  it('timestamp_ns strictly increases across successive entries, even in a tight loop', () => {
    const t = new TurnTracker('agent-1', 'phase-3');
    const other = new TurnTracker('agent-2', 'phase-3');
    let last = t.toLogEntry().timestamp_ns;
    for (let i = 0; i < 10_000; i++) {
      const next = (i % 2 ? t : other).toLogEntry().timestamp_ns;
      assert.ok(next > last, `stamp ${i}: ${next} <= ${last}`);
      last = next;
    }
  });

  it('timestamp_ns is on the process clock (process.hrtime.bigint)', () => {
    const before = process.hrtime.bigint();
    const stamp = new TurnTracker('a', 'p').toLogEntry().timestamp_ns;
    const after = process.hrtime.bigint();
    assert.ok(stamp >= before && stamp <= after + 1000n, `${before} <= ${stamp} <= ${after}`);
  });

  it('attach() clones the envelope and sets turn_index to currentIndex', () => {
    const t = new TurnTracker('agent-1', 'phase-3');
    t.nextIndex();
    t.nextIndex();
    t.nextIndex();
    const input = envelope({ turn_index: 0 });
    const out = t.attach(input);
    assert.notEqual(out, input);
    assert.equal(out.turn_index, 3);
    assert.equal(input.turn_index, 0);
    assert.equal(out.thought, input.thought);
  });

  it('attach() on a frozen envelope leaves the original untouched', () => {
    const t = new TurnTracker('agent-1', 'phase-3');
    t.nextIndex();
    const input = Object.freeze(envelope({ turn_index: 9 }));
    const out = t.attach(input);
    assert.equal(input.turn_index, 9);
    assert.equal(out.turn_index, 1);
    assert.ok(Object.isFrozen(input));
  });

  it('one tracker per agent/phase: trackers do not share an index', () => {
    const a = new TurnTracker('agent-1', 'phase-3');
    const b = new TurnTracker('agent-2', 'phase-3');
    a.nextIndex();
    a.nextIndex();
    assert.equal(b.currentIndex, 0);
  });

  it('rejects a non-string or empty agentId or phase, and a non-object envelope', () => {
    assertFieldError(thrown(() => new TurnTracker(42, 'p')), TypeError, 'agentId');
    assertFieldError(thrown(() => new TurnTracker('', 'p')), TypeError, 'agentId');
    assertFieldError(thrown(() => new TurnTracker('a')), TypeError, 'phase');
    assertFieldError(thrown(() => new TurnTracker('a', 'p').attach('x')), TypeError, 'envelope');
  });
});
