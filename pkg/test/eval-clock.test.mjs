// The cache priced by the clock (@devs/context/eval's clockSpend, issue 50 item 2): a
// request after a pause longer than the TTL writes its whole prefix again, a summary request
// is priced too, and with nothing expiring the meter gives the figures of the meter before
// the clock (`spend`: reads 0.1×, writes 1.25×). Hand-made sequences, and a hand-made
// timed session through `evaluate`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clockSpend, evaluate, parsePrices, parseTtl, spend, stepTime } from '@devs/context/eval';

const MIN = 60_000;
const anthropic = parsePrices('anthropic', 5 * MIN);
const t0 = Date.parse('2026-12-01T10:00:00Z');
// Four requests, each extending the one before; the third comes after a 12-minute pause.
const requests = [
  { tokens: 10_000, prefix: 0, time: t0 },
  { tokens: 12_000, prefix: 10_000, time: t0 + 1 * MIN },
  { tokens: 14_000, prefix: 12_000, time: t0 + 13 * MIN },
  { tokens: 15_000, prefix: 14_000, time: t0 + 14 * MIN },
];

describe('the clock meter', () => {
  it('makes a request after a pause longer than the TTL write its whole prefix', () => {
    const c = clockSpend(requests, anthropic, 5 * MIN);
    assert.equal(c.expired, 1);
    assert.deepEqual(c.perRequest[2], { read: 0, written: 14_000 });
    assert.deepEqual(c.perRequest[3], { read: 14_000, written: 1_000 });
    const expected = 1.25 * 10_000 + (0.1 * 10_000 + 1.25 * 2_000) + 1.25 * 14_000 + (0.1 * 14_000 + 1.25 * 1_000);
    assert.ok(Math.abs(c.spend - expected) < 1e-6, `${c.spend} against ${expected}`);
  });

  it('keeps the entry within the TTL, and past it under the 1-hour lifetime, at its 2× write price', () => {
    const hour = clockSpend(requests, parsePrices('anthropic', parseTtl('1h')), parseTtl('1h'));
    assert.equal(hour.expired, 0);
    assert.equal(parsePrices('anthropic', parseTtl('1h')).write, 2);
    assert.ok(Math.abs(hour.spend - (0.1 * 36_000 + 2 * 15_000)) < 1e-6);
  });

  it('gives the untimed meter\'s figures when nothing expires, or when the requests carry no time', () => {
    const none = clockSpend(requests, anthropic, parseTtl('none'));
    assert.equal(none.expired, 0);
    assert.ok(Math.abs(none.spend - spend(requests)) < 1e-6, `${none.spend} against ${spend(requests)}`);
    const untimed = requests.map(({ tokens, prefix }) => ({ tokens, prefix }));
    assert.ok(Math.abs(clockSpend(untimed, anthropic, 5 * MIN).spend - spend(untimed)) < 1e-6);
  });

  it('prices a summary request: from the cache while it is warm, all written after a pause', () => {
    const warm = clockSpend([requests[0], { ...requests[1], summaries: [8_000] }], anthropic, 5 * MIN);
    assert.ok(Math.abs(warm.summarySpend - 0.1 * 8_000) < 1e-6);
    const cold = clockSpend([requests[0], { ...requests[2], summaries: [8_000] }], anthropic, 5 * MIN);
    assert.ok(Math.abs(cold.summarySpend - 1.25 * 8_000) < 1e-6);
  });

  it('reads prices and lifetimes, and names the option it refuses', () => {
    assert.deepEqual([parsePrices('openai').read, parsePrices('openai').write], [0.1, 1]);
    const custom = parsePrices('0.3,3.75,3');
    assert.ok(Math.abs(custom.read - 0.1) < 1e-9 && Math.abs(custom.write - 1.25) < 1e-9);
    assert.equal(parseTtl('5m'), 5 * MIN);
    assert.throws(() => parseTtl('soon'), (e) => e instanceof RangeError && /ttl/.test(e.message));
    assert.throws(() => parsePrices('1,2'), (e) => e instanceof RangeError && /prices/.test(e.message));
  });

  it('reads a step\'s time in any of the forms a reader may keep', () => {
    assert.equal(stepTime({ time: '2026-12-01T10:00:00Z' }), t0);
    assert.equal(stepTime({ timestamp: t0 }), t0);
    assert.equal(stepTime({ timestamp: t0 / 1000 }), t0);
    assert.equal(stepTime({}), undefined);
  });
});

/** A session of `n` steps of text, each `gap(i)` ms after the one before (no time when `gap` is undefined). */
function session(n, gap) {
  let at = t0;
  const steps = Array.from({ length: n }, (_, i) => {
    at += gap ? gap(i) : 0;
    const step = { input: `Step ${i}: please look at src/module_${i}.py and fix checkValue${i}.`, text: `Looked at src/module_${i}.py: checkValue${i} needs a guard. ${'detail '.repeat(200)}`, calls: [] };
    return gap ? { ...step, time: new Date(at).toISOString() } : step;
  });
  return { name: gap ? 'timed' : 'untimed', format: 'openai-messages', steps, warnings: [], unmatchedResults: 0 };
}

describe('evaluate with the clock', () => {
  it('prices a timed session\'s pauses, and says when a session has no timestamps', async () => {
    const timed = session(12, (i) => (i === 6 ? 20 * MIN : MIN));
    const options = { budgets: [50_000], strategies: ['ours', 'auto-compact'] };
    const clock = await evaluate([timed], { ...options, ttl: '5m' });
    const never = await evaluate([timed], { ...options, ttl: 'none' });
    assert.equal(clock.sessions[0].timed, true);
    assert.equal(clock.sessions[0].pauses, 1);
    for (const id of ['ours', 'auto-compact']) {
      const a = clock.totals.find((f) => f.strategy === id);
      const b = never.totals.find((f) => f.strategy === id);
      assert.equal(a.expired, 1, id);
      assert.ok(a.clockSpend > b.clockSpend, `${id}: ${a.clockSpend} > ${b.clockSpend}`);
      assert.ok(Math.abs(b.clockSpend - b.summarySpend - b.spend) < 1e-6, `${id}: nothing expiring, the requests cost what the meter before the clock says`);
    }
    assert.deepEqual(clock.notes, []);
    const untimed = await evaluate([session(4)], { ...options, ttl: '5m' });
    assert.equal(untimed.sessions[0].timed, false);
    assert.match(untimed.notes.join('\n'), /no timestamps: priced with no expiry/);
  });
});
