// Seed 003: packages/memory/src/monitor/__tests__/TokenThresholdMonitor.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TokenThresholdMonitor, countTokens } from '@devs/context';
import { assertFieldError, rejected, thrown } from './helpers.mjs';

function recorder(impl = async () => {}) {
  const events = [];
  const onThresholdExceeded = async (event) => {
    events.push(event);
    await impl(event);
  };
  return { events, onThresholdExceeded };
}

describe('TokenThresholdMonitor (seed 003)', () => {
  it('takes a threshold of 800_000 and a callback', () => {
    const { onThresholdExceeded } = recorder();
    const m = new TokenThresholdMonitor({ thresholdTokens: 800_000, onThresholdExceeded });
    assert.equal(m.thresholdTokens, 800_000);
    assert.equal(m.getAccumulatedTokens(), 0);
  });

  it('defaults thresholdTokens to 800_000', () => {
    assert.equal(new TokenThresholdMonitor({ onThresholdExceeded: async () => {} }).thresholdTokens, 800_000);
  });

  it('does not call back below 800,000 in total', async () => {
    const r = recorder();
    const m = new TokenThresholdMonitor({ thresholdTokens: 800_000, onThresholdExceeded: r.onThresholdExceeded });
    for (let i = 0; i < 7; i++) await m.record(100_000);
    await m.record(99_999);
    assert.equal(r.events.length, 0);
    assert.equal(m.getAccumulatedTokens(), 799_999);
  });

  it('calls back exactly once with { totalTokens, triggeredAt } on reaching 800,000', async () => {
    const r = recorder();
    const m = new TokenThresholdMonitor({ thresholdTokens: 800_000, onThresholdExceeded: r.onThresholdExceeded });
    const before = Date.now();
    await m.record(500_000);
    await m.record(300_000);
    assert.equal(r.events.length, 1);
    assert.deepEqual(Object.keys(r.events[0]).sort(), ['totalTokens', 'triggeredAt']);
    assert.equal(r.events[0].totalTokens, 800_000);
    assert.ok(r.events[0].triggeredAt instanceof Date);
    assert.ok(r.events[0].triggeredAt.getTime() >= before);
  });

  it('resets before the callback and restarts from zero after it', async () => {
    let seenDuringCallback;
    const m = new TokenThresholdMonitor({
      thresholdTokens: 1000,
      onThresholdExceeded: async () => { seenDuringCallback = m.getAccumulatedTokens(); },
    });
    await m.record(1200);
    assert.equal(seenDuringCallback, 0, 'reset happened before the callback ran');
    assert.equal(m.getAccumulatedTokens(), 0);
    await m.record(999);
    assert.equal(m.getAccumulatedTokens(), 999, 'no second fire until another full threshold');
  });

  it('fires again only after another full threshold', async () => {
    const r = recorder();
    const m = new TokenThresholdMonitor({ thresholdTokens: 800_000, onThresholdExceeded: r.onThresholdExceeded });
    await m.record(800_000);
    await m.record(400_000);
    assert.equal(r.events.length, 1);
    await m.record(400_000);
    assert.equal(r.events.length, 2);
  });

  it('awaits the callback before record() resolves', async () => {
    let finished = false;
    const m = new TokenThresholdMonitor({
      thresholdTokens: 10,
      onThresholdExceeded: () => new Promise((resolve) => setTimeout(() => { finished = true; resolve(); }, 20)),
    });
    await m.record(10);
    assert.equal(finished, true);
  });

  it('getAccumulatedTokens() returns the running total; reset() zeroes it', async () => {
    const m = new TokenThresholdMonitor({ onThresholdExceeded: async () => {} });
    await m.record(10);
    await m.record(32.5);
    assert.equal(m.getAccumulatedTokens(), 42.5);
    m.reset();
    assert.equal(m.getAccumulatedTokens(), 0);
  });

  it('100 concurrent record(100) calls with threshold 1000 fire exactly 10 times, losing nothing', async () => {
    const r = recorder(() => new Promise((resolve) => setTimeout(resolve, 2)));
    const m = new TokenThresholdMonitor({ thresholdTokens: 1000, onThresholdExceeded: r.onThresholdExceeded });
    await Promise.all(Array.from({ length: 100 }, () => m.record(100)));
    assert.equal(r.events.length, 10);
    assert.ok(r.events.every((e) => e.totalTokens === 1000));
    assert.equal(m.getAccumulatedTokens(), 0);
  });

  it('a failed callback rejects with its error and loses no tokens', async () => {
    const boom = new Error('summarizer down');
    let fail = true;
    const m = new TokenThresholdMonitor({ thresholdTokens: 100, onThresholdExceeded: async () => { if (fail) throw boom; } });
    assert.equal(await rejected(m.record(150)), boom);
    assert.equal(m.getAccumulatedTokens(), 150, 'the window is put back');
    fail = false;
    await m.record(0);
    assert.equal(m.getAccumulatedTokens(), 150, 'a put-back is not a crossing');
    await m.record(100);
    assert.equal(m.getAccumulatedTokens(), 0, 'the next crossing refreshes the failed window too');
  });

  // Issue 18: 95 concurrent record(100) at 1,000, with callbacks that in turn throw,
  // reject after 1 ms and resolve after 1 ms.
  it('under concurrency, fires once per crossing and keeps every token a failed refresh held', async () => {
    const events = [];
    let call = 0;
    const m = new TokenThresholdMonitor({
      thresholdTokens: 1000,
      onThresholdExceeded: (event) => {
        const kind = call++ % 3;
        events.push({ ...event, kind });
        if (kind === 0) throw new Error('sync failure');
        return new Promise((resolve, reject) => setTimeout(() => (kind === 1 ? reject(new Error('async failure')) : resolve()), 1));
      },
    });
    const outcomes = await Promise.allSettled(Array.from({ length: 95 }, () => m.record(100)));
    assert.equal(events.length, 9, 'one callback per 1,000 recorded tokens');
    assert.equal(outcomes.filter((o) => o.status === 'rejected').length, 6);
    const consumed = events.filter((e) => e.kind === 2).reduce((sum, e) => sum + e.totalTokens, 0);
    assert.equal(m.getAccumulatedTokens(), 9500 - consumed);
    assert.ok(m.getAccumulatedTokens() > 500, 'failed refreshes put their tokens back');
  });

  it('after any interleaving, holds what was recorded less what successful refreshes took', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 20; round++) {
      let recorded = 0;
      let consumed = 0;
      let fired = 0;
      const m = new TokenThresholdMonitor({
        thresholdTokens: 500,
        onThresholdExceeded: (event) => {
          fired++;
          const r = random();
          if (r < 0.2) throw new Error('sync');
          const delay = Math.floor(random() * 3);
          return new Promise((resolve, reject) => setTimeout(() => {
            if (r < 0.5) reject(new Error('async'));
            else { consumed += event.totalTokens; resolve(); }
          }, delay));
        },
      });
      const calls = [];
      for (let i = 0; i < 60; i++) {
        const t = Math.floor(random() * 120);
        recorded += t;
        calls.push(m.record(t).catch(() => undefined));
        if (random() < 0.3) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 2)));
      }
      await Promise.all(calls);
      assert.equal(m.getAccumulatedTokens(), recorded - consumed, `round ${round}`);
      assert.ok(fired <= Math.floor(recorded / 500), `round ${round}: ${fired} callbacks for ${recorded} tokens`);
    }
  });

  it('recordText() counts with the injected counter', async () => {
    const seen = [];
    const m = new TokenThresholdMonitor({ onThresholdExceeded: async () => {}, countTokens: (text) => { seen.push(text); return 7; } });
    await m.recordText('hello world');
    assert.deepEqual(seen, ['hello world']);
    assert.equal(m.getAccumulatedTokens(), 7);
    const plain = new TokenThresholdMonitor({ onThresholdExceeded: async () => {} });
    await plain.recordText('abcde');
    assert.equal(plain.getAccumulatedTokens(), countTokens('abcde'));
  });

  it('rejects negative, NaN, infinite and non-number tokens', async () => {
    const m = new TokenThresholdMonitor({ onThresholdExceeded: async () => {} });
    for (const bad of [-1, NaN, Infinity]) assertFieldError(await rejected(m.record(bad)), RangeError, 'tokens');
    for (const bad of ['100', undefined, 10n]) assertFieldError(await rejected(m.record(bad)), TypeError, 'tokens');
    assert.equal(m.getAccumulatedTokens(), 0);
  });

  it('rejects bad config, naming the field', () => {
    assertFieldError(thrown(() => new TokenThresholdMonitor({})), TypeError, 'config.onThresholdExceeded');
    assertFieldError(thrown(() => new TokenThresholdMonitor({ onThresholdExceeded() {}, thresholdTokens: 0 })), RangeError, 'config.thresholdTokens');
    assertFieldError(thrown(() => new TokenThresholdMonitor({ onThresholdExceeded() {}, countTokens: 4 })), TypeError, 'config.countTokens');
  });
});

describe('countTokens (seed 003)', () => {
  it('is exactly Math.ceil(text.length / 4) in UTF-16 units', () => {
    const samples = ['', 'a', 'abcd', 'abcde', '😀', '😀😀😀', 'é中文', 'x'.repeat(4001), '\uD800 lone'];
    for (const text of samples) assert.equal(countTokens(text), Math.ceil(text.length / 4), JSON.stringify(text));
  });

  it('rejects non-strings', () => {
    assertFieldError(thrown(() => countTokens(42)), TypeError, 'text');
  });
});
