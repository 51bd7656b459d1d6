// What the faults-*.test.mjs files share (issue 9, "Bad input and host faults: each gets
// a test"): the hang guard, a host fault and the ways it fails, the getters and Proxies
// that consult it, the runner of case tables, and the runner whose every host part can
// be made to fail. Not a test file: its name does not end in .test.mjs.
import { describe, it as nodeIt } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer, countTokens, createDefaultWindowBudget,
  isSaopEnvelope, validateSaopEnvelope,
} from '@devs/context';
import { envelope, rejected, thrown } from './helpers.mjs';

// A hang guard, not a timing assertion: a test whose calls never settle fails on its own
// after 30 s (the timer keeps the event loop alive), instead of cancelling the whole file.
export const it = (name, fn) => nodeIt(name, () => {
  let timer;
  const hung = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}: a call never settled`)), 30_000);
  });
  return Promise.race([Promise.resolve().then(fn), hung]).finally(() => clearTimeout(timer));
});

export const specs = [{ name: 'TAS', content: 'Rust core' }, { name: 'PRD', content: 'Stay on track' }];
export const REFRESH_TP = '[CONTEXT REFRESH]\n## TAS Summary\nT\n\n## PRD Summary\nP';

// ---------------------------------------------------------------------------------------
// Shared fixtures

/**
 * A host fault: while `armed` (and, when `at` is set, only at that step) the callbacks,
 * getters and traps that consult it fail with `value`. `fired` counts how often they did,
 * so a test can tell that the fault was really reached.
 */
export class Fault {
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
export function withGetter(obj, key, fault, value, step) {
  return Object.defineProperty(obj, key, {
    get() { fault.raise(step); return value; },
    enumerable: true,
    configurable: true,
  });
}

/** A Proxy over `target` whose `trap` fails while `fault` is armed, else behaves normally. */
export function faultyProxy(target, trap, fault) {
  return new Proxy(target, {
    [trap](...args) {
      fault.raise();
      return Reflect[trap](...args);
    },
  });
}

/** What a call did wrong, whether it threw synchronously or rejected. */
export async function failure(call) {
  let result;
  try {
    result = call();
  } catch (error) {
    return error;
  }
  return rejected(Promise.resolve(result));
}

/** A few normal calls that must succeed after any fault: the module keeps working. */
export function assertModuleWorks() {
  assert.equal(countTokens('abcde'), 2);
  const tracker = new TurnTracker('probe', 'probe-phase');
  assert.equal(tracker.nextIndex(), 1);
  assert.equal(tracker.attach(envelope()).turn_index, 1);
  const e = envelope();
  assert.equal(validateSaopEnvelope(e), e);
  assert.equal(isSaopEnvelope(envelope({ turn_index: -1 })), false);
}

export function runnerWith({ complete, countTokens: counter, thresholdTokens, summarize, tracker, log, agentId = 'dev-1', taskGoal = 'Fix the parser', composer } = {}) {
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
export function faultyLog(fault, step) {
  const log = new AgentLogStore(100);
  const append = log.append.bind(log);
  log.append = (entry) => {
    fault.raise(step);
    return append(entry);
  };
  return log;
}

/**
 * Each case builds a subject around a `fault`; `setup` runs normal calls first, `fail`
 * makes the call that meets the armed fault, `after` checks that nothing changed and
 * that the same object works normally again. `sync` cases must throw, not reject.
 */

export function faultTests(cases) {
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

/**
 * A runner with every rule on, where each host part can be made to fail at turn 5: the
 * refresher (threshold 5) and the token monitor (100 tokens a response, threshold 500)
 * both fire on turn 5, and turn 3's large tool output is truncated then.
 */
export function turnRig(fault) {
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

export function snapshot({ runner, context, refresher, tracker, log }) {
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

export function assertUnchanged(rig, before) {
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
