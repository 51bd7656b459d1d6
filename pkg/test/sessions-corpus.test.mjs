// The real sessions in ./fixtures/sessions/ (copies, with their licence), every one read by
// the package's own reader through sessions.mjs (`loadSession`, one scripted answer per
// call): each file loads in its own format, into the steps its agent took
// (pinned here, so that a change to a reader or a file is seen), every envelope is valid,
// an image in a tool result is left out of the output, and the README and LICENSE name
// every file with its size. The tests and benchmarks that replay sessions replay only the
// four originals (ORIGINAL_SESSIONS); this one reads them all, in well under a second.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { validateSaopEnvelope } from '@devs/context';
import { ORIGINAL_SESSIONS, SESSIONS, loadSession, originalSessionFiles, sessionFiles } from './sessions.mjs';

// [session name, format, scripted answers, answers with a tool call]
const EXPECTED = [
  ['aider-afi-core.chat.history.md', 'aider', 43, 21],
  ['aider-mozgoslav.chat.history.md', 'aider', 16, 2],
  ['claude-code-cua-docker-screenshots.jsonl', 'claude-code', 66, 65],
  ['claude-code-session.jsonl', 'claude-code', 244, 242],
  ['claude-code-short-session.jsonl', 'claude-code', 9, 6],
  ['claude-code-spotter-fum.jsonl', 'claude-code', 179, 177],
  ['claude-code-subagent.jsonl', 'claude-code', 34, 33],
  ['cline-sdk-session.messages.json', 'anthropic-messages', 16, 11],
  ['codex-cli-rollout-gpt-5.5.jsonl', 'codex', 107, 105],
  ['codex-desktop-rollout.jsonl', 'codex', 41, 38],
  ['gemini-cli-session-file-ops.json', 'gemini-cli', 19, 14],
  ['mini-swe-agent-django-11138.traj.json', 'mini-swe-agent', 115, 100],
  ['mini-swe-agent-xarray-4629.traj.json', 'mini-swe-agent', 18, 18],
  ['moatless-scikit-learn-13779.trajectory.json', 'moatless', 18, 18],
  ['openhands-multi-swe-bench-output.jsonl#ponylang__ponyc-4595', 'openhands', 23, 23],
  ['openhands-multi-swe-bench-output.jsonl#ponylang__ponyc-4593', 'openhands', 34, 34],
  ['openhands-multi-swe-bench-output.jsonl#ponylang__ponyc-4588', 'openhands', 50, 50],
  ['openhands-resolver-output.jsonl#neubig/pr-viewer#5', 'openhands', 4, 4],
  ['openhands-resolver-output.jsonl#neubig/pr-viewer#1', 'openhands', 22, 22],
  ['openhands-sdk-chat-fncall.json', 'openai-messages', 6, 6],
  ['openhands-sdk-chat-nonfncall.json', 'openai-messages', 4, 4],
  ['openhands-trajectory-gui-todo.json', 'openhands', 5, 4],
  ['swe-agent-ctf-i-got-id.traj', 'swe-agent', 21, 21],
  ['swe-agent-marshmallow-1867.traj', 'swe-agent', 13, 13],
  ['swe-agent-pydicom-1458-gpt4.traj', 'swe-agent', 12, 12],
];

const sessions = sessionFiles().flatMap((f) => loadSession(f).map((s) => ({ ...s, file: basename(f) })));
const byName = new Map(sessions.map((s) => [s.name, s]));
const readme = readFileSync(join(SESSIONS, 'README.md'), 'utf8');
const licence = readFileSync(join(SESSIONS, 'LICENSE'), 'utf8');

