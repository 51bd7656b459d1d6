// Issue 20: a CLI that never prints a stack trace. Each case is an unlucky or hostile
// invocation of `devs-context replay` (pkg/dist/cli.mjs): it must end with one line on
// stderr that names the file or flag, exit 2, and leave nothing new behind; what a
// transcript holds reaches the terminal escaped. Plus a property test: random and
// truncated transcripts never make it print a stack or hang.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { SESSIONS } from './sessions.mjs';

const cli = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
const sample = join(SESSIONS, 'swe-agent-marshmallow-1867.traj');
const fixtures = fileURLToPath(new URL('./fixtures/transcripts/', import.meta.url));

async function run(args, cwd) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], { maxBuffer: 64 * 1024 * 1024, cwd, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

const fresh = () => mkdtempSync(join(tmpdir(), 'cli-hostile-'));
const write = (dir, name, text) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** One line on stderr, naming what is wrong, no stack, exit 2. */
function assertOneLine({ code, stderr }, names) {
  assert.equal(code, 2, stderr);
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /\n\s+at |node:internal|\.mjs:\d+/, 'no stack trace');
  assert.ok(lines[0].includes(names), `names ${names}: ${lines[0]}`);
}

describe('devs-context replay: one line, exit 2, for every failure', () => {
  const cases = [
    ['a directory as the input', (d) => [d], (d) => d],
    ['a missing input', (d) => [join(d, 'nope.jsonl')], (d) => join(d, 'nope.jsonl')],
    ['--html into a missing folder', (d) => [sample, '--html', join(d, 'no', 'such', 'r.html')], (d) => join(d, 'no', 'such', 'r.html')],
    ['--ledger into a directory', (d) => { mkdirSync(join(d, 'out.jsonl')); return [sample, '--ledger', join(d, 'out.jsonl')]; }, (d) => join(d, 'out.jsonl')],
    ['--budget 1000.5', () => [sample, '--budget', '1000.5'], () => '--budget'],
    ['--budget 1e300', () => [sample, '--budget', '1e300'], () => '--budget'],
    ['--budget 12', () => [sample, '--budget', '12'], () => '--budget'],
    ['--refresh-every 0', () => [sample, '--refresh-every', '0'], () => '--refresh-every'],
    ['--part-share 2', () => [sample, '--part-share', '2'], () => '--part-share'],
    ['--session 0', () => [sample, '--session', '0'], () => '--session'],
    ['--threshold -5', () => [sample, '--threshold', '-5'], () => '--threshold'],
    ['an unknown flag', () => [sample, '--budgte', '5000'], () => '--budgte'],
    ['records in no known shape', (d) => [write(d, 'robot.json', '[{"role":"robot","content":42}]')], () => 'messages[0].role'],
    ['a transcript with no turn', (d) => [write(d, 'empty.json', '[{"role":"system","content":"hi"}]')], (d) => join(d, 'empty.json')],
  ];
  for (const [name, args, names] of cases) {
    it(name, async () => {
      const dir = fresh();
      const before = readdirSync(dir).sort();
      const argv = args(dir);
      const result = await run(['replay', ...argv]);
      assertOneLine(result, names(dir));
      if (name !== '--ledger into a directory') assert.deepEqual(readdirSync(dir).filter((f) => !before.includes(f) && !argv.some((a) => a.endsWith(f))), [], 'nothing new left behind');
    });
  }

  it('a tool input nested 100,000 deep is clamped, without recursion, and replayed', async () => {
    const dir = fresh();
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const file = write(dir, 'deep.jsonl', `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'go' } })}\n`
      + `{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":{"a":${deep}}}]}}\n`
      + `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"done"}]}}\n`);
    const ledger = join(dir, 'ledger.jsonl');
    const { code, stderr } = await run(['replay', file, '--ledger', ledger, '--quiet']);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /\n\s+at /);
    assert.ok(readFileSync(ledger, 'utf8').length > 0);
  });

  it('--debug adds the stack to a failure', async () => {
    const dir = fresh();
    const { code, stderr } = await run(['replay', dir, '--debug']);
    assert.equal(code, 2);
    assert.ok(stderr.includes(dir));
    assert.match(stderr, /\n\s+at /);
  });
});

