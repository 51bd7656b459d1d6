// Fixtures for the seed 002 tests: contexts, and mock deps that record what was called.
import { createDefaultWindowBudget } from '@devs/context';
import { envelope } from './helpers.mjs';

export function agentTurns(count, charsEach = 40) {
  return Array.from({ length: count }, (_, i) => ({
    role: i % 2 ? 'model' : 'user',
    content: `${i}:`.padEnd(charsEach, 'x'),
    timestampMs: 1_700_000_000_000 + i,
  }));
}

export function toolOutput(toolName, bytes, turnAge) {
  return { toolName, rawContent: 'L'.repeat(bytes), byteSize: bytes, turnAge, capturedAt: 1_700_000_000_000 };
}

export function context(overrides = {}) {
  return {
    turns: agentTurns(4),
    goal: 'Make parser::tests::trailing_token pass',
    map: 'src/parser.rs src/lexer.rs tests/parser.rs',
    plan: '1. reproduce 2. fix lexer 3. rerun',
    tas: 'Rust core; pure rules; wasm bindings',
    currentObservation: 'assertion failed: tokens.len() == 3',
    envelopes: [envelope({ turn_index: 1 }), envelope({ turn_index: 2 })],
    pendingToolOutputs: [],
    budget: createDefaultWindowBudget(800_000),
    ...overrides,
  };
}

/** Mock deps in the seed's style: every call is recorded in `calls`, in order. */
export function mockDeps({ prune = true, summary = 'SUMMARY: parser fixed halfway', truncate = true, persistFails = false } = {}) {
  const calls = [];
  const warnings = [];
  const stored = [];
  const deps = {
    calls,
    warnings,
    stored,
    composer: {
      compose(goal, map, envelopes) {
        calls.push(['compose', goal, map, envelopes.length]);
        return { slots: [], totalTokensUsed: 100, budgetExceeded: false };
      },
    },
    pruner: {
      shouldPrune(tokens, budget) {
        calls.push(['shouldPrune', tokens, budget.totalBudget]);
        return typeof prune === 'function' ? prune(tokens, budget) : prune;
      },
      async prune(turns, plan, tas, currentObservation) {
        calls.push(['prune', turns.length, plan, tas, currentObservation]);
        return { summary, plan, tas, currentObservation, originalTurnCount: turns.length, prunedAt: Date.now() };
      },
    },
    toolOutputPruner: {
      shouldTruncate(entry) {
        calls.push(['shouldTruncate', entry.toolName]);
        return truncate;
      },
      async persistRaw(entry, repo) {
        calls.push(['persistRaw', entry.toolName]);
        await repo.insertRawToolOutput(entry);
      },
      truncate(entry) {
        calls.push(['truncate', entry.toolName]);
        return { toolName: entry.toolName, summary: `${entry.rawContent.slice(0, 10)}…`, rawStoredAt: new Date().toISOString(), originalByteSize: entry.byteSize };
      },
    },
    stateRepository: {
      async insertRawToolOutput(entry) {
        if (persistFails) throw new Error('disk full');
        stored.push(entry);
      },
    },
    logger: { warn: (message) => warnings.push(message) },
  };
  return deps;
}
