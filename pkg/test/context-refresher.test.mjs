// Seed 000: packages/core/src/protocol/__tests__/context-refresher.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextRefresher } from '@devs/context';
import { assertFieldError, countingProvider, rejected, thrown } from './helpers.mjs';

describe('ContextRefresher (seed 000)', () => {
  it('starts with turnsInCurrentNode at 0', () => {
    const r = new ContextRefresher({ threshold: 5, summaryProvider: countingProvider() });
    assert.equal(r.turnsInCurrentNode, 0);
  });

  it('returns { refreshed: false } for turns 1-4', async () => {
    const r = new ContextRefresher({ threshold: 5, summaryProvider: countingProvider() });
    for (let turn = 1; turn <= 4; turn++) {
      assert.deepEqual(await r.onTurn(turn), { refreshed: false });
      assert.equal(r.turnsInCurrentNode, turn);
    }
  });

  it('refreshes exactly on the 5th call with the summary', async () => {
    const r = new ContextRefresher({ threshold: 5, summaryProvider: countingProvider() });
    for (let turn = 1; turn <= 4; turn++) await r.onTurn(turn);
    const result = await r.onTurn(5);
    assert.equal(result.refreshed, true);
    assert.equal(typeof result.injectedSummary, 'string');
    assert.ok(result.injectedSummary.startsWith('[CONTEXT REFRESH]'));
  });

  it('resets the counter right after a refresh, so the next fires 5 turns later', async () => {
    const r = new ContextRefresher({ threshold: 5, summaryProvider: countingProvider() });
    const fired = [];
    for (let turn = 1; turn <= 15; turn++) {
      if ((await r.onTurn(turn)).refreshed) {
        fired.push(turn);
        assert.equal(r.turnsInCurrentNode, 0);
      }
    }
    assert.deepEqual(fired, [5, 10, 15]);
  });

  it('calls the provider once per refresh and never on other turns', async () => {
    const provider = countingProvider();
    const r = new ContextRefresher({ threshold: 5, summaryProvider: provider });
    for (let turn = 1; turn <= 4; turn++) await r.onTurn(turn);
    assert.equal(provider.calls, 0);
    await r.onTurn(5);
    assert.equal(provider.calls, 1);
    for (let turn = 6; turn <= 10; turn++) await r.onTurn(turn);
    assert.equal(provider.calls, 2);
  });

  it('resetNode() sets the count to 0 without a refresh', async () => {
    const provider = countingProvider();
    const r = new ContextRefresher({ threshold: 5, summaryProvider: provider });
    for (let turn = 1; turn <= 4; turn++) await r.onTurn(turn);
    r.resetNode();
    assert.equal(r.turnsInCurrentNode, 0);
    assert.equal(provider.calls, 0);
    assert.deepEqual(await r.onTurn(5), { refreshed: false });
  });

  it('propagates the very error a throwing provider throws', async () => {
    const boom = new Error('spec store offline');
    const r = new ContextRefresher({ threshold: 1, summaryProvider: countingProvider(() => { throw boom; }) });
    assert.equal(await rejected(r.onTurn(1)), boom);
  });

  it('propagates the very value a provider rejects with', async () => {
    const reason = { code: 'E_SPEC', detail: 'not an Error at all' };
    const r = new ContextRefresher({ threshold: 1, summaryProvider: countingProvider(() => Promise.reject(reason)) });
    assert.equal(await rejected(r.onTurn(1)), reason);
  });

  it('a failed refresh loses nothing: the next turn retries it', async () => {
    let fail = true;
    const provider = countingProvider(() => {
      if (fail) throw new Error('flaky');
      return { tasSummary: 'T', prdSummary: 'P' };
    });
    const r = new ContextRefresher({ threshold: 5, summaryProvider: provider });
    for (let turn = 1; turn <= 4; turn++) await r.onTurn(turn);
    await rejected(r.onTurn(5));
    assert.equal(r.turnsInCurrentNode, 4, 'the failed turn is undone');
    fail = false;
    assert.equal((await r.onTurn(5)).refreshed, true);
    assert.equal(provider.calls, 2);
  });

  it('refreshes on every turn with threshold 1', async () => {
    const r = new ContextRefresher({ threshold: 1, summaryProvider: countingProvider() });
    for (let turn = 1; turn <= 6; turn++) assert.equal((await r.onTurn(turn)).refreshed, true);
  });

  it('concatenates the distinct TAS and PRD summaries, both labelled', async () => {
    const summaryProvider = { getSummary: async () => ({ tasSummary: 'TAS: Rust core, wasm', prdSummary: 'PRD: keep agents on track' }) };
    const r = new ContextRefresher({ threshold: 1, summaryProvider });
    const { injectedSummary } = await r.onTurn(1);
    assert.equal(
      injectedSummary,
      '[CONTEXT REFRESH]\n## TAS Summary\nTAS: Rust core, wasm\n\n## PRD Summary\nPRD: keep agents on track',
    );
  });

  it('defaults threshold to 5', async () => {
    const r = new ContextRefresher({ summaryProvider: countingProvider() });
    assert.equal(r.threshold, 5);
    const results = [];
    for (let turn = 1; turn <= 5; turn++) results.push((await r.onTurn(turn)).refreshed);
    assert.deepEqual(results, [false, false, false, false, true]);
  });

  it('accepts a provider that returns plain values', async () => {
    const r = new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: () => ({ tasSummary: 'a', prdSummary: 'b' }) } });
    assert.match((await r.onTurn(1)).injectedSummary, /## TAS Summary\na\n/);
  });

  it('counts un-awaited concurrent turns exactly: 20 calls, 4 refreshes, 4 provider calls', async () => {
    const provider = countingProvider(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { tasSummary: 'T', prdSummary: 'P' };
    });
    const r = new ContextRefresher({ threshold: 5, summaryProvider: provider });
    const pending = Array.from({ length: 20 }, (_, i) => r.onTurn(i + 1));
    const results = await Promise.all(pending);
    assert.equal(results.filter((x) => x.refreshed).length, 4);
    assert.equal(provider.calls, 4);
    assert.deepEqual(
      results.map((x, i) => (x.refreshed ? i + 1 : 0)).filter(Boolean),
      [5, 10, 15, 20],
    );
  });
});

