// Issue 9: lone surrogates survive every round trip, and compare exactly.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentLogStore, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SlidingRelevanceWindow, SpecRefreshProtocol, SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer,
  applyContextManagement, countTokens, createDefaultWindowBudget, validateSaopEnvelope,
} from '@devs/context';
import { envelope, turnEntries } from './helpers.mjs';
import { context, mockDeps, toolOutput } from './management-fixtures.mjs';
import { it, specs, runnerWith } from './faults-helpers.mjs';

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
