// Issue 9, "Bad input and host faults: each gets a test". A host callback, counter,
// getter or Proxy trap that fails reaches the caller as that very value and changes no
// state; a failed runTurn, at any step, leaves the runner, its tracker, refresher and log
// as they were; lone surrogates survive every round trip; non-JSON `arguments` are named;
// a host that breaks the managed context between turns is told so; a freed object says
// so every time.
import { describe, it as nodeIt } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SlidingRelevanceWindow, SpecRefreshProtocol, SummarizationError, SummarizationHandoff, TokenThresholdMonitor,
  ToolOutputPruner, TurnTracker, WindowComposer, applyContextManagement, countTokens, createDefaultWindowBudget,
  isSaopEnvelope, validateSaopEnvelope,
} from '@devs/context';
import { assertFieldError, envelope, rejected, thrown, turnEntries } from './helpers.mjs';
import { agentTurns, context, mockDeps, toolOutput } from './management-fixtures.mjs';

// A hang guard, not a timing assertion: a test whose calls never settle fails on its own
// after 30 s (the timer keeps the event loop alive), instead of cancelling the whole file.
const it = (name, fn) => nodeIt(name, () => {
  let timer;
  const hung = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}: a call never settled`)), 30_000);
  });
  return Promise.race([Promise.resolve().then(fn), hung]).finally(() => clearTimeout(timer));
});

const specs = [{ name: 'TAS', content: 'Rust core' }, { name: 'PRD', content: 'Stay on track' }];
const REFRESH_TP = '[CONTEXT REFRESH]\n## TAS Summary\nT\n\n## PRD Summary\nP';

// ---------------------------------------------------------------------------------------
// Shared fixtures

/**
 * A host fault: while `armed` (and, when `at` is set, only at that step) the callbacks,
 * getters and traps that consult it fail with `value`. `fired` counts how often they did,
 * so a test can tell that the fault was really reached.
 */
class Fault {
  constructor(value, style = 'throw', at = undefined) {
    this.value = value;
    this.style = style;
    this.at = at;
    this.armed = false;
    this.fired = 0;
  }

  armedAt(step) {
    return this.armed && (this.at === undefined || step === undefined || this.at === step);
  }

  /** For a getter, a trap or a counter: throws while armed. */
  raise(step) {
    if (!this.armedAt(step)) return;
    this.fired += 1;
    throw this.value;
  }

  /** For a callback that may answer with a promise: throws or returns a rejection while armed, else undefined. */
  fail(step) {
    if (!this.armedAt(step)) return undefined;
    this.fired += 1;
    if (this.style === 'reject') return Promise.reject(this.value);
    throw this.value;
  }
}

const SYNC_MODES = [
  ['throws an Error', () => new Error('host fault'), 'throw'],
  ['throws a plain object', () => ({ reason: 'host fault, not an Error' }), 'throw'],
  ['throws a string', () => 'host fault as a string', 'throw'],
];
const ASYNC_MODES = [
  ...SYNC_MODES,
  ['rejects with an Error', () => new Error('host rejection'), 'reject'],
  ['rejects with a plain object', () => ({ reason: 'host rejection, not an Error' }), 'reject'],
];

/** `obj[key]` becomes an enumerable getter that consults `fault`, else returns `value`. */
function withGetter(obj, key, fault, value, step) {
  return Object.defineProperty(obj, key, {
    get() { fault.raise(step); return value; },
    enumerable: true,
    configurable: true,
  });
}

/** A Proxy over `target` whose `trap` fails while `fault` is armed, else behaves normally. */
function faultyProxy(target, trap, fault) {
  return new Proxy(target, {
    [trap](...args) {
      fault.raise();
      return Reflect[trap](...args);
    },
  });
}

/** What a call did wrong, whether it threw synchronously or rejected. */
async function failure(call) {
  let result;
  try {
    result = call();
  } catch (error) {
    return error;
  }
  return rejected(Promise.resolve(result));
}

/** A few normal calls that must succeed after any fault: the module keeps working. */
function assertModuleWorks() {
  assert.equal(countTokens('abcde'), 2);
  const tracker = new TurnTracker('probe', 'probe-phase');
  assert.equal(tracker.nextIndex(), 1);
  assert.equal(tracker.attach(envelope()).turn_index, 1);
  const e = envelope();
  assert.equal(validateSaopEnvelope(e), e);
  assert.equal(isSaopEnvelope(envelope({ turn_index: -1 })), false);
}

function runnerWith({ complete, countTokens: counter, thresholdTokens, summarize, tracker, log, agentId = 'dev-1', taskGoal = 'Fix the parser', composer } = {}) {
  const llm = { complete: complete ?? ((request) => Promise.resolve({ text: `answer ${request.turnIndex}` })) };
  const handoff = new SummarizationHandoff({ llmClient: { summarize: summarize ?? (async () => 'S') } });
  const options = { agentId, taskGoal, llm, composer: composer ?? new ContextComposer({ specs }), handoff };
  if (thresholdTokens !== undefined) options.thresholdTokens = thresholdTokens;
  if (counter !== undefined) options.countTokens = counter;
  if (tracker !== undefined) options.tracker = tracker;
  if (log !== undefined) options.log = log;
  return new AgentRunner(options);
}

/** The log store with `append` routed through `fault`, as a host wrapper would do it. */
function faultyLog(fault, step) {
  const log = new AgentLogStore(100);
  const append = log.append.bind(log);
  log.append = (entry) => {
    fault.raise(step);
    return append(entry);
  };
  return log;
}

// ---------------------------------------------------------------------------------------
// 1. A callback, counter, getter or trap that fails

/**
 * Each case builds a subject around a `fault`; `setup` runs normal calls first, `fail`
 * makes the call that meets the armed fault, `after` checks that nothing changed and
 * that the same object works normally again. `sync` cases must throw, not reject.
 */
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
  ...['compose', 'shouldPrune', 'prune'].map((method) => ({
    name: `deps.${method === 'compose' ? 'composer' : 'pruner'}.${method}() → applyContextManagement`,
    async: true,
    make(fault) {
      const deps = mockDeps({ prune: method === 'prune' });
      const owner = method === 'compose' ? deps.composer : deps.pruner;
      const original = owner[method].bind(owner);
      owner[method] = (...args) => fault.fail() ?? original(...args);
      const ctx = context({ pendingToolOutputs: [toolOutput('run_tests', 60_000, 2)] });
      const { turns, pendingToolOutputs } = ctx;
      return {
        fail: () => applyContextManagement(ctx, deps),
        async after() {
          assert.equal(ctx.turns, turns);
          assert.equal(ctx.pendingToolOutputs, pendingToolOutputs);
          const result = await applyContextManagement(ctx, deps);
          assert.equal(result.truncatedOutputCount, 1);
          assert.equal(result.prunedOccurred, method === 'prune');
        },
      };
    },
  })),
  ...['shouldTruncate', 'truncate'].map((method) => ({
    name: `deps.toolOutputPruner.${method}() → applyContextManagement`,
    make(fault) {
      const deps = mockDeps({ prune: false });
      const original = deps.toolOutputPruner[method].bind(deps.toolOutputPruner);
      deps.toolOutputPruner[method] = (entry) => { fault.raise(); return original(entry); };
      const ctx = context({ pendingToolOutputs: [toolOutput('run_tests', 60_000, 2)] });
      const { turns, pendingToolOutputs } = ctx;
      return {
        fail: () => applyContextManagement(ctx, deps),
        async after() {
          assert.equal(ctx.turns, turns);
          assert.equal(ctx.pendingToolOutputs, pendingToolOutputs);
          assert.equal((await applyContextManagement(ctx, deps)).truncatedOutputCount, 1);
          assert.equal(ctx.pendingToolOutputs[0].originalByteSize, 60_000);
        },
      };
    },
  })),
  {
    name: 'an envelope whose thought.plan getter throws → validateSaopEnvelope',
    sync: true,
    make(fault) {
      const e = envelope({ thought: withGetter({ reasoning: 'r' }, 'plan', fault, 'p') });
      return {
        fail: () => validateSaopEnvelope(e),
        after() { assert.equal(validateSaopEnvelope(e), e); },
      };
    },
  },
  {
    name: 'an envelope whose turn_index getter throws → validateSaopEnvelope',
    sync: true,
    make(fault) {
      const e = withGetter(envelope(), 'turn_index', fault, 3);
      return {
        fail: () => validateSaopEnvelope(e),
        after() { assert.equal(validateSaopEnvelope(e), e); },
      };
    },
  },
  {
    name: 'an envelope Proxy whose get trap throws → validateSaopEnvelope',
    sync: true,
    make(fault) {
      const e = faultyProxy(envelope(), 'get', fault);
      return {
        fail: () => validateSaopEnvelope(e),
        after() { assert.equal(validateSaopEnvelope(e), e); },
      };
    },
  },
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
  {
    name: 'an envelope Proxy whose ownKeys trap throws → validateSaopEnvelope',
    sync: true,
    make(fault) {
      const e = faultyProxy(envelope(), 'ownKeys', fault);
      return {
        fail: () => validateSaopEnvelope(e),
        after() { assert.equal(validateSaopEnvelope(e), e); },
      };
    },
  },
  {
    name: 'a thought Proxy whose ownKeys trap throws → validateSaopEnvelope',
    sync: true,
    make(fault) {
      const e = envelope({ thought: faultyProxy({ reasoning: 'r', plan: 'p' }, 'ownKeys', fault) });
      return {
        fail: () => validateSaopEnvelope(e),
        after() { assert.equal(validateSaopEnvelope(e), e); },
      };
    },
  },
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

function faultTests(cases) {
  for (const c of cases) {
    describe(c.name, () => {
      for (const [label, makeValue, style] of c.async ? ASYNC_MODES : SYNC_MODES) {
        it(`${label}: that very value reaches the caller, and the object keeps working`, async () => {
          const value = makeValue();
          const fault = new Fault(value, style);
          const subject = c.make(fault);
          await subject.setup?.();
          fault.armed = true;
          const error = c.sync ? thrown(subject.fail) : await failure(subject.fail);
          fault.armed = false;
          assert.ok(fault.fired > 0, 'the fault was reached');
          assert.equal(error, value, `expected the host's own ${typeof value}, got ${error?.constructor?.name}: ${error?.message ?? error}`);
          await subject.after();
          assertModuleWorks();
        });
      }
    });
  }
}

