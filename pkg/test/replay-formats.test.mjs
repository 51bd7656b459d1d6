// Issue 12, the input side of `devs-context replay`: transcripts of real agent sessions in
// their native formats become sessions of steps (one per model turn) whose tool calls are
// SAOP envelopes. Fixtures: ./fixtures/transcripts/ (one per format, written for these
// tests from each agent's public source and docs) and the real sessions in
// ./fixtures/sessions/ (copies, with their licence).
//
// The module is imported from the built package (pkg/dist/replay.mjs, `@devs/context/replay`).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const FIXTURES = new URL('./fixtures/transcripts/', import.meta.url);
const SESSIONS = new URL('./fixtures/sessions/', import.meta.url);
const FORMATS = ['claude-code', 'codex', 'cline', 'openhands', 'swe-agent', 'mini-swe-agent', 'openai-messages', 'anthropic-messages', 'saop-jsonl'];

const scratch = mkdtempSync(join(tmpdir(), 'replay-formats-'));
after(() => rmSync(scratch, { recursive: true, force: true }));


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

const { parseTranscript, detectFormat, TranscriptFormatError, TRANSCRIPT_FORMATS } = await import('../dist/replay.mjs');
const { validateSaopEnvelope } = await builtPackage();

const fixture = (name) => readFileSync(new URL(name, FIXTURES), 'utf8');
const session = (name) => readFileSync(new URL(name, SESSIONS), 'utf8');

/** Every envelope of `sessions` passes the package's validator; unanswered calls are marked as specified. */
function assertValid(sessions) {
  let calls = 0;
  for (const session of sessions) {
    assert.ok(FORMATS.includes(session.format), session.format);
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
function shape(session) {
  return session.steps.map((s) => ({
    calls: s.calls.map((c) => `${c.envelope.action.tool_name}:${c.unanswered ? 'unanswered' : c.envelope.observation.status}`),
    ...(s.input === undefined ? {} : { input: s.input.slice(0, 24) }),
    ...(s.reportedInputTokens === undefined ? {} : { tokens: s.reportedInputTokens }),
    ...(s.compaction ? { compaction: s.compaction.preTokens ?? true } : {}),
  }));
}

const FIXTURE_FORMATS = [
  ['claude-code-session.jsonl', 'claude-code'],
  ['codex-rollout.jsonl', 'codex'],
  ['cline-api_conversation_history.json', 'cline'],
  ['openhands-events.json', 'openhands'],
  ['openai-messages.json', 'openai-messages'],
  ['anthropic-messages.json', 'anthropic-messages'],
  ['saop-envelopes.jsonl', 'saop-jsonl'],
];

describe('detectFormat', () => {
  it('lists the formats it tries', () => {
    assert.deepEqual([...TRANSCRIPT_FORMATS], FORMATS);
  });

  for (const [file, format] of FIXTURE_FORMATS) {
    it(`finds ${format} from the content of ${file}, whatever the file is called`, () => {
      const text = fixture(file);
      assert.equal(detectFormat(text), format);
      assert.equal(detectFormat(text, 'transcript.txt'), format);
      assert.equal(detectFormat(text, 'api_conversation_history.json'), format);
      assert.equal(parseTranscript(text)[0].format, format);
    });
  }

  it('finds the real sessions\' formats from their content', () => {
    assert.equal(detectFormat(session('claude-code-session.jsonl')), 'claude-code');
    assert.equal(detectFormat(session('swe-agent-marshmallow-1867.traj')), 'swe-agent');
    assert.equal(detectFormat(session('mini-swe-agent-django-11138.traj.json')), 'mini-swe-agent');
    assert.equal(detectFormat(session('openhands-multi-swe-bench-output.jsonl')), 'openhands');
    // One line of an output.jsonl is a whole JSON document: still OpenHands.
    assert.equal(detectFormat(session('openhands-multi-swe-bench-output.jsonl').split('\n')[0]), 'openhands');
  });

  it('uses the file name only to break a tie', () => {
    const chat = JSON.stringify([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]);
    assert.equal(detectFormat(chat), 'openai-messages');
    assert.equal(detectFormat(chat, 'tasks/1762182729000/api_conversation_history.json'), 'cline');
    const blocks = JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }]);
    assert.equal(detectFormat(blocks), 'anthropic-messages');
    // Content wins over the name.
    assert.equal(detectFormat(fixture('openai-messages.json'), 'api_conversation_history.json'), 'openai-messages');
  });

  it('reads the bare and the wrapped forms of the message formats', () => {
    const openai = JSON.parse(fixture('openai-messages.json'));
    assert.equal(detectFormat(JSON.stringify(openai.messages)), 'openai-messages');
    const anthropic = JSON.parse(fixture('anthropic-messages.json'));
    assert.equal(detectFormat(JSON.stringify({ model: 'claude-sonnet-4-5', messages: anthropic })), 'anthropic-messages');
    assert.deepEqual(shape(parseTranscript(JSON.stringify({ messages: anthropic }))[0]), shape(parseTranscript(JSON.stringify(anthropic))[0]));
  });
});

