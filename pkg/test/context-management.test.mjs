// Seed 002: packages/core/src/orchestrator/__tests__/sliding-window-integration.test.ts
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ContextPruner,
  ToolOutputPruner,
  WindowComposer,
  applyContextManagement,
  countTokens,
  createDefaultWindowBudget,
} from '@devs/context';
import { assertFieldError, rejected } from './helpers.mjs';
import { agentTurns, context, mockDeps, toolOutput } from './management-fixtures.mjs';

describe('applyContextManagement (seed 002)', () => {
  it('calls WindowComposer.compose() on every turn', async () => {
    const deps = mockDeps({ prune: false });
    const ctx = context();
    for (let turn = 0; turn < 3; turn++) await applyContextManagement(ctx, deps);
    const composes = deps.calls.filter(([name]) => name === 'compose');
    assert.equal(composes.length, 3);
    assert.deepEqual(composes[0], ['compose', ctx.goal, ctx.map, 2]);
  });

  it('prunes when shouldPrune is true, replacing context.turns with one synthetic summary turn', async () => {
    const deps = mockDeps({ prune: true });
    const ctx = context({ turns: agentTurns(6) });
    const result = await applyContextManagement(ctx, deps);
    assert.equal(result.prunedOccurred, true);
    assert.deepEqual(deps.calls.find(([n]) => n === 'prune'), ['prune', 6, ctx.plan, ctx.tas, ctx.currentObservation]);
    assert.equal(ctx.turns.length, 1);
    assert.equal(ctx.turns[0].content, 'SUMMARY: parser fixed halfway');
    assert.equal(typeof ctx.turns[0].timestampMs, 'number');
    assert.ok(['user', 'model'].includes(ctx.turns[0].role));
  });

  it('does not call prune() when shouldPrune is false', async () => {
    const deps = mockDeps({ prune: false });
    const ctx = context();
    const before = ctx.turns;
    const result = await applyContextManagement(ctx, deps);
    assert.equal(result.prunedOccurred, false);
    assert.equal(deps.calls.filter(([n]) => n === 'prune').length, 0);
    assert.deepEqual(ctx.turns, before);
  });

  it('passes shouldPrune the summed countTokens of all turns and the budget', async () => {
    const deps = mockDeps({ prune: false });
    const ctx = context({ turns: agentTurns(5, 41) });
    await applyContextManagement(ctx, deps);
    assert.deepEqual(deps.calls.find(([n]) => n === 'shouldPrune'), ['shouldPrune', 5 * countTokens('x'.repeat(41)), 800_000]);
  });

  it('persists each due tool output, then truncates it, replacing the in-context entry', async () => {
    const deps = mockDeps({ prune: false });
    const big = toolOutput('run_tests', 60_000, 2);
    const other = toolOutput('read_file', 70_000, 3);
    const ctx = context({ pendingToolOutputs: [big, other] });
    const result = await applyContextManagement(ctx, deps);
    const toolCalls = deps.calls.filter(([n]) => ['shouldTruncate', 'persistRaw', 'truncate'].includes(n));
    assert.deepEqual(toolCalls, [
      ['shouldTruncate', 'run_tests'], ['persistRaw', 'run_tests'], ['truncate', 'run_tests'],
      ['shouldTruncate', 'read_file'], ['persistRaw', 'read_file'], ['truncate', 'read_file'],
    ]);
    assert.deepEqual(deps.stored, [big, other]);
    assert.equal(ctx.pendingToolOutputs[0].toolName, 'run_tests');
    assert.equal(ctx.pendingToolOutputs[0].originalByteSize, 60_000);
    assert.equal(result.truncatedOutputCount, 2);
  });

  it('returns { windowUsedTokens, prunedOccurred, truncatedOutputCount }', async () => {
    const result = await applyContextManagement(context(), mockDeps({ prune: false }));
    assert.deepEqual(Object.keys(result).sort(), ['prunedOccurred', 'truncatedOutputCount', 'windowUsedTokens']);
    assert.equal(typeof result.windowUsedTokens, 'number');
    assert.equal(result.prunedOccurred, false);
    assert.equal(result.truncatedOutputCount, 0);
  });

  it('integration: 20 turns above 90% of 800k are pruned and the window ends under budget', async () => {
    const budget = createDefaultWindowBudget(800_000);
    const turns = Array.from({ length: 20 }, (_, i) => ({
      role: i % 2 ? 'model' : 'user',
      content: `turn ${i} `.padEnd(4 * 37_000, 'lorem ipsum '),
      timestampMs: 1_700_000_000_000 + i,
    }));
    const total = turns.reduce((sum, t) => sum + countTokens(t.content), 0);
    assert.ok(total > 0.9 * 800_000, `fixture totals ${total}`);
    const prompts = [];
    const deps = {
      composer: new WindowComposer(budget),
      pruner: new ContextPruner({ summarize: async (prompt) => { prompts.push(prompt); return 'Summary: 20 turns on the parser.'; } }),
      toolOutputPruner: new ToolOutputPruner(),
      stateRepository: { insertRawToolOutput: async () => {} },
    };
    const ctx = context({ turns, budget });
    const result = await applyContextManagement(ctx, deps);
    assert.equal(result.prunedOccurred, true);
    assert.ok(result.windowUsedTokens < budget.totalBudget, `${result.windowUsedTokens}`);
    assert.equal(prompts.length, 1);
    assert.ok(prompts[0].includes(ctx.plan) && prompts[0].includes(ctx.tas) && prompts[0].includes(ctx.currentObservation));
  });

  it('is idempotent: a second call on a pruned context does not prune again', async () => {
    const deps = mockDeps({ prune: true });
    const ctx = context({ turns: agentTurns(8) });
    assert.equal((await applyContextManagement(ctx, deps)).prunedOccurred, true);
    const pruned = ctx.turns;
    assert.equal((await applyContextManagement(ctx, deps)).prunedOccurred, false);
    assert.equal(deps.calls.filter(([n]) => n === 'prune').length, 1);
    assert.deepEqual(ctx.turns, pruned);
  });

  it('keeps the strict order: count, compose, prune, persist then truncate', async () => {
    const deps = mockDeps({ prune: true });
    await applyContextManagement(context({ pendingToolOutputs: [toolOutput('grep', 60_000, 2)] }), deps);
    assert.deepEqual(deps.calls.map(([n]) => n), ['compose', 'shouldPrune', 'prune', 'shouldTruncate', 'persistRaw', 'truncate']);
  });
});

