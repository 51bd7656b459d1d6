#!/usr/bin/env node
// The demo orchestrator: replays the scripted session in examples/parser-fix through
// AgentRunner with every rule on, printing one line per turn, then a summary. It leaves
// examples/parser-fix/state.sqlite behind. Run it with `bash scripts/demo.sh`.
//
// Per turn: the tool the agent ran and its output size; `context`, the seed's
// windowUsedTokens; `prompt`, the tokens actually sent; `answers`, the response tokens
// the 800k monitor has counted since its last refresh; then the rules that fired.
import { rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer, countTokens, createDefaultWindowBudget,
} from '../pkg/dist/index.mjs';
import { SqliteStateRepository } from '../pkg/dist/sqlite.mjs';
import { session } from './parser-fix/session.mjs';

const started = process.hrtime.bigint();
const project = join(dirname(fileURLToPath(import.meta.url)), 'parser-fix');
const dbPath = join(project, 'state.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });

const steps = session();
const composer = await ContextComposer.fromProject(project);
const [tas, prd] = composer.specs;
const repo = new SqliteStateRepository(dbPath);
const budget = createDefaultWindowBudget(800_000);
const context = {
  turns: [], goal: 'Make parser::tests::trailing_token pass without breaking any other test.',
  map: 'tinyparse/\n  src/lexer.rs   tokens\n  src/parser.rs  Pratt parser\n  src/ast.rs     nodes\n  tests/         regression tests',
  plan: '', tas: tas.content, currentObservation: '', envelopes: [], pendingToolOutputs: [], budget,
};

// Deterministic stand-ins for the LLMs. The pruning summarizer keeps the three sections
// its prompt asks it to keep verbatim, which shows that the prompt carries them.
const section = (prompt, name) => prompt.split(`## ${name} (keep verbatim)\n`)[1]?.split('\n\n## ')[0] ?? '';
const pruneSummarizer = {
  calls: 0,
  async summarize(prompt) {
    this.calls += 1;
    const turns = prompt.split('\n[').length - 1;
    return `[PRUNED CONTEXT]\nPlan: ${section(prompt, 'Plan')}\nTAS: ${section(prompt, 'TAS').split('\n')[0]}\n` +
      `Failing observation: ${section(prompt, 'Current failing Observation').slice(0, 300)}\n` +
      `Summary: ${turns} turns of reading, patching and re-running the parser tests.`;
  },
};
const handoffLlm = { calls: 0, async summarize(prompt) { this.calls += 1; return `Medium-term summary of ${prompt.length} chars of recent turns: the lexer drops the last token; patches under test.`; } };
let step = 0;
let promptTokens = 0;
const llm = {
  async complete({ prompt }) {
    promptTokens = countTokens(prompt);
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
  agentId: 'dev-agent', taskGoal: context.goal, llm, composer,
  handoff: new SummarizationHandoff({ llmClient: handoffLlm }),
  contextManagement: {
    context,
    deps: {
      composer: new WindowComposer(budget),
      pruner: new ContextPruner(pruneSummarizer),
      toolOutputPruner: new ToolOutputPruner(),
      stateRepository: repo,
      logger: { warn: (message) => console.log(`          warning: ${message}`) },
    },
  },
  tracker: new TurnTracker('dev-agent', 'parser-fix'),
  log,
  injector: new OrchestratorContextInjector(new ContextRefresher({ threshold: 5, summaryProvider: specProvider })),
});

const totals = { specRefreshes: 0, reasoningRefreshes: 0, contextRefreshes: 0, prunes: 0, truncations: 0, maxContext: 0, maxPrompt: 0 };
const kb = (n) => `${Math.round(n / 1024)} KB`;
for (step = 0; step < steps.length; step++) {
  const s = steps[step];
  const turnsBefore = context.turns.length + 1;
  const r = await runner.runTurn(s.user);
  const events = [];
  if (r.window.specInjected) { totals.specRefreshes++; events.push('spec refresh (TAS+PRD)'); }
  if (r.envelope.thought.reasoning.startsWith('[CONTEXT REFRESH]')) { totals.reasoningRefreshes++; events.push('reasoning refresh'); }
  if (r.contextManagement.prunedOccurred) { totals.prunes++; events.push(`pruned ${turnsBefore} turns to a summary`); }
  if (r.contextManagement.truncatedOutputCount) {
    totals.truncations += r.contextManagement.truncatedOutputCount;
    events.push(`truncated ${r.contextManagement.truncatedOutputCount} tool output(s) → state.sqlite`);
  }
  if (r.contextRefresh) { totals.contextRefreshes++; events.push(`800k reached: [CONTEXT REFRESH] summary of turns ${r.contextRefresh.turnRangeStart}-${r.contextRefresh.turnRangeEnd}`); }
  totals.maxContext = Math.max(totals.maxContext, r.contextManagement.windowUsedTokens);
  totals.maxPrompt = Math.max(totals.maxPrompt, promptTokens);
  console.log(
    `turn ${String(r.turnIndex).padStart(3)} ${s.phase.padEnd(9)} ${s.tool.padEnd(12)} ${kb(s.output.length).padStart(6)}` +
      `  context ${String(r.contextManagement.windowUsedTokens).padStart(6)} tok  prompt ${String(promptTokens).padStart(6)} tok` +
      `  answers ${String(runner.accumulatedTokens).padStart(6)}/800k` +
      (events.length ? `  | ${events.join('; ')}` : ''),
  );
}

const rows = repo.getRawToolOutputs();
repo.close();
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(`
summary
  turns                     ${runner.turnCount} (${steps.length} scripted)
  spec refreshes (every 10) ${totals.specRefreshes}
  reasoning refreshes (5)   ${totals.reasoningRefreshes}
  context refreshes (800k)  ${totals.contextRefreshes} (handoff LLM calls: ${handoffLlm.calls})
  prunes (90% of budget)    ${totals.prunes} (summarizer calls: ${pruneSummarizer.calls})
  tool outputs truncated    ${totals.truncations}; raw copies in state.sqlite: ${rows.length} rows, ${kb(rows.reduce((s, r) => s + r.byteSize, 0))}
  largest context           ${totals.maxContext} tokens (windowUsedTokens: slots + all turns + pending tool outputs)
  largest prompt            ${totals.maxPrompt} tokens (what the LLM was sent)
  agent log                 ${log.size} entries, turn_index ${log.getAll()[0].turn_index}..${log.getAll().at(-1).turn_index}
  state left in             ${relative(process.cwd(), dbPath)}
  wall time                 ${seconds.toFixed(2)} s`);
