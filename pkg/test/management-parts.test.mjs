// The default implementations of seed 002's deps (spec: "Types the seeds use but do not define").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextPruner, ToolOutputPruner, WindowComposer, countTokens, createDefaultWindowBudget } from '@devs/context';
import { assertFieldError, envelope, rejected, thrown } from './helpers.mjs';
import { agentTurns, toolOutput } from './management-fixtures.mjs';

describe('createDefaultWindowBudget', () => {
  it('splits 800,000 by default 30/20/50, rounding each share down', () => {
    assert.deepEqual(createDefaultWindowBudget(), { totalBudget: 800_000, goalBudget: 240_000, mapBudget: 160_000, recentPastBudget: 400_000 });
    assert.deepEqual(createDefaultWindowBudget(999), { totalBudget: 999, goalBudget: 299, mapBudget: 199, recentPastBudget: 499 });
  });

  it('rejects a bad total', () => {
    for (const bad of [0, -1, 1.5, NaN]) assertFieldError(thrown(() => createDefaultWindowBudget(bad)), RangeError, 'total');
    assertFieldError(thrown(() => createDefaultWindowBudget('800000')), TypeError, 'total');
  });
});

describe('WindowComposer', () => {
  const budget = createDefaultWindowBudget(1000); // goal 300, map 200, recent past 500

  it('puts the slots in order goal, map, recent_past', () => {
    const w = new WindowComposer(budget).compose('goal', 'map', [envelope()]);
    assert.deepEqual(w.slots.map((s) => s.kind), ['goal', 'map', 'recent_past']);
    for (const slot of w.slots) {
      assert.equal(slot.tokenCount, countTokens(slot.content));
      assert.equal(typeof slot.timestampMs, 'number');
      assert.equal(slot.truncated, false);
    }
    assert.equal(w.totalTokensUsed, w.slots.reduce((s, x) => s + x.tokenCount, 0));
    assert.equal(w.budgetExceeded, false);
  });

  it('cuts a slot over budget to budget*4 chars at the last space, marked truncated', () => {
    const goal = 'word '.repeat(400); // 2000 chars, 500 tokens > 300
    const w = new WindowComposer(budget).compose(goal, 'm'.repeat(1000), []);
    const [g, m] = w.slots;
    assert.equal(g.truncated, true);
    assert.ok(g.content.length <= 1200);
    assert.equal(g.content, goal.slice(0, goal.lastIndexOf(' ', 1199)));
    assert.equal(m.truncated, true);
    assert.equal(m.content, 'm'.repeat(800), 'no space: a hard cut at budget*4');
  });

  it('takes envelopes newest first by turn_index, greedily within the recent past budget', () => {
    const envs = [3, 1, 4, 2].map((turn_index) => envelope({ turn_index, observation: { status: 'success', output: 'o'.repeat(600) } })); // ~215 tokens each
    const w = new WindowComposer(budget).compose('g', 'm', envs);
    const recent = w.slots[2];
    const shown = recent.content.split('\n').map((line) => JSON.parse(line).turn_index);
    assert.deepEqual(shown, [3, 4], 'the newest that fit, oldest first');
    assert.equal(recent.truncated, true);
    assert.ok(recent.tokenCount <= 500);
  });

  it('considers at most maxRecentEnvelopes, default 10, clamped to 1..10', () => {
    const envs = Array.from({ length: 15 }, (_, i) => envelope({ turn_index: i }));
    const big = createDefaultWindowBudget(1_000_000);
    const count = (options) => new WindowComposer(big, options).compose('g', 'm', envs).slots[2].content.split('\n').length;
    assert.equal(count(undefined), 10);
    assert.equal(count({ maxRecentEnvelopes: 3 }), 3);
    assert.equal(count({ maxRecentEnvelopes: 0 }), 1);
    assert.equal(count({ maxRecentEnvelopes: 99 }), 10);
    assert.equal(new WindowComposer(big, { maxRecentEnvelopes: 99 }).maxRecentEnvelopes, 10);
  });

  it('cuts the newest envelope when even it does not fit, keeping its action', () => {
    const huge = envelope({ turn_index: 9, observation: { status: 'error', output: 'E'.repeat(10_000) } });
    const recent = new WindowComposer(budget).compose('g', 'm', [huge]).slots[2];
    const shown = JSON.parse(recent.content);
    assert.deepEqual(shown.action, huge.action);
    assert.ok(shown.observation.output.length < 2000 && shown.observation.output.length > 0);
    assert.equal(recent.truncated, true);
    assert.ok(recent.tokenCount <= 500);
  });

  it('renders only the newest envelopes of a long session', () => {
    const envs = Array.from({ length: 5000 }, (_, i) => envelope({ turn_index: i }));
    const shown = new WindowComposer(createDefaultWindowBudget()).compose('g', 'm', envs).slots[2].content
      .split('\n').map((line) => JSON.parse(line).turn_index);
    assert.deepEqual(shown, [4990, 4991, 4992, 4993, 4994, 4995, 4996, 4997, 4998, 4999]);
  });

  it('names a turn_index that is not a number, wherever it is', () => {
    const envs = Array.from({ length: 50 }, (_, i) => envelope({ turn_index: i }));
    envs[3] = envelope({ turn_index: '3' });
    assertFieldError(thrown(() => new WindowComposer(budget).compose('g', 'm', envs)), TypeError, 'envelopes[3].turn_index');
  });

  it('uses an injected counter', () => {
    const w = new WindowComposer(budget, { countTokens: () => 1 }).compose('goal', 'map', [envelope()]);
    assert.deepEqual(w.slots.map((s) => s.tokenCount), [1, 1, 1]);
  });

  it('names bad input', () => {
    assertFieldError(thrown(() => new WindowComposer({ totalBudget: 1 })), TypeError, 'budget.goalBudget');
    assertFieldError(thrown(() => new WindowComposer(budget, { maxRecentEnvelopes: NaN })), RangeError, 'options.maxRecentEnvelopes');
    const w = new WindowComposer(budget);
    assertFieldError(thrown(() => w.compose(1, 'm', [])), TypeError, 'goal');
    const bad = envelope({ observation: { status: 'done', output: '' } });
    const error = thrown(() => w.compose('g', 'm', [envelope(), bad]));
    assertFieldError(error, TypeError, 'envelopes[1].observation.status');
  });
});