describe('Claude Code session JSONL', () => {
  const [session] = parseTranscript(fixture('claude-code-session.jsonl'), '/home/dev/.claude/projects/-home-dev-shop/7d1c2a4e.jsonl');

  it('makes one step per API message, however many lines it spans', () => {
    assert.equal(session.name, '7d1c2a4e.jsonl');
    assert.equal(session.format, 'claude-code');
    assert.deepEqual(session.warnings, []);
    assert.deepEqual(shape(session), [
      { calls: ['Read:success', 'Grep:error'], input: 'The cart total is wrong ', tokens: 14503 },
      { calls: ['Edit:success'], tokens: 15102 },
      { calls: [], tokens: 15402 },
      { calls: ['Bash:unanswered'], input: 'Now run the tests.', tokens: 7104, compaction: 51234 },
      { calls: [], input: '[Request interrupted by ', tokens: 7156 },
    ]);
    assertValid([session]);
  });

  it('keeps the thinking and the text, and puts the reasoning on the first of parallel calls', () => {
    const [first] = session.steps;
    assert.equal(first.text, 'The total is computed in cart.ts; coupons are probably applied in a loop without dedup.\n\nLet me look at the cart code and where coupons are applied.');
    assert.equal(first.calls[0].envelope.thought.reasoning, first.text);
    assert.equal(first.calls[1].envelope.thought.reasoning, '');
    assert.deepEqual(first.calls[0].envelope.action, { tool_name: 'Read', arguments: { file_path: '/home/dev/shop/src/cart.ts' } });
    assert.equal(first.calls[0].envelope.turn_index, 1);
    assert.equal(first.calls[1].envelope.turn_index, 1);
    assert.match(first.calls[1].envelope.observation.output, /Path does not exist/);
    assert.match(session.steps[1].calls[0].envelope.observation.output, /has been updated/); // a result given as blocks
  });

  it('recognises the recorded compaction, with its summary, and skips sidechains and synthetic messages', () => {
    const compacted = session.steps[3];
    assert.deepEqual(Object.keys(compacted.compaction).sort(), ['preTokens', 'summary']);
    assert.match(compacted.compaction.summary, /^This session is being continued/);
    assert.ok(!compacted.input.includes('continued from a previous conversation'), 'the summary is not replayed as user input');
    const tools = session.steps.flatMap((s) => s.calls.map((c) => c.envelope.action.tool_name));
    assert.ok(!tools.includes('Glob'), 'the sidechain call is skipped');
    assert.ok(!session.steps.some((s) => s.text === 'No response requested.'), 'the synthetic message is skipped');
  });
});

