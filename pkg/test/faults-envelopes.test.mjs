// Issue 9, for the envelopes a host hands in: a getter or a Proxy trap (get, ownKeys)
// that fails reaches the caller as that very value and changes no state, and `arguments`
// that are not JSON (a BigInt, a cycle, 20,000 levels) are named by their path.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  ContextRefresher, OrchestratorContextInjector, TurnTracker, WindowComposer, createDefaultWindowBudget,
  isSaopEnvelope, validateSaopEnvelope,
} from '@devs/context';
import { envelope, rejected, thrown } from './helpers.mjs';
import {
  it, REFRESH_TP, withGetter, faultyProxy, assertModuleWorks, runnerWith, faultTests,
} from './faults-helpers.mjs';

/**
 * A case where validateSaopEnvelope meets the fault in the envelope `make(fault)` builds,
 * then, the fault disarmed, returns that very envelope.
 */
function validates(name, make) {
  return {
    name,
    sync: true,
    make(fault) {
      const e = make(fault);
      return {
        fail: () => validateSaopEnvelope(e),
        after() { assert.equal(validateSaopEnvelope(e), e); },
      };
    },
  };
}

const callbackCases = [
  validates('an envelope whose thought.plan getter throws → validateSaopEnvelope',
    (fault) => envelope({ thought: withGetter({ reasoning: 'r' }, 'plan', fault, 'p') })),
  validates('an envelope whose turn_index getter throws → validateSaopEnvelope',
    (fault) => withGetter(envelope(), 'turn_index', fault, 3)),
  validates('an envelope Proxy whose get trap throws → validateSaopEnvelope',
    (fault) => faultyProxy(envelope(), 'get', fault)),
  {
    name: 'an envelope Proxy whose get trap throws → TurnTracker.attach',
    sync: true,
    make(fault) {
      const t = new TurnTracker('a', 'p');
      const e = faultyProxy(envelope(), 'get', fault);
      return {
        setup: () => t.nextIndex(),
        fail: () => t.attach(e),
        after() {
          assert.equal(t.currentIndex, 1);
          assert.equal(t.attach(e).turn_index, 1);
        },
      };
    },
  },
];

describe('a host callback, counter, getter or trap that fails', () => {
  faultTests(callbackCases);
});

// The Proxy whose ownKeys trap throws, as the issue lists it: attach, validate, inject.
const ownKeysCases = [
  {
    name: 'an envelope Proxy whose ownKeys trap throws → TurnTracker.attach',
    sync: true,
    make(fault) {
      const t = new TurnTracker('a', 'p');
      const e = faultyProxy(envelope({ turn_index: 7 }), 'ownKeys', fault);
      return {
        setup: () => { t.nextIndex(); t.nextIndex(); },
        fail: () => t.attach(e),
        after() {
          assert.equal(t.currentIndex, 2);
          const out = t.attach(e);
          assert.equal(out.turn_index, 2);
          assert.equal(out.agent_id, 'dev-agent');
        },
      };
    },
  },
  validates('an envelope Proxy whose ownKeys trap throws → validateSaopEnvelope',
    (fault) => faultyProxy(envelope(), 'ownKeys', fault)),
  validates('a thought Proxy whose ownKeys trap throws → validateSaopEnvelope',
    (fault) => envelope({ thought: faultyProxy({ reasoning: 'r', plan: 'p' }, 'ownKeys', fault) })),
  {
    name: 'an envelope Proxy whose ownKeys trap throws → OrchestratorContextInjector.injectIfNeeded (a refresh turn)',
    make(fault) {
      const provider = { calls: 0, getSummary() { this.calls += 1; return { tasSummary: 'T', prdSummary: 'P' }; } };
      const refresher = new ContextRefresher({ threshold: 2, summaryProvider: provider });
      const inj = new OrchestratorContextInjector(refresher);
      const e = faultyProxy(envelope(), 'ownKeys', fault);
      return {
        setup: () => inj.injectIfNeeded(envelope(), 1),
        fail: () => inj.injectIfNeeded(e, 2),
        async after() {
          assert.equal(refresher.turnsInCurrentNode, 1, 'the failed turn is undone');
          const out = await inj.injectIfNeeded(e, 2);
          assert.equal(out.thought.reasoning, `${REFRESH_TP}\n\n${envelope().thought.reasoning}`);
          assert.equal(refresher.turnsInCurrentNode, 0);
        },
      };
    },
  },
];

