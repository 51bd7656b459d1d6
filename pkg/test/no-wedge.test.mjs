// Issue 20: no wedge. Turns and builds run one at a time, so a callback that never settles,
// or one that awaits its own runner's next turn, would hold the runner for good. A
// callback bounded by callbackTimeoutMs rejects the turn naming it, and the runner works
// again; a re-entrant call is refused at once (AsyncLocalStorage, on Node).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentRunner, CallbackTimeoutError, ContextManager, ContextPruner, ReentrantCallError, ToolOutputPruner, WindowComposer,
  createDefaultWindowBudget,
} from '@devs/context';
import { assertFieldError, envelope, rejected, thrown } from './helpers.mjs';

const never = () => new Promise(() => {});
/** Settles with the promise, or with 'still pending' after `ms`: a wedge shows as the latter. */
const settled = (promise, ms = 2_000) => Promise.race([promise.then(() => 'resolved', (e) => e), new Promise((r) => setTimeout(() => r('still pending'), ms))]);

describe('a callback that never settles', () => {
  for (const [callback, options] of [
    ['llm.complete', (hang) => ({ llm: async () => (hang() ? never() : { text: 'ok' }) })],
    ['handoff.transfer', (hang) => ({ llm: async () => ({ text: 'x'.repeat(4000) }), thresholdTokens: 100, handoff: { transfer: async () => (hang() ? never() : { agentId: 'a', summaryText: 'S', turnRangeStart: 1, turnRangeEnd: 1, createdAt: new Date() }) } })],
    ['injector.injectIfNeeded', (hang) => ({ llm: async () => ({ text: 't', envelope: envelope() }), injector: { injectIfNeeded: async (e) => (hang() ? never() : e) } })],
    ['deps.pruner.shouldPrune', (hang) => {
      const budget = createDefaultWindowBudget(20_000);
      const context = { turns: [], goal: 'g', map: '', plan: '', tas: 't', currentObservation: '', envelopes: [], pendingToolOutputs: [], budget };
      const pruner = new ContextPruner({ summarize: async () => 'S' });
      return {
        llm: async () => ({ text: 't' }),
        contextManagement: { context, deps: { composer: new WindowComposer(budget), pruner: { shouldPrune: (...a) => (hang() ? never() : pruner.shouldPrune(...a)), prune: (...a) => pruner.prune(...a) }, toolOutputPruner: new ToolOutputPruner(), stateRepository: { insertRawToolOutput: () => 1 } } },
      };
    }],
  ]) {
    it(`${callback}: rejects the turn naming it, and the runner works again`, async () => {
      let hang = true;
      const runner = new AgentRunner({ agentId: 'a', taskGoal: 'g', callbackTimeoutMs: 100, ...options(() => hang) });
      const error = await settled(runner.runTurn('go'));
      assert.ok(error instanceof CallbackTimeoutError, `got ${error}`);
      assert.equal(error.callback, callback);
      assert.equal(error.code, 'ERR_CALLBACK_TIMEOUT');
      assert.match(error.message, new RegExp(`^${callback.replace('.', '\\.')} did not settle within 100 ms`));
      assert.equal(runner.turnCount, 0, 'the turn was undone');
      hang = false;
      assert.equal(await settled(runner.runTurn('again')), 'resolved');
      assert.equal(runner.turnCount, 1);
    });
  }

  it('a bounded store that hangs falls back to the cut, with a warning naming the timeout', async () => {
    const warnings = [];
    const runner = new AgentRunner({
      agentId: 'a', taskGoal: 'g', callbackTimeoutMs: 100,
      llm: async () => ({ text: 't', envelope: envelope({ observation: { status: 'success', output: 'y '.repeat(20_000) } }) }),
      bounded: { budget: 10_000, store: { insertRawToolOutput: never }, onWarning: (w) => warnings.push(w) },
    });
    await runner.runTurn('go');
    assert.equal(await settled(runner.runTurn('go on')), 'resolved');
    assert.ok(warnings.some((w) => w.code === 'store-failed' && w.error instanceof CallbackTimeoutError), JSON.stringify(warnings.map((w) => w.message)));
  });

  it('ContextManager: a reminder that hangs rejects the build; a store that hangs falls back', async () => {
    let hang = true;
    const cm = new ContextManager({ format: 'openai-chat', budget: 10_000, callbackTimeoutMs: 100, reminders: [{ every: 1, text: () => (hang ? never() : 'specs') }] });
    cm.append({ role: 'user', content: 'go' });
    const error = await settled(cm.build());
    assert.ok(error instanceof CallbackTimeoutError);
    assert.equal(error.callback, 'options.reminders[0].text');
    hang = false;
    assert.equal(await settled(cm.build()), 'resolved');
  });

  it('ContextManager: a build rejected while its span throws too is taken back, and the next build works (issue 47)', async () => {
    // Every span method throws (a span processor whose onEnd throws does the same); onLedger
    // throws once, at the first compacting build. The rollback came after the span's
    // recordException, which skipped it: every later build failed with "journal.begin is out of place".
    const down = () => { throw new Error('telemetry down'); };
    const span = { setAttribute: down, setAttributes: down, setStatus: down, recordException: down, end: down };
    const ledgerDown = new Error('ledger file full');
    let failed = false;
    const cm = new ContextManager({
      format: 'openai-chat', budget: 2_000, summarizer: async () => 'S',
      tracer: { startSpan: () => span },
      onLedger: (record) => { if (record.compaction && !failed) { failed = true; throw ledgerDown; } },
    });
    for (let i = 0; i < 20; i++) {
      cm.append({ role: 'user', content: `message ${i} ${'w '.repeat(400)}` });
      const first = await settled(cm.build());
      if (first === ledgerDown) assert.equal(await settled(cm.build()), 'resolved', `build ${i + 1}, tried again`);
      else assert.equal(first, 'resolved', `build ${i + 1}`);
    }
    assert.ok(failed, 'a compacting build was rejected');
    assert.equal(cm.ledger.length, 20);
  });

  it('callbackTimeoutMs of the wrong type or range is named', () => {
    assertFieldError(thrown(() => new AgentRunner({ agentId: 'a', taskGoal: 'g', llm: async () => ({ text: '' }), callbackTimeoutMs: '5' })), TypeError, 'options.callbackTimeoutMs');
    assertFieldError(thrown(() => new AgentRunner({ agentId: 'a', taskGoal: 'g', llm: async () => ({ text: '' }), callbackTimeoutMs: 0 })), RangeError, 'options.callbackTimeoutMs');
    assertFieldError(thrown(() => new ContextManager({ format: 'anthropic', budget: 10_000, callbackTimeoutMs: -1 })), RangeError, 'options.callbackTimeoutMs');
  });
});

