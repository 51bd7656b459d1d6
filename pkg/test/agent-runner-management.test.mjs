// AgentRunner with every rule on: applyContextManagement before each prompt, and the
// injector, tracker and log on every envelope (issue 4's orchestrator loop).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer, createDefaultWindowBudget,
} from '@devs/context';
import { assertFieldError, envelope, rejected, thrown } from './helpers.mjs';

const specs = [{ name: 'TAS', content: 'Rust core' }, { name: 'PRD', content: 'Stay on track' }];

function setup({ outputs = [], providerFails = () => false, budgetTotal = 800_000, summary = 'PRUNED SUMMARY' } = {}) {
  const stored = [];
  const prompts = [];
  const budget = createDefaultWindowBudget(budgetTotal);
  const context = {
    turns: [], goal: 'Make parser::tests::trailing_token pass', map: 'src/parser.rs\nsrc/lexer.rs',
    plan: '', tas: 'Rust core', currentObservation: '', envelopes: [], pendingToolOutputs: [], budget,
  };
  let n = 0;
  const llm = {
    async complete(request) {
      prompts.push(request.prompt);
      n += 1;
      const output = outputs[(n - 1) % Math.max(outputs.length, 1)] ?? `step ${n} ok`;
      return {
        text: `turn ${n}: running the tests again`,
        envelope: envelope({ observation: { status: n % 3 ? 'success' : 'error', output }, action: { tool_name: `tool_${n}`, arguments: {} } }),
      };
    },
  };
  const provider = { calls: 0, async getSummary() { this.calls += 1; if (providerFails(this.calls)) throw new Error('spec store offline'); return { tasSummary: 'T', prdSummary: 'P' }; } };
  const tracker = new TurnTracker('dev-1', 'implement');
  const log = new AgentLogStore(100);
  const runner = new AgentRunner({
    agentId: 'dev-1', taskGoal: context.goal, llm,
    composer: new ContextComposer({ specs }),
    handoff: new SummarizationHandoff({ llmClient: { summarize: async () => 'S' } }),
    contextManagement: {
      context,
      deps: {
        composer: new WindowComposer(budget),
        pruner: new ContextPruner({ summarize: async () => summary }),
        toolOutputPruner: new ToolOutputPruner(),
        stateRepository: { insertRawToolOutput: async (e) => { stored.push(e); } },
      },
    },
    tracker, log,
    injector: new OrchestratorContextInjector(new ContextRefresher({ threshold: 5, summaryProvider: provider })),
  });
  return { runner, context, stored, prompts, tracker, log, provider };
}

