// The package's own linters, on the packed tarball, with nothing allowed through:
// publint (package.json against the files it names, every suggestion included) and
// arethetypeswrong (each entry's types against its JavaScript, under node10, node16 from
// CommonJS and from ESM, and bundler resolution).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedTarball, pkgDir } from './harness.mjs';

it('publint reports nothing, suggestions included', async () => {
  const { publint } = await import('publint');
  const { formatMessage } = await import('publint/utils');
  const tarball = readFileSync(packedTarball());
  const { messages, pkg } = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.length) }, level: 'suggestion', strict: true });
  assert.deepEqual(messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false })}`), []);
});

it('arethetypeswrong finds no problem in any entry under any resolution', async () => {
  // `./rules.wasm` is an asset for the slim entry (a path to fetch or read), not a module.
  // It exits 1 when it finds a problem; the JSON on stdout says which, either way.
  const stdout = await new Promise((resolve) => {
    execFile('node', [join(pkgDir, 'node_modules/@arethetypeswrong/cli/dist/index.js'), packedTarball(), '--format', 'json',
      '--exclude-entrypoints', './rules.wasm'], { cwd: pkgDir, maxBuffer: 64 * 1024 * 1024 }, (_error, out) => resolve(out));
  });
  const { analysis, problems } = JSON.parse(stdout);
  assert.deepEqual(problems, {});
  assert.deepEqual(Object.keys(analysis.entrypoints).sort(), ['.', './ai-sdk', './eval', './langchain', './mastra', './openai-agents', './package.json', './postgres', './replay', './slim', './sqlite', './tanstack-ai', './testing', './tokenizers']);
});
