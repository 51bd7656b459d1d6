// The replay reads the real sessions in ./fixtures/sessions/ (copies, with their licence):
// their steps, calls and recorded compactions, as the agents logged them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { assertValid, parseTranscript, session, TranscriptFormatError } from './replay-transcripts.mjs';

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

// The files added for issue 38's held-out half, as the package's own reader reads them: the
// bench replays these, and a call left open before the conversation goes on would make every
// peer's request invalid (and a user's replay of such a file wrong).
describe('the sessions added for the held-out half', () => {
  const read = (file) => parseTranscript(session(file), file);

  it('SWE-agent 0.x: the user message after an action is its output, not an input', () => {
    for (const [file, steps] of [['swe-agent-pydicom-1458-gpt4.traj', 12], ['swe-agent-ctf-i-got-id.traj', 21]]) {
      const [s] = read(file);
      assertValid([s]);
      assert.equal(s.steps.length, steps, file);
      assert.deepEqual(s.steps.map((st) => st.input !== undefined), s.steps.map((_, i) => i === 0), `${file}: only the task is an input`);
      assert.ok(s.steps.slice(0, -1).every((st) => st.calls.length === 1 && !st.calls[0].unanswered && st.calls[0].envelope.observation.output !== ''), file);
      assert.match(s.steps.at(-1).calls[0].envelope.action.arguments.command, /^submit\b/);
    }
    const [pydicom] = read('swe-agent-pydicom-1458-gpt4.traj');
    assert.match(pydicom.steps[2].calls[0].envelope.observation.output, /^Traceback/);
  });

  it('Codex: a message written both as an item and as an event is one input; Desktop\'s, events only, are read', () => {
    const [cli] = read('codex-cli-rollout-gpt-5.5.jsonl');
    const inputs = cli.steps.filter((st) => st.input).map((st) => st.input);
    assert.equal(inputs.length, 2);
    assert.equal(inputs.join('\n').split('show tools').length - 1, 1, 'show tools once');
    const [desktop] = read('codex-desktop-rollout.jsonl');
    assertValid([desktop]);
    const asked = desktop.steps.filter((st) => st.input).map((st) => st.input);
    assert.equal(asked.length, 3);
    assert.match(asked[0], /Files mentioned by the user/);
    assert.match(asked[2], /Analytics and Project management/);
    assert.ok(desktop.steps[0].input, 'the first model turn has its input');
  });

  it('Codex: a web search, which runs on OpenAI\'s side, is answered with its query', () => {
    const [cli] = read('codex-cli-rollout-gpt-5.5.jsonl');
    const searches = cli.steps.flatMap((st) => st.calls).filter((c) => c.envelope.action.tool_name === 'web_search');
    assert.equal(searches.length, 3);
    for (const c of searches) {
      assert.equal(c.unanswered, undefined);
      assert.match(c.envelope.observation.output, /^web search for .+: its results are not in the rollout$/);
    }
  });

  it('Claude Code: a sub-agent\'s own transcript, every record a sidechain, is read', () => {
    const [s] = read('claude-code-subagent.jsonl');
    const calls = assertValid([s]);
    assert.ok(s.steps.length >= 10, `${s.steps.length} steps`);
    assert.ok(calls >= 30, `${calls} calls`);
    assert.match(s.steps[0].input, /\S/);
    // A main session's sidechain records are still skipped.
    const [main] = read('claude-code-session.jsonl');
    assert.equal(main.steps.length, 217);
  });

  it('no file the replay reads leaves a call unanswered before the conversation goes on', async () => {
    const { sessionFiles } = await import('../../bench/transcripts.mjs');
    let read = 0;
    for (const file of sessionFiles()) {
      let sessions;
      try {
        sessions = parseTranscript(readFileSync(file, 'utf8'), basename(file));
      } catch (error) {
        if (error instanceof TranscriptFormatError) continue; // Aider, Gemini CLI, Moatless, the older resolver output
        throw error;
      }
      for (const s of sessions) {
        read++;
        assert.ok(s.steps.length > 0, `${s.name}: read as no step`);
        s.steps.slice(0, -1).forEach((st, i) => assert.ok(st.calls.every((c) => !c.unanswered), `${s.name} step ${i}: a call left open`));
      }
    }
    assert.ok(read >= 18, `${read} sessions read`);
  });
});
