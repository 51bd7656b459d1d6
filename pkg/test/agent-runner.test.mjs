// AgentRunner: seed 003's wiring (record countTokens(response.text) after each LLM
// response; at the threshold, transfer the recent turns and re-inject the summary as a
// [CONTEXT REFRESH] user turn that bypasses the monitor), driven by a scripted LLM.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AgentRunner, ContextComposer, SummarizationHandoff, countTokens } from '@devs/context';
import { assertFieldError, rejected, thrown } from './helpers.mjs';

const specs = [{ name: 'TAS', content: 'Rust core' }, { name: 'PRD', content: 'Stay on track' }];

/** An LLM that answers from a script, recording what it was asked. */
function scriptedLlm(answers) {
  const requests = [];
  return {
    requests,
    async complete(request) {
      requests.push(request);
      const answer = answers[(requests.length - 1) % answers.length];
      if (answer instanceof Error) throw answer;
      return { text: answer };
    },
  };
}

function runner({ answers = ['ok'], thresholdTokens, summary = 'SUMMARY', summarize, countTokens: counter } = {}) {
  const llm = scriptedLlm(answers);
  const summarizer = { prompts: [], summarize: summarize ?? (async (p) => { summarizer.prompts.push(p); return summary; }) };
  const handoff = new SummarizationHandoff({ llmClient: summarizer });
  const composer = new ContextComposer({ specs, maxTurns: 4 });
  const r = new AgentRunner({ agentId: 'dev-1', taskGoal: 'Fix the failing parser test', llm, composer, handoff, thresholdTokens, countTokens: counter });
  return { r, llm, summarizer };
}

