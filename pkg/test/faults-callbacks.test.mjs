// Issue 9: a callback, counter, getter or Proxy trap that a seeds' class consults fails,
// and the failure reaches the caller as that very value and changes no state: the
// refresher, the injector, the handoff, the pruners, the composers, the token monitor,
// the log store and the spec protocol. (The runner's and applyContextManagement's are in
// faults-turns.test.mjs, the envelopes' in faults-envelopes.test.mjs.)
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentLogStore, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector, SpecRefreshProtocol,
  SummarizationHandoff, TokenThresholdMonitor, ToolOutputPruner, TurnTracker, WindowComposer,
  createDefaultWindowBudget,
} from '@devs/context';
import { envelope, turnEntries } from './helpers.mjs';
import { agentTurns, toolOutput } from './management-fixtures.mjs';
import { REFRESH_TP, withGetter, faultTests } from './faults-helpers.mjs';

const callbackCases = [
  {
    name: 'summaryProvider.getSummary() → ContextRefresher.onTurn',
    async: true,
    make(fault) {
      const r = new ContextRefresher({ threshold: 2, summaryProvider: { getSummary: () => fault.fail() ?? { tasSummary: 'T', prdSummary: 'P' } } });
      return {
        setup: () => r.onTurn(1),
        fail: () => r.onTurn(2),
        async after() {
          assert.equal(r.turnsInCurrentNode, 1, 'the failed turn is undone');
          assert.deepEqual(await r.onTurn(2), { refreshed: true, injectedSummary: REFRESH_TP });
        },
      };
    },
  },
  {
    name: 'a getSummary() result whose tasSummary getter throws → ContextRefresher.onTurn',
    make(fault) {
      const r = new ContextRefresher({
        threshold: 2,
        summaryProvider: { getSummary: async () => withGetter({ prdSummary: 'P' }, 'tasSummary', fault, 'T') },
      });
      return {
        setup: () => r.onTurn(1),
        fail: () => r.onTurn(2),
        async after() {
          assert.equal(r.turnsInCurrentNode, 1);
          assert.deepEqual(await r.onTurn(2), { refreshed: true, injectedSummary: REFRESH_TP });
        },
      };
    },
  },
  {
    name: 'summaryProvider.getSummary() → OrchestratorContextInjector.injectIfNeeded',
    async: true,
    make(fault) {
      const refresher = new ContextRefresher({ threshold: 2, summaryProvider: { getSummary: () => fault.fail() ?? { tasSummary: 'T', prdSummary: 'P' } } });
      const inj = new OrchestratorContextInjector(refresher);
      return {
        setup: () => inj.injectIfNeeded(envelope(), 1),
        fail: () => inj.injectIfNeeded(envelope(), 2),
        async after() {
          assert.equal(refresher.turnsInCurrentNode, 1);
          const input = envelope();
          const out = await inj.injectIfNeeded(input, 2);
          assert.equal(out.thought.reasoning, `${REFRESH_TP}\n\n${input.thought.reasoning}`);
        },
      };
    },
  },
  {
    name: 'llmClient.summarize() → SummarizationHandoff.transfer',
    async: true,
    make(fault) {
      const handoff = new SummarizationHandoff({ llmClient: { summarize: () => fault.fail() ?? Promise.resolve('S') } });
      return {
        fail: () => handoff.transfer('dev-1', turnEntries(3)),
        async after() {
          const summary = await handoff.transfer('dev-1', turnEntries(3));
          assert.deepEqual([summary.summaryText, summary.turnRangeStart, summary.turnRangeEnd], ['S', 1, 3]);
        },
      };
    },
  },
  {
    name: 'store.save() → SummarizationHandoff.transfer',
    async: true,
    make(fault) {
      const saved = [];
      const handoff = new SummarizationHandoff({
        llmClient: { summarize: async () => 'S' },
        store: { save: (s) => fault.fail() ?? Promise.resolve(saved.push(s)) },
      });
      return {
        fail: () => handoff.transfer('dev-1', turnEntries(2)),
        async after() {
          assert.equal(saved.length, 0);
          const summary = await handoff.transfer('dev-1', turnEntries(2));
          assert.deepEqual(saved, [summary]);
        },
      };
    },
  },
  {
    name: 'a turn whose content getter throws → SummarizationHandoff.transfer',
    make(fault) {
      const prompts = [];
      const handoff = new SummarizationHandoff({ llmClient: { summarize: async (p) => { prompts.push(p); return 'S'; } } });
      const turns = turnEntries(2);
      withGetter(turns[1], 'content', fault, 'turn 2 (getter)');
      return {
        fail: () => handoff.transfer('dev-1', turns),
        async after() {
          assert.equal(prompts.length, 0, 'the summarizer was not called');
          assert.equal((await handoff.transfer('dev-1', turns)).summaryText, 'S');
          assert.ok(prompts[0].includes('turn 2 (getter)'));
        },
      };
    },
  },
  {
    name: 'summarizer.summarize() → ContextPruner.prune',
    async: true,
    make(fault) {
      const pruner = new ContextPruner({ summarize: () => fault.fail() ?? Promise.resolve('S') });
      return {
        fail: () => pruner.prune(agentTurns(2), 'plan', 'tas', 'obs'),
        async after() {
          const out = await pruner.prune(agentTurns(2), 'plan', 'tas', 'obs');
          assert.deepEqual([out.summary, out.plan, out.originalTurnCount], ['S', 'plan', 2]);
        },
      };
    },
  },
  {
    name: 'a turn whose content getter throws → ContextPruner.prune',
    make(fault) {
      const pruner = new ContextPruner({ summarize: async () => 'S' });
      const turns = agentTurns(2);
      withGetter(turns[0], 'content', fault, 'first turn');
      return {
        fail: () => pruner.prune(turns, 'plan', 'tas', 'obs'),
        async after() {
          assert.equal((await pruner.prune(turns, 'plan', 'tas', 'obs')).summary, 'S');
        },
      };
    },
  },
  {
    name: 'repo.insertRawToolOutput() → ToolOutputPruner.persistRaw',
    async: true,
    make(fault) {
      const stored = [];
      const pruner = new ToolOutputPruner();
      const repo = { insertRawToolOutput: (e) => fault.fail() ?? Promise.resolve(void stored.push(e)) };
      const entry = toolOutput('run_tests', 60_000, 2);
      return {
        fail: () => pruner.persistRaw(entry, repo),
        async after() {
          assert.equal(stored.length, 0);
          await pruner.persistRaw(entry, repo);
          assert.deepEqual(stored, [entry]);
        },
      };
    },
  },
  {
    name: 'an entry whose rawContent getter throws → ToolOutputPruner.truncate',
    sync: true,
    make(fault) {
      const pruner = new ToolOutputPruner();
      const entry = withGetter(toolOutput('run_tests', 600, 2), 'rawContent', fault, 'R'.repeat(600));
      return {
        fail: () => pruner.truncate(entry),
        after() {
          const t = pruner.truncate(entry);
          assert.equal(t.toolName, 'run_tests');
          assert.ok(t.summary.startsWith('R'.repeat(500)));
        },
      };
    },
  },
  {
    name: 'countTokens → WindowComposer.compose',
    sync: true,
    make(fault) {
      const composer = new WindowComposer(createDefaultWindowBudget(1000), { countTokens: () => { fault.raise(); return 1; } });
      return {
        fail: () => composer.compose('goal', 'map', [envelope()]),
        after() {
          assert.deepEqual(composer.compose('goal', 'map', [envelope()]).slots.map((s) => s.tokenCount), [1, 1, 1]);
        },
      };
    },
  },
  {
    name: 'an envelope whose turn_index getter throws → WindowComposer.compose',
    sync: true,
    make(fault) {
      const composer = new WindowComposer(createDefaultWindowBudget(1_000_000));
      const envs = [envelope({ turn_index: 1 }), withGetter(envelope(), 'turn_index', fault, 2)];
      return {
        fail: () => composer.compose('g', 'm', envs),
        after() {
          const shown = composer.compose('g', 'm', envs).slots[2].content.split('\n').map((l) => JSON.parse(l).turn_index);
          assert.deepEqual(shown, [1, 2]);
        },
      };
    },
  },
  {
    name: 'countTokens → TokenThresholdMonitor.recordText',
    make(fault) {
      const m = new TokenThresholdMonitor({ onThresholdExceeded: async () => {}, countTokens: (text) => { fault.raise(); return text.length; } });
      return {
        setup: () => m.recordText('abc'),
        fail: () => m.recordText('hello'),
        async after() {
          assert.equal(m.getAccumulatedTokens(), 3);
          await m.recordText('hello');
          assert.equal(m.getAccumulatedTokens(), 8);
        },
      };
    },
  },
  {
    name: 'onThresholdExceeded → TokenThresholdMonitor.record',
    async: true,
    make(fault) {
      const events = [];
      const m = new TokenThresholdMonitor({ thresholdTokens: 10, onThresholdExceeded: (e) => fault.fail() ?? Promise.resolve(void events.push(e.totalTokens)) });
      return {
        setup: () => m.record(4),
        fail: () => m.record(6),
        async after() {
          assert.equal(m.getAccumulatedTokens(), 10, 'no tokens lost');
          await m.record(0);
          assert.deepEqual(events, [], 'a put-back is not a crossing');
          await m.record(10);
          assert.deepEqual(events, [20], 'the next crossing carries the failed one');
          assert.equal(m.getAccumulatedTokens(), 0);
        },
      };
    },
  },

  {
    name: 'an entry whose turn_index getter throws → AgentLogStore.append',
    sync: true,
    make(fault) {
      const store = new AgentLogStore(10);
      const tracker = new TurnTracker('a', 'p');
      tracker.nextIndex();
      const first = tracker.toLogEntry();
      tracker.nextIndex();
      const bad = withGetter(tracker.toLogEntry(), 'turn_index', fault, 2);
      return {
        setup: () => store.append(first),
        fail: () => store.append(bad),
        after() {
          assert.equal(store.size, 1);
          assert.deepEqual(store.getAll(), [first]);
          store.append(bad);
          assert.equal(store.getByTurnIndex(2), bad);
        },
      };
    },
  },
  {
    name: 'an entry whose agent_id getter throws → AgentLogStore.append',
    sync: true,
    make(fault) {
      const store = new AgentLogStore(10);
      const bad = withGetter(new TurnTracker('a', 'p').toLogEntry(), 'agent_id', fault, 'a');
      return {
        fail: () => store.append(bad),
        after() {
          assert.equal(store.size, 0);
          store.append(bad);
          assert.deepEqual(store.getByAgent('a'), [bad]);
        },
      };
    },
  },
  {
    name: 'a spec whose content getter throws → SpecRefreshProtocol.buildInjectionTurn',
    sync: true,
    make(fault) {
      const p = new SpecRefreshProtocol();
      const docs = [{ name: 'TAS', content: 'tas' }, withGetter({ name: 'PRD' }, 'content', fault, 'prd')];
      return {
        fail: () => p.buildInjectionTurn(docs),
        after() {
          assert.equal(p.buildInjectionTurn(docs).content, '[SPEC REFRESH]\n\n## TAS\ntas\n## PRD\nprd\n');
        },
      };
    },
  },
  {
    name: 'a spec whose content getter throws → new ContextComposer',
    sync: true,
    make(fault) {
      const docs = [{ name: 'TAS', content: 'tas' }, withGetter({ name: 'PRD' }, 'content', fault, 'prd')];
      return {
        fail: () => new ContextComposer({ specs: docs }),
        after() {
          assert.deepEqual(new ContextComposer({ specs: docs }).specs, [{ name: 'TAS', content: 'tas' }, { name: 'PRD', content: 'prd' }]);
        },
      };
    },
  },
];

describe('a host callback, counter, getter or trap that fails', () => {
  faultTests(callbackCases);
});
