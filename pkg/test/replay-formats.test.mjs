// Issue 12, the input side of `devs-context replay`: transcripts of real agent sessions in
// their native formats become sessions of steps (one per model turn) whose tool calls are
// SAOP envelopes. This file: which format a text is, the errors for what is none, and the
// size a reader handles; each format's own reading is in replay-formats-agents.test.mjs and
// replay-formats-messages.test.mjs, the real sessions in replay-formats-sessions.test.mjs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertValid, detectFormat, fixture, parseTranscript, session, shape, TRANSCRIPT_FORMATS, TranscriptFormatError } from './replay-transcripts.mjs';

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
    const formats = ['claude-code', 'codex', 'cline', 'openhands', 'swe-agent', 'mini-swe-agent', 'openai-messages', 'anthropic-messages', 'saop-jsonl', 'gemini-cli', 'moatless', 'aider'];
    assert.deepEqual([...TRANSCRIPT_FORMATS], formats);
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

  const TRIED = `not a known transcript format (tried ${TRANSCRIPT_FORMATS.join(', ')}): `;
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
        assert.deepEqual(error.tried, [...TRANSCRIPT_FORMATS]);
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