describe('ContextRefresher bad input', () => {
  const provider = countingProvider();

  for (const threshold of [0, -1, NaN, 1.5, Infinity]) {
    it(`threshold ${threshold} is a RangeError naming options.threshold`, () => {
      assertFieldError(thrown(() => new ContextRefresher({ threshold, summaryProvider: provider })), RangeError, 'options.threshold');
    });
  }

  it('a non-number threshold is a TypeError', () => {
    assertFieldError(thrown(() => new ContextRefresher({ threshold: '5', summaryProvider: provider })), TypeError, 'options.threshold');
  });

  it('a provider without getSummary is a TypeError naming it', () => {
    assertFieldError(thrown(() => new ContextRefresher({ summaryProvider: {} })), TypeError, 'options.summaryProvider.getSummary');
    assertFieldError(thrown(() => new ContextRefresher({})), TypeError, 'options.summaryProvider');
    assertFieldError(thrown(() => new ContextRefresher()), TypeError, 'options');
  });

  for (const [label, value, field] of [
    ['no tasSummary', { prdSummary: 'p' }, 'summaryProvider.getSummary().tasSummary'],
    ['a numeric prdSummary', { tasSummary: 't', prdSummary: 7 }, 'summaryProvider.getSummary().prdSummary'],
    ['null', null, 'summaryProvider.getSummary()'],
    ['a string', 'TAS and PRD', 'summaryProvider.getSummary()'],
  ]) {
    it(`getSummary resolving to ${label} rejects with a TypeError, and the turn is undone`, async () => {
      const r = new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => value } });
      assertFieldError(await rejected(r.onTurn(1)), TypeError, field);
      assert.equal(r.turnsInCurrentNode, 0);
    });
  }

  it('a bad turnIndex rejects without counting the turn', async () => {
    const r = new ContextRefresher({ threshold: 5, summaryProvider: provider });
    assertFieldError(await rejected(r.onTurn('1')), TypeError, 'turnIndex');
    assertFieldError(await rejected(r.onTurn(-1)), RangeError, 'turnIndex');
    assert.equal(r.turnsInCurrentNode, 0);
  });
});
