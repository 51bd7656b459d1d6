// The replay reads each coding agent's own log: Claude Code, Codex CLI, Cline and OpenHands
// (the fixtures in ./fixtures/transcripts/, one per format).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertValid, detectFormat, fixture, parseTranscript, shape } from './replay-transcripts.mjs';

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
