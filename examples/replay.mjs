// Replays the scripted session in examples/parser-fix through AgentRunner with every rule
// on and the `bounded` option, and returns what each rule saw and did on each turn. The
// demo (demo.mjs) prints it; report.mjs draws it; pkg/test/demo.test.mjs checks it.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer, countTokens, createDefaultWindowBudget,
} from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { session } from './parser-fix/session.mjs';

/** The shipped project the session works on (its specs are under `.devs/specs/`). */
export const PROJECT = join(dirname(fileURLToPath(import.meta.url)), 'parser-fix');
export const COUNTERS = ['o200k_base', 'cl100k_base', 'heuristic'];

/**
 * The rules whose firing the demo reports, in the order it lists them: `code` marks a
 * turn in the table, `name` is what the report's legend calls it.
 */
export const RULES = [
  { id: 'spec', code: 'S', name: 'spec refresh', words: 'the TAS and PRD summaries re-sent in the window (every 10th turn)' },
  { id: 'reasoning', code: 'R', name: 'reasoning refresh', words: "the TAS and PRD summaries re-injected into the envelope's reasoning (every 5th turn)" },
  { id: 'handoff', code: 'H', name: 'context refresh (handoff)', words: 'the monitor reached its threshold: recent turns summarized and re-injected as [CONTEXT REFRESH]' },
  { id: 'prune', code: 'P', name: 'prune', words: "the context's messages reached 90% of the budget (applyContextManagement's count): they became one summary" },
  { id: 'truncate', code: 'T', name: 'truncation', words: 'an old tool output in the context stored whole in state.sqlite and cut to its head' },
  { id: 'mask', code: 'M', name: 'masking', words: 'a tool output that left Recent Past stored in state.sqlite and replaced in the prompt by a one-line placeholder' },
  { id: 'cut', code: 'C', name: 'cut', words: 'a message or output over 15% of the budget cut to its head and tail in the prompt' },
  { id: 'summary', code: 'Σ', name: 'summary', words: "the prompt's oldest items summarized by the summarizer, to fit the budget" },
  { id: 'drop', code: 'D', name: 'drop', words: "the prompt's oldest items dropped (the deterministic cut), to fit the budget" },
];

/** `createTokenCounter(name)` from the tokenizers entry, or the package's `countTokens` (length/4). */
export async function counterFor(name) {
  if (name === 'heuristic') return countTokens;
  if (!COUNTERS.includes(name)) throw new RangeError(`counter must be one of ${COUNTERS.join(', ')}, got ${JSON.stringify(name)}`);
  const { createTokenCounter } = await import('@devs/context/tokenizers');
  return createTokenCounter(name);
}

/**
 * Runs the session. Options: `budget` (tokens, default 800,000: the bounded prompt's bound
 * and the window budget whose 90% triggers the prune), `counter` (one of `COUNTERS`),
 * `threshold` (the monitor's `thresholdTokens`, default 800,000), `refreshOn`
 * (`'response'` or `'context'`), `turns` (replay only the first N), `dbPath` (the SQLite
 * store, recreated; default `parser-fix/state.sqlite`), `onTurn(row)` (called after each turn).
 */
