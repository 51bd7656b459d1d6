// Issue 9, for a turn: a callback, counter or getter that AgentRunner.runTurn or
// applyContextManagement consults fails, and the failure reaches the caller as that very
// value; a failed runTurn, at any step, leaves the runner, its tracker, refresher and log
// as they were; a host that breaks the managed context between turns is told so.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { TurnTracker, applyContextManagement } from '@devs/context';
import { assertFieldError, envelope, rejected } from './helpers.mjs';
import { context, mockDeps, toolOutput } from './management-fixtures.mjs';
import {
  it, REFRESH_TP, Fault, withGetter, faultyProxy, failure, runnerWith, faultyLog, faultTests, turnRig, snapshot,
  assertUnchanged,
} from './faults-helpers.mjs';

/**
 * A case where applyContextManagement, with one 60 KB output pending, calls
 * `deps[owner][method]`, which `fails(fault, original)` routes through the fault. After,
 * the context's arrays are the ones it had, and `check` runs.
 */
function depsCase({ name, async, prune, owner, method, fails, check }) {
  return {
    name,
    async,
    make(fault) {
      const deps = mockDeps({ prune });
      const object = deps[owner];
      object[method] = fails(fault, object[method].bind(object));
      const ctx = context({ pendingToolOutputs: [toolOutput('run_tests', 60_000, 2)] });
      const { turns, pendingToolOutputs } = ctx;
      return {
        fail: () => applyContextManagement(ctx, deps),
        async after() {
          assert.equal(ctx.turns, turns);
          assert.equal(ctx.pendingToolOutputs, pendingToolOutputs);
          await check(ctx, deps);
        },
      };
    },
  };
}