describe('a host callback, counter, getter or trap that fails', () => {
  faultTests(callbackCases);
});

describe('a Proxy whose ownKeys trap throws', () => {
  faultTests(ownKeysCases);
});

// ---------------------------------------------------------------------------------------
// 2. 10^5 faults in a row

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

// ---------------------------------------------------------------------------------------
// 3. A failed runTurn, at any step

/**
 * A runner with every rule on, where each host part can be made to fail at turn 5: the
 * refresher (threshold 5) and the token monitor (100 tokens a response, threshold 500)
 * both fire on turn 5, and turn 3's large tool output is truncated then.
 */
function turnRig(fault) {
  const budget = createDefaultWindowBudget(800_000);
  const context = {
    turns: [], goal: 'Make parser::tests::trailing_token pass', map: 'src/parser.rs\nsrc/lexer.rs',
    plan: '', tas: 'Rust core', currentObservation: '', envelopes: [], pendingToolOutputs: [], budget,
  };
  const composer = new WindowComposer(budget);
  const pruner = new ContextPruner({ summarize: async () => 'PRUNED' });
  const tools = new ToolOutputPruner();
  const stored = [];
  const deps = {
    composer: { compose: (g, m, e) => fault.fail('deps.composer.compose') ?? composer.compose(g, m, e) },
    pruner: {
      shouldPrune: (tokens, b) => fault.fail('deps.pruner.shouldPrune') ?? (fault.armedAt('deps.pruner.prune') || pruner.shouldPrune(tokens, b)),
      prune: (...args) => fault.fail('deps.pruner.prune') ?? pruner.prune(...args),
    },
    toolOutputPruner: {
      shouldTruncate: (entry) => { fault.raise('deps.toolOutputPruner.shouldTruncate'); return tools.shouldTruncate(entry); },
      persistRaw: (entry, repo) => tools.persistRaw(entry, repo),
      truncate: (entry) => { fault.raise('deps.toolOutputPruner.truncate'); return tools.truncate(entry); },
    },
    stateRepository: { insertRawToolOutput: async (entry) => { stored.push(entry); } },
  };
  const refresher = new ContextRefresher({
    threshold: 5,
    summaryProvider: { getSummary: () => fault.fail('getSummary') ?? Promise.resolve({ tasSummary: 'T', prdSummary: 'P' }) },
  });
  const tracker = new TurnTracker('dev-1', 'implement');
  for (const method of ['nextIndex', 'attach', 'toLogEntry']) {
    const original = tracker[method].bind(tracker);
    tracker[method] = (...args) => { fault.raise(`tracker.${method}`); return original(...args); };
  }
  const log = faultyLog(fault, 'log.append');
  let calls = 0;
  const llm = {
    complete(request) {
      const failed = fault.fail('llm.complete');
      if (failed) return failed;
      calls += 1;
      const i = request.turnIndex ?? calls;
      const env = envelope({
        action: { tool_name: `tool_${i}`, arguments: { i } },
        observation: { status: 'success', output: `output ${i} `.padEnd(60_000, 'o') },
      });
      if (fault.armedAt('envelope.thought.plan')) env.thought = withGetter({ reasoning: 'r' }, 'plan', fault, 'p', 'envelope.thought.plan');
      if (fault.armedAt('an invalid envelope')) env.observation = { status: 'done', output: '' };
      const response = { text: `turn ${i}: running the tests again`, envelope: env };
      if (fault.armedAt('response.text')) withGetter(response, 'text', fault, response.text, 'response.text');
      return Promise.resolve(response);
    },
  };
  const runner = new AgentRunner({
    agentId: 'dev-1', taskGoal: context.goal, llm,
    composer: new ContextComposer({ specs }),
    handoff: new SummarizationHandoff({ llmClient: { summarize: () => fault.fail('summarize') ?? Promise.resolve('S') } }),
    thresholdTokens: 500,
    countTokens: () => { fault.raise('countTokens'); return 100; },
    contextManagement: { context, deps },
    tracker, log,
    injector: new OrchestratorContextInjector(refresher),
  });
  return { runner, context, refresher, tracker, log, stored };
}

