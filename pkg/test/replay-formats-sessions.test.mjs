// The replay reads the real sessions in ./fixtures/sessions/ (copies, with their licence):
// their steps, calls and recorded compactions, as the agents logged them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertValid, parseTranscript, session } from './replay-transcripts.mjs';

describe('the real sessions', () => {
  it('Claude Code: its steps, its parallel calls, and the /compact at 142,431 tokens', () => {
    const sessions = parseTranscript(session('claude-code-session.jsonl'), 'claude-code-session.jsonl');
    assert.equal(sessions.length, 1);
    const [s] = sessions;
    const calls = assertValid(sessions);
    assert.equal(s.format, 'claude-code');
    assert.deepEqual(s.warnings, []);
    assert.ok(s.steps.length > 150 && s.steps.length < 300, `${s.steps.length} steps`);
    assert.ok(calls >= s.steps.length, `${calls} calls`);
    assert.ok(s.steps.filter((st) => st.calls.length > 1).length >= 10, 'parallel calls share a step');
    assert.ok(s.steps.every((st) => st.reportedInputTokens > 0), 'every API message reports its usage');
    const compacted = s.steps.map((st, i) => [st, i]).filter(([st]) => st.compaction);
    assert.equal(compacted.length, 1);
    const [[step, index]] = compacted;
    assert.equal(step.compaction.preTokens, 142431);
    assert.match(step.compaction.summary, /^This session is being continued from a previous conversation/);
    // The provider's count just before it is close to the recorded pre-compaction size, and drops after it.
    const before = s.steps[index - 1].reportedInputTokens;
    assert.ok(Math.abs(before - 142431) / 142431 < 0.02, `${before} tokens before the compaction`);
    assert.ok(step.reportedInputTokens < before / 2, `${step.reportedInputTokens} tokens after it`);
  });

  it('SWE-agent: one call per turn, the submit last', () => {
    const [s] = parseTranscript(session('swe-agent-marshmallow-1867.traj'), 'swe-agent-marshmallow-1867.traj');
    assertValid([s]);
    assert.equal(s.steps.length, 13);
    assert.ok(s.steps.every((st) => st.calls.length === 1 && !st.calls[0].unanswered));
    assert.match(s.steps[0].input, /ISSUE/);
    assert.equal(s.steps[12].calls[0].envelope.action.tool_name, 'submit');
    assert.match(s.steps[12].calls[0].envelope.observation.output, /diff --git/);
  });

  it('mini-SWE-agent: a bash call per well-formed turn, format errors as input', () => {
    const [s] = parseTranscript(session('mini-swe-agent-django-11138.traj.json'), 'mini-swe-agent-django-11138.traj.json');
    const calls = assertValid([s]);
    assert.equal(s.steps.length, 115);
    assert.equal(calls, 100);
    assert.match(s.steps[0].input, /<pr_description>/);
    assert.ok(s.steps.every((st) => st.reportedInputTokens > 0));
    const withoutCall = s.steps.map((st, i) => [st, i]).filter(([st]) => st.calls.length === 0);
    assert.ok(withoutCall.every(([, i]) => /EXACTLY ONE action/.test(s.steps[i + 1].input)));
    assert.match(s.steps[114].calls[0].envelope.action.arguments.command, /COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT/);
  });

  it('OpenHands output.jsonl: three sessions, the finish call unanswered', () => {
    const sessions = parseTranscript(session('openhands-multi-swe-bench-output.jsonl'), 'openhands-multi-swe-bench-output.jsonl');
    assertValid(sessions);
    assert.deepEqual(sessions.map((s) => s.name), [
      'openhands-multi-swe-bench-output.jsonl#ponylang__ponyc-4595',
      'openhands-multi-swe-bench-output.jsonl#ponylang__ponyc-4593',
      'openhands-multi-swe-bench-output.jsonl#ponylang__ponyc-4588',
    ]);
    assert.deepEqual(sessions.map((s) => s.steps.length), [23, 34, 50]);
    for (const s of sessions.slice(0, 2)) {
      const last = s.steps[s.steps.length - 1].calls[0];
      assert.equal(last.envelope.action.tool_name, 'finish');
      assert.equal(last.unanswered, true);
    }
    const rejected = sessions[1].steps.flatMap((st) => st.calls).filter((c) => c.envelope.action.tool_name === 'rejected_tool_call');
    assert.equal(rejected.length, 1);
    assert.match(rejected[0].envelope.observation.output, /Parameter 'command' is expected/);
  });
});