export async function replay(options = {}) {
  const {
    budget = 800_000, counter: counterName = 'o200k_base', threshold = 800_000, refreshOn = 'response',
    turns: maxTurns = Infinity, dbPath = join(PROJECT, 'state.sqlite'), onTurn,
  } = options;
  const started = performance.now();
  const counter = await counterFor(counterName);
  const steps = session().slice(0, maxTurns);
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });

  const composer = await ContextComposer.fromProject(PROJECT);
  const [tas, prd] = composer.specs;
  const repo = new SqliteStateRepository(dbPath);
  const windowBudget = createDefaultWindowBudget(budget);
  const goal = 'Make parser::tests::trailing_token pass without breaking any other test.';
  const context = {
    turns: [], goal,
    map: 'tinyparse/\n  src/lexer.rs   tokens\n  src/parser.rs  Pratt parser\n  src/ast.rs     nodes\n  tests/         regression tests',
    plan: '', tas: tas.content, currentObservation: '', envelopes: [], pendingToolOutputs: [], budget: windowBudget,
  };

  // Deterministic stand-ins for the LLMs. The pruning summarizer keeps the three sections
  // its prompt asks it to keep verbatim, which shows that the prompt carries them.
  const section = (prompt, name) => prompt.split(`## ${name} (keep verbatim)\n`)[1]?.split('\n\n## ')[0] ?? '';
  const calls = { prune: 0, handoff: 0, bounded: 0 };
  const pruneSummarizer = {
    async summarize(prompt) {
      calls.prune += 1;
      return `[PRUNED CONTEXT]\nPlan: ${section(prompt, 'Plan')}\nTAS: ${section(prompt, 'TAS').split('\n')[0]}\n` +
        `Failing observation: ${section(prompt, 'Current failing Observation').slice(0, 300)}\n` +
        'Summary: reading, patching and re-running the parser tests.';
    },
  };
  const handoffLlm = {
    async summarize(prompt) {
      calls.handoff += 1;
      return `Medium-term summary of ${prompt.length} chars of recent turns: the lexer drops the last token; patches under test.`;
    },
  };
  const boundedSummarizer = {
    async summarize(prompt) {
      calls.bounded += 1;
      return `Earlier turns (${prompt.length} chars): read the lexer and parser, reproduced the failure, patched the lexer.`;
    },
  };

  // The count applyContextManagement asks the prune rule about, seen on its way in.
  const inner = new ContextPruner(pruneSummarizer);
  let pruneSeen = null;
  const pruner = {
    saturationRatio: inner.saturationRatio,
    shouldPrune(tokens, b) { pruneSeen = tokens; return inner.shouldPrune(tokens, b); },
    prune: (...args) => inner.prune(...args),
  };

  let step = 0;
  const llm = {
    async complete() {
      const s = steps[step];
      return {
        text: s.answer,
        envelope: {
          schema_version: '1.0.0', turn_index: 0, agent_id: 'dev-agent', phase: s.phase,
          thought: { reasoning: s.reasoning, plan: s.plan },
          action: { tool_name: s.tool, arguments: s.args },
          observation: { status: s.status, output: s.output },
        },
      };
    },
  };

  const specProvider = { getSummary: () => ({ tasSummary: tas.content, prdSummary: prd.content }) };
  const log = new AgentLogStore(1000);
  const runner = new AgentRunner({
    agentId: 'dev-agent', taskGoal: goal, llm, composer, countTokens: counter, thresholdTokens: threshold, refreshOn,
    handoff: new SummarizationHandoff({ llmClient: handoffLlm }),
    contextManagement: {
      context,
      deps: {
        composer: new WindowComposer(windowBudget, { countTokens: counter }),
        pruner,
        toolOutputPruner: new ToolOutputPruner(),
        stateRepository: repo,
        countTokens: counter,
        logger: { warn: (message) => warnings.push(message) },
      },
    },
    bounded: { budget, summarizer: boundedSummarizer, pinned: [tas.content, prd.content] },
    tracker: new TurnTracker('dev-agent', 'parser-fix'),
    log,
    injector: new OrchestratorContextInjector(new ContextRefresher({ threshold: 5, summaryProvider: specProvider })),
  });

  const pruneAt = windowBudget.totalBudget * pruner.saturationRatio;
  const rows = [];
  const outputs = []; // context.pendingToolOutputs[i] came from outputs[i]
  let warnings = [];
  let contextFrom = 1; // the oldest turn whose messages are in context.turns
  try {
    for (step = 0; step < steps.length; step++) {
      const s = steps[step];
      const turn = step + 1;
      const monitorBefore = runner.accumulatedTokens;
      const messagesBefore = context.turns.length;
      const truncatedBefore = context.pendingToolOutputs.map(isTruncated);
      pruneSeen = null;
      warnings = [];
      const r = await runner.runTurn(s.user);
      const events = [];
      const event = (rule, text, extra = {}) => events.push({ rule, text, ...extra });

      if (r.window.specInjected) event('spec', 'TAS and PRD summaries re-sent in the window');
      if (r.envelope.thought.reasoning.startsWith('[CONTEXT REFRESH]')) event('reasoning', 'TAS and PRD summaries re-injected into the reasoning');
      if (r.contextManagement.prunedOccurred) {
        const n = turn - contextFrom;
        event('prune', `prune: ${fmt(pruneSeen)} ≥ ${fmt(pruneAt)}, so ${span(contextFrom, turn - 1)} ` +
          `(${plural(n, 'turn')}, ${plural(messagesBefore, 'message')}) and this turn's input became one summary`, { turns: n, fromTurn: contextFrom, toTurn: turn - 1 });
        contextFrom = turn;
      }
      // Outputs appended this turn; those truncated this turn.
      while (outputs.length < context.pendingToolOutputs.length) outputs.push({ turn, tool: s.tool, bytes: Buffer.byteLength(s.output) });
      const truncated = context.pendingToolOutputs.flatMap((o, i) => (isTruncated(o) && !truncatedBefore[i] ? [outputs[i]] : []));
      if (r.contextManagement.truncatedOutputCount) {
        event('truncate', `truncated in the context: ${truncated.map((o) => `the ${o.tool} output of turn ${o.turn} (${kb(o.bytes)})`).join(', ')} → state.sqlite`,
          { outputs: truncated.map((o) => o.turn) });
      }
      const delta = refreshOn === 'context'
        ? counter(s.user) + counter(s.answer) + counter(JSON.stringify(s.args)) + counter(s.output)
        : r.tokensRecorded;
      const monitorSeen = r.contextRefresh ? monitorBefore + delta : runner.accumulatedTokens;
      if (r.contextRefresh) {
        event('handoff', `context refresh: the monitor reached ${fmt(monitorSeen)} ≥ ${fmt(threshold)}; ` +
          `${span(r.contextRefresh.turnRangeStart, r.contextRefresh.turnRangeEnd)} summarized and re-injected as [CONTEXT REFRESH]; the count restarts at 0`,
        { fromTurn: r.contextRefresh.turnRangeStart, toTurn: r.contextRefresh.turnRangeEnd });
      }
      const l = r.ledger;
      if (l.masked.length) {
        event('mask', `masked in the prompt: ${l.masked.map((m) => `the ${m.tool} output of turn ${m.turn} (stored as ${m.storeId})`).join(', ')}`,
          { outputs: l.masked.map((m) => m.turn) });
      }
      if (l.cut.length) {
        event('cut', `cut to head and tail in the prompt: ${l.cut.map((c) => `the ${c.part === 'output' ? `${c.tool} output` : 'message'} of turn ${c.turn}`).join(', ')}`,
          { outputs: l.cut.map((c) => c.turn) });
      }
      if (l.summarized) {
        const m = l.summarized;
        event('summary', `summary: the prompt's ${span(m.fromTurn, m.toTurn)} summarized in ${m.chunks} chunk${m.chunks === 1 ? '' : 's'} ` +
          `(largest summarizer prompt ${fmt(m.largestPromptTokens)} tokens) to fit ${fmt(budget)}`, { fromTurn: m.fromTurn, toTurn: m.toTurn });
      }
      if (l.dropped) {
        event('drop', `drop: the prompt's ${span(l.dropped.fromTurn, l.dropped.toTurn)} left out (the deterministic cut) to fit ${fmt(budget)}`,
          { fromTurn: l.dropped.fromTurn, toTurn: l.dropped.toTurn });
      }
      for (const w of [...warnings, ...l.warnings]) event('warning', `warning: ${w}`);

      const row = {
        turn: r.turnIndex, phase: s.phase, tool: s.tool, outputBytes: Buffer.byteLength(s.output),
        prune: pruneSeen, pruneAt, monitor: monitorSeen, monitorDelta: delta, monitorAfter: runner.accumulatedTokens, threshold,
        promptTokens: r.promptTokens, budget, windowUsedTokens: r.contextManagement.windowUsedTokens,
        truncated: r.contextManagement.truncatedOutputCount, specInjected: r.window.specInjected, events,
      };
      rows.push(row);
      onTurn?.(row);
    }
    const stored = repo.getRawToolOutputs();
    const entries = log.getAll();
    return {
      options: { budget, counter: counterName, threshold, refreshOn, pruneAt, turns: steps.length },
      rows,
      ledger: runner.ledger,
      ledgerJsonl: runner.ledgerJsonl(),
      calls,
      store: { path: dbPath, rows: stored.length, bytes: stored.reduce((n, o) => n + o.byteSize, 0) },
      log: { entries: log.size, first: entries[0]?.turn_index, last: entries.at(-1)?.turn_index },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    repo.close();
    runner.free();
  }
}

/** "turn 3" or "turns 3–7". */
function span(from, to) {
  return from === to ? `turn ${from}` : `turns ${from}–${to}`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function isTruncated(o) {
  return typeof o?.summary === 'string' && o.rawContent === undefined;
}

/** 1234567 → "1,234,567". */
export function fmt(n) {
  return n === null || n === undefined ? '—' : Math.round(n).toLocaleString('en-US');
}

export function kb(bytes) {
  return `${fmt(bytes / 1024)} KB`;
}
