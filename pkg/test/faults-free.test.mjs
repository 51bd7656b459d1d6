// Issue 9: a freed object says so every time (ERR_USE_AFTER_FREE), and the other
// instances of its class keep working.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentLogStore, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SlidingRelevanceWindow, SpecRefreshProtocol, SummarizationHandoff, TokenThresholdMonitor, ToolOutputPruner,
  TurnTracker, WindowComposer, createDefaultWindowBudget,
} from '@devs/context';
import { envelope, turnEntries } from './helpers.mjs';
import { toolOutput } from './management-fixtures.mjs';
import { it, specs, REFRESH_TP, failure, assertModuleWorks, runnerWith } from './faults-helpers.mjs';

const freeCases = [
  ['TurnTracker', () => new TurnTracker('a', 'p'), [(t) => t.nextIndex(), (t) => t.currentIndex, (t) => t.attach(envelope())],
    (t) => assert.equal(t.nextIndex(), 1)],
  ['AgentLogStore', () => new AgentLogStore(5), [(s) => s.append(new TurnTracker('a', 'p').toLogEntry()), (s) => s.getAll(), (s) => s.size],
    (s) => { s.append(new TurnTracker('a', 'p').toLogEntry()); assert.equal(s.size, 1); }],
  ['ContextRefresher', () => new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) } }),
    [(r) => r.onTurn(1), (r) => r.turnsInCurrentNode, (r) => r.resetNode()],
    async (r) => assert.equal((await r.onTurn(1)).injectedSummary, REFRESH_TP)],
  ['OrchestratorContextInjector', () => new OrchestratorContextInjector({ onTurn: async () => ({ refreshed: true, injectedSummary: 'S' }) }),
    [(i) => i.injectIfNeeded(envelope(), 1)],
    async (i) => assert.ok((await i.injectIfNeeded(envelope(), 1)).thought.reasoning.startsWith('S\n\n'))],
  ['SlidingRelevanceWindow', () => new SlidingRelevanceWindow({ maxTurns: 2 }), [(w) => w.compose(turnEntries(3), 'g')],
    (w) => assert.equal(w.compose(turnEntries(3), 'g').turns.length, 2)],
  ['SpecRefreshProtocol', () => new SpecRefreshProtocol(), [(p) => p.buildInjectionTurn(specs)],
    (p) => assert.ok(p.buildInjectionTurn(specs).content.startsWith('[SPEC REFRESH]'))],
  ['TokenThresholdMonitor', () => new TokenThresholdMonitor({ onThresholdExceeded: async () => {} }), [(m) => m.record(1), (m) => m.getAccumulatedTokens(), (m) => m.reset()],
    async (m) => { await m.record(3); assert.equal(m.getAccumulatedTokens(), 3); }],
  ['SummarizationHandoff', () => new SummarizationHandoff({ llmClient: { summarize: async () => 'S' } }), [(h) => h.transfer('a', turnEntries(1))],
    async (h) => assert.equal((await h.transfer('a', turnEntries(1))).summaryText, 'S')],
  ['ContextComposer', () => new ContextComposer({ specs }), [(c) => c.compose(turnEntries(1), 'g', 1)],
    (c) => assert.equal(c.compose(turnEntries(1), 'g', 1).turns.length, 1)],
  ['WindowComposer', () => new WindowComposer(createDefaultWindowBudget(1000)), [(w) => w.compose('g', 'm', [])],
    (w) => assert.equal(w.compose('g', 'm', []).slots.length, 3)],
  ['ContextPruner', () => new ContextPruner({ summarize: async () => 'S' }), [(p) => p.shouldPrune(1, createDefaultWindowBudget()), (p) => p.prune([], 'p', 't', 'o')],
    (p) => assert.equal(p.shouldPrune(720_000, createDefaultWindowBudget()), true)],
  ['ToolOutputPruner', () => new ToolOutputPruner(), [(p) => p.truncate(toolOutput('t', 10, 2)), (p) => p.shouldTruncate(toolOutput('t', 10, 2))],
    (p) => assert.equal(p.shouldTruncate(toolOutput('t', 60_000, 2)), true)],
  ['AgentRunner', () => runnerWith(), [(r) => r.runTurn('x'), (r) => r.turnCount, (r) => r.turns],
    async (r) => assert.equal((await r.runTurn('x')).turnIndex, 1)],
];

describe('use after free()', () => {
  for (const [name, make, uses, works] of freeCases) {
    it(`${name}: every use of a freed object throws ERR_USE_AFTER_FREE; other instances keep working`, async () => {
      const bystander = make();
      const victim = make();
      assert.equal(typeof victim.free, 'function', `${name} has free()`);
      victim.free();
      for (const use of uses) {
        for (let attempt = 1; attempt <= 3; attempt++) {
          const error = await failure(() => use(victim));
          assert.ok(error instanceof Error, `attempt ${attempt}: ${error}`);
          assert.equal(error.code, 'ERR_USE_AFTER_FREE', `attempt ${attempt}: ${error.message}`);
        }
      }
      await works(bystander);
      await works(make());
      assertModuleWorks();
    });
  }

  it('an injector over a freed refresher rejects with ERR_USE_AFTER_FREE, every time', async () => {
    const refresher = new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) } });
    const inj = new OrchestratorContextInjector(refresher);
    refresher.free();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const error = await failure(() => inj.injectIfNeeded(envelope(), attempt));
      assert.equal(error.code, 'ERR_USE_AFTER_FREE', `attempt ${attempt}: ${error.message}`);
    }
    const fresh = new OrchestratorContextInjector(new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) } }));
    assert.ok((await fresh.injectIfNeeded(envelope(), 1)).thought.reasoning.startsWith(REFRESH_TP));
  });
});