function snapshot({ runner, context, refresher, tracker, log }) {
  return {
    turns: runner.turns,
    turnCount: runner.turnCount,
    accumulatedTokens: runner.accumulatedTokens,
    trackerIndex: tracker.currentIndex,
    refresherCount: refresher.turnsInCurrentNode,
    log: log.getAll(),
    contextTurns: context.turns,
    contextEnvelopes: context.envelopes,
    contextOutputs: context.pendingToolOutputs,
    plan: context.plan,
    currentObservation: context.currentObservation,
  };
}

function assertUnchanged(rig, before) {
  const now = snapshot(rig);
  assert.deepEqual(now.turns, before.turns, 'runner.turns');
  assert.equal(now.turnCount, before.turnCount, 'turnCount');
  assert.equal(now.accumulatedTokens, before.accumulatedTokens, 'accumulatedTokens');
  assert.equal(now.trackerIndex, before.trackerIndex, 'tracker.currentIndex');
  assert.equal(now.refresherCount, before.refresherCount, 'refresher.turnsInCurrentNode');
  assert.equal(now.log.length, before.log.length, 'log size');
  now.log.forEach((entry, i) => assert.equal(entry, before.log[i], `log entry ${i}`));
  assert.equal(now.contextTurns, before.contextTurns, 'context.turns');
  assert.equal(now.contextEnvelopes, before.contextEnvelopes, 'context.envelopes');
  assert.equal(now.contextOutputs, before.contextOutputs, 'context.pendingToolOutputs');
  assert.equal(now.plan, before.plan, 'context.plan');
  assert.equal(now.currentObservation, before.currentObservation, 'context.currentObservation');
}

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