const callbackCases = [
  {
    name: 'llm.complete() → AgentRunner.runTurn',
    async: true,
    make(fault) {
      const r = runnerWith({ complete: () => fault.fail() ?? Promise.resolve({ text: 'fine' }) });
      return {
        setup: () => r.runTurn('1'),
        fail: () => r.runTurn('2'),
        async after() {
          assert.equal(r.turnCount, 1);
          assert.deepEqual(r.turns.map((t) => t.content), ['1', 'fine']);
          assert.equal((await r.runTurn('2')).turnIndex, 2);
        },
      };
    },
  },
  {
    name: 'an LLM response whose text getter throws → AgentRunner.runTurn',
    make(fault) {
      const r = runnerWith({ complete: async () => withGetter({}, 'text', fault, 'fine') });
      return {
        setup: () => r.runTurn('1'),
        fail: () => r.runTurn('2'),
        async after() {
          assert.equal(r.turnCount, 1);
          assert.equal((await r.runTurn('2')).response.text, 'fine');
        },
      };
    },
  },
  {
    name: 'an LLM envelope whose thought.plan getter throws → AgentRunner.runTurn',
    make(fault) {
      const thought = withGetter({ reasoning: 'r' }, 'plan', fault, 'p');
      const r = runnerWith({ complete: async () => ({ text: 'ok', envelope: envelope({ thought }) }) });
      return {
        setup: () => r.runTurn('1'),
        fail: () => r.runTurn('2'),
        async after() {
          assert.equal(r.turnCount, 1);
          assert.equal((await r.runTurn('2')).envelope.thought.plan, 'p');
        },
      };
    },
  },
  {
    name: 'an LLM envelope whose turn_index getter throws → AgentRunner.runTurn',
    make(fault) {
      const r = runnerWith({ complete: async () => ({ text: 'ok', envelope: withGetter(envelope(), 'turn_index', fault, 0) }) });
      return {
        setup: () => r.runTurn('1'),
        fail: () => r.runTurn('2'),
        async after() {
          assert.equal(r.turnCount, 1);
          assert.equal((await r.runTurn('2')).turnIndex, 2);
        },
      };
    },
  },
  {
    name: 'options.countTokens → AgentRunner.runTurn',
    make(fault) {
      const r = runnerWith({ countTokens: () => { fault.raise(); return 7; } });
      return {
        setup: () => r.runTurn('1'),
        fail: () => r.runTurn('2'),
        async after() {
          assert.equal(r.accumulatedTokens, 7);
          assert.equal(r.turnCount, 1);
          await r.runTurn('2');
          assert.equal(r.accumulatedTokens, 14);
        },
      };
    },
  },
  {
    name: 'handoff summarize() at the threshold → AgentRunner.runTurn',
    async: true,
    make(fault) {
      const r = runnerWith({ countTokens: () => 100, thresholdTokens: 200, summarize: () => fault.fail() ?? Promise.resolve('S') });
      return {
        setup: () => r.runTurn('1'),
        fail: () => r.runTurn('2'),
        async after() {
          assert.equal(r.accumulatedTokens, 100);
          assert.equal(r.turnCount, 1);
          assert.equal(r.turns.length, 2);
          assert.equal((await r.runTurn('2')).contextRefresh.summaryText, 'S');
        },
      };
    },
  },
  {
    name: 'log.append → AgentRunner.runTurn',
    make(fault) {
      const tracker = new TurnTracker('dev-1', 'implement');
      const log = faultyLog(fault);
      const r = runnerWith({ tracker, log, complete: async () => ({ text: 'ok', envelope: envelope() }) });
      return {
        setup: () => r.runTurn('1'),
        fail: () => r.runTurn('2'),
        async after() {
          assert.equal(r.turnCount, 1);
          assert.equal(tracker.currentIndex, 1);
          assert.deepEqual(log.getAll().map((e) => e.turn_index), [1]);
          assert.equal((await r.runTurn('2')).envelope.turn_index, 2);
          assert.deepEqual(log.getAll().map((e) => e.turn_index), [1, 2]);
        },
      };
    },
  },

  {
    name: 'a context.plan getter that throws → applyContextManagement (pruning)',
    make(fault) {
      const deps = mockDeps({ prune: true });
      const ctx = withGetter(context(), 'plan', fault, 'PLAN');
      const turns = ctx.turns;
      return {
        fail: () => applyContextManagement(ctx, deps),
        async after() {
          assert.equal(ctx.turns, turns, 'context.turns untouched');
          const result = await applyContextManagement(ctx, deps);
          assert.equal(result.prunedOccurred, true);
          assert.equal(deps.calls.find(([n]) => n === 'prune')[2], 'PLAN');
        },
      };
    },
  },
  {
    name: 'a turn whose content getter throws → applyContextManagement',
    make(fault) {
      const deps = mockDeps({ prune: false });
      const ctx = context();
      withGetter(ctx.turns[1], 'content', fault, 'second turn');
      const turns = ctx.turns;
      return {
        fail: () => applyContextManagement(ctx, deps),
        async after() {
          assert.equal(ctx.turns, turns);
          assert.equal((await applyContextManagement(ctx, deps)).prunedOccurred, false);
          assert.equal(ctx.turns[1].content, 'second turn');
        },
      };
    },
  },
  {
    name: 'a context Proxy whose get trap throws → applyContextManagement',
    make(fault) {
      const deps = mockDeps({ prune: false });
      const target = context();
      const ctx = faultyProxy(target, 'get', fault);
      const turns = target.turns;
      return {
        fail: () => applyContextManagement(ctx, deps),
        async after() {
          assert.equal(target.turns, turns);
          const result = await applyContextManagement(ctx, deps);
          const plain = await applyContextManagement(context(), mockDeps({ prune: false }));
          assert.equal(result.windowUsedTokens, plain.windowUsedTokens);
          assert.deepEqual(target.turns, turns);
        },
      };
    },
  },
  ...['compose', 'shouldPrune', 'prune'].map((method) => depsCase({
    name: `deps.${method === 'compose' ? 'composer' : 'pruner'}.${method}() → applyContextManagement`,
    async: true,
    prune: method === 'prune',
    owner: method === 'compose' ? 'composer' : 'pruner',
    method,
    fails: (fault, original) => (...args) => fault.fail() ?? original(...args),
    async check(ctx, deps) {
      const result = await applyContextManagement(ctx, deps);
      assert.equal(result.truncatedOutputCount, 1);
      assert.equal(result.prunedOccurred, method === 'prune');
    },
  })),
  ...['shouldTruncate', 'truncate'].map((method) => depsCase({
    name: `deps.toolOutputPruner.${method}() → applyContextManagement`,
    prune: false,
    owner: 'toolOutputPruner',
    method,
    fails: (fault, original) => (entry) => { fault.raise(); return original(entry); },
    async check(ctx, deps) {
      assert.equal((await applyContextManagement(ctx, deps)).truncatedOutputCount, 1);
      assert.equal(ctx.pendingToolOutputs[0].originalByteSize, 60_000);
    },
  })),
];

describe('a host callback, counter, getter or trap that fails', () => {
  faultTests(callbackCases);
});

const sameValue = (error, fault) => {
  assert.ok(fault.fired > 0, 'the fault was reached');
  assert.equal(error, fault.value);
};

