// What the replay-formats tests share: the fixtures, the formats in the order the errors
// name them, the built package's reader, and two checks of a read session.
//
// Fixtures: ./fixtures/transcripts/ (one per format, written for these tests from each
// agent's public source and docs) and the real sessions in ./fixtures/sessions/ (copies,
// with their licence). The module is imported from the built package
// (pkg/dist/replay.mjs, `@devs/context/replay`).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const FIXTURES = new URL('./fixtures/transcripts/', import.meta.url);
const SESSIONS = new URL('./fixtures/sessions/', import.meta.url);

/** The built package; waits while pkg/dist is missing or being rebuilt. */
async function builtPackage() {
  const entry = new URL('../dist/index.mjs', import.meta.url);
  let lastError;
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      const size = statSync(entry).size;
      await sleep(200);
      if (size > 0 && statSync(entry).size === size) {
        return attempt === 0 ? await import('@devs/context') : await import(`${entry.href}?attempt=${attempt}`);
      }
    } catch (error) {
      lastError = error;
    }
    await sleep(500);
  }
  throw lastError ?? new Error('pkg/dist/index.mjs never settled');
}

export const { parseTranscript, detectFormat, TranscriptFormatError, TRANSCRIPT_FORMATS } = await import('../dist/replay.mjs');
const { validateSaopEnvelope } = await builtPackage();

export const fixture = (name) => readFileSync(new URL(name, FIXTURES), 'utf8');
export const session = (name) => readFileSync(new URL(name, SESSIONS), 'utf8');

/** Every envelope of `sessions` passes the package's validator; unanswered calls are marked as specified. */
export function assertValid(sessions) {
  let calls = 0;
  for (const session of sessions) {
    assert.ok(TRANSCRIPT_FORMATS.includes(session.format), session.format);
    assert.ok(Array.isArray(session.warnings));
    for (const step of session.steps) {
      assert.equal(typeof step.text, 'string');
      if (step.input !== undefined) assert.ok(typeof step.input === 'string' && step.input.trim() !== '', 'input is absent or non-empty');
      if (step.reportedInputTokens !== undefined) assert.ok(Number.isFinite(step.reportedInputTokens) && step.reportedInputTokens >= 0);
      for (const call of step.calls) {
        calls += 1;
        assert.deepEqual(Object.keys(call).filter((k) => k !== 'envelope' && k !== 'unanswered'), []);
        assert.equal(validateSaopEnvelope(call.envelope), call.envelope);
        assert.equal(call.envelope.phase, 'replay');
        assert.equal(call.envelope.schema_version, '1.0.0');
        if (call.unanswered) assert.deepEqual(call.envelope.observation, { status: 'partial', output: '' });
        else assert.equal(call.unanswered, undefined);
      }
    }
  }
  return calls;
}

/** A compact picture of a session's steps, for deepEqual. */
export function shape(session) {
  return session.steps.map((s) => ({
    calls: s.calls.map((c) => `${c.envelope.action.tool_name}:${c.unanswered ? 'unanswered' : c.envelope.observation.status}`),
    ...(s.input === undefined ? {} : { input: s.input.slice(0, 24) }),
    ...(s.reportedInputTokens === undefined ? {} : { tokens: s.reportedInputTokens }),
    ...(s.compaction ? { compaction: s.compaction.preTokens ?? true } : {}),
  }));
}