describe('Codex CLI rollout JSONL', () => {
  const [session] = parseTranscript(fixture('codex-rollout.jsonl'), 'rollout-2025-10-29T09-00-00-019a2e10.jsonl');

  it('matches calls and outputs by call_id, groups parallel calls, reads token_count', () => {
    assert.equal(session.format, 'codex');
    assert.deepEqual(session.warnings, []);
    assert.deepEqual(shape(session), [
      { calls: ['shell:error'], input: '<environment_context>\n  ', tokens: 8123 },
      { calls: ['shell:success', 'shell:success'], tokens: 9200 },
      { calls: ['apply_patch:success'], tokens: 10100 },
      { calls: [], tokens: 10500 },
      { calls: ['shell:unanswered'], input: 'Run the whole suite now.', tokens: 3100, compaction: 10650 },
    ]);
    assertValid([session]);
  });

  it('keeps reasoning summaries, parsed function arguments and custom tool input', () => {
    const [first, second, third, fourth, fifth] = session.steps;
    assert.match(first.input, /The parser test fails on empty input/);
    assert.equal(first.text, '**Running the failing test**');
    assert.deepEqual(first.calls[0].envelope.action.arguments, { command: ['bash', '-lc', 'pytest -q tests/test_parser.py'], workdir: '/home/dev/app' });
    assert.match(first.calls[0].envelope.observation.output, /IndexError/); // exit_code 1 → error
    assert.equal(second.calls[1].envelope.action.arguments.command[2], 'rg -n "def parse" -S src');
    assert.match(third.calls[0].envelope.action.arguments.input, /^\*\*\* Begin Patch/);
    assert.match(fourth.text, /returns `\(None, \[\]\)`/);
    assert.match(fifth.compaction.summary, /^Summary of the work so far/);
  });

  it('reads the older rollout form (no payload wrapper)', () => {
    const text = [
      { id: 'd4c1', timestamp: '2025-06-01T10:00:00.000Z', instructions: null, git: null },
      { record_type: 'state' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list the files' }] },
      { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'call_1' },
      { type: 'function_call_output', call_id: 'call_1', output: { content: 'a.txt\nb.txt', success: true } },
      { type: 'function_call', name: 'shell', arguments: '{"command":["cat","c.txt"]}', call_id: 'call_2' },
      { type: 'function_call_output', call_id: 'call_2', output: { content: 'cat: c.txt: No such file', success: false } },
    ].map((r) => JSON.stringify(r)).join('\n');
    assert.equal(detectFormat(text), 'codex');
    const [s] = parseTranscript(text);
    assert.deepEqual(shape(s), [{ calls: ['shell:success'], input: 'list the files' }, { calls: ['shell:error'] }]);
    assertValid([s]);
  });
});

describe('Cline api_conversation_history.json', () => {
  const [session] = parseTranscript(fixture('cline-api_conversation_history.json'), 'api_conversation_history.json');

  it('reads XML tool uses in the text and `[tool] Result:` blocks', () => {
    assert.equal(session.format, 'cline');
    assert.deepEqual(session.warnings, []);
    assert.deepEqual(shape(session), [
      { calls: ['read_file:success'], input: '<task>\nAdd a --verbose f', tokens: 11234 },
      { calls: ['replace_in_file:success'], input: '<environment_details>\n# ', tokens: 12010 },
      { calls: ['write_to_file:success'], input: '<environment_details>\n# ', tokens: 12800 },
      { calls: ['execute_command:error'], input: '<environment_details>\n# ', tokens: 13300 },
      { calls: ['summarize_task:success'], input: '<environment_details>\n# ', tokens: 150200 },
      { calls: ['execute_command:success', 'read_file:error'], input: '<environment_details>\n# ', tokens: 9100, compaction: true },
      { calls: ['attempt_completion:unanswered'], input: '<environment_details>\n# ', tokens: 9900 },
    ]);
    assertValid([session]);
  });

  it('keeps the text around the tags, the parameters, and a content that holds its own closing tag', () => {
    const [read, replace, write] = session.steps;
    assert.equal(read.text, '<thinking>\nI should read the CLI entry point before changing it.\n</thinking>');
    assert.equal(read.calls[0].envelope.action.arguments.path, 'src/cli.ts');
    assert.match(read.calls[0].envelope.observation.output, /^import \{ parseArgs \}/);
    assert.ok(!read.calls[0].envelope.observation.output.includes('environment_details'), 'the environment details are input, not output');
    assert.match(replace.calls[0].envelope.action.arguments.diff, /^------- SEARCH[\s\S]*\+\+\+\+\+\+\+ REPLACE$/);
    assert.equal(write.calls[0].envelope.action.arguments.content,
      '<h2>Flags</h2>\n<p><code>--verbose</code> prints each step. Example template:</p>\n<pre><content>your text</content></pre>');
  });

  it('marks summarize_task as the recorded compaction and a tool Cline did not run as an error', () => {
    const after = session.steps[5];
    assert.match(after.compaction.summary, /^1\. Primary request: add --verbose/);
    assert.equal(after.calls[1].envelope.observation.status, 'error');
    assert.match(after.calls[1].envelope.observation.output, /^Tool \[read_file\] was not executed/);
  });

  it('reads native tool calls in a Cline history too', () => {
    const text = JSON.stringify([
      { role: 'user', content: [{ type: 'text', text: '<task>\nlist the files\n</task>' }, { type: 'text', text: '<environment_details>\n# Current Mode\nACT MODE\n</environment_details>' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Listing.' }, { type: 'tool_use', id: 'toolu_1', name: 'list_files', input: { path: '.', recursive: 'false' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'a.txt\nb.txt' }] }] },
    ]);
    assert.equal(detectFormat(text), 'cline');
    const [s] = parseTranscript(text);
    assert.deepEqual(shape(s), [{ calls: ['list_files:success'], input: '<task>\nlist the files\n</' }]);
  });

  // Issue 18: with native tool calling, most providers' results come back as one text
  // block per call, `[tool for 'x'] Result:\n…`, in call order, and no tool_result blocks.
  describe('native tool calls answered by `[tool for …] Result:` text blocks', () => {
    const text = fixture('cline-native-api_conversation_history.json');
    const [native] = parseTranscript(text, 'api_conversation_history.json');
    const uses = JSON.parse(text).flatMap((m) => (m.role === 'assistant' ? m.content.filter((b) => b.type === 'tool_use') : []));

    it('matches every result to its call; none is dropped', () => {
      assert.equal(native.format, 'cline');
      assert.equal(native.unmatchedResults, 0);
      assert.deepEqual(native.warnings, []);
      const calls = native.steps.flatMap((s) => s.calls);
      assert.equal(calls.length, uses.length);
      assert.deepEqual(calls.map((c) => c.envelope.action.tool_name), uses.map((u) => u.name));
      // Every call but the last (attempt_completion, which the file ends on) has its result.
      assert.deepEqual(calls.filter((c) => c.unanswered).map((c) => c.envelope.action.tool_name), ['attempt_completion']);
      assertValid([native]);
    });

    it('takes each output from its own block, and Cline\'s additions as the user\'s text', () => {
      const calls = native.steps.flatMap((s) => s.calls);
      const [paginate, test, search] = calls;
      assert.match(paginate.envelope.observation.output, /^1 \| export function paginate/);
      assert.match(test.envelope.observation.output, /^1 \| import \{ describe/);
      assert.match(search.envelope.observation.output, /^Found 2 results\./);
      for (const c of calls) {
        const out = c.envelope.observation.output;
        for (const foreign of ['<environment_details>', 'task_progress', 'The user provided the following feedback', '] Result:']) {
          assert.ok(!out.includes(foreign), `${c.envelope.action.tool_name}'s output holds ${foreign}`);
        }
      }
      assert.match(native.steps[native.steps.length - 1].input ?? native.steps[1].input, /environment_details|feedback/);
    });

    it('marks a denied call and the call skipped after it as errors', () => {
      const turn = native.steps.find((s) => s.calls.length === 3 && s.calls[0].envelope.action.tool_name === 'execute_command');
      const [, write, read] = turn.calls;
      assert.equal(write.envelope.observation.status, 'error');
      assert.match(write.envelope.observation.output, /denied/);
      assert.equal(read.envelope.observation.status, 'error');
      assert.match(read.envelope.observation.output, /^Skipping tool/);
      assert.match(native.steps[native.steps.indexOf(turn) + 1].input, /The user provided the following feedback/);
    });
  });

  // Some results are labelled with a name other than their call's: `[subagents] Result:`
  // answers `use_subagents`. Such a result is paired with the next unanswered call by
  // position rather than dropped.
  describe('a result whose label names no pending call', () => {
    const results = {
      use_subagents: { type: 'text', text: '[subagents] Result:\nThe subagent found no issue in src/a.ts.' },
      read_file: { type: 'text', text: "[read_file for 'x'] Result:\n1 | export const x = 1;" },
    };
    // Cline writes the results in call order.
    const transcript = (calls) => JSON.stringify([
      { role: 'user', content: [{ type: 'text', text: '<task>\nreview src/a.ts\n</task>' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Reviewing.' }, ...calls] },
      { role: 'user', content: [
        ...calls.map((c) => results[c.name]),
        { type: 'text', text: '<environment_details>\n# Current Mode\nACT MODE\n</environment_details>' },
      ] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
    const subagents = { type: 'tool_use', id: 'toolu_1', name: 'use_subagents', input: { prompt_1: 'review src/a.ts' } };
    const read = { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'x' } };
    const outputs = (s) => Object.fromEntries(s.steps.flatMap((st) => st.calls).map((c) => [c.envelope.action.tool_name, c.envelope.observation.output]));

    for (const [order, calls] of [['before', [subagents, read]], ['after', [read, subagents]]]) {
      it(`is paired with its call by position (use_subagents ${order} read_file)`, () => {
        const [s] = parseTranscript(transcript(calls), 'api_conversation_history.json');
        assert.equal(s.format, 'cline');
        assert.equal(s.unmatchedResults, 0);
        assert.deepEqual(shape(s)[0].calls, calls.map((c) => `${c.name}:success`));
        assert.deepEqual(outputs(s), { use_subagents: 'The subagent found no issue in src/a.ts.', read_file: '1 | export const x = 1;' });
        assert.match(s.steps[1].input, /^<environment_details>/);
        assertValid([s]);
      });
    }
  });

  it('shows every `Result:` block of the Cline fixtures as the output of a call', () => {
    const header = /^\[[a-z_]+(?: [^\n]*?)?\] Result:/;
    for (const [file, count] of [['cline-api_conversation_history.json', 6], ['cline-native-api_conversation_history.json', 8]]) {
      const text = fixture(file);
      // A result's output follows its label in the same block, or (older Cline) in the next one.
      const results = JSON.parse(text).flatMap((m) => (m.role !== 'user' || !Array.isArray(m.content) ? [] : m.content.flatMap((b, i) => {
        if (b.type !== 'text' || !header.test(b.text)) return [];
        const rest = b.text.slice(b.text.indexOf('] Result:') + '] Result:'.length).trim();
        return [rest !== '' ? rest : m.content[i + 1].text.trim()];
      })));
      const [s] = parseTranscript(text, 'api_conversation_history.json');
      const shown = s.steps.flatMap((st) => st.calls).filter((c) => !c.unanswered).map((c) => c.envelope.observation.output.trim());
      assert.equal(results.length, count, file);
      assert.deepEqual(results.filter((r) => !shown.includes(r)), [], `${file}: results not shown`);
      assert.equal(s.unmatchedResults, 0, file);
    }
  });
});

describe('OpenHands event streams', () => {
  it('reads a JSON array of events: one step per model response, results by cause', () => {
    const [session] = parseTranscript(fixture('openhands-events.json'), 'trajectory.json');
    assert.equal(session.format, 'openhands');
    assert.equal(session.name, 'trajectory.json');
    assert.deepEqual(shape(session), [
      { calls: ['execute_bash:success', 'str_replace_editor:success'], input: 'calc.divide(1, 0) crashe', tokens: 5120 },
      { calls: ['execute_bash:timeout'], tokens: 2210, compaction: true },
      { calls: [] },
      { calls: ['finish:unanswered'], input: 'Skip the slow test and f', tokens: 2600 },
    ]);
    assert.match(session.steps[1].compaction.summary, /^USER_CONTEXT/);
    assert.deepEqual(session.steps[0].calls[1].envelope.action.arguments, { command: 'view', path: '/workspace/repo/calc.py' });
    assert.equal(session.steps[2].text, 'The test run hangs. Should I keep waiting or change the test timeout?');
    assertValid([session]);
  });

  it('reads an output.jsonl: one session per instance', () => {
    const events = JSON.parse(fixture('openhands-events.json'));
    const line = (id) => JSON.stringify({ instance_id: id, instruction: 'fix it', history: events, metrics: {}, error: null });
    const sessions = parseTranscript(`${line('repo__a-1')}\n${line('repo__b-2')}\n`, 'output.jsonl');
    assert.deepEqual(sessions.map((s) => s.name), ['output.jsonl#repo__a-1', 'output.jsonl#repo__b-2']);
    assert.deepEqual(shape(sessions[1]), shape(parseTranscript(fixture('openhands-events.json'))[0]));
  });
});

describe('SWE-agent and mini-SWE-agent', () => {
  it('reads a .traj that has only the trajectory', () => {
    const text = JSON.stringify({
      trajectory: [
        { action: 'ls -F', observation: 'setup.py\nsrc/', response: 'DISCUSSION\nList the files.\n```\nls -F\n```', thought: 'List the files.' },
        { action: 'submit', observation: 'diff --git a/src/x.py b/src/x.py', response: 'submit', thought: 'Done.' },
      ],
      info: { exit_status: 'submitted' },
    });
    assert.equal(detectFormat(text), 'swe-agent');
    const [s] = parseTranscript(text);
    assert.deepEqual(shape(s), [{ calls: ['bash:success'] }, { calls: ['bash:success'] }]);
    assert.deepEqual(s.steps[0].calls[0].envelope.action.arguments, { command: 'ls -F' });
    assertValid([s]);
  });

  it('reads a .traj whose history has actions but no tool calls', () => {
    const text = JSON.stringify({
      history: [
        { role: 'system', content: 'SETTING: ...', agent: 'main', message_type: 'system_prompt' },
        { role: 'user', content: 'Here is a demonstration', agent: 'main', is_demo: true, message_type: 'demonstration' },
        { role: 'user', content: 'ISSUE: the widget breaks', agent: 'main', message_type: 'observation' },
        { role: 'assistant', content: 'DISCUSSION\nLook first.\n```\nls\n```', thought: 'Look first.', action: 'ls', agent: 'main', message_type: 'action' },
        { role: 'user', content: 'widget.py', agent: 'main', message_type: 'observation' },
      ],
      trajectory: [],
    });
    const [s] = parseTranscript(text, 'x.traj');
    assert.deepEqual(shape(s), [{ calls: ['bash:success'], input: 'ISSUE: the widget breaks' }]);
    assert.equal(s.steps[0].text, 'Look first.');
    assert.equal(s.steps[0].calls[0].envelope.observation.output, 'widget.py');
  });

  it('takes a mini-SWE-agent message with no single bash block as a turn without a call', () => {
    const text = JSON.stringify({
      trajectory_format: 'mini-swe-agent-1',
      info: { mini_version: '1.15.0' },
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: '<pr_description>fix it</pr_description>' },
        { role: 'assistant', content: 'THOUGHT: two at once\n\n```bash\nls\n```\n\n```bash\npwd\n```' },
        { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.' },
        { role: 'assistant', content: 'THOUGHT: one\n\n```bash\nsleep 999\n```', extra: { response: { usage: { prompt_tokens: 1234 } } } },
        { role: 'user', content: 'The last command <command>sleep 999</command> timed out and has been killed.' },
        { role: 'assistant', content: 'THOUGHT: check\n\n```bash\nfalse\n```' },
        { role: 'user', content: '<returncode>1</returncode>\n<output>\n</output>' },
      ],
    });
    const [s] = parseTranscript(text);
    assert.deepEqual(shape(s), [
      { calls: [], input: '<pr_description>fix it</' },
      { calls: ['bash:timeout'], input: 'Please always provide EX', tokens: 1234 },
      { calls: ['bash:error'] },
    ]);
  });
});

describe('OpenAI Chat Completions messages', () => {
  const [session] = parseTranscript(fixture('openai-messages.json'), 'chat.json');

  it('groups parallel tool_calls, matches tool messages by tool_call_id, marks the unanswered call', () => {
    assert.equal(session.format, 'openai-messages');
    assert.deepEqual(shape(session), [
      { calls: ['get_weather:success', 'get_weather:success'], input: 'Which is warmer today, P' },
      { calls: ['book_trip:success'] },
      { calls: [] },
      { calls: ['book_trip:unanswered'], input: 'Yes, tomorrow.' },
    ]);
    assert.deepEqual(session.steps[0].calls.map((c) => c.envelope.observation.output), ['{"temp_c":21,"sky":"sunny"}', '{"temp_c":14,"sky":"rain"}']);
    assert.deepEqual(session.steps[1].calls[0].envelope.action.arguments.travellers, [{ name: 'Ana', age: 31 }]);
    assertValid([session]);
  });

  it('wraps arguments that are not a JSON object and flattens what is nested too deep', () => {
    let deep = { leaf: 'bottom' };
    for (let i = 0; i < 100; i++) deep = { next: deep };
    const text = JSON.stringify({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'raw', arguments: 'ls -la' } },
          { id: 'c2', type: 'function', function: { name: 'list', arguments: '[1,2]' } },
          { id: 'c3', type: 'function', function: { name: 'deep', arguments: JSON.stringify(deep) } },
          { id: 'c4', type: 'function', function: { name: 'none', arguments: '' } },
        ] },
        { role: 'tool', tool_call_id: 'c1', content: 'total 0' },
        { role: 'tool', tool_call_id: 'c9', content: 'a result for no call' },
      ],
    });
    const [s] = parseTranscript(text);
    const args = s.steps[0].calls.map((c) => c.envelope.action.arguments);
    assert.deepEqual(args[0], { input: 'ls -la' });
    assert.deepEqual(args[1], { input: '[1,2]' });
    assert.deepEqual(args[3], {});
    let node = args[2];
    let depth = 1;
    while (typeof node.next === 'object') {
      node = node.next;
      depth += 1;
    }
    assert.equal(depth, 64);
    assert.equal(typeof node.next, 'string');
    let subtree = deep;
    for (let i = 0; i < 64; i++) subtree = subtree.next;
    assert.deepEqual(JSON.parse(node.next), subtree);
    assert.deepEqual(s.warnings, ['1 tool result matched no recorded call and was dropped']);
    assertValid([s]);
  });
});

describe('Anthropic Messages', () => {
  it('groups tool_use blocks of one message, takes is_error, and user text after results as input', () => {
    const [session] = parseTranscript(fixture('anthropic-messages.json'));
    assert.equal(session.format, 'anthropic-messages');
    assert.equal(session.name, 'anthropic-messages');
    assert.deepEqual(shape(session), [
      { calls: ['grep:success', 'list_dir:error'], input: 'Find the TODOs under src' },
      { calls: ['edit_file:success'] },
      { calls: [], input: 'Also add a changelog ent' },
    ]);
    assert.equal(session.steps[0].text, 'Search for TODO markers and list the directory in parallel.\n\nSearching for TODOs and listing src/.');
    assertValid([session]);
  });
});

describe('SAOP envelope JSONL', () => {
  it('makes each line a step with one call, keeping the plan and the error detail', () => {
    const [session] = parseTranscript(fixture('saop-envelopes.jsonl'), 'agent-log.jsonl');
    assert.equal(session.format, 'saop-jsonl');
    assert.deepEqual(shape(session), [{ calls: ['run_tests:error'] }, { calls: ['edit_file:success'] }, { calls: ['run_tests:timeout'] }]);
    const last = session.steps[2].calls[0].envelope;
    assert.equal(last.agent_id, 'dev-agent');
    assert.equal(last.thought.plan, '3. verify');
    assert.deepEqual(last.observation, { status: 'timeout', output: '', error_detail: 'killed after 600s' });
    assert.equal(session.steps[1].text, 'parse() indexes tokens[0] without a guard.');
    assertValid([session]);
  });
});

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

describe('bad input', () => {
  it('skips a truncated last line with a warning and keeps everything before it', () => {
    const whole = fixture('codex-rollout.jsonl');
    const lines = whole.trimEnd().split('\n');
    const cut = [...lines.slice(0, 20), lines[20].slice(0, 60)].join('\n'); // killed while writing line 21
    const [s] = parseTranscript(cut, 'rollout.jsonl');
    assert.equal(s.warnings.length, 1);
    assert.match(s.warnings[0], /^line 21: the last line is not complete JSON \(truncated\?\) and was skipped: /);
    assert.deepEqual(shape(s), shape(parseTranscript(lines.slice(0, 20).join('\n'))[0]));
    assert.equal(s.steps.length, 4);

    // The same with a trailing newline and blank lines after the cut.
    const [again] = parseTranscript(`${cut}\n\n`, 'rollout.jsonl');
    assert.deepEqual(again.warnings, s.warnings);

    // Claude Code: the truncated line was the last model turn.
    const claude = fixture('claude-code-session.jsonl').trimEnd();
    const [c] = parseTranscript(claude.slice(0, claude.length - 40));
    assert.match(c.warnings[0], /^line 21: the last line is not complete JSON/);
    assert.equal(c.steps.length, 5);
    assert.equal(c.steps[4].text, '', 'the unanswered user message is kept as a last step');
    assert.match(c.warnings[1], /ends with a user message/);
  });

  it('skips a broken line in the middle with a warning', () => {
    const lines = fixture('saop-envelopes.jsonl').trimEnd().split('\n');
    const [s] = parseTranscript([lines[0], '{"schema_version": "1.0.0", "turn_', lines[1], lines[2]].join('\n'));
    assert.equal(s.steps.length, 3);
    assert.equal(s.warnings.length, 1);
    assert.match(s.warnings[0], /^line 2: not JSON, skipped: /);
  });

  const TRIED = 'not a known transcript format (tried claude-code, codex, cline, openhands, swe-agent, mini-swe-agent, openai-messages, anthropic-messages, saop-jsonl): ';
  const cases = [
    ['plain text', 'hello world\nthis is not a transcript\n', 'line 1 is not JSON: ', 1],
    ['text after blank lines', '\n  \nnot json', 'line 3 is not JSON: ', 3],
    ['JSON lines of another shape', '{"foo":1,"bar":[2]}\n{"foo":2}\n', 'line 1 is a JSON object (keys: foo, bar) that no format matches', 1],
    ['a JSON document of another shape', JSON.stringify({ name: 'x', items: [1, 2] }, null, 2), 'the file is a JSON object (keys: name, items) that no format matches', 1],
    ['a JSON array of numbers', '[1, 2, 3]', 'the file is a JSON array of 3 that no format matches', undefined],
    ['a truncated JSON document', '[\n  {"role": "user", "content": "hi"', 'the file is not a complete JSON document (', 1],
    ['an empty file', '  \n\n', 'the file is empty', undefined],
  ];
  for (const [what, text, detail, line] of cases) {
    it(`names the formats tried and the first line that failed: ${what}`, () => {
      for (const fn of [() => detectFormat(text), () => parseTranscript(text, 'session.jsonl')]) {
        let error;
        try {
          fn();
        } catch (e) {
          error = e;
        }
        assert.ok(error instanceof TranscriptFormatError, `${error}`);
        assert.ok(error instanceof Error);
        assert.equal(error.name, 'TranscriptFormatError');
        assert.equal(error.code, 'ERR_TRANSCRIPT_FORMAT');
        assert.deepEqual(error.tried, FORMATS);
        assert.equal(error.line, line);
        assert.ok(error.message.startsWith(TRIED + detail), error.message);
      }
    });
  }
});

describe('size', () => {
  it('parses a 5 MB Claude Code session with a 1 MB tool output (time logged, not asserted)', (t) => {
    const sessionId = '5e5e5e5e-0000-4000-8000-000000000000';
    const rows = [JSON.stringify({ type: 'user', sessionId, uuid: 'u0', message: { role: 'user', content: 'Refactor the billing module.' } })];
    const filler = 'x'.repeat(60) + '\n';
    let size = rows[0].length;
    let turns = 0;
    const big = 'line of a very long git diff\n'.repeat(36_000); // ~1 MB
    while (size < 5 * 1024 * 1024) {
      turns += 1;
      const id = `msg_${turns}`;
      const usage = { input_tokens: 5, cache_read_input_tokens: 1000 * turns, cache_creation_input_tokens: 200, output_tokens: 50 };
      const lines = [
        { type: 'assistant', sessionId, uuid: `a${turns}`, message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `Step ${turns}: run the next command.` }], usage } },
        { type: 'assistant', sessionId, uuid: `b${turns}`, message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: `toolu_${turns}`, name: 'Bash', input: { command: `git diff HEAD~${turns}` } }], usage } },
        { type: 'user', sessionId, uuid: `c${turns}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turns}`, content: turns === 10 ? big : filler.repeat(40) }] } },
      ].map((r) => JSON.stringify(r));
      for (const l of lines) size += l.length + 1;
      rows.push(...lines);
    }
    const text = rows.join('\n');
    const start = performance.now();
    const [s] = parseTranscript(text, 'big.jsonl');
    const ms = performance.now() - start;
    t.diagnostic(`parsed ${(text.length / 1048576).toFixed(1)} MB (${turns} turns) in ${ms.toFixed(0)} ms`);
    assert.equal(s.steps.length, turns);
    assert.equal(s.steps[9].calls[0].envelope.observation.output.length, big.length);
    assert.equal(s.steps[9].reportedInputTokens, 5 + 10_000 + 200);
    assertValid([s]);
  });
});