// ---------------------------------------------------------------------------------------
// 4. Lone surrogates

const LONE = ['\uD800', '\uD801', '\uDBFF', '\uDC00', '\uDFFF'];

describe('lone surrogates come back unchanged and compare exactly', () => {
  it('AgentLogStore.getByAgent tells lone surrogates, U+FFFD and a real pair apart', () => {
    const ids = [...LONE, '\uFFFD', '\uD800\uDC00', 'a\uD800', 'a\uDC00'];
    const store = new AgentLogStore(100);
    const byId = new Map(ids.map((id) => [id, []]));
    for (let round = 0; round < 2; round++) {
      for (const id of ids) {
        const t = new TurnTracker(id, `phase\uDFFF${round}`);
        t.nextIndex();
        const entry = t.toLogEntry();
        assert.equal(entry.agent_id, id);
        assert.equal(entry.phase, `phase\uDFFF${round}`);
        store.append(entry);
        byId.get(id).push(entry);
      }
    }
    for (const id of ids) {
      const got = store.getByAgent(id);
      assert.equal(got.length, 2, `getByAgent(${JSON.stringify(id)})`);
      got.forEach((entry, i) => assert.equal(entry, byId.get(id)[i]));
    }
    assert.deepEqual(store.getByAgent('\uD802'), []);
  });

  it('TurnTracker keeps agent_id and phase in toLogEntry and attach', () => {
    const t = new TurnTracker('\uD800', '\uDC00phase');
    t.nextIndex();
    const entry = t.toLogEntry();
    assert.equal(entry.agent_id, '\uD800');
    assert.equal(entry.phase, '\uDC00phase');
    const input = envelope({ agent_id: '\uDBFF', phase: 'p\uD800', thought: { reasoning: 'r\uDC00', plan: '\uD800' } });
    const out = t.attach(input);
    assert.equal(out.agent_id, '\uDBFF');
    assert.equal(out.phase, 'p\uD800');
    assert.equal(out.thought.reasoning, 'r\uDC00');
  });

  it('ContextRefresher keeps the provider\'s summaries as they are in injectedSummary', async () => {
    const r = new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => ({ tasSummary: 'T\uD800', prdSummary: '\uDC00P' }) } });
    const { injectedSummary } = await r.onTurn(1);
    assert.equal(injectedSummary, '[CONTEXT REFRESH]\n## TAS Summary\nT\uD800\n\n## PRD Summary\n\uDC00P');
  });

  it('OrchestratorContextInjector keeps both the summary and the reasoning', async () => {
    const r = new ContextRefresher({ threshold: 1, summaryProvider: { getSummary: async () => ({ tasSummary: '\uDBFF', prdSummary: '\uDFFF' }) } });
    const input = envelope({ thought: { reasoning: 'why\uD800', plan: 'plan\uDC00' } });
    const out = await new OrchestratorContextInjector(r).injectIfNeeded(input, 1);
    assert.equal(out.thought.reasoning, '[CONTEXT REFRESH]\n## TAS Summary\n\uDBFF\n\n## PRD Summary\n\uDFFF\n\nwhy\uD800');
    assert.equal(out.thought.plan, 'plan\uDC00');
  });

  it('[SPEC REFRESH] documents keep names and contents as they are', () => {
    const docs = [{ name: 'TAS\uD800', content: 'a\uDC00b' }, { name: 'PRD', content: '\uDBFF' }];
    const turn = new SpecRefreshProtocol().buildInjectionTurn(docs);
    assert.equal(turn.content, '[SPEC REFRESH]\n\n## TAS\uD800\na\uDC00b\n## PRD\n\uDBFF\n');
  });

  it('the 3000-char cut keeps a lone high surrogate that is not part of a pair', () => {
    const content = `${'x'.repeat(2999)}\uD800tail`;
    const turn = new SpecRefreshProtocol().buildInjectionTurn([{ name: 'T', content }]);
    assert.equal(turn.content, `[SPEC REFRESH]\n\n## T\n${'x'.repeat(2999)}\uD800\n`);
  });

  it('SummarizationHandoff keeps summaryText and agentId, and sends the turns as they are', async () => {
    const prompts = [];
    const handoff = new SummarizationHandoff({ llmClient: { summarize: async (p) => { prompts.push(p); return 'S\uD800 \uDC00'; } } });
    const turns = turnEntries(2, '\uD800');
    turns[0].content = 'first \uDC00 turn';
    const summary = await handoff.transfer('\uD800', turns);
    assert.equal(summary.summaryText, 'S\uD800 \uDC00');
    assert.equal(summary.agentId, '\uD800');
    assert.ok(prompts[0].includes('first \uDC00 turn'));
    assert.ok(!prompts[0].includes('\uFFFD'));
  });

  it('the AgentRunner prompt, history, [CONTEXT REFRESH] and [SPEC REFRESH] keep them', async () => {
    const requests = [];
    let n = 0;
    const r = runnerWith({
      agentId: 'dev\uD800',
      taskGoal: 'Fix \uDC00 the parser',
      composer: new ContextComposer({ specs: [{ name: 'TAS', content: 'tas \uD800' }, { name: 'PRD', content: 'prd \uDFFF' }] }),
      countTokens: () => 100,
      thresholdTokens: 300,
      summarize: async () => 'SUMMARY \uDBFF',
      complete: async (request) => { requests.push(request); n += 1; return { text: `model \uD801 ${n}` }; },
    });
    for (let i = 1; i <= 10; i++) await r.runTurn(`user \uDC01 ${i}`);
    assert.equal(requests[0].agentId, 'dev\uD800');
    assert.ok(requests[0].prompt.includes('Fix \uDC00 the parser'));
    assert.ok(requests[0].prompt.includes('user \uDC01 1'));
    assert.ok(requests[1].prompt.includes('model \uD801 1'));
    assert.ok(requests[9].prompt.includes('tas \uD800') && requests[9].prompt.includes('prd \uDFFF'), '[SPEC REFRESH] on turn 10');
    assert.ok(requests.every((q) => !q.prompt.includes('\uFFFD')), 'no replacement characters');
    const contents = r.turns.map((t) => t.content);
    assert.ok(contents.includes('[CONTEXT REFRESH]\nSUMMARY \uDBFF'));
    assert.ok(contents.includes('user \uDC01 10') && contents.includes('model \uD801 10'));
  });

  it('WindowComposer, ContextPruner, ToolOutputPruner and applyContextManagement keep them', async () => {
    const composed = new WindowComposer(createDefaultWindowBudget(100_000)).compose('goal\uD800', 'map\uDC00',
      [envelope({ thought: { reasoning: 'r\uDBFF', plan: 'p' } })]);
    assert.deepEqual(composed.slots.slice(0, 2).map((s) => s.content), ['goal\uD800', 'map\uDC00']);
    assert.equal(JSON.parse(composed.slots[2].content).thought.reasoning, 'r\uDBFF');

    const prompts = [];
    const pruner = new ContextPruner({ summarize: async (p) => { prompts.push(p); return 'pruned\uD800'; } });
    const out = await pruner.prune([{ role: 'user', content: 'turn\uDC00', timestampMs: 1 }], 'plan\uD800', 'tas\uDFFF', 'obs\uDBFF');
    assert.equal(out.summary, 'pruned\uD800');
    assert.deepEqual([out.plan, out.tas, out.currentObservation], ['plan\uD800', 'tas\uDFFF', 'obs\uDBFF']);
    for (const text of ['turn\uDC00', 'plan\uD800', 'tas\uDFFF', 'obs\uDBFF']) assert.ok(prompts[0].includes(text), JSON.stringify(text));

    const truncated = new ToolOutputPruner().truncate({ ...toolOutput('tool\uD800', 0, 2), rawContent: '\uDC00'.repeat(600), byteSize: 1800 });
    assert.equal(truncated.toolName, 'tool\uD800');
    assert.ok(truncated.summary.startsWith('\uDC00'.repeat(500)));

    const deps = mockDeps({ prune: true, summary: 'sum\uDFFF' });
    const ctx = context({ turns: [{ role: 'user', content: 'u\uD800', timestampMs: 1 }] });
    await applyContextManagement(ctx, deps);
    assert.equal(ctx.turns[0].content, 'sum\uDFFF');
    const kept = context({ turns: [{ role: 'user', content: 'u\uD800', timestampMs: 1 }] });
    await applyContextManagement(kept, mockDeps({ prune: false }));
    assert.equal(kept.turns[0].content, 'u\uD800');

    const e = envelope({ agent_id: '\uD800', phase: '\uDC00' });
    assert.equal(validateSaopEnvelope(e), e);
    assert.equal(new SlidingRelevanceWindow().compose([], 'goal\uDBFF').taskGoal, 'goal\uDBFF');
  });
});

// ---------------------------------------------------------------------------------------
// 5. Non-JSON `arguments`

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

// ---------------------------------------------------------------------------------------
// 6. A host that breaks the managed context between turns

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

// ---------------------------------------------------------------------------------------
// 7. Use after free()

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

// Last, so that a module this leaves broken does not hide the results above.
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