const turnSteps = [
  ['llm.complete', ['throw', 'reject']],
  ['response.text', ['throw']],
  ['envelope.thought.plan', ['throw']],
  ['an invalid envelope', ['throw'], (error) => assertFieldError(error, TypeError, 'llm.complete().envelope.observation.status')],
  ['countTokens', ['throw']],
  ['summarize', ['throw', 'reject']],
  ['getSummary', ['throw', 'reject']],
  ['tracker.nextIndex', ['throw']],
  ['tracker.attach', ['throw']],
  ['tracker.toLogEntry', ['throw']],
  ['log.append', ['throw']],
  ['deps.composer.compose', ['throw', 'reject']],
  ['deps.pruner.shouldPrune', ['throw', 'reject']],
  ['deps.pruner.prune', ['throw', 'reject']],
  ['deps.toolOutputPruner.shouldTruncate', ['throw']],
  ['deps.toolOutputPruner.truncate', ['throw']],
  ['a non-string input', ['throw'], (error) => assertFieldError(error, TypeError, 'input'), (runner) => runner.runTurn(42)],
];

describe('a failed runTurn, at any step, leaves everything as it was', () => {
  for (const [step, styles, expect = sameValue, call = (runner) => runner.runTurn('step 5')] of turnSteps) {
    for (const style of styles) {
      it(`${step} ${style === 'reject' ? 'rejects' : 'fails'} on turn 5`, async () => {
        const fault = new Fault(new Error(`${step} failed`), style, step);
        const rig = turnRig(fault);
        for (let i = 1; i <= 4; i++) await rig.runner.runTurn(`step ${i}`);
        const before = snapshot(rig);
        assert.deepEqual([before.turnCount, before.accumulatedTokens, before.trackerIndex, before.refresherCount, before.log.length], [4, 400, 4, 4, 4]);
        assert.equal(rig.stored.length, 2, 'turns 1 and 2 outputs were persisted on turns 3 and 4');

        fault.armed = true;
        const error = await failure(() => call(rig.runner));
        fault.armed = false;
        expect(error, fault);
        assertUnchanged(rig, before);

        const retry = await rig.runner.runTurn('step 5');
        assert.equal(retry.turnIndex, 5);
        assert.equal(retry.envelope.turn_index, 5);
        assert.ok(retry.envelope.thought.reasoning.startsWith(REFRESH_TP), 'the refresh due on turn 5 happens on the retry');
        assert.equal(retry.contextRefresh?.summaryText, 'S');
        assert.equal(retry.contextManagement.truncatedOutputCount, 1);
        assert.equal(rig.runner.turnCount, 5);
        assert.equal(rig.runner.accumulatedTokens, 0);
        assert.equal(rig.tracker.currentIndex, 5);
        assert.equal(rig.refresher.turnsInCurrentNode, 0);
        assert.deepEqual(rig.log.getAll().map((e) => e.turn_index), [1, 2, 3, 4, 5]);
      });
    }
  }
});

describe('a managed context whose arrays a host replaced', () => {
  const breakages = [
    ['turns', null], ['turns', undefined], ['turns', 'not turns'], ['turns', { length: 0 }],
    ['pendingToolOutputs', null], ['pendingToolOutputs', 7], ['pendingToolOutputs', { 0: toolOutput('t', 1, 0), length: 1 }],
  ];

  for (const [key, value] of breakages) {
    it(`runTurn rejects context.${key} = ${value === null ? 'null' : typeof value}, naming it, and changes nothing`, async () => {
      const rig = turnRig(new Fault(new Error('unused')));
      await rig.runner.runTurn('step 1');
      await rig.runner.runTurn('step 2');
      const kept = rig.context[key];
      rig.context[key] = value;
      const before = snapshot(rig);
      const error = await rejected(rig.runner.runTurn('step 3'));
      assert.ok(error instanceof TypeError, `expected TypeError, got ${error?.constructor?.name}: ${error?.message}`);
      assert.equal(typeof error.field, 'string', error.message);
      assert.ok(error.field.endsWith(key), `field ${error.field} ends with ${key}`);
      assert.equal(typeof error.code, 'string');
      assert.ok(error.message.startsWith(`${error.field} `), error.message);
      assertUnchanged(rig, before);
      assert.equal(rig.context[key], value, 'not silently replaced');

      rig.context[key] = kept;
      const ok = await rig.runner.runTurn('step 3');
      assert.equal(ok.turnIndex, 3);
      assert.equal(rig.tracker.currentIndex, 3);
    });
  }

  for (const [key, value] of breakages) {
    it(`applyContextManagement rejects context.${key} = ${value === null ? 'null' : typeof value}`, async () => {
      const deps = mockDeps({ prune: false });
      const ctx = context({ [key]: value });
      assertFieldError(await rejected(applyContextManagement(ctx, deps)), TypeError, `context.${key}`);
      assert.equal(ctx[key], value);
      assert.deepEqual(deps.calls, [], 'nothing was called');
    });
  }
});
