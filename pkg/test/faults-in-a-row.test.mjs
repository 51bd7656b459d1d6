// Issue 9: after 100,000 host faults in a row, every class still works, and so do the
// objects that faulted. In a file of its own: node --test runs each file in its own
// process, so a module this left broken would hide no other file's results.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentLogStore, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SlidingRelevanceWindow, SpecRefreshProtocol, SummarizationError, SummarizationHandoff, TokenThresholdMonitor,
  ToolOutputPruner, TurnTracker, WindowComposer, applyContextManagement, countTokens, createDefaultWindowBudget,
  isSaopEnvelope, validateSaopEnvelope,
} from '@devs/context';
import { envelope, rejected, turnEntries } from './helpers.mjs';
import { agentTurns, context, mockDeps, toolOutput } from './management-fixtures.mjs';
import { it, specs, REFRESH_TP, Fault, withGetter, faultyProxy, runnerWith, turnRig } from './faults-helpers.mjs';

/** One normal use of every class and function, with its results checked. */
async function exerciseEverything() {
  assert.equal(countTokens('abcdefgh'), 2);
  assert.deepEqual(createDefaultWindowBudget(1000), { totalBudget: 1000, goalBudget: 300, mapBudget: 200, recentPastBudget: 500 });
  const e = envelope({ turn_index: 4 });
  assert.equal(validateSaopEnvelope(e), e);
  assert.equal(isSaopEnvelope(e), true);

  const tracker = new TurnTracker('agent-1', 'phase-3');
  assert.equal(tracker.nextIndex(), 1);
  assert.equal(tracker.attach(envelope()).turn_index, 1);
  const entry = tracker.toLogEntry();
  assert.deepEqual([entry.turn_index, entry.agent_id, entry.phase, typeof entry.timestamp_ns], [1, 'agent-1', 'phase-3', 'bigint']);

  const log = new AgentLogStore(2);
  log.append(entry);
  assert.deepEqual(log.getByAgent('agent-1'), [entry]);
  assert.equal(log.getByTurnIndex(1), entry);

  const refresher = new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) } });
  assert.deepEqual(await refresher.onTurn(1), { refreshed: true, injectedSummary: REFRESH_TP });
  const injected = await new OrchestratorContextInjector(refresher).injectIfNeeded(envelope(), 2);
  assert.ok(injected.thought.reasoning.startsWith(REFRESH_TP));

  const window = new SlidingRelevanceWindow({ maxTurns: 2 }).compose(turnEntries(5), 'goal');
  assert.deepEqual(window.turns.map((t) => t.turnIndex), [4, 5]);
  assert.equal(SlidingRelevanceWindow.shouldInjectSpec(20), true);
  assert.equal(new SpecRefreshProtocol().buildInjectionTurn(specs).content, '[SPEC REFRESH]\n\n## TAS\nRust core\n## PRD\nStay on track\n');

  const events = [];
  const monitor = new TokenThresholdMonitor({ thresholdTokens: 10, onThresholdExceeded: async (ev) => { events.push(ev.totalTokens); } });
  await monitor.record(6);
  await monitor.record(6);
  assert.deepEqual(events, [12]);

  const handoff = new SummarizationHandoff({ llmClient: { summarize: async () => 'S' } });
  assert.equal((await handoff.transfer('a', turnEntries(2))).summaryText, 'S');
  const empty = await rejected(new SummarizationHandoff({ llmClient: { summarize: async () => '' } }).transfer('a', turnEntries(1)));
  assert.ok(empty instanceof SummarizationError);

  const composer = new ContextComposer({ specs, maxTurns: 3 });
  const composed = composer.compose(turnEntries(12), 'goal', 10);
  assert.equal(composed.specInjected, true);
  assert.equal(composed.turns.length, 4);

  const wc = new WindowComposer(createDefaultWindowBudget(1000));
  assert.deepEqual(wc.compose('g', 'm', [envelope()]).slots.map((s) => s.kind), ['goal', 'map', 'recent_past']);

  const pruner = new ContextPruner({ summarize: async () => 'P-SUM' });
  assert.equal(pruner.shouldPrune(900, createDefaultWindowBudget(1000)), true);
  assert.equal((await pruner.prune(agentTurns(2), 'p', 't', 'o')).summary, 'P-SUM');

  const tools = new ToolOutputPruner();
  const big = toolOutput('t', 60_000, 2);
  assert.equal(tools.shouldTruncate(big), true);
  assert.equal(tools.truncate(big).originalByteSize, 60_000);

  const ctx = context({ turns: agentTurns(2, 40) });
  const managed = await applyContextManagement(ctx, mockDeps({ prune: false }));
  assert.equal(managed.windowUsedTokens, 100 + 2 * countTokens('x'.repeat(40)), 'the mock window plus the turns');

  const rig = turnRig(new Fault(new Error('unused')));
  const first = await rig.runner.runTurn('step 1');
  assert.equal(first.turnIndex, 1);
  assert.equal(first.envelope.turn_index, 1);
  assert.equal(rig.log.size, 1);
}

describe('after 100,000 faults in a row', () => {
  it('10,000 rejected turns in a row leave a runner that still works', async () => {
    const boom = new Error('LLM down');
    let fail = true;
    const r = runnerWith({ complete: () => (fail ? Promise.reject(boom) : Promise.resolve({ text: 'up again' })) });
    let same = 0;
    for (let i = 0; i < 10_000; i++) {
      try {
        await r.runTurn(`try ${i}`);
      } catch (error) {
        if (error === boom) same += 1;
      }
    }
    assert.equal(same, 10_000);
    assert.equal(r.turnCount, 0);
    assert.deepEqual(r.turns, []);
    fail = false;
    const ok = await r.runTurn('finally');
    assert.equal(ok.turnIndex, 1);
    assert.equal(ok.response.text, 'up again');
    await exerciseEverything();
  });

  it('every class still works, and so do the objects that faulted', async () => {
    const boom = new Error('fault');
    const always = new Fault(boom);
    always.armed = true;
    const tracker = new TurnTracker('a', 'p');
    const getTrap = faultyProxy(envelope(), 'get', always);
    const keysTrap = faultyProxy(envelope(), 'ownKeys', always);
    const counterFault = new Fault(boom);
    counterFault.armed = true;
    const composer = new WindowComposer(createDefaultWindowBudget(1000), { countTokens: (t) => { counterFault.raise(); return t.length; } });
    const store = new AgentLogStore(10);
    const badEntry = withGetter(tracker.toLogEntry(), 'turn_index', always, 0);
    const calls = [
      () => tracker.attach(getTrap),
      () => tracker.attach(keysTrap),
      () => composer.compose('g', 'm', []),
      () => validateSaopEnvelope(keysTrap),
      () => store.append(badEntry),
    ];
    let same = 0;
    let other = null;
    for (let i = 0; i < 100_000; i++) {
      try {
        calls[i % calls.length]();
      } catch (error) {
        if (error === boom) same += 1;
        else other ??= error;
      }
    }
    assert.equal(other, null, `a fault came back as something else: ${other?.message}`);
    assert.equal(same, 100_000);

    counterFault.armed = false;
    tracker.nextIndex();
    assert.equal(tracker.attach(envelope()).turn_index, 1);
    assert.equal(composer.compose('goal', 'map', []).slots[0].tokenCount, 4);
    assert.equal(store.size, 0);
    store.append(tracker.toLogEntry());
    assert.equal(store.size, 1);
    await exerciseEverything();
  });
});
