// Seed 001: packages/memory/src/context/__tests__/SlidingRelevanceWindow.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SlidingRelevanceWindow } from '@devs/context';
import { assertFieldError, thrown, turnEntries } from './helpers.mjs';

describe('SlidingRelevanceWindow.compose (seed 001)', () => {
  it('keeps at most 20 of 50 turns by default', () => {
    const w = new SlidingRelevanceWindow();
    assert.equal(w.maxTurns, 20);
    assert.equal(w.compose(turnEntries(50), 'goal').turns.length, 20);
  });

  it('keeps the most recent turns, the last 20 of the input', () => {
    const turns = turnEntries(50);
    const window = new SlidingRelevanceWindow().compose(turns, 'goal');
    assert.deepEqual(window.turns, turns.slice(30));
    assert.equal(window.turns[0], turns[30], 'the entries themselves');
  });

  it('carries taskGoal and specInjected: false', () => {
    const window = new SlidingRelevanceWindow({ maxTurns: 20 }).compose(turnEntries(3), 'Make the parser tests pass');
    assert.equal(window.taskGoal, 'Make the parser tests pass');
    assert.equal(window.specInjected, false);
    assert.equal(window.turns.length, 3);
  });

  it('never mutates the input array', () => {
    const turns = Object.freeze(turnEntries(30));
    const window = new SlidingRelevanceWindow({ maxTurns: 5 }).compose(turns, 'g');
    assert.equal(turns.length, 30);
    assert.notEqual(window.turns, turns);
    window.turns.push({});
    assert.equal(turns.length, 30);
  });

  it('honours a configured maxTurns', () => {
    assert.deepEqual(new SlidingRelevanceWindow({ maxTurns: 3 }).compose(turnEntries(10), 'g').turns.map((t) => t.turnIndex), [8, 9, 10]);
  });

  it('rejects bad config and arguments, naming them', () => {
    assertFieldError(thrown(() => new SlidingRelevanceWindow({ maxTurns: 0 })), RangeError, 'config.maxTurns');
    assertFieldError(thrown(() => new SlidingRelevanceWindow({ maxTurns: 'x' })), TypeError, 'config.maxTurns');
    const w = new SlidingRelevanceWindow();
    assertFieldError(thrown(() => w.compose('turns', 'g')), TypeError, 'turns');
    assertFieldError(thrown(() => w.compose([], 7)), TypeError, 'taskGoal');
  });
});

describe('SlidingRelevanceWindow.shouldInjectSpec (seed 001)', () => {
  it('is true exactly when turnCount % 10 === 0 && turnCount > 0', () => {
    const w = new SlidingRelevanceWindow();
    for (let n = 0; n <= 100; n++) {
      const expected = n > 0 && n % 10 === 0;
      assert.equal(w.shouldInjectSpec(n), expected, `instance, turn ${n}`);
      assert.equal(SlidingRelevanceWindow.shouldInjectSpec(n), expected, `static, turn ${n}`);
    }
    assert.equal(w.shouldInjectSpec(-10), false);
  });

  it('rejects a non-number or non-integer count', () => {
    assertFieldError(thrown(() => SlidingRelevanceWindow.shouldInjectSpec('10')), TypeError, 'turnCount');
    assertFieldError(thrown(() => SlidingRelevanceWindow.shouldInjectSpec(NaN)), RangeError, 'turnCount');
    assertFieldError(thrown(() => SlidingRelevanceWindow.shouldInjectSpec(10.5)), RangeError, 'turnCount');
  });
});
