// The replay reads the real sessions in ./fixtures/sessions/ (copies, with their licence):
// their steps, calls and recorded compactions, as the agents logged them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
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
    // The last submit has no observation: the trajectory's submission is its output.
    const [submit] = pydicom.steps.at(-1).calls;
    assert.equal(submit.unanswered, undefined);
    assert.match(submit.envelope.observation.output, /^\s*diff --git/);
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

  it('Gemini CLI: each call with its own result, the thoughts and the input tokens', () => {
    const [s] = read('gemini-cli-session-file-ops.json');
    const calls = assertValid([s]);
    assert.equal(s.format, 'gemini-cli');
    assert.deepEqual([s.steps.length, calls], [9, 14]);
    assert.equal(s.steps[0].input, 'show tools');
    assert.equal(s.steps[0].reportedInputTokens, 4749);
    assert.equal(s.steps[1].calls[0].envelope.action.tool_name, 'write_todos');
    assert.ok(s.steps.flatMap((st) => st.calls).every((c) => !c.unanswered && c.envelope.observation.output !== ''), 'every call carries its result');
  });

  it('Moatless: one step per action, the rejected ones as errors with their retry message', () => {
    const [s] = read('moatless-scikit-learn-13779.trajectory.json');
    const calls = assertValid([s]);
    assert.equal(s.format, 'moatless');
    assert.deepEqual([s.steps.length, calls], [18, 18]);
    assert.match(s.steps[0].input, /\S/, 'the initial message is the task');
    const rejected = s.steps.map((st) => st.calls[0].envelope.observation).filter((o) => o.status === 'error');
    assert.equal(rejected.length, 9);
  });

  it('Aider: replies that edit are one apply_reply call answered by aider\'s notes, the others text', () => {
    const [s] = read('aider-afi-core.chat.history.md');
    const calls = assertValid([s]);
    assert.equal(s.format, 'aider');
    assert.deepEqual([s.steps.length, calls], [43, 21]);
    assert.match(s.warnings[0], /ends with a user message/, 'the last message, never answered, is a last step');
    const applied = s.steps.flatMap((st) => st.calls).map((c) => c.envelope);
    assert.ok(applied.every((e) => e.action.tool_name === 'apply_reply'));
    assert.ok(applied.some((e) => e.observation.output.includes('Applied edit to')));
    assert.equal(read('aider-mozgoslav.chat.history.md')[0].steps.length, 16);
  });

  it('OpenHands: the resolver\'s older output, with no ids, pairs each action with the observation after it', () => {
    const sessions = read('openhands-resolver-output.jsonl');
    assertValid(sessions);
    assert.deepEqual(sessions.map((s) => [s.name, s.format, s.steps.length]), [
      ['openhands-resolver-output.jsonl#neubig/pr-viewer#5', 'openhands', 4],
      ['openhands-resolver-output.jsonl#neubig/pr-viewer#1', 'openhands', 22],
    ]);
    const [first] = sessions[0].steps[0].calls;
    assert.deepEqual(first.envelope.action, { tool_name: 'run', arguments: { command: 'touch LICENSE' } });
    assert.equal(first.envelope.observation.status, 'success');
    assert.match(sessions[0].steps[0].input, /^Please fix the following issue/);
  });

  it('every file of the folder is read, and none leaves a call unanswered before the conversation goes on', async () => {
    const { sessionFiles } = await import('./sessions.mjs');
    let read = 0;
    for (const file of sessionFiles()) {
      const sessions = parseTranscript(readFileSync(file, 'utf8'), basename(file));
      for (const s of sessions) {
        read++;
        assert.ok(s.steps.length > 0, `${s.name}: read as no step`);
        s.steps.slice(0, -1).forEach((st, i) => assert.ok(st.calls.every((c) => !c.unanswered), `${s.name} step ${i}: a call left open`));
      }
    }
    assert.equal(read, 25); // 22 files, 3 sessions in the OpenHands output
  });
});
