// Seed 000: packages/core/src/protocol/__tests__/orchestrator-context-injector.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextRefresher, OrchestratorContextInjector } from '@devs/context';
import { assertFieldError, countingProvider, envelope, rejected, thrown } from './helpers.mjs';

function injector(provider = countingProvider()) {
  return new OrchestratorContextInjector(new ContextRefresher({ threshold: 5, summaryProvider: provider }));
}

describe('OrchestratorContextInjector (seed 000)', () => {
  it('leaves thought.reasoning unchanged for the first 4 turns', async () => {
    const inj = injector();
    for (let turn = 1; turn <= 4; turn++) {
      const input = envelope({ turn_index: turn });
      const out = await inj.injectIfNeeded(input, turn);
      assert.equal(out.thought.reasoning, input.thought.reasoning);
      assert.equal(out, input, 'no refresh: the envelope itself comes back');
    }
  });

  it('prepends "[CONTEXT REFRESH] <summary>" on turn 5', async () => {
    const inj = injector();
    for (let turn = 1; turn <= 4; turn++) await inj.injectIfNeeded(envelope(), turn);
    const input = envelope();
    const out = await inj.injectIfNeeded(input, 5);
    assert.equal(
      out.thought.reasoning,
      `[CONTEXT REFRESH]\n## TAS Summary\nTAS-S\n\n## PRD Summary\nPRD-S\n\n${input.thought.reasoning}`,
    );
  });

  it('returns a new object and never mutates the input', async () => {
    const inj = injector();
    for (let turn = 1; turn <= 4; turn++) await inj.injectIfNeeded(envelope(), turn);
    const input = Object.freeze({ ...envelope(), thought: Object.freeze({ ...envelope().thought }) });
    const snapshot = structuredClone(input);
    const out = await inj.injectIfNeeded(input, 5);
    assert.notEqual(out, input);
    assert.notEqual(out.thought, input.thought);
    assert.deepEqual(input, snapshot);
    assert.equal(out.action, input.action, 'a shallow clone: untouched members are shared');
    assert.equal(out.thought.plan, input.thought.plan);
  });

  it('injects exactly twice over 10 calls, at turns 5 and 10', async () => {
    const inj = injector();
    const injectedAt = [];
    for (let turn = 1; turn <= 10; turn++) {
      const out = await inj.injectIfNeeded(envelope(), turn);
      if (out.thought.reasoning.startsWith('[CONTEXT REFRESH]')) injectedAt.push(turn);
    }
    assert.deepEqual(injectedAt, [5, 10]);
  });

  it('passes the provider error through untouched', async () => {
    const boom = new Error('provider down');
    const inj = new OrchestratorContextInjector(
      new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => { throw boom; } } }),
    );
    assert.equal(await rejected(inj.injectIfNeeded(envelope(), 1)), boom);
  });

  it('works with any refresher-shaped object', async () => {
    const inj = new OrchestratorContextInjector({ onTurn: async () => ({ refreshed: true, injectedSummary: 'S' }) });
    assert.equal((await inj.injectIfNeeded(envelope(), 1)).thought.reasoning.split('\n\n')[0], 'S');
  });

  it('rejects bad input with errors that name the field, without using up a turn', async () => {
    assertFieldError(thrown(() => new OrchestratorContextInjector({})), TypeError, 'refresher.onTurn');
    const refresher = new ContextRefresher({ threshold: 5, summaryProvider: countingProvider() });
    const inj = new OrchestratorContextInjector(refresher);
    assertFieldError(await rejected(inj.injectIfNeeded(null, 1)), TypeError, 'envelope');
    assertFieldError(await rejected(inj.injectIfNeeded({ thought: {} }, 1)), TypeError, 'envelope.thought.reasoning');
    assert.equal(refresher.turnsInCurrentNode, 0);
  });
});