describe('devs-context replay: outputs are all or nothing, and never the input', () => {
  it('--html or --ledger equal to the input, or to each other, is refused before anything is read', async () => {
    const dir = fresh();
    const input = join(dir, 'session.traj');
    writeFileSync(input, readFileSync(sample));
    const original = readFileSync(input, 'utf8');
    for (const argv of [[input, '--html', input], [input, '--ledger', input], [input, '--html', join(dir, 'x'), '--ledger', join(dir, 'x')], [input, '--html', join(dir, '.', 'session.traj')]]) {
      assertOneLine(await run(['replay', ...argv]), '--');
      assert.equal(readFileSync(input, 'utf8'), original, 'the transcript is untouched');
    }
    assert.deepEqual(readdirSync(dir), ['session.traj']);
  });

  it('when the HTML cannot be written, the ledger is not left behind either', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'report.html'));
    const result = await run(['replay', sample, '--ledger', join(dir, 'ledger.jsonl'), '--html', join(dir, 'report.html')]);
    assertOneLine(result, join(dir, 'report.html'));
    assert.equal(existsSync(join(dir, 'ledger.jsonl')), false);
    assert.deepEqual(readdirSync(dir), ['report.html']);
  });
});

describe('devs-context replay: what a transcript holds reaches the terminal escaped', () => {
  it('escape sequences in a session name and in the file\'s text are printed as escapes', async () => {
    const dir = fresh();
    const evil = '\u001b]0;pwned\u0007\u001b[2J\u001b[32mAll tests passed\u001b[0m';
    const line = JSON.parse(readFileSync(join(SESSIONS, 'openhands-multi-swe-bench-output.jsonl'), 'utf8').split('\n')[0]);
    line.instance_id = evil;
    const file = write(dir, 'output.jsonl', `${JSON.stringify(line)}\n`);
    const { code, stdout, stderr } = await run(['replay', file, '--allow-dropped']);
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stdout + stderr, /\u001b|\u0007/, 'no control character reaches the terminal');
    assert.match(stdout, /\\u001b\]0;pwned/);
    const bad = write(dir, 'bad.json', `{"x": "\u001b[2J`);
    const failed = await run(['replay', bad]);
    assertOneLine(failed, 'bad.json');
    assert.doesNotMatch(failed.stderr, /\u001b/);
  });
});

describe('devs-context replay: random and truncated transcripts', () => {
  const samples = readdirSync(fixtures).filter((f) => /\.(jsonl|json)$/.test(f)).map((f) => readFileSync(join(fixtures, f), 'utf8'));
  it('end with a report or one line, exit 0, 1 or 2, never a stack (property)', async () => {
    const dir = fresh();
    let n = 0;
    await fc.assert(fc.asyncProperty(
      fc.oneof(
        fc.tuple(fc.integer({ min: 0, max: samples.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true })).map(([i, cut]) => samples[i].slice(0, Math.floor(samples[i].length * cut))),
        fc.string({ maxLength: 300 }),
        fc.json({ maxDepth: 6 }),
        // A terminal escape sequence anywhere in a real transcript.
        fc.tuple(fc.integer({ min: 0, max: samples.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true })).map(([i, at]) => {
          const k = Math.floor(samples[i].length * at);
          return `${samples[i].slice(0, k)}\u001b]0;pwned\u0007${samples[i].slice(k)}`;
        }),
      ),
      async (text) => {
        const file = write(dir, `t${n++}.json`, text);
        const { code, stdout, stderr } = await run(['replay', file, '--quiet']);
        if (![0, 1, 2].includes(code)) return false;
        if (/\n\s+at |node:internal/.test(stderr)) return false;
        if (/[\u001b\u0007]/.test(stdout + stderr)) return false;
        return code === 0 || stderr.trim().split('\n').filter((l) => !l.startsWith('warning:')).length === 1;
      },
    ), { numRuns: 60 });
  });
});