describe('ContextPruner', () => {
  const summarizer = (answer = 'summary') => {
    const prompts = [];
    return { prompts, summarize: async (p) => { prompts.push(p); return answer; } };
  };

  it('shouldPrune is tokens >= totalBudget * saturationRatio (default 0.90)', () => {
    const p = new ContextPruner(summarizer());
    assert.equal(p.saturationRatio, 0.9);
    const budget = createDefaultWindowBudget(800_000);
    assert.equal(p.shouldPrune(719_999, budget), false);
    assert.equal(p.shouldPrune(720_000, budget), true);
    assert.equal(new ContextPruner(summarizer(), { saturationRatio: 0.5 }).shouldPrune(400_000, budget), true);
  });

  it('prune returns PrunedContext and tells the summarizer to keep Plan, TAS and the failing Observation verbatim', async () => {
    const s = summarizer('the summary');
    const before = Date.now();
    const turns = agentTurns(3);
    const out = await new ContextPruner(s).prune(turns, 'PLAN: fix lexer', 'TAS: pure rules', 'FAIL: expected 3 got 2');
    assert.deepEqual(Object.keys(out).sort(), ['currentObservation', 'originalTurnCount', 'plan', 'prunedAt', 'summary', 'tas']);
    assert.equal(out.summary, 'the summary');
    assert.equal(out.plan, 'PLAN: fix lexer');
    assert.equal(out.originalTurnCount, 3);
    assert.ok(out.prunedAt >= before);
    const [prompt] = s.prompts;
    assert.match(prompt, /VERBATIM/);
    for (const keep of ['PLAN: fix lexer', 'TAS: pure rules', 'FAIL: expected 3 got 2', turns[2].content]) assert.ok(prompt.includes(keep), keep);
    assert.match(prompt, /Plan.*TAS.*Observation/s);
  });

  it('rejects with the summarizer error, and on an empty summary', async () => {
    const boom = new Error('down');
    assert.equal(await rejected(new ContextPruner({ summarize: async () => { throw boom; } }).prune([], 'p', 't', 'o')), boom);
    const empty = await rejected(new ContextPruner(summarizer('  ')).prune(agentTurns(1), 'p', 't', 'o'));
    assert.equal(empty.name, 'SummarizationError');
  });

  it('names bad input', async () => {
    assertFieldError(thrown(() => new ContextPruner({})), TypeError, 'summarizer.summarize');
    assertFieldError(thrown(() => new ContextPruner(summarizer(), { saturationRatio: 1.5 })), RangeError, 'options.saturationRatio');
    const p = new ContextPruner(summarizer());
    assertFieldError(thrown(() => p.shouldPrune(-1, createDefaultWindowBudget())), RangeError, 'tokens');
    assertFieldError(await rejected(p.prune([{ role: 'assistant', content: 'x', timestampMs: 0 }], 'p', 't', 'o')), TypeError, 'turns[0].role');
  });
});

