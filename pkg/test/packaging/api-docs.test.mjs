// The API reference (docs/api/) is what the build writes from the declarations, never a
// hand edit: every build regenerates it (pkg/scripts/api-docs.mjs), so a committed
// reference that differs from the working tree after a build is a stale one. And it covers
// every entry a host can import, sessions and the PostgreSQL store included.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pkgDir, repoRoot } from './harness.mjs';

const api = join(repoRoot, 'docs/api/@devs/context');
const git = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
const inGit = (() => { try { git('rev-parse', '--git-dir'); return true; } catch { return false; } })();

describe('the API reference', () => {
  it('has a page for every entry of package.json', () => {
    const { exports } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    const entries = Object.keys(exports).filter((k) => k !== '.' && !/\.(wasm|json)$/.test(k)).map((k) => k.slice(2));
    assert.ok(entries.length >= 10, `only ${entries.length} entries`);
    for (const entry of entries) assert.ok(existsSync(join(api, entry, 'README.md')), `docs/api has no page for @devs/context/${entry}`);
  });

  it('documents the session and PostgreSQL APIs', () => {
    for (const page of ['classes/ContextSession.md', 'interfaces/SessionStore.md', 'classes/SessionConflictError.md', 'postgres/classes/PostgresStateRepository.md']) {
      assert.ok(existsSync(join(api, page)), `docs/api/@devs/context/${page} is missing`);
    }
    assert.match(readFileSync(join(api, 'classes/ContextManager.md'), 'utf8'), /### open\(\)/);
  });

  it('is the one the build wrote: nothing in docs/api differs from the commit', { skip: !inGit && 'not a git checkout' }, () => {
    const changed = git('status', '--porcelain', '--', 'docs/api').trim();
    assert.equal(changed, '', `docs/api differs from the commit after the build; commit what the build wrote:\n${changed.split('\n').slice(0, 20).join('\n')}`);
  });
});
