// The frameworks' pages and @examples type-check against each framework's own types, as a
// host compiles them: tsc over the built package, so the packaging tier runs them (moved from
// the adapters' behaviour tests, which stay in the fast tier).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { allModules, pkgDir, scratchProject, typeErrors } from '../type-check.mjs';

it('the README example and the JSDoc example type-check against ai 6 (the lockfile\'s, and 6.0.0, the oldest the peer takes) and ai 7', () => {
  const readme = readFileSync(join(pkgDir, '../docs/frameworks/ai-sdk.md'), 'utf8').match(/```ts\n([\s\S]*?)```/)[1];
  const jsdoc = readFileSync(join(pkgDir, 'dist/ai-sdk.d.ts'), 'utf8').match(/@example\n([\s\S]*?)\*\/\s*\n\s*export declare function contextMiddleware/)[1].replace(/^\s*\* ?/gm, '');
  for (const [version, aiDir] of [['ai 6', 'node_modules/ai'], ['ai 6.0.0', 'node_modules/ai-oldest'], ['ai 7', 'node_modules/ai-7']]) {
    // Each version's own provider types, as a host with that version installs them.
    const provider = aiDir === 'node_modules/ai' ? 'node_modules/@ai-sdk/provider' : `${aiDir}/node_modules/@ai-sdk/provider`;
    const dir = scratchProject('ai-sdk', {
      modules: { ai: aiDir, '@ai-sdk/provider': provider, '@types': 'node_modules/@types' },
      files: { 'readme.ts': `${readme}\nexport {};\n`, 'jsdoc.ts': `${jsdoc}\nexport {};\n` },
    });
    try {
      const output = typeErrors(dir);
      if (output !== null) assert.fail(`${version}:\n${output}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

// Mastra's own declarations do not pass a library check (`skipLibCheck: false` finds
// hundreds of errors in @mastra/schema-compat), so the entry's @example, which
// examples.test.mjs checks that way, does not import Mastra; the page's example, which
// makes an Agent with the processor, is checked here as a host would compile it.
it('the docs example type-checks against @mastra/core: the processor is an input processor', () => {
  const example = readFileSync(join(pkgDir, '../docs/frameworks/mastra.md'), 'utf8').match(/```ts\n([\s\S]*?)```/)[1];
  // The example as written, and a processor that is not one (its `id` missing), which must fail.
  const dir = scratchProject('mastra', {
    modules: allModules(),
    files: {
      'docs.ts': `${example}\nexport {};\n`,
      'wrong.ts': `import { Agent } from '@mastra/core/agent';\nimport { contextProcessor } from '@devs/context/mastra';\nconst { id: _, ...noId } = contextProcessor({ budget: 20_000 });\nnew Agent({ id: 'a', name: 'a', instructions: 'x', model: 'openai/gpt-5', inputProcessors: [noId] });\nexport {};\n`,
    },
  });
  try {
    const output = typeErrors(dir) ?? '';
    assert.doesNotMatch(output, /docs\.ts/, output);
    assert.match(output, /wrong\.ts/, 'a processor without its id is refused: the check can fail');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('the docs example type-checks against @tanstack/ai', () => {
  const doc = readFileSync(join(pkgDir, '../docs/frameworks/tanstack-ai.md'), 'utf8').match(/```ts\n([\s\S]*?)```/)[1];
  const modules = {};
  for (const name of readdirSync(join(pkgDir, 'node_modules/@tanstack'))) modules[`@tanstack/${name}`] = join('node_modules/@tanstack', name);
  for (const name of ['@types', '@standard-schema', '@ag-ui', 'partial-json', 'zod']) modules[name] = join('node_modules', name);
  const dir = scratchProject('tanstack-ai', { modules, files: { 'doc.ts': `${doc}\nexport {};\n` } });
  try {
    const output = typeErrors(dir);
    if (output !== null) assert.fail(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('the documentation of @devs/context/langchain', () => {
  let dir;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'langchain-docs-'));
    mkdirSync(join(dir, 'node_modules/@devs'), { recursive: true });
    symlinkSync(pkgDir, join(dir, 'node_modules/@devs/context'), 'dir');
    for (const name of ['langchain', '@langchain', 'zod', '@types']) symlinkSync(join(pkgDir, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'docs', private: true, type: 'module' }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, lib: ['es2022', 'dom'], types: ['node'], skipLibCheck: true },
      include: ['*.ts'],
    }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the README example (docs/frameworks/langchain.md) and the @example compile against LangChain\'s own types', () => {
    const readme = readFileSync(join(pkgDir, '..', 'docs/frameworks/langchain.md'), 'utf8');
    const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
    assert.ok(blocks.length >= 1, 'the page has a ts block');
    const first = blocks[0].trim().split('\n');
    assert.ok(first.length >= 5 && first.length <= 10, `the example is 5-10 lines, not ${first.length}`);
    assert.match(blocks[0], /import \{ createAgent[^}]*\} from 'langchain'/);
    const dts = readFileSync(join(pkgDir, 'dist/langchain.d.ts'), 'utf8');
    const example = /@example\n([\s\S]*?)\*\//.exec(dts)[1].split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join('\n');
    const files = [...blocks, example].map((code, i) => {
      const name = `example-${i + 1}.ts`;
      writeFileSync(join(dir, name), `${code}\nexport {};\n`);
      return name;
    });
    try {
      execFileSync(process.execPath, [join(pkgDir, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      assert.fail(`examples that do not compile (${files.join(', ')}):\n${error.stdout}${error.stderr}`);
    }
  });
});