describe('a Proxy whose ownKeys trap throws', () => {
  faultTests(ownKeysCases);
});

function nest(levels, wrap) {
  let value = 'leaf';
  for (let i = 0; i < levels; i++) value = wrap(value);
  return value;
}

const cyclic = {};
cyclic.self = cyclic;
const cyclicArray = { list: [] };
cyclicArray.list.push(cyclicArray);

/** [label, arguments, check of the field under `action.arguments`] */
const argumentCases = [
  ['a BigInt', { n: 1n }, (rest) => assert.equal(rest, '.n')],
  ['a BigInt nested in an array', { a: { b: [1, 2n] } }, (rest) => assert.match(rest, /^\.a\.b(\[1\]|\.1)$/)],
  ['a cycle', cyclic, (rest) => assert.equal(rest, '.self')],
  ['a cycle through an array', cyclicArray, (rest) => assert.match(rest, /^\.list(\[0\]|\.0)$/)],
  ['20,000 levels of objects', nest(20_000, (d) => ({ d })), (rest) => assert.match(rest, /^(\.d)+$/)],
  ['20,000 levels of arrays', { a: nest(20_000, (d) => [d]) }, (rest) => assert.match(rest, /^\.a(\[0\]|\.0)+$/)],
];

function assertNamed(error, type, prefix, check) {
  assert.ok(error instanceof type, `expected ${type.name}, got ${error?.constructor?.name}: ${error?.message}`);
  assert.equal(typeof error.field, 'string', `no field on: ${error.message}`);
  assert.equal(typeof error.code, 'string', `no code on: ${error.message}`);
  assert.ok(error.field.startsWith(prefix), `${error.field} starts with ${prefix}`);
  check(error.field.slice(prefix.length));
  assert.ok(error.message.startsWith(`${error.field} `), error.message.slice(0, 200));
  assert.ok(!/unreachable|panicked|Maximum call stack|BigInt value can't be serialized|circular structure/i.test(error.message), error.message.slice(0, 200));
}

describe('arguments that are not JSON', () => {
  it('moderate nesting is still a valid envelope', () => {
    const e = envelope({ action: { tool_name: 't', arguments: { a: nest(10, (d) => ({ d, list: [d] })) } } });
    assert.equal(isSaopEnvelope(e), true);
    assert.equal(validateSaopEnvelope(e), e);
  });

  for (const [label, args, check] of argumentCases) {
    it(`${label}: isSaopEnvelope is false, validateSaopEnvelope names the path`, () => {
      const e = envelope({ action: { tool_name: 't', arguments: args } });
      assert.equal(isSaopEnvelope(e), false);
      const error = thrown(() => validateSaopEnvelope(e));
      assertNamed(error, TypeError, 'action.arguments', check);
      assert.equal(error.code, 'ERR_INVALID_SAOP_ENVELOPE');
      assertModuleWorks();
    });

    it(`${label}: WindowComposer.compose names envelopes[1].action.arguments…`, () => {
      const composer = new WindowComposer(createDefaultWindowBudget(1_000_000));
      const envs = [envelope({ turn_index: 0 }), envelope({ turn_index: 1, action: { tool_name: 't', arguments: args } })];
      assertNamed(thrown(() => composer.compose('g', 'm', envs)), TypeError, 'envelopes[1].action.arguments', check);
      assert.equal(composer.compose('g', 'm', [envs[0]]).slots.length, 3, 'the composer keeps working');
    });

    it(`${label}: an LLM envelope with it fails the turn, naming it`, async () => {
      let bad = true;
      const r = runnerWith({
        complete: async () => ({ text: 'x', envelope: envelope({ action: { tool_name: 't', arguments: bad ? args : {} } }) }),
      });
      const error = await rejected(r.runTurn('go'));
      assertNamed(error, TypeError, 'llm.complete().envelope.action.arguments', check);
      assert.equal(r.turnCount, 0);
      bad = false;
      assert.equal((await r.runTurn('go')).turnIndex, 1);
    });
  }
});