describe('applyContextManagement: the caller\'s data', () => {
  it('never mutates the arrays or entries passed in; replaces them with new arrays', async () => {
    const deps = mockDeps({ prune: true });
    const turns = Object.freeze(agentTurns(4).map(Object.freeze));
    const outputs = Object.freeze([Object.freeze(toolOutput('run_tests', 60_000, 2))]);
    const ctx = context({ turns, pendingToolOutputs: outputs });
    await applyContextManagement(ctx, deps);
    assert.notEqual(ctx.turns, turns);
    assert.notEqual(ctx.pendingToolOutputs, outputs);
    assert.equal(turns.length, 4);
    assert.equal(outputs[0].rawContent.length, 60_000);
  });

  it('passes already-truncated outputs through on later turns', async () => {
    const deps = mockDeps({ prune: false });
    const ctx = context({ pendingToolOutputs: [toolOutput('run_tests', 60_000, 2)] });
    await applyContextManagement(ctx, deps);
    const truncated = ctx.pendingToolOutputs[0];
    const result = await applyContextManagement(ctx, deps);
    assert.equal(result.truncatedOutputCount, 0);
    assert.equal(ctx.pendingToolOutputs[0], truncated);
    assert.equal(deps.calls.filter(([n]) => n === 'shouldTruncate').length, 1);
  });

  it('replaces the arrays even when nothing changed', async () => {
    const ctx = context();
    const turns = ctx.turns;
    await applyContextManagement(ctx, mockDeps({ prune: false }));
    assert.notEqual(ctx.turns, turns);
    assert.deepEqual(ctx.turns, turns);
  });

  it('a failed persistRaw leaves that entry whole and logs a warning naming the tool', async () => {
    const deps = mockDeps({ prune: false, persistFails: true });
    const entry = toolOutput('run_tests', 60_000, 2);
    const ctx = context({ pendingToolOutputs: [entry] });
    const result = await applyContextManagement(ctx, deps);
    assert.equal(ctx.pendingToolOutputs[0], entry);
    assert.equal(result.truncatedOutputCount, 0);
    assert.equal(deps.calls.filter(([n]) => n === 'truncate').length, 0, 'no truncate without a stored raw copy');
    assert.equal(deps.warnings.length, 1);
    assert.match(deps.warnings[0], /run_tests/);
    assert.match(deps.warnings[0], /disk full/);
  });

  it('a failed summarizer leaves context.turns untouched and rejects with its own error', async () => {
    const boom = new Error('summarizer overloaded');
    const deps = mockDeps({ prune: true });
    deps.pruner.prune = async () => { throw boom; };
    const ctx = context({ pendingToolOutputs: [toolOutput('t', 60_000, 2)] });
    const turns = ctx.turns;
    const outputs = ctx.pendingToolOutputs;
    assert.equal(await rejected(applyContextManagement(ctx, deps)), boom);
    assert.equal(ctx.turns, turns);
    assert.equal(ctx.pendingToolOutputs, outputs);
  });

  it('accepts sync and async deps alike', async () => {
    const deps = mockDeps({ prune: false });
    deps.composer = { compose: async () => ({ slots: [], totalTokensUsed: 7, budgetExceeded: false }) };
    deps.pruner.shouldPrune = async () => false;
    const result = await applyContextManagement(context({ turns: [] }), deps);
    assert.equal(result.windowUsedTokens, 7);
  });
});

