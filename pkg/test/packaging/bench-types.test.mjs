// Issue 34: the multimodal benchmark's loops are written with the providers' SDK types
// (bench/multimodal/shapes.mjs, JSDoc under `// @ts-check`), so each shape it sends is one
// the SDK defines. They are type-checked here, strictly, against the SDKs of the lockfile
// and against the newest releases (installed beside them under other names), so a block
// or item a newer SDK renames or drops fails here. The check can fail: a shape no SDK
// defines is refused (the last test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkScratch, pkgDir } from '../type-check.mjs';

const shapes = readFileSync(join(pkgDir, '../bench/multimodal/shapes.mjs'), 'utf8');
const OPTIONS = { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, allowJs: true, checkJs: true, lib: ['es2022'], types: ['node'], skipLibCheck: true };

/** The SDKs by the names the shapes import them by: those of the lockfile, or the newest. */
const SETS = {
  // @google/genai's newest release is the lockfile's (3.3.0).
  lockfile: { '@anthropic-ai/sdk': 'node_modules/@anthropic-ai/sdk', openai: 'node_modules/openai', ai: 'node_modules/ai', '@google/genai': 'node_modules/@google/genai' },
  newest: { '@anthropic-ai/sdk': 'node_modules/anthropic-sdk-newest', openai: 'node_modules/openai-newest', ai: 'node_modules/ai-7', '@google/genai': 'node_modules/@google/genai' },
};

const check = (label, modules, text) => checkScratch(`bench-${label}`, {
  modules: { ...modules, '@types/node': 'node_modules/@types/node', '@types/vscode': 'node_modules/@types/vscode', vscode: 'node_modules/@types/vscode' },
  compilerOptions: OPTIONS,
  include: ['*.mjs'],
  files: { 'shapes.mjs': text },
});

describe("the multimodal benchmark's loops compile against the providers' SDKs", () => {
  for (const [label, modules] of Object.entries(SETS)) {
    it(`${label}: @anthropic-ai/sdk, openai, ai and @google/genai`, () => {
      const versions = Object.values(modules).map((m) => `${JSON.parse(readFileSync(join(pkgDir, m, 'package.json'), 'utf8')).version}`);
      assert.equal(check(label, modules, shapes), null, `against ${versions.join(', ')}`);
    });
  }

  it('a block no SDK defines is refused', () => {
    const wrong = shapes.replace("{ type: 'server_tool_use', id: srv, name: 'web_fetch', input: s.input }", "{ type: 'server_tool_use', id: srv, name: 'web_fetch', input: s.input, result: s.text }");
    assert.notEqual(wrong, shapes);
    assert.match(check('wrong', SETS.lockfile, wrong) ?? '', /result/);
  });
});
