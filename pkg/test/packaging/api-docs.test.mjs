// The API reference (docs/api/) is what the build writes from the declarations (ADR 0010):
// every build renders it with TypeDoc (pkg/scripts/api-docs.mjs), git ignores it, and it is
// checked here against its source, the built `.d.ts` of every entry: a page for every entry
// a host can import, sessions and the PostgreSQL store included, and on each entry's page
// every name that entry exports. A reference older than the declarations fails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pkgDir, repoRoot } from './harness.mjs';

const api = join(repoRoot, 'docs/api/@devs/context');
const git = (...args) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
const inGit = (() => { try { git('rev-parse', '--git-dir'); return true; } catch { return false; } })();
const { exports } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
/** Every entry with declarations, as pkg/scripts/api-docs.mjs reads them: `index` for `.`. */
const entries = Object.keys(exports).filter((k) => k === '.' || !/\.(wasm|json)$|\*/.test(k)).map((k) => (k === '.' ? 'index' : k.slice(2)));

/** The names each entry's built `.d.ts` exports, read from its syntax (`export *` of another entry: that entry's). */
function exported() {
  const ts = createRequire(join(pkgDir, 'package.json'))('typescript');
  const own = new Map();
  for (const entry of entries) {
    const file = join(pkgDir, 'dist', `${entry}.d.ts`);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
    const names = [];
    const all = [];
    for (const node of source.statements) {
      if (ts.isExportDeclaration(node)) {
        if (node.exportClause && ts.isNamedExports(node.exportClause)) names.push(...node.exportClause.elements.map((e) => e.name.text));
        else if (!node.exportClause) all.push(node.moduleSpecifier.text === '@devs/context' ? 'index' : node.moduleSpecifier.text.replace('@devs/context/', ''));
      } else if (node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
        if (ts.isVariableStatement(node)) names.push(...node.declarationList.declarations.map((d) => d.name.text));
        else if (node.name) names.push(node.name.text);
      }
    }
    own.set(entry, { names, all });
  }
  return new Map(entries.map((e) => [e, [...new Set([...own.get(e).names, ...own.get(e).all.flatMap((o) => own.get(o)?.names ?? [])])]]));
}

describe('the API reference', () => {
  it('has a page for every entry of package.json', () => {
    assert.ok(entries.length >= 11, `only ${entries.length} entries`);
    for (const entry of entries) {
      const page = join(api, entry === 'index' ? '' : entry, 'README.md');
      assert.ok(existsSync(page), `docs/api has no page for @devs/context${entry === 'index' ? '' : `/${entry}`}: run \`bash scripts/build.sh\``);
    }
  });

  it('documents the session and PostgreSQL APIs', () => {
    for (const page of ['classes/ContextSession.md', 'interfaces/SessionStore.md', 'classes/SessionConflictError.md', 'postgres/classes/PostgresStateRepository.md']) {
      assert.ok(existsSync(join(api, page)), `docs/api/@devs/context/${page} is missing`);
    }
    assert.match(readFileSync(join(api, 'classes/ContextManager.md'), 'utf8'), /### open\(\)/);
  });

  it("names on each entry's page every name its declarations export", () => {
    const missing = [];
    for (const [entry, names] of exported()) {
      assert.ok(names.length > 0, `dist/${entry}.d.ts exports nothing`);
      const page = readFileSync(join(api, entry === 'index' ? '' : entry, 'README.md'), 'utf8').replaceAll('\\_', '_');
      for (const name of names) {
        if (!page.includes(`[${name}](`) && !new RegExp(`^#+ ${name}$`, 'm').test(page)) missing.push(`${entry}: ${name}`);
      }
    }
    assert.deepEqual(missing, [], 'the reference is older than the declarations: run `bash scripts/build.sh`');
  });

  it('is not committed: git ignores docs/api, and tracks nothing under it', { skip: !inGit && 'not a git checkout' }, () => {
    assert.equal(git('ls-files', '--', 'docs/api').trim(), '');
    assert.equal(git('check-ignore', 'docs/api/README.md').trim(), 'docs/api/README.md');
  });
});