describe('applyContextManagement: where other context managers fail', () => {
  it('loop guard: a summary still at the saturation point falls back to a deterministic cut', async () => {
    const budget = createDefaultWindowBudget(1000);
    const turns = agentTurns(10, 400); // 100 tokens each, 1000 in all
    const deps = mockDeps({ prune: (tokens, b) => tokens >= b.totalBudget * 0.9, summary: 'S'.repeat(4000) });
    const ctx = context({ turns, budget });
    const first = await applyContextManagement(ctx, deps);
    assert.equal(first.prunedOccurred, true);
    assert.ok(ctx.turns.length < 10 && ctx.turns.length > 0);
    assert.deepEqual(ctx.turns, turns.slice(10 - ctx.turns.length), 'the newest turns, unchanged');
    const kept = ctx.turns.reduce((s, t) => s + countTokens(t.content), 0);
    assert.ok(kept < 900, `${kept} tokens kept`);
    assert.match(deps.warnings[0], /saturation point/);
    const second = await applyContextManagement(ctx, deps);
    assert.equal(second.prunedOccurred, false, 'no pruning loop on the next turn');
  });

  it('tool pairs: the loop-guard cut never keeps a tool result without its call', async () => {
    const budget = createDefaultWindowBudget(1000); // saturation point 900
    const call = { role: 'model', content: 'CALL '.repeat(120), timestampMs: 8 }; // 150 tokens
    const result = { role: 'user', content: 'RESULT '.repeat(400), timestampMs: 9 }; // 700 tokens
    const turns = [...agentTurns(8, 400), call, result];
    const deps = mockDeps({ prune: true, summary: 'S'.repeat(8000) });
    // Newest first: the result (700) fits, adding its call (850) fits, the next turn does not.
    let ctx = context({ turns, budget });
    await applyContextManagement(ctx, deps);
    assert.deepEqual(ctx.turns, [call, result]);

    // A bigger call no longer fits beside its result: the cut would fall between them, so
    // the result is not kept alone; the pair is kept, both cut down to fit.
    const bigCall = { ...call, content: 'CALL '.repeat(200) }; // 250 tokens
    ctx = context({ turns: [...agentTurns(8, 400), bigCall, result], budget });
    await applyContextManagement(ctx, deps);
    assert.deepEqual(ctx.turns.map((t) => t.role), ['model', 'user']);
    assert.ok(bigCall.content.startsWith(ctx.turns[0].content) && result.content.startsWith(ctx.turns[1].content));
    const kept = ctx.turns.reduce((s, t) => s + countTokens(t.content), 0);
    assert.ok(kept < 900, `${kept} tokens kept`);
  });

  it('tool pairs: truncation keeps the output in place, attached to its tool', async () => {
    const deps = mockDeps({ prune: false });
    const ctx = context({ pendingToolOutputs: [toolOutput('a', 10, 0), toolOutput('b', 60_000, 2), toolOutput('c', 10, 1)] });
    await applyContextManagement(ctx, deps);
    assert.deepEqual(ctx.pendingToolOutputs.map((e) => e.toolName), ['a', 'b', 'c']);
  });
});

describe('applyContextManagement bad input', () => {
  it('names the field', async () => {
    const deps = mockDeps();
    assertFieldError(await rejected(applyContextManagement(null, deps)), TypeError, 'context');
    assertFieldError(await rejected(applyContextManagement(context({ turns: 'x' }), deps)), TypeError, 'context.turns');
    assertFieldError(await rejected(applyContextManagement(context({ goal: 1 }), deps)), TypeError, 'context.goal');
    assertFieldError(await rejected(applyContextManagement(context({ budget: {} }), deps)), TypeError, 'context.budget.totalBudget');
    assertFieldError(await rejected(applyContextManagement(context(), { ...deps, pruner: {} })), TypeError, 'deps.pruner.shouldPrune');
    assertFieldError(await rejected(applyContextManagement(context(), { ...deps, stateRepository: undefined })), TypeError, 'deps.stateRepository');
    assertFieldError(await rejected(applyContextManagement(context({ turns: [{ role: 'user', content: 5 }] }), deps)), TypeError, 'context.turns[0].content');
  });
});

describe('applyContextManagement counts each text once', () => {
  it('on every turn, the pending outputs it recounts reach the counter only the first time', async () => {
    const outputs = ['grep', 'cat', 'ls'].map((tool, i) => ({ ...toolOutput(tool, 2_000 + i, 0), rawContent: `${tool}: ${'line\n'.repeat(400 + i)}` }));
    const counted = new Map();
    const counter = (text) => { counted.set(text, (counted.get(text) ?? 0) + 1); return Math.ceil(text.length / 3); };
    const ctx = context({ pendingToolOutputs: outputs });
    for (let turn = 0; turn < 10; turn++) {
      const result = await applyContextManagement(ctx, { ...mockDeps({ prune: false, truncate: false }), countTokens: counter });
      // The same figures every turn, from the counter's first answers.
      assert.ok(result.windowUsedTokens > 0);
    }
    for (const o of outputs) assert.equal(counted.get(o.rawContent), 1, `${o.toolName}'s output counted ${counted.get(o.rawContent)} times`);
  });
});
