// Seed 001: packages/memory/src/context/__tests__/SpecRefreshProtocol.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SlidingRelevanceWindow, SpecRefreshProtocol } from '@devs/context';
import { assertFieldError, thrown, turnEntries } from './helpers.mjs';

const docs = [
  { name: 'TAS', content: 'Rust core, thin wasm bindings.' },
  { name: 'PRD', content: 'Keep agents on track for 1M tokens.' },
];

describe('SpecRefreshProtocol.buildInjectionTurn (seed 001)', () => {
  it('is a user turn whose content starts with [SPEC REFRESH]', () => {
    const turn = new SpecRefreshProtocol().buildInjectionTurn(docs);
    assert.equal(turn.role, 'user');
    assert.ok(turn.content.startsWith('[SPEC REFRESH]'));
    assert.equal(turn.turnIndex, -1);
    assert.equal(turn.agentId, 'system');
    assert.ok(turn.createdAt instanceof Date);
  });

  it('includes each document, formatted as ## NAME', () => {
    const { content } = new SpecRefreshProtocol().buildInjectionTurn(docs);
    assert.equal(content, '[SPEC REFRESH]\n\n## TAS\nRust core, thin wasm bindings.\n## PRD\nKeep agents on track for 1M tokens.\n');
  });

  it('cuts each document to 3000 chars', () => {
    const long = [{ name: 'TAS', content: 'a'.repeat(5000) }, { name: 'PRD', content: 'b'.repeat(3000) }];
    const { content } = new SpecRefreshProtocol().buildInjectionTurn(long);
    assert.equal(content.split('a').length - 1, 3000);
    assert.equal(content.split('b').length - 1, 3000);
  });

  it('never splits a surrogate pair at the cut', () => {
    const content = 'x'.repeat(2999) + '😀' + 'tail';
    const turn = new SpecRefreshProtocol().buildInjectionTurn([{ name: 'TAS', content }]);
    const body = turn.content.slice('[SPEC REFRESH]\n\n## TAS\n'.length, -1);
    assert.equal(body, 'x'.repeat(2999));
    assert.ok(!/[\uD800-\uDBFF]$/.test(body));
    const fits = 'x'.repeat(2998) + '😀';
    assert.equal(new SpecRefreshProtocol().buildInjectionTurn([{ name: 'T', content: fits + 'y' }]).content, `[SPEC REFRESH]\n\n## T\n${fits}\n`);
  });

  it('names the bad field of a malformed document', () => {
    const p = new SpecRefreshProtocol();
    assertFieldError(thrown(() => p.buildInjectionTurn('TAS')), TypeError, 'specDocuments');
    assertFieldError(thrown(() => p.buildInjectionTurn([{ name: 'TAS' }])), TypeError, 'specDocuments[0].content');
    assertFieldError(thrown(() => p.buildInjectionTurn([docs[0], { content: 'x' }])), TypeError, 'specDocuments[1].name');
  });
});

describe('SpecRefreshProtocol.inject (seed 001)', () => {
  const window = () => new SlidingRelevanceWindow().compose(turnEntries(25), 'goal');

  it('prepends a [SPEC REFRESH] turn when shouldInjectSpec(turnCount) is true', () => {
    const input = window();
    const out = new SpecRefreshProtocol().inject(input, docs, 10);
    assert.equal(out.turns.length, input.turns.length + 1, 'maxTurns + 1: the spec turn plus the window');
    assert.ok(out.turns[0].content.startsWith('[SPEC REFRESH]'));
    assert.deepEqual(out.turns.slice(1), input.turns);
    assert.equal(out.specInjected, true);
    assert.equal(out.taskGoal, 'goal');
    assert.equal(input.turns.length, 20, 'the input window is not mutated');
    assert.equal(input.specInjected, false);
  });

  it('returns the window unchanged when shouldInjectSpec(turnCount) is false', () => {
    const input = window();
    for (const n of [0, 1, 9, 11, 15]) assert.equal(new SpecRefreshProtocol().inject(input, docs, n), input);
  });
});
