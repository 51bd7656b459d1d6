// The time of each model turn, where the recorded session has it (issue 50, item 4): what
// the replay passes to `build` as `now`, and what a meter prices the cache's lifetime by.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseTranscript, session } from './replay-transcripts.mjs';

const read = (file) => parseTranscript(session(file), file);
const times = (s) => s.steps.map((st) => st.time);
/** Every step has a time, and none goes back by more than a second (parallel records interleave). */
function timedInOrder(s) {
  assert.ok(s.steps.length > 0, s.name);
  s.steps.forEach((st, i) => {
    assert.equal(typeof st.time, 'number', `${s.name} step ${i}: time`);
    if (i > 0) assert.ok(st.time >= s.steps[i - 1].time - 1000, `${s.name} step ${i} goes back in time`);
  });
}

describe('the time of each model turn', () => {
  it('Claude Code: the first record of the turn, `timestamp` (ISO, UTC)', () => {
    const [s] = read('claude-code-short-session.jsonl');
    assert.equal(s.steps[0].time, Date.parse('2025-12-10T19:37:48.019Z'));
    timedInOrder(s);
    for (const file of ['claude-code-session.jsonl', 'claude-code-subagent.jsonl', 'claude-code-cua-docker-screenshots.jsonl']) timedInOrder(read(file)[0]);
  });

  it('Codex: the line that opens the turn', () => {
    const rollout = [
      { timestamp: '2026-05-11T10:00:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } },
      { timestamp: '2026-05-11T10:00:02.500Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' } },
      { timestamp: '2026-05-11T10:00:03.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'ok' } },
      { timestamp: '2026-05-11T10:09:00.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] } },
    ].map((r) => JSON.stringify(r)).join('\n');
    const [s] = parseTranscript(rollout, 'rollout.jsonl');
    assert.deepEqual(times(s), [Date.parse('2026-05-11T10:00:02.500Z'), Date.parse('2026-05-11T10:09:00.000Z')]);
    timedInOrder(read('codex-cli-rollout-gpt-5.5.jsonl')[0]);
    timedInOrder(read('codex-desktop-rollout.jsonl')[0]);
  });

  it("Cline: the assistant message's `ts` (ms)", () => {
    const [s] = read('cline-sdk-session.messages.json');
    assert.deepEqual(times(s).slice(0, 2), [1783376873493, 1783376875985]);
    timedInOrder(s);
  });

  it("Gemini CLI: the `gemini` message's `timestamp`", () => {
    const [s] = read('gemini-cli-session-file-ops.json');
    assert.deepEqual(times(s).slice(0, 2), [Date.parse('2026-01-16T11:01:30.378Z'), Date.parse('2026-01-16T11:04:00.678Z')]);
    timedInOrder(s);
  });

  it("OpenHands: the event's `timestamp`, with no zone, read as UTC", () => {
    const [s] = read('openhands-trajectory-gui-todo.json');
    timedInOrder(s);
    assert.ok(s.steps[0].time >= Date.parse('2025-01-20T20:29:32.262Z') && s.steps[0].time < Date.parse('2025-01-20T21:00:00Z'), String(s.steps[0].time));
    for (const inst of read('openhands-multi-swe-bench-output.jsonl')) timedInOrder(inst);
  });

  it('Aider: the time of `aider chat started at` on the first turn after it only', () => {
    const [s] = read('aider-afi-core.chat.history.md');
    assert.equal(s.steps[0].time, Date.parse('2025-07-15T11:38:37Z'));
    assert.equal(s.steps[1].time, Date.parse('2025-07-15T14:53:34Z'));
    const timed = s.steps.filter((st) => st.time !== undefined);
    assert.ok(timed.length >= 2 && timed.length <= 9, `${timed.length} timed turns`);
    assert.equal(s.steps[2].time, undefined);
  });

  it('no time where the file has none, and none made of a bad one', () => {
    for (const file of ['swe-agent-marshmallow-1867.traj', 'mini-swe-agent-django-11138.traj.json']) {
      for (const s of read(file)) assert.ok(s.steps.every((st) => !('time' in st)), file);
    }
    const lines = [
      { type: 'user', timestamp: 'yesterday', message: { role: 'user', content: 'hi' } },
      { type: 'assistant', timestamp: 'not a time', message: { id: 'm1', role: 'assistant', model: 'x', content: [{ type: 'text', text: 'hello' }] } },
    ].map((r) => JSON.stringify(r)).join('\n');
    const [s] = parseTranscript(lines, 's.jsonl');
    assert.equal(s.format, 'claude-code');
    assert.ok(!('time' in s.steps[0]));
  });
});
