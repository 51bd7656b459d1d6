// Every `ts` block of the README compiles as pasted, against the packed package, with
// `strict` and `skipLibCheck: false`; and every block that names no value of the host's
// (no `declare`) also runs, in a project that has the spec files the README mentions.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostProject, pkgDir, repoRoot, runAsync } from './harness.mjs';

const tsc = join(pkgDir, 'node_modules/typescript/bin/tsc');
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => ({
  name: `block-${String(i + 1).padStart(2, '0')}`,
  code: m[1],
  line: readme.slice(0, m.index).split('\n').length,
}));

let dir;
before(() => {
  const files = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false, types: ['node'], outDir: 'out', rootDir: 'src' },
      include: ['src'],
    }),
    '.devs/specs/tas_summary.md': 'TAS: a Pratt parser over a hand-written lexer.\n',
    '.devs/specs/prd_summary.md': 'PRD: every parser test passes.\n',
  };
  for (const b of blocks) files[`src/${b.name}.mts`] = b.code;
  // The provider SDKs' own type files check the examples of each format.
  dir = hostProject('readme', files, {}, ['@types/node', 'better-sqlite3', 'pg', '@types/pg', '@anthropic-ai/sdk', 'openai', 'ai', '@ai-sdk/provider', '@types/vscode']);
});

describe('the README', () => {
  it('has TypeScript blocks, the quick start first', () => {
    assert.ok(blocks.length >= 8, `${blocks.length} blocks`);
    assert.match(blocks[0].code, /new ContextManager\(/);
    assert.ok(blocks[0].line < 60, `the quick start is at line ${blocks[0].line}`);
  });

  it('every ts block compiles as pasted (tsc --strict, skipLibCheck false)', async () => {
    try {
      await runAsync('node', [tsc, '-p', '.'], dir);
    } catch (error) {
      // Name the README line of each error.
      const lines = String(error.message).replace(/src\/block-(\d+)\.mts\((\d+),/g, (_, n, at) => `README.md line ${blocks[n - 1].line + Number(at)} (block ${Number(n)}, line ${at},`);
      assert.fail(lines);
    }
  });

  for (const b of blocks.filter((x) => !/^declare /m.test(x.code))) {
    it(`${b.name} (README line ${b.line}) runs`, async () => {
      await runAsync('node', [`out/${b.name}.mjs`], dir);
    });
  }
});