describe('the real sessions, all of them', () => {
  it('each file loads in its own format, into the steps its agent took', () => {
    assert.deepEqual(sessions.map((s) => [s.name, s.format, s.steps.length, s.steps.filter((st) => st.envelope).length]), EXPECTED);
  });

  it('every step has the documented shape and every envelope is valid', () => {
    let envelopes = 0;
    for (const s of sessions) {
      for (const [i, step] of s.steps.entries()) {
        assert.deepEqual(Object.keys(step).filter((k) => !['text', 'envelope', 'input'].includes(k)), [], s.name);
        assert.equal(typeof step.text, 'string');
        if (step.input !== undefined) assert.ok(typeof step.input === 'string' && step.input !== '', `${s.name} step ${i}: an empty input is left out`);
        if (!step.envelope) continue;
        envelopes++;
        assert.equal(validateSaopEnvelope(step.envelope), step.envelope);
        assert.equal(step.envelope.turn_index, i + 1);
        assert.equal(typeof step.envelope.observation.output, 'string');
      }
      assert.ok(s.steps[0].input, `${s.name}: the first step carries the task`);
    }
    assert.ok(envelopes > 800, `${envelopes} envelopes`);
  });

  it('the screenshots in tool results are left out of the outputs, each marked where it was', () => {
    const s = byName.get('claude-code-cua-docker-screenshots.jsonl');
    const outputs = s.steps.filter((st) => st.envelope).map((st) => st.envelope.observation.output);
    const images = outputs.filter((o) => /^\[image\]$/m.test(o));
    assert.equal(images.length, 4);
    const raw = readFileSync(join(SESSIONS, s.file), 'utf8');
    assert.ok(raw.includes('"type":"image"') && raw.includes('/9j/'), 'the file itself keeps the JPEG data');
    assert.ok(outputs.every((o) => !o.includes('/9j/4AAQ')), 'no JPEG data in an output');
  });

  it('reads what each new format keeps: ids, results, errors and the older shapes', () => {
    const codex = byName.get('codex-cli-rollout-gpt-5.5.jsonl');
    assert.ok(codex.steps.some((st) => st.envelope?.action.tool_name === 'apply_patch' && st.envelope.observation.output.includes('Success')));
    assert.ok(codex.steps.some((st) => st.envelope?.action.tool_name === 'web_search'));
    assert.ok(codex.steps.every((st) => !st.envelope || st.envelope.observation.output !== '[no result recorded]'), 'every Codex call has its output');
    assert.match(byName.get('codex-desktop-rollout.jsonl').steps[0].input, /My request for Codex/);
    const aider = byName.get('aider-afi-core.chat.history.md').steps.filter((st) => st.envelope);
    assert.ok(aider.every((st) => st.envelope.action.tool_name === 'apply_reply'));
    assert.ok(aider.some((st) => st.envelope.observation.output.includes('Applied edit to')));
    const old = byName.get('swe-agent-pydicom-1458-gpt4.traj').steps;
    assert.deepEqual(old[0].envelope.action, { tool_name: 'bash', arguments: { command: 'create reproduce_bug.py\n' } });
    assert.match(old.at(-1).envelope.observation.output, /diff --git/, 'the last submit answered by the submission');
    const moatless = byName.get('moatless-scikit-learn-13779.trajectory.json').steps;
    assert.equal(moatless.filter((st) => st.envelope.observation.status === 'error').length, 9, 'the rejected edits');
    const subagent = byName.get('claude-code-subagent.jsonl');
    assert.match(subagent.steps[0].input, /SessionLive/, "a sub-agent's transcript starts with its task");
  });

  it('the originals are named and in the folder, and the README and LICENSE name every file with its size', () => {
    assert.deepEqual(originalSessionFiles().map((f) => basename(f)), [...ORIGINAL_SESSIONS]);
    const files = sessionFiles().map((f) => basename(f));
    assert.ok(ORIGINAL_SESSIONS.every((f) => files.includes(f)));
    for (const file of files) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${file}\` |`));
      assert.ok(row, `${file}: a README row`);
      const bytes = statSync(join(SESSIONS, file)).size;
      const size = /\| ([\d.]+) (MB|kB)(, \d+ sessions)? \|$/.exec(row);
      assert.ok(size, `${file}: a size`);
      const stated = Number(size[1]) * (size[2] === 'MB' ? 1e6 : 1e3);
      assert.ok(Math.abs(stated - bytes) / bytes < 0.15, `${file}: ${bytes} bytes, the README says ${size[1]} ${size[2]}`);
      assert.match(row, /[0-9a-f]{40}/, `${file}: its commit`);
      assert.ok(licence.includes(`  ${file} `), `${file}: named in LICENSE`);
    }
    assert.ok(licence.includes('MIT License') && licence.includes('Apache License'));
  });
});
