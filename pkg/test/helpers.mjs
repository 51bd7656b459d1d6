// Shared fixtures for the JS tests. Everything is loaded through the package's own name,
// exactly as a host would (Node resolves `@devs/context` to this package via "exports").
import assert from 'node:assert/strict';

export function envelope(overrides = {}) {
  return {
    schema_version: '1.0.0',
    turn_index: 0,
    agent_id: 'dev-agent',
    phase: 'implement',
    thought: { reasoning: 'The test fails because the parser drops the last token.', plan: '1. fix parser' },
    action: { tool_name: 'run_tests', arguments: { filter: 'parser' } },
    observation: { status: 'error', output: '1 failing' },
    ...overrides,
  };
}

/** A summary provider whose calls are counted; `impl` decides what each call does. */
export function countingProvider(impl = () => ({ tasSummary: 'TAS-S', prdSummary: 'PRD-S' })) {
  const provider = {
    calls: 0,
    getSummary() {
      provider.calls += 1;
      return impl(provider.calls);
    },
  };
  return provider;
}

/** Asserts `fn` throws (or `promise` rejects with) `type` whose message names `field`. */
export function assertFieldError(error, type, field) {
  assert.ok(error instanceof type, `expected ${type.name}, got ${error?.constructor?.name}: ${error?.message}`);
  assert.equal(error.field, field);
  assert.match(error.message, new RegExp(`^${field.replace(/[.()[\]]/g, '\\$&')} `));
  assert.ok(!/unreachable|panicked/.test(error.message), error.message);
}

export function thrown(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected a throw');
}

export async function rejected(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected a rejection');
}

/** `count` TurnEntry objects, turnIndex 1..count, alternating user/assistant. */
export function turnEntries(count, agentId = 'dev-agent') {
  return Array.from({ length: count }, (_, i) => ({
    turnIndex: i + 1,
    agentId,
    role: i % 2 ? 'assistant' : 'user',
    content: `turn ${i + 1}`,
    createdAt: new Date(1_700_000_000_000 + i * 1000),
  }));
}
