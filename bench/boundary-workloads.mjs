// The operations bench/boundary.mjs measures, set up the same way for @devs/context
// ("ours") and for the seeds transcribed to plain JS (bench/peers/), at a history of N turns.
// The timing phase and the crossing-count phase both use these, so they measure one workload.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { rng, sentence, specs } from './corpus.mjs';
import * as seedMemory from './peers/seed-memory.mjs';
import * as seedManagement from './peers/seed-management.mjs';
import * as seedProtocol from './peers/seed-protocol.mjs';
import * as seedRunner from './peers/seed-runner.mjs';

const pkgRequire = createRequire(new URL('../pkg/package.json', import.meta.url));

/** Where the built package is: pkg/dist, or $DEVS_CONTEXT_DIST. */
export const distDir = process.env.DEVS_CONTEXT_DIST
  ? pathToFileURL(`${process.env.DEVS_CONTEXT_DIST.replace(/\/$/, '')}/`)
  : new URL('../pkg/dist/', import.meta.url);

export const GOAL = 'Make parser::tests::trailing_token pass without breaking the lexer';
export const MAP = 'src/parser.rs\nsrc/lexer.rs\nsrc/token.rs\ntests/parser.rs\nCargo.toml';
export const EXACT_PEER = 'gpt-tokenizer 4.0.0 (o200k_base, countTokens with disallowedSpecial: none)';

/** Ours: the package's classes, and its exact counter. */
export async function loadOurs() {
  const lib = await import(new URL('index.mjs', distDir));
  const { createTokenCounter } = await import(new URL('tokenizers.mjs', distDir));
  return {
    name: 'ours', lib, exact: () => createTokenCounter('o200k_base'),
    newContextComposer: (s) => new lib.ContextComposer({ specs: s }),
  };
}

/** The seeds in plain JS; their exact counter is gpt-tokenizer's. */
export function loadPlain() {
  const lib = { ...seedMemory, ...seedManagement, ...seedProtocol, AgentRunner: seedRunner.AgentRunner };
  return {
    name: 'plain JS', lib,
    exact: () => {
      const { countTokens } = pkgRequire('gpt-tokenizer/encoding/o200k_base');
      const options = { disallowedSpecial: new Set() };
      return (text) => countTokens(text, options);
    },
    newContextComposer: (s) => new lib.ContextComposer(s),
  };
}

function envelope(random, i, outputChars) {
  return {
    schema_version: '1.0.0', turn_index: i, agent_id: 'bench-agent', phase: 'implement',
    thought: { reasoning: sentence(random, 100 + Math.floor(random() * 200)), plan: '1. reproduce 2. fix the parser 3. run the tests' },
    action: { tool_name: i % 3 ? 'run_tests' : 'grep', arguments: { filter: 'parser', path: `src/file_${i % 17}.rs` } },
    observation: { status: i % 4 ? 'success' : 'error', output: sentence(random, outputChars) },
  };
}

/**
 * The history of N turns, shared by both sides. Turns are 40–200 characters, so even
 * 20,000 of them (~610k tokens by length/4) stay under the 720k pruning point: every
 * call does the same work instead of summarizing.
 */
export function historyOf(n, seed = 7) {
  const random = rng(seed);
  const contents = Array.from({ length: n }, () => sentence(random, 40 + Math.floor(random() * 160)));
  const base = 1_700_000_000_000;
  return {
    n,
    turns: contents.map((content, i) => ({ turnIndex: i + 1, agentId: 'bench-agent', role: i % 2 ? 'assistant' : 'user', content, createdAt: new Date(base + i * 1000) })),
    agentTurns: contents.map((content, i) => ({ role: i % 2 ? 'model' : 'user', content, timestampMs: base + i * 1000 })),
    envelopes: Array.from({ length: n }, (_, i) => envelope(random, i + 1, 100 + Math.floor(random() * 500))),
    // One young output shown whole, one old and large one truncated on every call.
    outputs: [
      { toolName: 'run_tests', rawContent: sentence(random, 20_000), byteSize: 20_000, turnAge: 1, capturedAt: 0 },
      { toolName: 'grep', rawContent: sentence(random, 120_000), byteSize: 120_000, turnAge: 2, capturedAt: 0 },
    ],
    logEntries: Array.from({ length: n + 4096 }, (_, i) => ({ turn_index: i + 1, agent_id: 'bench-agent', phase: 'implement', timestamp_ns: 1_000_000_000n + BigInt(i) })),
    envelope: envelope(random, n, 400),
  };
}

/** 64 scripted answers `{ text, envelope }`; every 16th carries an 80 KB tool output. */
export function answers(seed = 9) {
  const random = rng(seed);
  return Array.from({ length: 64 }, (_, i) => ({
    text: sentence(random, 200 + Math.floor(random() * 1300)),
    envelope: envelope(random, i, i % 16 === 15 ? 80_000 : 100 + Math.floor(random() * 2500)),
  }));
}

const summaryProvider = { getSummary: async () => ({ tasSummary: specs[0].content.slice(0, 800), prdSummary: specs[1].content.slice(0, 600) }) };

