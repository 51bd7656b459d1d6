// Issue 18: every exported class checks its config. For each, null, a number, a string,
// an array and a function given where the config goes are each a TypeError naming the
// parameter, unless the parameter takes that kind (a number for a size, a string for a
// name, a function for a one-method callback).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as api from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { assertFieldError, thrown } from './helpers.mjs';

const KINDS = {
  null: null,
  number: 5,
  string: 'text',
  array: [],
  function: () => {},
};

const composer = () => new api.ContextComposer({ specs: [{ name: 'TAS', content: 'T' }] });
const handoff = () => new api.SummarizationHandoff({ llmClient: { summarize: async () => 's' } });

// [class, its constructor called with the value under test, the parameter's field, kinds it takes]
const CLASSES = [
  ['AgentLogStore', (v) => new api.AgentLogStore(v), 'maxSize', ['number']],
  ['AgentRunner', (v) => new api.AgentRunner(v), 'options', []],
  ['ContextComposer', (v) => new api.ContextComposer(v), 'options', []],
  ['ContextManager', (v) => new api.ContextManager(v), 'options', []],
  ['ContextPruner', (v) => new api.ContextPruner(v), 'summarizer', ['function']],
  ['ContextPruner (options)', (v) => new api.ContextPruner({ summarize: async () => 's' }, v), 'options', []],
  ['ContextRefresher', (v) => new api.ContextRefresher(v), 'options', []],
  ['MemoryStateRepository', (v) => new api.MemoryStateRepository(v), 'options', []],
  ['OrchestratorContextInjector', (v) => new api.OrchestratorContextInjector(v), 'refresher', ['function']],
  ['SlidingRelevanceWindow', (v) => new api.SlidingRelevanceWindow(v), 'config', []],
  ['SummarizationHandoff', (v) => new api.SummarizationHandoff(v), 'options', []],
  ['TokenThresholdMonitor', (v) => new api.TokenThresholdMonitor(v), 'config', []],
  ['ToolOutputPruner', (v) => new api.ToolOutputPruner(v), 'options', []],
  ['TurnTracker', (v) => new api.TurnTracker(v, 'implement'), 'agentId', ['string']],
  ['WindowComposer', (v) => new api.WindowComposer(v), 'budget', []],
  ['WindowComposer (options)', (v) => new api.WindowComposer(api.createDefaultWindowBudget(), v), 'options', []],
  ['SqliteStateRepository', (v) => new SqliteStateRepository(v), 'filename', ['string']],
];

describe('every exported class checks its config', () => {
  it('covers every class the package exports', () => {
    const exported = Object.entries(api)
      .filter(([name, value]) => typeof value === 'function' && /^[A-Z]/.test(name) && !(value.prototype instanceof Error))
      .map(([name]) => name);
    // SpecRefreshProtocol takes no parameter at all; a ContextSession is made by ContextManager.open (below).
    const covered = new Set([...CLASSES.map(([name]) => name.split(' ')[0]), 'SpecRefreshProtocol', 'ContextSession']);
    assert.deepEqual(exported.filter((name) => !covered.has(name)), []);
  });

  for (const [kind, value] of Object.entries(KINDS)) {
    it(`ContextSession (ContextManager.open): ${kind} rejects with a TypeError naming options`, async () => {
      assertFieldError(await api.ContextManager.open(value).then(() => assert.fail('expected a rejection'), (e) => e), TypeError, 'options');
    });
  }

  for (const [name, make, field, takes] of CLASSES) {
    for (const [kind, value] of Object.entries(KINDS)) {
      if (takes.includes(kind)) continue;
      it(`${name}: ${kind} is a TypeError naming ${field}`, () => {
        assertFieldError(thrown(() => make(value)), TypeError, field);
      });
    }
  }
});

describe('a plain function where a one-method callback object goes', () => {
  it('is taken as that method', async () => {
    const refresher = new api.ContextRefresher({ threshold: 1, summaryProvider: () => ({ tasSummary: 'T', prdSummary: 'P' }) });
    assert.equal((await refresher.onTurn(1)).refreshed, true);
    const summaries = [];
    const h = new api.SummarizationHandoff({ llmClient: (prompt) => { summaries.push(prompt); return 'summary'; } });
    const turns = [{ turnIndex: 1, agentId: 'a', role: 'user', content: 'hello', createdAt: new Date() }];
    assert.equal((await h.transfer('a', turns)).summaryText, 'summary');
    assert.equal(summaries.length, 1);
    const runner = new api.AgentRunner({ agentId: 'a', taskGoal: 'g', llm: () => ({ text: 'done' }), composer: composer(), handoff: handoff() });
    assert.equal((await runner.runTurn('go')).response.text, 'done');
  });

  it('where several methods are wanted, the error names them', () => {
    const error = thrown(() => new api.AgentRunner({ agentId: 'a', taskGoal: 'g', llm: () => ({ text: '' }), composer: composer(), handoff: handoff(), tracker: () => {} }));
    assertFieldError(error, TypeError, 'options.tracker');
    assert.match(error.message, /nextIndex\(\), attach\(\) and toLogEntry\(\), got a function/);
  });

  it('where one method is wanted, the error says a function will do', () => {
    const error = thrown(() => new api.ContextRefresher({ summaryProvider: 42 }));
    assertFieldError(error, TypeError, 'options.summaryProvider');
    assert.match(error.message, /an object with getSummary\(\), or a function, got the number 42/);
  });
});
