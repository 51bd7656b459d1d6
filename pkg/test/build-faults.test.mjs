// Issue 47, items 2 and 9: whatever throws, the rollback runs, and no throw wedges a
// manager. Every host callback a compacting build calls (the counter, the summarizer, the
// store, onLedger, onWarning, onCompaction, beforeCompaction, a reminder's text, and each
// call into the host's OpenTelemetry) is made to throw at its 1st, 2nd, … call in turn.
// A callback whose throw rejects the build (docs/guides/errors.md) leaves the manager as
// it was, and the build tried again gives the request the fault-free build gives; one
// whose throw the build goes on through (a fallback, or a warning) does so. Either way,
// the next build succeeds.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager } from '@devs/context';
import { CallFault, FakeTelemetry, TELEMETRY_CALLS } from './telemetry-fakes.mjs';

/** Callbacks whose throw rejects the build, as documented; every other one's the build goes on through. */
const REJECTS = ['countTokens', 'onLedger', 'onWarning', 'onCompaction', 'beforeCompaction', 'reminders[0].text'];
const GOES_ON = { 'summarizer.summarize': 'summarizer-failed', 'store.insertRawToolOutput': 'store-failed', 'store.getRawToolOutput': undefined };
const CALLBACKS = [...REJECTS, ...Object.keys(GOES_ON), ...TELEMETRY_CALLS];

/** The fault in force: each callback consults it. */
let fault = new CallFault();
/** Every telemetry call throws too (a build rejected while its spans throw). */
let telemetryDown = false;
const hit = (name) => fault.hit(name);

/** A store of texts by id, numbered in order: a copy of `rows`, so each case starts from the same. */
function storeOf(rows) {
  const texts = new Map(rows);
  return {
    texts,
    insertRawToolOutput(entry) {
      hit('store.insertRawToolOutput');
      const id = `t${texts.size + 1}`;
      texts.set(id, entry.rawContent);
      return id;
    },
    getRawToolOutput(id) {
      hit('store.getRawToolOutput');
      return texts.has(id) ? { rawContent: texts.get(id) } : undefined;
    },
  };
}

const options = (store) => ({
  format: 'anthropic',
  budget: 4_000,
  store,
  countTokens: (text) => { hit('countTokens'); return Math.ceil(text.length / 4); },
  summarizer: { summarize: async (prompt) => { hit('summarizer.summarize'); return `the parser fails on line 12 (${prompt.length} characters read)`; } },
  onLedger: () => hit('onLedger'),
  onWarning: () => hit('onWarning'),
  onCompaction: () => hit('onCompaction'),
  beforeCompaction: async () => { hit('beforeCompaction'); return { instructions: 'Keep every line number.' }; },
  reminders: [{ every: 1, text: async () => { hit('reminders[0].text'); return 'Run the tests before you answer.'; } }],
});

const requestOf = (built) => JSON.stringify({ system: built.system, messages: built.messages });
/** The keys of snapshot `a` whose value differs in `b`: none when the two are the same (a short message when not). */
const differing = (a, b) => Object.keys({ ...a, ...b }).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
const settle = (promise) => promise.then((built) => ({ built }), (error) => ({ error }));

/**
 * The manager just before a build that calls every callback (its second compaction: it
 * folds away outputs stored by the first, read back for the transcript), as a snapshot
 * and the store's texts; and that build's request and calls, fault-free.
 */
async function target() {
  const store = storeOf([]);
  const manager = new ContextManager(options(store));
  await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
  for (let t = 0; t < 60; t++) {
    await manager.append([
      { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'run_tests', input: { filter: `parser ${t}` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `run ${t}: ${'FAIL parser line 12\n'.repeat(40)}` }] },
      { role: 'assistant', content: `run ${t} failed` },
    ]);
    // A usage report that cannot be the request's: set aside, so the build has a warning.
    if (t > 0) manager.recordUsage({ input_tokens: 1 });
    const snapshot = manager.snapshot();
    const rows = [...store.texts];
    fault = new CallFault();
    fault.armed = true;
    const built = await manager.build();
    fault.armed = false;
    const counts = fault.counts;
    const missing = CALLBACKS.filter((c) => !counts[c] && !['span.setStatus', 'span.recordException'].includes(c));
    if (missing.length === 0) {
      manager.free();
      return { snapshot, rows, counts, request: requestOf(built) };
    }
  }
  throw new Error('no build calls every callback');
}

describe('a throw from any callback at any call of a build', () => {
  let t;
  let unregister;
  before(async () => {
    unregister = new FakeTelemetry((name) => {
      if (telemetryDown && fault.armed) throw new Error(`${name}: telemetry down`);
      hit(name);
    }).register();
    t = await target();
  });
  after(() => unregister());

  /** One case: the target build with `name`'s `at`-th call throwing; what it did, checked. */
  async function meet(name, at) {
    const store = storeOf(t.rows);
    const manager = ContextManager.restore(t.snapshot, options(store));
    // The same usage report as before the target build: the snapshot holds what it set aside.
    const before = manager.snapshot();
    fault = new CallFault(name, at);
    fault.armed = true;
    const outcome = await settle(manager.build());
    fault.armed = false;
    const where = `${name} (call ${at}${telemetryDown ? ', telemetry down' : ''})`;
    assert.equal(fault.fired, 1, `${where}: the fault was reached`);
    if (REJECTS.includes(name)) {
      assert.equal(outcome.error, fault.value, `${where}: the build rejects with the callback's own error`);
      assert.deepEqual(differing(manager.snapshot(), before), [], `${where}: the manager is as it was`);
      const again = await settle(manager.build());
      assert.ok(again.built, `${where}: the next build succeeds (${again.error})`);
      assert.ok(requestOf(again.built) === t.request, `${where}: the build tried again is the fault-free one`);
    } else {
      assert.ok(outcome.built, `${where}: the build goes on (${outcome.error})`);
      const warnings = outcome.built.ledger.warnings.map((w) => w.code);
      const next = await settle(manager.build());
      assert.ok(next.built, `${where}: the next build succeeds (${next.error})`);
      if (TELEMETRY_CALLS.includes(name)) {
        assert.ok(requestOf(outcome.built) === t.request, `${where}: telemetry changes nothing`);
        const said = [...warnings, ...next.built.ledger.warnings.map((w) => w.code)];
        assert.ok(said.includes('telemetry-failed'), `${where}: a warning says so (${said})`);
      } else if (GOES_ON[name]) assert.ok(warnings.includes(GOES_ON[name]), `${where}: ${warnings}`);
    }
    manager.free();
  }

  it('the target build calls every callback', (context) => {
    context.diagnostic(`calls: ${JSON.stringify(t.counts)}`);
    assert.ok(t.counts.countTokens > 10 && t.counts['store.getRawToolOutput'] > 0 && t.counts['summarizer.summarize'] > 0, JSON.stringify(t.counts));
  });

  for (const name of CALLBACKS) {
    it(`${name}: at each of its calls`, async () => {
      const calls = t.counts[name] ?? 0;
      for (let at = 1; at <= calls; at++) await meet(name, at);
    });
  }

  it('a rejecting callback while every telemetry call throws too: rolled back all the same', async () => {
    telemetryDown = true;
    try {
      for (const name of REJECTS) for (const at of new Set([1, t.counts[name]])) await meet(name, at);
    } finally {
      telemetryDown = false;
    }
  });
});
