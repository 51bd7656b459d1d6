// The README is a page or two: the promise, the two commands, the quick start, install, one
// example per provider and the framework table, the figures, and links into docs/. Every
// `ts` block of it compiles as pasted, against the packed package, with `strict` and
// `skipLibCheck: false`, with the lockfile's SDKs and with their newest releases; and every
// block that names no value of the host's (no `declare`) also runs, in a project that has
// the spec files the examples mention. The guides in docs/guides/ are checked the same way
// by guides.test.mjs.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deprecatedAnthropicModels, repoRoot, runAsync } from './harness.mjs';
import { docsCompiled, errorsOf, readmeBlocks } from './docs-code.mjs';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const lineOf = (index) => readme.slice(0, index).split('\n').length;
const blocks = readmeBlocks();

let dir;
before(async () => {
  ({ dir } = await docsCompiled('lockfile'));
});

/** The blocks compiled against `set` (docs-code.mjs, with the guides'), naming the README line of each error. */
async function compiles(set) {
  const errors = errorsOf((await docsCompiled(set)).errors, 'src/readme/');
  if (errors) {
    const lines = errors.replace(/src\/readme\/block-(\d+)\.mts\((\d+),/g, (_, n, line) => `README.md line ${blocks[n - 1].line + Number(line)} (block ${Number(n)}, line ${line},`);
    assert.fail(lines);
  }
}

describe('the README', () => {
  it('fits on a page or two: at most 300 lines', () => {
    const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
    assert.ok(lines <= 300, `the README is ${lines} lines; move the detail into a guide in docs/guides/`);
  });

  it('has the two commands, then the quick start, near the top', () => {
    const demo = readme.indexOf('bash scripts/demo.sh');
    const test = readme.indexOf('bash scripts/test.sh');
    assert.ok(demo > 0 && test > 0, 'the README names bash scripts/demo.sh and bash scripts/test.sh');
    assert.ok(lineOf(demo) < 50 && lineOf(test) < 50, `the two commands are at lines ${lineOf(demo)} and ${lineOf(test)}`);
    assert.match(blocks[0].code, /new ContextManager\(/);
    assert.ok(blocks[0].line < 70, `the quick start is at line ${blocks[0].line}`);
    assert.ok(demo < readme.indexOf('## Quick start'), 'the two commands come before the quick start');
  });

  it('says, where the quick start is, that the snippets are ES modules and npm init makes a CommonJS project', () => {
    const before = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('```ts'));
    assert.match(before, /top-level\s+`await`/);
    assert.match(before, /npm init/);
    assert.match(before, /type=module|"type": "module"/);
  });

  it('has one example per provider format, and the framework example', () => {
    for (const format of ['anthropic', 'openai-chat', 'ai-sdk', 'vscode']) {
      assert.ok(blocks.some((b) => b.code.includes(`format: '${format}'`)), `an example with format: '${format}'`);
    }
    assert.ok(blocks.some((b) => b.code.includes("from '@devs/context/ai-sdk'")), 'the framework example');
  });

  it('passes the AI SDK its system prompt in `system`, not as a message', () => {
    for (const b of blocks.filter((x) => /\bgenerateText\(\{[^}]*\bmessages\b/.test(x.code))) {
      assert.match(b.code, /generateText\(\{[^}]*\bsystem\b/, `${b.name} (README line ${b.line})`);
    }
  });

  it('names no Anthropic model the installed SDK warns is deprecated', () => {
    for (const model of deprecatedAnthropicModels()) {
      assert.ok(!new RegExp(`['(:]${model.replace(/[.]/g, '\\.')}['),]`).test(readme), `the README names ${model}`);
    }
  });

  it('every ts block compiles as pasted (tsc --strict, skipLibCheck false)', () => compiles('lockfile'));

  it('every ts block compiles against the newest releases of the SDKs too (openai, @anthropic-ai/sdk, ai)', () => compiles('newest'));

  for (const b of blocks.filter((x) => !/^declare /m.test(x.code))) {
    it(`${b.name} (README line ${b.line}) runs`, async () => {
      await runAsync('node', [`out/readme/${b.name}.mjs`], dir);
    });
  }
});