describe('a call from inside its own callback', () => {
  it('AgentRunner: llm.complete awaiting runTurn on its own runner is refused at once, and the runner goes on', async () => {
    let inner;
    const runner = new AgentRunner({
      agentId: 'a', taskGoal: 'g',
      llm: async () => {
        inner = await runner.runTurn('from inside').then(() => 'resolved', (e) => e);
        return { text: 'ok' };
      },
    });
    assert.equal(await settled(runner.runTurn('go')), 'resolved', 'the outer turn settles');
    assert.ok(inner instanceof ReentrantCallError, `got ${inner}`);
    assert.equal(inner.code, 'ERR_REENTRANT_CALL');
    assert.match(inner.message, /AgentRunner\.runTurn was called from inside/);
    assert.equal(await settled(runner.runTurn('next')), 'resolved');
    assert.equal(runner.turnCount, 2);
  });

  it('another runner may be driven from a callback; and turns made after one settles are not refused', async () => {
    const other = new AgentRunner({ agentId: 'b', taskGoal: 'g', llm: async () => ({ text: 'b' }) });
    const runner = new AgentRunner({ agentId: 'a', taskGoal: 'g', llm: async () => { await other.runTurn('nested'); return { text: 'a' }; } });
    await runner.runTurn('one');
    await runner.runTurn('two');
    assert.equal(other.turnCount, 2);
  });

  it('ContextManager: a summarizer awaiting build on its own manager is refused at once', async () => {
    let inner;
    const cm = new ContextManager({
      format: 'openai-chat', budget: 2_000,
      summarizer: async () => { inner = await cm.build().then(() => 'resolved', (e) => e); return 'S'; },
    });
    for (let i = 0; i < 20; i++) {
      cm.append({ role: 'user', content: `message ${i} ${'w '.repeat(400)}` });
      assert.equal(await settled(cm.build()), 'resolved');
    }
    assert.ok(inner instanceof ReentrantCallError, `got ${inner}`);
  });
});
