// What a newcomer meets first when a call goes wrong and nothing catches it: Node prints
// the line that threw, then the message and the stack. The built files keep their lines,
// so that is one statement of the shell and its one-line message, not the whole shell
// minified onto one line (about 45 KB before the message, before issue 29).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// The package's own entries, as `require(${cjs})` and `import` resolve them in a host.
const cjs = JSON.stringify(join(here, '../dist/index.cjs'));
const esm = JSON.stringify(pathToFileURL(join(here, '../dist/index.mjs')).href);

/** Runs `code` in a child Node (as `.cjs` or `.mjs` input) and returns what it printed. */
function uncaught(code, type) {
  const run = spawnSync(process.execPath, ['--input-type', type === 'esm' ? 'module' : 'commonjs', '-e', code], { cwd: here, encoding: 'utf8' });
  assert.notEqual(run.status, 0, 'the child was to die of the uncaught error');
  return run.stderr;
}

const cases = [
  ['a bad option (CommonJS)', 'commonjs', `const { ContextManager } = require(${cjs}); new ContextManager({ format: 'nope', budget: 1000 });`, /options\.format/],
  ['a bad option (ES module)', 'esm', `import { ContextManager } from ${esm}; new ContextManager({ format: 'anthropic', budget: -5 });`, /options\.budget/],
  ['a rejected build (ES module)', 'esm', `import { ContextManager } from ${esm}; const m = new ContextManager({ format: 'anthropic', budget: 1000 }); m.free(); await m.build();`, /ContextManager/],
];

describe('an uncaught error from the package', () => {
  for (const [name, type, code, message] of cases) {
    it(`prints its message and a short stack: ${name}`, () => {
      const stderr = uncaught(code, type);
      assert.match(stderr, message);
      const longest = Math.max(...stderr.split('\n').map((l) => l.length));
      assert.ok(longest < 400, `a line of ${longest} characters in what Node printed:\n${stderr.slice(0, 600)}`);
      assert.ok(stderr.length < 4000, `Node printed ${stderr.length} characters for one error:\n${stderr.slice(0, 600)}`);
    });
  }
});
