// Host callbacks may call back into the object that called them; no borrow is held while
// a callback runs, so this never fails with "recursive use of an object".
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextRefresher, TokenThresholdMonitor } from '@devs/context';

it('a summary provider may read and reset its refresher while it is being called', async () => {
  const seen = [];
  const refresher = new ContextRefresher({
    threshold: 2,
    summaryProvider: {
      getSummary() {
        seen.push(refresher.turnsInCurrentNode);
        refresher.resetNode();
        return { tasSummary: 'T', prdSummary: 'P' };
      },
    },
  });
  await refresher.onTurn(1);
  assert.equal((await refresher.onTurn(2)).refreshed, true);
  assert.deepEqual(seen, [0]);
});

it('a threshold callback may record into its own monitor', async () => {
  const events = [];
  const monitor = new TokenThresholdMonitor({
    thresholdTokens: 10,
    onThresholdExceeded: async (event) => {
      events.push(event.totalTokens);
      if (events.length === 1) await monitor.record(10);
    },
  });
  await monitor.record(10);
  assert.deepEqual(events, [10, 10]);
});

it('a custom counter may query the monitor that calls it', async () => {
  let monitor;
  monitor = new TokenThresholdMonitor({
    onThresholdExceeded: async () => {},
    countTokens: (text) => text.length + monitor.getAccumulatedTokens(),
  });
  await monitor.recordText('abc');
  await monitor.recordText('abc');
  assert.equal(monitor.getAccumulatedTokens(), 9);
});
