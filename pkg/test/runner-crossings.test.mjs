// How often a turn of AgentRunner with every rule on crosses into the rules' WebAssembly
// (issue 48, item 7): a short session's turn costs about its crossings, so the small ones
// are folded into the calls beside them. Counted by wrapping the exports of the instance the
// package makes as it loads (the package is imported after the wrapper is in place); each
// JS→wasm call counts, the glue's own (malloc, free) among them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadCounting } from './wasm-calls.mjs';

const { counter, loaded } = await loadCounting(() => import('@devs/context'));
const {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer, createDefaultWindowBudget,
} = loaded;

const specs = [{ name: 'TAS', content: 'Rust core' }, { name: 'PRD', content: 'Stay on track' }];

function envelope(i) {
  return {
    schema_version: '1.0.0', turn_index: i, agent_id: 'dev-agent', phase: 'implement',
    thought: { reasoning: `look at file ${i}`, plan: '1. read 2. fix' },
    action: { tool_name: 'read_file', arguments: { path: `src/file_${i}.rs` } },
    observation: { status: 'success', output: `fn main() { println!("{}", ${i}); }` },
  };
}

/** A runner with every rule on and the default counter, as bench/boundary.mjs replays sessions. */
function runner() {
  const budget = createDefaultWindowBudget(800_000);
  let n = 0;
  return new AgentRunner({
    agentId: 'dev-agent', taskGoal: 'Fix the parser',
    llm: { complete: async () => ({ text: `answer ${n}`, envelope: envelope(++n) }) },
    composer: new ContextComposer({ specs }),
    handoff: new SummarizationHandoff({ llmClient: { summarize: async () => 'summary' } }),
    contextManagement: {
      context: { turns: [], goal: 'Fix the parser', map: 'src/parser.rs', plan: '', tas: 'Rust core', currentObservation: '', envelopes: [], pendingToolOutputs: [], budget },
      deps: {
        composer: new WindowComposer(budget), pruner: new ContextPruner({ summarize: async () => 'summary' }),
        toolOutputPruner: new ToolOutputPruner(), stateRepository: { insertRawToolOutput: async () => {} },
      },
    },
    tracker: new TurnTracker('dev-agent', 'implement'),
    log: new AgentLogStore(1000),
    injector: new OrchestratorContextInjector(new ContextRefresher({ threshold: 5, summaryProvider: { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) } })),
  });
}

describe('AgentRunner crossings per turn (every rule on, default counter)', () => {
  it('a turn with an input and an envelope crosses 43 times, and none more than 48 (64 and 69 before the small crossings were folded, 45 and 50 before the tracker\'s index was kept in JS)', async () => {
    const r = runner();
    const perTurn = [];
    for (let i = 1; i <= 8; i++) {
      const before = counter.calls;
      const turn = await r.runTurn(`step ${i}`);
      perTurn.push(counter.calls - before);
      assert.equal(turn.envelope.turn_index, i);
    }
    // The first turn and the injector's refresh (turn 5) cross a few times more.
    const sorted = [...perTurn].sort((x, y) => x - y);
    assert.ok(sorted[4] <= 43 && sorted.at(-1) <= 48, `crossings per turn: ${perTurn.join(', ')}`);
  });

  it('applyContextManagement\'s result, the window\'s totals, the turns\' default counts and the stamp\'s index take no crossing of their own', async () => {
    const r = runner();
    await r.runTurn('warm');
    counter.names.clear();
    await r.runTurn('count');
    const names = [...counter.names.keys()];
    for (const gone of ['management_result', 'management_should_prune', 'shouldPrune', 'approxEach']) {
      assert.ok(!names.includes(gone), `${gone} was called: ${names.join(', ')}`);
    }
    // The runner's machine takes every call through one export (`RunnerCore.op`): begin, the
    // monitor's total, the steps, the record that answers with the next steps, and commit.
    assert.equal(counter.names.get('runnercore_op'), 5, 'recording answers with the next steps: no steps call after it');
    for (const gone of ['runnercore_begin', 'runnercore_steps', 'runnercore_record', 'runnercore_commit', 'runnercore_accumulated']) assert.equal(counter.names.get(gone), undefined, `${gone} is an export of its own`);
    assert.equal(counter.names.get('tracker_index'), undefined, 'the stamp, the log entry and the rollback read the index next() returned, kept in JS (2 crossings before)');
    assert.equal(counter.names.get('__wbindgen_malloc'), 8, 'an envelope\'s skeleton and its prefix, a prompt\'s turns and roles, cross together (14 mallocs before)');
  });
});
