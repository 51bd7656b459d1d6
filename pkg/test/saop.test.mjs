// The SAOP envelope type and its validator (spec: "Types the seeds use but do not define").
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isSaopEnvelope, validateSaopEnvelope } from '@devs/context';
import { assertFieldError, envelope, thrown } from './helpers.mjs';

describe('validateSaopEnvelope', () => {
  it('returns a valid envelope as is', () => {
    const e = envelope();
    assert.equal(validateSaopEnvelope(e), e);
    assert.equal(isSaopEnvelope(e), true);
    const full = envelope({
      thought: { reasoning: 'r', plan: 'p', uncertainty: 'low' },
      observation: { status: 'timeout', output: '', error_detail: 'took 30s' },
    });
    assert.equal(validateSaopEnvelope(full), full);
  });

  const cases = [
    ['observation.status', envelope({ observation: { status: 'done', output: '' } })],
    ['observation.output', envelope({ observation: { status: 'success' } })],
    ['thought.reasoning', envelope({ thought: { plan: 'p' } })],
    ['thought.uncertainty', envelope({ thought: { reasoning: 'r', plan: 'p', uncertainty: 3 } })],
    ['action.arguments', envelope({ action: { tool_name: 't', arguments: [] } })],
    ['action.tool_name', envelope({ action: { arguments: {} } })],
    ['turn_index', envelope({ turn_index: -1 })],
    ['turn_index', envelope({ turn_index: '3' })],
    ['agent_id', envelope({ agent_id: '' })],
    ['phase', envelope({ phase: undefined })],
    ['schema_version', envelope({ schema_version: '1.0' })],
    ['extra', envelope({ extra: true })],
    ['thought.mood', envelope({ thought: { reasoning: 'r', plan: 'p', mood: 'ok' } })],
    ['observation', envelope({ observation: null })],
    ['envelope', 'not an envelope'],
  ];
  for (const [field, value] of cases) {
    it(`names ${field}`, () => {
      const error = thrown(() => validateSaopEnvelope(value));
      assertFieldError(error, TypeError, field);
      assert.equal(error.code, 'ERR_INVALID_SAOP_ENVELOPE');
      assert.equal(isSaopEnvelope(value), false);
    });
  }

  it('explains what it expected', () => {
    const error = thrown(() => validateSaopEnvelope(envelope({ observation: { status: 'done', output: '' } })));
    assert.equal(error.message, `observation.status must be one of 'success', 'error', 'timeout', 'partial', got "done"`);
  });
});