describe('ToolOutputPruner', () => {
  const pruner = new ToolOutputPruner();

  it('shouldTruncate is turnAge >= 2 && byteSize > 51_200', () => {
    assert.equal(pruner.shouldTruncate(toolOutput('t', 51_201, 2)), true);
    assert.equal(pruner.shouldTruncate(toolOutput('t', 51_200, 5)), false);
    assert.equal(pruner.shouldTruncate(toolOutput('t', 400_000, 1)), false);
  });

  it('truncate keeps the first 500 chars and names the byte size and where the raw output is', () => {
    const entry = { ...toolOutput('run_tests', 0, 2), rawContent: 'R'.repeat(600_000), byteSize: 600_000 };
    const before = Date.now();
    const t = pruner.truncate(entry);
    assert.deepEqual(Object.keys(t).sort(), ['originalByteSize', 'rawStoredAt', 'summary', 'toolName']);
    assert.equal(t.toolName, 'run_tests');
    assert.equal(t.originalByteSize, 600_000);
    assert.ok(t.summary.startsWith('R'.repeat(500) + '\n'));
    assert.ok(!t.summary.startsWith('R'.repeat(501)));
    assert.match(t.summary, /600000 bytes/);
    assert.match(t.summary, /state\.sqlite, table raw_tool_outputs/);
    assert.ok(Date.parse(t.rawStoredAt) >= before - 1);
    assert.equal(new Date(t.rawStoredAt).toISOString(), t.rawStoredAt);
    assert.match(new ToolOutputPruner({ rawOutputLocation: 's3://bucket/raw' }).truncate(entry).summary, /s3:\/\/bucket\/raw/);
  });

  it('persistRaw awaits repo.insertRawToolOutput(entry), passing errors through', async () => {
    const seen = [];
    const entry = toolOutput('t', 10, 0);
    await pruner.persistRaw(entry, { insertRawToolOutput: async (e) => { seen.push(e); } });
    assert.deepEqual(seen, [entry]);
    const boom = new Error('locked');
    assert.equal(await rejected(pruner.persistRaw(entry, { insertRawToolOutput: () => Promise.reject(boom) })), boom);
    assertFieldError(await rejected(pruner.persistRaw(entry, {})), TypeError, 'repo.insertRawToolOutput');
  });

  it('names bad entries', () => {
    assertFieldError(thrown(() => pruner.shouldTruncate({ ...toolOutput('t', 1, 1), byteSize: '1' })), TypeError, 'entry.byteSize');
    assertFieldError(thrown(() => pruner.truncate({ ...toolOutput('t', 1, 1), rawContent: null })), TypeError, 'entry.rawContent');
  });
});