describe('AgentRunner with context management', () => {
  it('manages the context before every prompt, which leads with Goal, Map and Recent Past', async () => {
    const { runner, prompts } = setup();
    const first = await runner.runTurn('The parser test fails.');
    assert.deepEqual(Object.keys(first.contextManagement).sort(), ['prunedOccurred', 'truncatedOutputCount', 'windowUsedTokens']);
    await runner.runTurn('Go on.');
    assert.ok(prompts[1].startsWith('# Goal\nMake parser::tests::trailing_token pass\n\n# Map\nsrc/parser.rs'));
    const sections = ['# Goal', '# Map', '# Recent Past', '# Conversation', '# Tool outputs'].map((h) => prompts[1].indexOf(h));
    assert.ok(sections.every((at, i) => at >= 0 && (i === 0 || at > sections[i - 1])), `sections at ${sections}`);
    assert.match(prompts[1], /"turn_index":1/, 'turn 1 envelope in Recent Past');
  });

  it('stamps, logs and refreshes every envelope', async () => {
    const { runner, log, context } = setup();
    const results = [];
    for (let i = 1; i <= 10; i++) results.push(await runner.runTurn(`step ${i}`));
    assert.deepEqual(results.map((r) => r.envelope.turn_index), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(log.getAll().map((e) => e.turn_index), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const refreshed = results.filter((r) => r.envelope.thought.reasoning.startsWith('[CONTEXT REFRESH]')).map((r) => r.turnIndex);
    assert.deepEqual(refreshed, [5, 10]);
    assert.equal(context.envelopes.length, 10);
    assert.equal(context.envelopes[4], results[4].envelope, 'short outputs: the envelope itself');
    assert.match(context.currentObservation, /^(success|error): step 10 ok/);
  });

  it('persists and truncates large tool outputs two turns after they arrive', async () => {
    const big = 'X'.repeat(300_000);
    const { runner, context, stored, prompts } = setup({ outputs: [big, 'small'] });
    const truncatedAt = [];
    for (let i = 1; i <= 5; i++) {
      const r = await runner.runTurn(`step ${i}`);
      if (r.contextManagement.truncatedOutputCount) truncatedAt.push(i);
    }
    assert.deepEqual(truncatedAt, [3, 5], 'turn 1 output truncated at turn 3, turn 3 output at turn 5');
    assert.equal(stored.length, 2);
    assert.equal(stored[0].rawContent, big);
    assert.equal(stored[0].byteSize, 300_000);
    assert.equal(stored[0].toolName, 'tool_1');
    assert.match(context.pendingToolOutputs[0].summary, /300000 bytes/);
    assert.equal(prompts[1].split(big).length - 1, 1, 'shown whole, once, while young');
    assert.ok(!prompts[2].includes(big), 'truncated from turn 3 on');
    assert.ok(context.envelopes[0].observation.output.length < 5000, 'the context keeps only the head in the envelope');
  });

  it('after a pruning, the conversation restarts from the summary', async () => {
    const { runner, context } = setup({ budgetTotal: 300, summary: 'PRUNED SUMMARY' });
    let pruned = null;
    for (let i = 1; i <= 8 && !pruned; i++) {
      const r = await runner.runTurn(`message ${i} `.padEnd(400, '.'));
      if (r.contextManagement.prunedOccurred) pruned = r;
    }
    assert.ok(pruned, 'pruned within 8 turns');
    assert.equal(context.turns[0].content, 'PRUNED SUMMARY');
    assert.equal(runner.turns[0].content, 'PRUNED SUMMARY');
    assert.ok(pruned.window.turns.some((t) => t.content === 'PRUNED SUMMARY'));
  });

  it('a failed turn leaves the runner, its context, tracker and log as they were', async () => {
    const { runner, context, tracker, log } = setup({ providerFails: (call) => call === 1 });
    for (let i = 1; i <= 4; i++) await runner.runTurn(`step ${i}`);
    const before = { turns: context.turns, envelopes: context.envelopes, outputs: context.pendingToolOutputs, plan: context.plan, obs: context.currentObservation };
    const history = runner.turns;
    const error = await rejected(runner.runTurn('step 5'));
    assert.equal(error.message, 'spec store offline');
    assert.equal(context.turns, before.turns);
    assert.equal(context.envelopes, before.envelopes);
    assert.equal(context.pendingToolOutputs, before.outputs);
    assert.equal(runner.turnCount, 4);
    assert.deepEqual(runner.turns, history);
    assert.equal(tracker.currentIndex, 4);
    assert.equal(log.size, 4);
    const retry = await runner.runTurn('step 5');
    assert.equal(retry.envelope.turn_index, 5);
    assert.ok(retry.envelope.thought.reasoning.startsWith('[CONTEXT REFRESH]'));
  });

  it('rejects a malformed envelope from the LLM, naming the field', async () => {
    const { runner } = setup();
    const bad = new AgentRunner({
      agentId: 'a', taskGoal: 'g', composer: new ContextComposer({ specs }), handoff: { transfer: async () => null },
      llm: { complete: async () => ({ text: 'x', envelope: envelope({ observation: { status: 'done', output: '' } }) }) },
    });
    const error = await rejected(bad.runTurn('go'));
    assertFieldError(error, TypeError, 'llm.complete().envelope.observation.status');
    assert.equal(bad.turnCount, 0);
    assert.ok(runner);
  });

  it('an envelope kept from a valid one and changed by the host after is validated again, naming its field', async () => {
    // The window trusts, unvalidated, only what the runner kept from an envelope it
    // validated and nothing changed since: a host's edit is caught at the next compose.
    const { runner, context } = setup();
    await runner.runTurn('start');
    await runner.runTurn('go on');
    const kept = context.envelopes.at(-1);
    assert.equal(kept.observation.status === 'success' || kept.observation.status === 'error', true);
    kept.observation.status = 'done';
    const error = await rejected(runner.runTurn('and on'));
    assert.equal(error instanceof TypeError, true, String(error));
    assert.match(error.field, /^envelopes\[\d+\]\.observation\.status$/);
    kept.observation.status = 'success';
    await runner.runTurn('and on');
  });

  it('checks the context at construction', () => {
    const base = { agentId: 'a', taskGoal: 'g', llm: { complete() {} }, composer: new ContextComposer({ specs }), handoff: { transfer() {} } };
    const error = thrown(() => new AgentRunner({ ...base, contextManagement: { context: { turns: 3 }, deps: {} } }));
    assertFieldError(error, TypeError, 'options.contextManagement.context.turns');
    assertFieldError(thrown(() => new AgentRunner({ ...base, tracker: {} })), TypeError, 'options.tracker.nextIndex');
  });
});
