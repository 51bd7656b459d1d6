// `npx devs-context replay` from the installed tarball, as a user runs it: the bin, its
// help, a replay of a real session with its ledger and HTML report, and bad input.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostProject, repoRoot } from './harness.mjs';

const sample = join(repoRoot, 'pkg', 'test', 'fixtures', 'sessions', 'swe-agent-marshmallow-1867.traj');

function npx(dir, args) {
  try {
    return { code: 0, stdout: execFileSync('npx', ['--no-install', 'devs-context', ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (error) {
    return { code: error.status, stdout: error.stdout, stderr: error.stderr };
  }
}

it('npx devs-context replay works from the installed tarball', () => {
  const dir = hostProject('cli', {});
  const help = npx(dir, ['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /devs-context replay <file>/);
  const { code, stdout } = npx(dir, ['replay', sample, '--counter', 'o200k_base', '--budget', '20000', '--ledger', 'ledger.jsonl', '--html', 'report.html']);
  assert.equal(code, 0);
  assert.match(stdout, /swe-agent-marshmallow-1867\.traj \(swe-agent\): 13 turns/);
  const ledger = readFileSync(join(dir, 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(ledger.length, 13);
  assert.ok(ledger.every((r) => r.tokens <= 20_000));
  assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /DevsReplayView\.render/);
  writeFileSync(join(dir, 'notes.txt'), 'not a transcript\n');
  const bad = npx(dir, ['replay', 'notes.txt']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /tried claude-code/);
});