function deps(lib, budget, count) {
  return {
    composer: new lib.WindowComposer(budget, count ? { countTokens: count } : undefined),
    pruner: new lib.ContextPruner({ summarize: async () => 'summary' }),
    toolOutputPruner: new lib.ToolOutputPruner(),
    stateRepository: { insertRawToolOutput: async () => {} },
    ...(count ? { countTokens: count } : {}),
  };
}

/** A runner with every rule on, its context holding the N turns and N envelopes of `data`. */
export function managedRunner(side, data, { count, llm, agentId = 'bench-agent', taskGoal = GOAL } = {}) {
  const { lib } = side;
  const budget = lib.createDefaultWindowBudget(800_000);
  const context = {
    turns: data ? [...data.agentTurns] : [], goal: taskGoal, map: MAP, plan: '', tas: specs[0].content.slice(0, 2000), currentObservation: '',
    envelopes: data ? [...data.envelopes] : [], pendingToolOutputs: data ? [...data.outputs] : [], budget,
  };
  const runner = new lib.AgentRunner({
    agentId, taskGoal, llm,
    composer: side.newContextComposer(specs),
    handoff: new lib.SummarizationHandoff({ llmClient: { summarize: async (p) => `summary of ${p.length} chars` } }),
    contextManagement: { context, deps: deps(lib, budget, count) },
    tracker: new lib.TurnTracker(agentId, 'implement'),
    log: new lib.AgentLogStore(1000),
    injector: new lib.OrchestratorContextInjector(new lib.ContextRefresher({ threshold: 5, summaryProvider })),
    ...(count ? { countTokens: count } : {}),
  });
  return { runner, context };
}

/**
 * Each operation: `counts` when it takes a token counter; `make(side, data, count)` returns
 * `{ call(i), prepare?(i) }` (`prepare` runs untimed before call i), possibly via a promise.
 */
export const OPS = [
  {
    name: 'ContextComposer.compose', counts: false, async: false, note: 'N TurnEntry turns; spec turn every 10th call',
    make(side, data) {
      const composer = side.newContextComposer(specs);
      return { call: (i) => composer.compose(data.turns, GOAL, i) };
    },
  },
  {
    name: 'WindowComposer.compose', counts: true, async: false, note: 'N envelopes, newest 10 kept',
    make(side, data, count) {
      const composer = new side.lib.WindowComposer(side.lib.createDefaultWindowBudget(800_000), count ? { countTokens: count } : undefined);
      return { call: () => composer.compose(GOAL, MAP, data.envelopes) };
    },
  },
  {
    name: 'applyContextManagement', counts: true, async: true, note: 'N turns + N envelopes + 2 outputs (1 truncated)',
    make(side, data, count) {
      const budget = side.lib.createDefaultWindowBudget(800_000);
      const d = deps(side.lib, budget, count);
      const context = () => ({
        turns: data.agentTurns, goal: GOAL, map: MAP, plan: 'p', tas: 't', currentObservation: 'o',
        envelopes: data.envelopes, pendingToolOutputs: data.outputs, budget,
      });
      let ctx;
      return { prepare: () => { ctx = context(); }, call: () => side.lib.applyContextManagement(ctx, d) };
    },
  },
  {
    name: 'OrchestratorContextInjector.injectIfNeeded', counts: false, async: true, note: 'after N turns; refresh every 5th',
    async make(side, data) {
      const injector = new side.lib.OrchestratorContextInjector(new side.lib.ContextRefresher({ threshold: 5, summaryProvider }));
      for (let i = 1; i <= data.n; i++) await injector.injectIfNeeded(data.envelope, i);
      return { call: (i) => injector.injectIfNeeded(data.envelope, data.n + i) };
    },
  },
  {
    name: 'TurnTracker.attach', counts: false, async: false, note: 'after N turns',
    make(side, data) {
      const tracker = new side.lib.TurnTracker('bench-agent', 'implement');
      for (let i = 0; i < data.n; i++) tracker.nextIndex();
      return { call: () => tracker.attach(data.envelope) };
    },
  },
  {
    name: 'AgentLogStore.append', counts: false, async: false, note: 'full store of N entries (maxSize N)',
    make(side, data) {
      const log = new side.lib.AgentLogStore(data.n);
      for (let i = 0; i < data.n; i++) log.append(data.logEntries[i]);
      const extra = data.logEntries.length - data.n;
      return { call: (i) => log.append(data.logEntries[data.n + (i % extra)]) };
    },
  },
  {
    name: 'AgentRunner.runTurn', counts: true, async: true, note: 'every rule on; context holds N turns + N envelopes',
    make(side, data, count) {
      const pool = answers();
      let n = 0;
      const llm = { complete: async () => pool[n++ % pool.length] };
      let runner;
      // A fresh runner every 20 turns, so the history stays at N (+ at most 40 turns).
      return {
        prepare: (i) => { if (!runner || i % 20 === 0) runner = managedRunner(side, data, { count, llm }).runner; },
        call: (i) => runner.runTurn(`user message ${i}: the parser test still fails on the trailing token`),
      };
    },
  },
];
