// `evaluate` and `devs-context eval` refuse bad options with an error that names the option
// (a RangeError or TypeError from the function, one line naming the flag from the CLI, exit
// 2), and a strategy whose optional peer is not installed is named as absent while the
// others run. Synthetic sessions (pkg/test/fixtures/transcripts/, made for the readers).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTranscript } from '@devs/context/replay';
import { STRATEGIES, evaluate } from '@devs/context/eval';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const cli = join(pkg, 'dist/cli.mjs');
const sample = fileURLToPath(new URL('./fixtures/transcripts/openai-messages.json', import.meta.url));
const sessions = parseTranscript(readFileSync(sample, 'utf8'), 'openai-messages.json');
const run = (args, file = cli) => spawnSync(process.execPath, [file, 'eval', ...args], { encoding: 'utf8' });

describe('evaluate: bad options', () => {
  const cases = [
    [{ budgets: ['abc'] }, RangeError, /options\.budgets\[0\]/],
    [{ budgets: [10] }, RangeError, /options\.budgets\[0\]/],
    [{ budgets: 200000 }, TypeError, /options\.budgets/],
    [{ counter: 'p50k' }, RangeError, /options\.counter/],
    [{ strategies: ['ours', 'magic'] }, RangeError, /options\.strategies\[1\].*magic/],
    [{ ttl: 'soon' }, RangeError, /options\.ttl/],
    [{ prices: 'cheap' }, RangeError, /options\.prices/],
    [{ prices: 42 }, TypeError, /options\.prices/],
    [{ prices: '1,2' }, RangeError, /options\.prices/],
    [{ format: 'vscode' }, RangeError, /options\.format/],
  ];
  for (const [options, type, field] of cases) {
    it(`refuses ${JSON.stringify(options)} with a ${type.name} naming it`, async () => {
      await assert.rejects(evaluate(sessions, options), (e) => e instanceof type && field.test(e.message));
    });
  }
  it('refuses sessions that are not parseTranscript\'s', async () => {
    await assert.rejects(evaluate('session.jsonl'), (e) => e instanceof TypeError && /^sessions/.test(e.message));
    await assert.rejects(evaluate([{ name: 'x' }]), (e) => e instanceof TypeError && /sessions\[0\]/.test(e.message));
  });
});

describe('evaluate: strategies of your own, and one that throws', () => {
  const ours = STRATEGIES.find((s) => s.id === 'ours');
  it('runs a strategy given as an object beside the known ones', async () => {
    const variant = { id: 'ours-low-water', name: 'ours, lowWater 0.3', what: 'ours with a lower low water', source: 'this test', peers: [], make: (a) => ours.make({ ...a, options: { ...a.options, lowWater: 0.3 } }) };
    const result = await evaluate(sessions, { budgets: [20_000], strategies: ['auto-compact', variant] });
    assert.deepEqual(result.totals.map((f) => f.strategy), ['auto-compact', 'ours-low-water']);
    assert.equal(result.strategies[1].source, 'this test');
  });
  it('names a strategy that throws, leaves its runs out, and runs the others', async () => {
    const broken = { id: 'broken', make: () => ({ format: 'openai-chat', append() {}, build() { throw new Error('the peer changed its API'); } }) };
    const result = await evaluate(sessions, { budgets: [20_000, 50_000], strategies: ['auto-compact', broken] });
    assert.deepEqual(result.totals.map((f) => f.strategy), ['auto-compact', 'auto-compact']);
    assert.match(result.strategies[1].failed, /openai-messages\.json at 20k: the peer changed its API/);
    assert.match(result.notes.join('\n'), /broken failed, left out/);
    assert.ok(result.runs.every((r) => r.strategy === 'auto-compact'));
  });
  it('refuses an object that is no strategy, naming it', async () => {
    await assert.rejects(evaluate(sessions, { strategies: [{ id: 'x' }] }), (e) => e instanceof TypeError && /options\.strategies\[0\]\.make/.test(e.message));
    await assert.rejects(evaluate(sessions, { strategies: [{ id: 'ours', make() {} }] }), (e) => e instanceof TypeError && /options\.strategies\[0\]\.id/.test(e.message));
  });
});

describe('devs-context eval: bad options', () => {
  for (const [args, flag] of [[['--budget', 'abc'], '--budget'], [['--ttl', 'later'], '--ttl'], [['--prices', 'x,y,z'], '--prices'], [['--strategies', 'ours,nope'], '--strategies'], [['--counter', 'r50k'], '--counter']]) {
    it(`${args.join(' ')}: exit 2, one line naming ${flag}`, () => {
      const r = run([sample, ...args]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`^devs-context: ${flag}`));
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.equal(r.stdout, '');
    });
  }
  it('a file that is no session, and no file at all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eval-bad-'));
    try {
      writeFileSync(join(dir, 'notes.txt'), 'hello');
      assert.equal(run([join(dir, 'notes.txt')]).status, 2);
      assert.match(run([join(dir, 'missing.jsonl')]).stderr, /missing\.jsonl: no such file or folder/);
      assert.match(run([]).stderr, /usage: devs-context eval/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('devs-context eval: the progress bar', () => {
  it('writes it to stderr with --progress only (stderr is no terminal here), the table to stdout either way', () => {
    const quiet = run([sample, '--budget', '50000', '--strategies', 'ours,auto-compact']);
    assert.equal(quiet.status, 0, quiet.stderr);
    assert.equal(quiet.stderr, '');
    const shown = run([sample, '--budget', '50000', '--strategies', 'ours,auto-compact', '--progress']);
    assert.equal(shown.status, 0, shown.stderr);
    assert.match(shown.stderr, /^\[#+-*\] 1\/2 50k openai-messages\.json ours$/m);
    assert.match(shown.stderr, /^\[#{30}\] 2\/2 50k openai-messages\.json auto-compact$/m);
    for (const out of [quiet.stdout, shown.stdout]) assert.match(out, /^## 50k: all 1 session$/m);
  });
});

describe('devs-context eval without the optional peers', () => {
  it('names each absent peer and runs the other strategies', () => {
    // The built package alone, where neither `ai` nor `langchain` can be found.
    const dir = mkdtempSync(join(tmpdir(), 'eval-no-peers-'));
    try {
      const copy = join(dir, 'node_modules/@devs/context');
      cpSync(join(pkg, 'package.json'), join(copy, 'package.json'));
      cpSync(join(pkg, 'dist'), join(copy, 'dist'), { recursive: true });
      const r = run([sample, '--budget', '50000'], join(copy, 'dist/cli.mjs'));
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /ai-sdk-prune \(ABSENT\).*Not run: ai is not installed/);
      assert.match(r.stdout, /langchain-summarization \(ABSENT\).*Not run: (langchain|@langchain\/core) is not installed/);
      assert.match(r.stdout, /note: langchain-context-editing absent/);
      const rows = r.stdout.split('\n').filter((l) => l.startsWith('| '));
      assert.deepEqual(rows.slice(1).map((l) => l.split(' | ')[0].slice(2)), ['ours', 'auto-compact']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
