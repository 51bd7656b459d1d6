// `devs-context replay`: the real sessions (fixtures/sessions) in their native formats, end to end through
// the built CLI (pkg/dist/cli.mjs), with its table, ledger and HTML report, and bad input.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SESSIONS, originalSessionFiles } from './sessions.mjs';

const cli = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
const transcripts = SESSIONS;
const dir = mkdtempSync(join(tmpdir(), 'replay-'));

async function run(...args) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

describe('devs-context replay', () => {
  it('--help explains the command, its formats and its options', async () => {
    const { code, stdout } = await run('--help');
    assert.equal(code, 0);
    for (const word of ['replay <file>', 'Claude Code', 'Codex', 'Cline', '--budget', '--counter', '--ledger', '--html']) assert.ok(stdout.includes(word), word);
  });

  for (const file of originalSessionFiles().map((f) => basename(f))) {
    it(`replays ${file} within a 20,000-token budget, with its ledger and report`, async () => {
      const ledger = join(dir, `${file}.ledger.jsonl`);
      const html = join(dir, `${file}.html`);
      const { code, stdout, stderr } = await run('replay', join(transcripts, file), '--budget', '20000', '--counter', 'o200k_base', '--ledger', ledger, '--html', html);
      assert.equal(code, 0, stderr);
      const records = readFileSync(ledger, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      assert.ok(records.length > 0);
      for (const r of records) assert.ok(r.tokens <= 20_000, `request ${r.request}: ${r.tokens}`);
      const rows = stdout.split('\n').filter((l) => /^\s+\d+\s+\d+\s+[\d.]+%/.test(l));
      assert.equal(rows.length, records.length, 'one table row per turn');
      assert.match(stdout, /largest prompt \d+ of 20000 tokens/);
      const page = readFileSync(html, 'utf8');
      assert.match(page, /DevsReplayView\.render/);
      assert.ok(!page.includes('http://') || !/src="http/.test(page), 'self-contained');
    });
  }

  it('shows where the recorded agent compacted, and the provider counts it reported', async () => {
    const { code, stdout } = await run('replay', join(transcripts, 'claude-code-session.jsonl'), '--quiet');
    assert.equal(code, 0);
    assert.match(stdout, /the recorded agent compacted before turn\(s\) \d+/);
    const { stdout: table } = await run('replay', join(transcripts, 'claude-code-session.jsonl'));
    assert.match(table, /RECORDED AGENT COMPACTED/);
    assert.ok(table.split('\n').some((l) => /^\s+\d+\s+\d+\s+[\d.]+%\s+\d+/.test(l)), 'a recorded input-token column');
  });

  it('names the formats it tried and the first line that failed for an unknown format', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'these are my notes\nnot a transcript\n');
    const { code, stderr } = await run('replay', file);
    assert.equal(code, 2);
    assert.match(stderr, /claude-code/);
    assert.match(stderr, /line 1/);
  });

  it('skips a truncated last line with a warning and replays the rest', async () => {
    const whole = readFileSync(join(transcripts, 'claude-code-session.jsonl'), 'utf8').trimEnd();
    const file = join(dir, 'cut.jsonl');
    writeFileSync(file, whole.slice(0, whole.length - 40));
    const { code, stderr, stdout } = await run('replay', file, '--quiet');
    assert.equal(code, 0, stderr);
    assert.match(stderr, /warning: .*(truncated|last line)/i);
    assert.match(stdout, /\d+ turns in/);
  });

  it('refuses a file over 1 GB and a record over 64 MB with a clear error, not a crash', async () => {
    const huge = join(dir, 'huge.jsonl');
    writeFileSync(huge, '');
    truncateSync(huge, 1100 * 1024 ** 2);
    const big = await run('replay', huge);
    assert.equal(big.code, 2);
    assert.match(big.stderr, /over the 1 GB/);
    const record = join(dir, 'record.json');
    writeFileSync(record, '');
    truncateSync(record, 65 * 1024 ** 2);
    const long = await run('replay', record);
    assert.equal(long.code, 2);
    assert.match(long.stderr, /over 64 MB/);
  });

  it('shows every tool result of a native-tool-calling Cline session', async () => {
    const file = fileURLToPath(new URL('./fixtures/transcripts/cline-native-api_conversation_history.json', import.meta.url));
    const ledger = join(dir, 'cline-native.jsonl');
    const { code, stdout, stderr } = await run('replay', file, '--quiet', '--ledger', ledger);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /: 6 turns in \d+ ms; 0 tool results matched no call;/);
    assert.doesNotMatch(stderr, /dropped/);
    const outputs = readFileSync(ledger, 'utf8').trim().split('\n').length;
    assert.equal(outputs, 6);
  });

  it('exits 1 when results matched no call, unless --allow-dropped', async () => {
    const orphan = join(dir, 'orphan.json');
    writeFileSync(orphan, JSON.stringify([
      { role: 'user', content: 'fix it' },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' }, { type: 'tool_result', tool_use_id: 'toolu_9', content: 'lost' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]));
    const refused = await run('replay', orphan, '--quiet');
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /1 tool result matched no call/);
    assert.match(refused.stderr, /1 tool result matched no recorded call and was left out of the replay; pass --allow-dropped/);
    const allowed = await run('replay', orphan, '--quiet', '--allow-dropped');
    assert.equal(allowed.code, 0);
  });

  it("--high-water and --low-water move the manager's marks, and the report carries them", async () => {
    const ledger = join(dir, 'marks.jsonl');
    const html = join(dir, 'marks.html');
    const { code, stderr } = await run('replay', join(transcripts, 'mini-swe-agent-django-11138.traj.json'), '--quiet', '--budget', '20000',
      '--high-water', '0.6', '--low-water', '0.2', '--ledger', ledger, '--html', html);
    assert.equal(code, 0, stderr);
    const compactions = readFileSync(ledger, 'utf8').trim().split('\n').map((l) => JSON.parse(l).compaction).filter(Boolean);
    assert.ok(compactions.length > 0, 'the run compacted');
    for (const c of compactions) assert.deepEqual([c.highWater, c.lowWater], [12_000, 4_000], 'the manager used the flags');
    // The page's data: the argument of its last script's call to the view (the view's own
    // code, inlined before it, holds the same call as a template).
    const calls = [...readFileSync(html, 'utf8').matchAll(/<script>DevsReplayView\.render\(document\.getElementById\('app'\), (.*)\);<\/script>/g)];
    assert.ok(calls.length > 0, 'the report renders its data');
    assert.deepEqual(JSON.parse(calls[calls.length - 1][1]).marks, { highWater: 12_000, lowWater: 4_000 });
    const help = await run('--help');
    for (const flag of ['--high-water', '--low-water']) assert.ok(help.stdout.includes(flag), flag);
    const wrong = await run('replay', join(transcripts, 'swe-agent-marshmallow-1867.traj'), '--high-water', '1.5');
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--high-water/);
    // Each in range, but not together: the manager's refusal comes back naming the flag.
    const crossed = await run('replay', join(transcripts, 'swe-agent-marshmallow-1867.traj'), '--high-water', '0.3', '--low-water', '0.5');
    assert.equal(crossed.code, 2, crossed.stderr);
    assert.match(crossed.stderr, /^devs-context: --(low|high)-water: /m);
  });

  it('refuses bad options by name', async () => {
    const { code, stderr } = await run('replay', join(transcripts, 'swe-agent-marshmallow-1867.traj'), '--counter', 'p50k');
    assert.equal(code, 2);
    assert.match(stderr, /--counter must be o200k_base, cl100k_base or heuristic/);
  });
});
