// Drives the rules in a browser. Serve the repository root (e.g. `python3 -m http.server`)
// and open /www/scripted.html after `bash scripts/build.sh`.
import {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, MemoryStateRepository, OrchestratorContextInjector,
  SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer, countTokens, createDefaultWindowBudget,
} from '../pkg/dist/index.browser.mjs';

const $ = (id) => document.getElementById(id);
const specs = [
  { name: 'TAS', content: 'Rust core compiled to wasm; rules are pure; bindings are thin.' },
  { name: 'PRD', content: 'Keep long-running coding agents on track inside a 1M-token window.' },
];

export async function run(turnCount) {
  const budget = createDefaultWindowBudget(200_000);
  // Raw outputs stay in memory here; in Node, @devs/context/sqlite keeps them in state.sqlite.
  const repo = new MemoryStateRepository();
  const context = { turns: [], goal: 'Fix the failing parser test', map: 'src/lexer.rs src/parser.rs', plan: '', tas: specs[0].content,
    currentObservation: '', envelopes: [], pendingToolOutputs: [], budget };
  let promptTokens = 0;
  const llm = {
    complete({ prompt, turnIndex }) {
      promptTokens = countTokens(prompt);
      const output = turnIndex % 4 === 0 ? 'test parser::case ... FAILED\n'.repeat(3000) : `read ${turnIndex} files`;
      return {
        text: `Turn ${turnIndex}: ${'reasoning about the lexer. '.repeat(200)}`,
        envelope: { schema_version: '1.0.0', turn_index: 0, agent_id: 'web-agent', phase: 'fix',
          thought: { reasoning: 'The lexer drops the last token.', plan: '1. reproduce 2. fix 3. verify' },
          action: { tool_name: turnIndex % 4 === 0 ? 'run_tests' : 'read_file', arguments: {} },
          observation: { status: turnIndex % 4 === 0 ? 'error' : 'success', output } },
      };
    },
  };
  const log = new AgentLogStore(100);
  const runner = new AgentRunner({
    agentId: 'web-agent', taskGoal: context.goal, llm, composer: new ContextComposer({ specs }),
    handoff: new SummarizationHandoff({ llmClient: { summarize: () => 'Summary of the recent turns.' } }),
    thresholdTokens: 50_000,
    contextManagement: { context, deps: {
      composer: new WindowComposer(budget), pruner: new ContextPruner({ summarize: () => 'Pruned: still fixing the lexer.' }),
      toolOutputPruner: new ToolOutputPruner({ rawOutputLocation: 'browser memory' }), stateRepository: repo } },
    tracker: new TurnTracker('web-agent', 'fix'), log,
    injector: new OrchestratorContextInjector(new ContextRefresher({ threshold: 5, summaryProvider: { getSummary: () => ({ tasSummary: specs[0].content, prdSummary: specs[1].content }) } })),
  });
  const rows = [];
  for (let i = 1; i <= turnCount; i++) {
    const r = await runner.runTurn(`continue (${i})`);
    const events = [];
    if (r.window.specInjected) events.push('spec refresh');
    // The names of the replay view's legend (MARKER_INFO in @devs/context/replay).
    if (r.envelope.thought.reasoning.startsWith('[CONTEXT REFRESH]')) events.push('context refresh');
    if (r.contextRefresh) events.push('handoff');
    if (r.contextManagement.prunedOccurred) events.push('prune');
    if (r.contextManagement.truncatedOutputCount) events.push(`truncation (${r.contextManagement.truncatedOutputCount})`);
    rows.push({ turn: r.turnIndex, turnIndex: r.envelope.turn_index, context: r.contextManagement.windowUsedTokens, prompt: promptTokens, events });
  }
  return { rows, logged: log.size, stored: repo.size };
}

function render({ rows, logged, stored }) {
  $('rows').replaceChildren(...rows.map((r) => {
    const tr = document.createElement('tr');
    tr.innerHTML = `<td class="num">${r.turn}</td><td class="num">${r.turnIndex}</td><td class="num">${r.context}</td>` +
      `<td class="num">${r.prompt}</td><td class="event">${r.events.join(', ')}</td>`;
    return tr;
  }));
  $('status').textContent = `${rows.length} turns; ${logged} log entries; ${stored} raw outputs kept`;
}

$('run').addEventListener('click', async () => {
  $('status').textContent = 'running…';
  render(await run(Number($('turns').value)));
});
$('status').textContent = 'ready';
window.devsContextDemo = { run };
if (new URLSearchParams(location.search).has('autorun')) $('run').click();
