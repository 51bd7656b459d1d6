// The replay reads trajectories and plain message arrays: SWE-agent and mini-SWE-agent,
// OpenAI Chat Completions, Anthropic Messages, and SAOP envelope JSONL.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertValid, detectFormat, fixture, parseTranscript, shape } from './replay-transcripts.mjs';

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