describe('AgentRunner', () => {
  it('composes the window, calls the LLM with the prompt, and records the response tokens', async () => {
    const { r, llm } = runner({ answers: ['I will read src/parser.rs first.'] });
    const result = await r.runTurn('The parser test fails.');
    assert.equal(result.turnIndex, 1);
    assert.equal(result.response.text, 'I will read src/parser.rs first.');
    assert.equal(result.tokensRecorded, countTokens('I will read src/parser.rs first.'));
    assert.equal(r.accumulatedTokens, result.tokensRecorded);
    assert.equal(result.contextRefresh, null);
    const [request] = llm.requests;
    assert.equal(request.agentId, 'dev-1');
    assert.equal(request.turnIndex, 1);
    assert.ok(request.prompt.startsWith('# Goal\nFix the failing parser test\n'));
    assert.ok(request.prompt.includes('## user (turn 1)\nThe parser test fails.'));
    assert.deepEqual(r.turns.map((t) => [t.role, t.content]), [['user', 'The parser test fails.'], ['assistant', 'I will read src/parser.rs first.']]);
  });

  it('slides the window and injects the specs on turn 10', async () => {
    const { r, llm } = runner();
    for (let i = 1; i <= 10; i++) await r.runTurn(`step ${i}`);
    const windows = llm.requests.map((q) => q.window);
    assert.equal(windows[8].specInjected, false);
    assert.equal(windows[9].specInjected, true);
    assert.ok(windows[9].turns[0].content.startsWith('[SPEC REFRESH]'));
    assert.ok(llm.requests[9].prompt.includes('[SPEC REFRESH]'));
    assert.equal(windows[9].turns.length, 5, 'maxTurns 4 + the spec turn');
  });

  it('at the threshold, transfers the recent turns and re-injects [CONTEXT REFRESH] without counting it', async () => {
    const answer = 'x'.repeat(400); // 100 tokens
    const { r, summarizer } = runner({ answers: [answer], thresholdTokens: 300 });
    const results = [];
    for (let i = 1; i <= 4; i++) results.push(await r.runTurn(`step ${i}`));
    assert.deepEqual(results.map((x) => x.contextRefresh !== null), [false, false, true, false]);
    assert.equal(results[2].contextRefresh.summaryText, 'SUMMARY');
    assert.equal(summarizer.prompts.length, 1);
    const refresh = r.turns.find((t) => t.content.startsWith('[CONTEXT REFRESH]'));
    assert.deepEqual([refresh.role, refresh.content, refresh.turnIndex], ['user', '[CONTEXT REFRESH]\nSUMMARY', 3]);
    assert.equal(r.accumulatedTokens, 100, 'only turn 4 counted since the refresh; the summary bypassed the monitor');
  });

  it('uses an injected counter', async () => {
    const { r } = runner({ answers: ['whatever'], countTokens: () => 1000, thresholdTokens: 2500 });
    await r.runTurn('a');
    await r.runTurn('b');
    assert.equal(r.accumulatedTokens, 2000);
    assert.notEqual((await r.runTurn('c')).contextRefresh, null);
  });

  it('queues un-awaited turns and runs them in order', async () => {
    const { r, llm } = runner({ answers: ['a', 'b', 'c'] });
    const results = await Promise.all([r.runTurn('1'), r.runTurn('2'), r.runTurn('3')]);
    assert.deepEqual(results.map((x) => x.turnIndex), [1, 2, 3]);
    assert.deepEqual(llm.requests.map((q) => q.turnIndex), [1, 2, 3]);
    assert.equal(r.turnCount, 3);
  });

  it('a turn with none in flight starts at once; one called during a slow turn waits for it, even when it fails', async () => {
    const asked = [];
    let release;
    const gate = new Promise((resolve) => { release = resolve; });
    const r = new AgentRunner({
      agentId: 'dev-1', taskGoal: 'g',
      llm: async (request) => {
        asked.push(request.turnIndex);
        if (asked.length === 1) { await gate; throw new Error('LLM 503'); }
        return { text: `answer ${request.turnIndex}` };
      },
    });
    const first = r.runTurn('1');
    assert.deepEqual(asked, [1], 'the first turn asked its LLM before runTurn returned');
    const second = r.runTurn('2');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(asked, [1], 'the second turn waits while the first is in flight');
    release();
    assert.equal((await rejected(first)).message, 'LLM 503');
    assert.equal((await second).turnIndex, 1, 'the failed turn changed nothing, so the next is turn 1 again');
    assert.deepEqual(asked, [1, 1]);
    assert.equal(r.turnCount, 1);
  });

  it('a failed LLM call rejects with its error and leaves the runner as it was', async () => {
    const boom = new Error('LLM 503');
    const { r } = runner({ answers: ['fine', boom, 'again'] });
    await r.runTurn('1');
    const before = r.turns;
    assert.equal(await rejected(r.runTurn('2')), boom);
    assert.equal(r.turnCount, 1);
    assert.deepEqual(r.turns, before);
    assert.equal((await r.runTurn('2 again')).turnIndex, 2);
  });

  it('a failed summarizer rejects with its error, loses no tokens, and the next turn retries', async () => {
    const boom = new Error('summarizer down');
    let fail = true;
    const { r } = runner({
      answers: ['x'.repeat(400)],
      thresholdTokens: 200,
      summarize: async () => { if (fail) throw boom; return 'S'; },
    });
    await r.runTurn('1');
    const turnsBefore = r.turns.length;
    assert.equal(await rejected(r.runTurn('2')), boom);
    assert.equal(r.turns.length, turnsBefore);
    assert.equal(r.accumulatedTokens, 100);
    assert.equal(r.turnCount, 1);
    fail = false;
    const retry = await r.runTurn('2');
    assert.equal(retry.contextRefresh.summaryText, 'S');
  });

  it('rejects bad options and input, naming them', async () => {
    const { llm } = runner();
    const base = { agentId: 'a', taskGoal: 'g', llm, composer: new ContextComposer({ specs }), handoff: { transfer: async () => null } };
    assertFieldError(thrown(() => new AgentRunner({ ...base, agentId: 3 })), TypeError, 'options.agentId');
    assertFieldError(thrown(() => new AgentRunner({ ...base, llm: {} })), TypeError, 'options.llm.complete');
    assertFieldError(thrown(() => new AgentRunner({ ...base, composer: null })), TypeError, 'options.composer');
    assertFieldError(thrown(() => new AgentRunner({ ...base, handoff: 'h' })), TypeError, 'options.handoff');
    assertFieldError(thrown(() => new AgentRunner({ ...base, thresholdTokens: -5 })), RangeError, 'options.thresholdTokens');
    const r = new AgentRunner(base);
    assertFieldError(await rejected(r.runTurn(42)), TypeError, 'input');
    const bad = new AgentRunner({ ...base, llm: { complete: async () => ({ text: 5 }) } });
    assertFieldError(await rejected(bad.runTurn('x')), TypeError, 'llm.complete().text');
    assert.equal(bad.turnCount, 0);
  });
});
