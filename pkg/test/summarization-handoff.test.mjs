// SummarizationHandoff (spec README) and seed 003's monitor → handoff integration test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SummarizationError, SummarizationHandoff, TokenThresholdMonitor } from '@devs/context';
import { assertFieldError, rejected, thrown, turnEntries } from './helpers.mjs';

function llm(answer = 'Summary: parser fixed, lexer next.') {
  const prompts = [];
  return { prompts, summarize: async (prompt) => { prompts.push(prompt); return typeof answer === 'function' ? answer(prompt) : answer; } };
}

describe('SummarizationHandoff', () => {
  it('summarizes the turns into a MediumTermSummary', async () => {
    const client = llm();
    const before = Date.now();
    const summary = await new SummarizationHandoff({ llmClient: client }).transfer('dev-1', turnEntries(6));
    assert.deepEqual(Object.keys(summary).sort(), ['agentId', 'createdAt', 'summaryText', 'turnRangeEnd', 'turnRangeStart']);
    assert.equal(summary.agentId, 'dev-1');
    assert.equal(summary.summaryText, 'Summary: parser fixed, lexer next.');
    assert.equal(summary.turnRangeStart, 1);
    assert.equal(summary.turnRangeEnd, 6);
    assert.ok(summary.createdAt instanceof Date && summary.createdAt.getTime() >= before);
    assert.equal(client.prompts.length, 1);
  });

  it('cuts each turn to 1500 chars and leaves tool turns out', async () => {
    const client = llm();
    const turns = turnEntries(3);
    turns[0].content = 'U'.repeat(4000);
    turns[1] = { ...turns[1], role: 'tool', content: 'RAW TOOL OUTPUT' };
    await new SummarizationHandoff({ llmClient: client }).transfer('dev-1', turns);
    const [prompt] = client.prompts;
    assert.equal(prompt.split('U').length - 1, 1500);
    assert.ok(!prompt.includes('RAW TOOL OUTPUT'));
    assert.ok(prompt.includes('turn 3'));
  });

  it('an empty window gives null without calling the LLM', async () => {
    const client = llm();
    const handoff = new SummarizationHandoff({ llmClient: client });
    assert.equal(await handoff.transfer('dev-1', []), null);
    assert.equal(await handoff.transfer('dev-1', [{ ...turnEntries(1)[0], role: 'tool' }]), null);
    assert.equal(client.prompts.length, 0);
  });

  it('an empty answer throws SummarizationError, a real Error subclass', async () => {
    for (const answer of ['', '   \n']) {
      const error = await rejected(new SummarizationHandoff({ llmClient: llm(answer) }).transfer('dev-1', turnEntries(2)));
      assert.ok(error instanceof SummarizationError);
      assert.ok(error instanceof Error);
      assert.equal(error.name, 'SummarizationError');
      assert.equal(error.code, 'ERR_EMPTY_SUMMARY');
      assert.equal(error.agentId, 'dev-1');
      assert.match(error.stack, /SummarizationError/);
    }
  });

  it("passes the LLM's own error through", async () => {
    const boom = new Error('rate limited');
    const error = await rejected(new SummarizationHandoff({ llmClient: { summarize: () => Promise.reject(boom) } }).transfer('a', turnEntries(1)));
    assert.equal(error, boom);
  });

  it('saves to the store when one is given', async () => {
    const saved = [];
    const handoff = new SummarizationHandoff({ llmClient: llm(), store: { save: async (s) => { saved.push(s); } } });
    const summary = await handoff.transfer('dev-1', turnEntries(2));
    assert.deepEqual(saved, [summary]);
  });

  it('rejects bad input, naming the field', async () => {
    assertFieldError(thrown(() => new SummarizationHandoff({})), TypeError, 'options.llmClient');
    assertFieldError(thrown(() => new SummarizationHandoff({ llmClient: {} })), TypeError, 'options.llmClient.summarize');
    assertFieldError(thrown(() => new SummarizationHandoff({ llmClient: llm(), store: {} })), TypeError, 'options.store.save');
    const handoff = new SummarizationHandoff({ llmClient: llm() });
    assertFieldError(await rejected(handoff.transfer(7, [])), TypeError, 'agentId');
    assertFieldError(await rejected(handoff.transfer('a', [{ ...turnEntries(1)[0], role: 'system' }])), TypeError, 'turns[0].role');
    assertFieldError(await rejected(handoff.transfer('a', [{ ...turnEntries(1)[0], content: null }])), TypeError, 'turns[0].content');
    assertFieldError(await rejected(new SummarizationHandoff({ llmClient: llm(42) }).transfer('a', turnEntries(1))), TypeError, 'llmClient.summarize()');
  });
});

describe('TokenThresholdMonitor → SummarizationHandoff (seed 003 integration)', () => {
  it('calls transfer() when the threshold is exceeded, and not before', async () => {
    const calls = [];
    const handoff = new SummarizationHandoff({ llmClient: llm() });
    const realTransfer = handoff.transfer.bind(handoff);
    const recent = turnEntries(20);
    const monitor = new TokenThresholdMonitor({
      thresholdTokens: 800_000,
      onThresholdExceeded: async (event) => {
        const summary = await realTransfer('dev-1', recent);
        calls.push({ event, summary });
      },
    });
    for (let i = 0; i < 79; i++) await monitor.record(10_000);
    assert.equal(calls.length, 0);
    await monitor.record(10_000);
    assert.equal(calls.length, 1);
    assert.equal(calls[0].event.totalTokens, 800_000);
    assert.equal(calls[0].summary.summaryText, 'Summary: parser fixed, lexer next.');
    assert.equal(calls[0].summary.turnRangeEnd, 20);
  });
});
