// The framework pages' examples against the oldest releases their peer ranges name, as a
// host with those installed has them: the packed package installed in a project of its
// own, the framework linked under its name from an alias install (`langchain-oldest`), and
// `preserveSymlinks` so that the framework's own imports (`@langchain/core`) resolve in the
// host's node_modules, to the old release too, not to the newest beside the alias. The
// check can fail: the same example with a mistyped option is refused (the last test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hostProject, pkgDir, repoRoot, run, tsc } from './harness.mjs';

const version = (dir) => JSON.parse(readFileSync(join(pkgDir, 'node_modules', dir, 'package.json'), 'utf8')).version;
const example = (page) => readFileSync(join(repoRoot, 'docs/frameworks', page), 'utf8').match(/^```ts\n([\s\S]*?)^```$/m)[1];
const TSCONFIG = JSON.stringify({
  compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, lib: ['es2022', 'dom'], types: ['node'], skipLibCheck: true, preserveSymlinks: true },
  include: ['src'],
});

/** `tsc`'s complaints about `code` in a host with LangChain's oldest releases, or null. */
function langchainOldest(code) {
  const dir = hostProject('langchain-oldest', { 'tsconfig.json': TSCONFIG, 'src/example.mts': `${code}\nexport {};\n` }, { type: 'module' },
    ['langchain', '@langchain/core', '@langchain/langgraph', '@langchain/langgraph-checkpoint', '@langchain/langgraph-sdk', '@langchain/protocol', 'zod', '@types/node'],
    { langchain: 'langchain-oldest', '@langchain/core': 'langchain-core-oldest' });
  try {
    run('node', [tsc, '-p', '.'], dir);
    return null;
  } catch (error) {
    return String(error.message);
  }
}

/** `tsc`'s complaints about `code` in a host with the Agents SDK the tests install, or null. */
function agents(code) {
  const dir = hostProject('openai-agents', { 'tsconfig.json': TSCONFIG, 'src/example.mts': `${code}\nexport {};\n` }, { type: 'module' }, ['@openai', 'openai', 'zod', '@types/node']);
  try {
    run('node', [tsc, '-p', '.'], dir);
    return null;
  } catch (error) {
    return String(error.message);
  }
}

describe("the framework pages' examples against the oldest releases the peers take", () => {
  it(`LangChain: langchain ${version('langchain-oldest')} and @langchain/core ${version('langchain-core-oldest')}`, () => {
    assert.equal(langchainOldest(example('langchain.md')), null);
  });

  it(`the Agents SDK: @openai/agents ${version('@openai/agents')} (0.1, the peer's floor, takes zod 3, which this tree cannot hold beside zod 4)`, () => {
    assert.equal(agents(example('openai-agents.md')), null);
  });

  it('a mistyped option is refused there (the check can fail)', () => {
    const wrong = example('langchain.md').replace('budget: 100_000', "budget: '100k'");
    assert.match(langchainOldest(wrong) ?? '', /error TS2322/);
  });
});
