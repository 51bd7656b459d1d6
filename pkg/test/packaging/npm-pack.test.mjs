// The package as npm delivers it: what the tarball holds, then the tarball installed into
// fresh host projects and loaded by require and by import, from every entry.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NODES, hostProject, packedTarball, pkgDir, repoRoot, run, runOn, tempDir } from './harness.mjs';

// The packed tarball's budget (npm's "package size"): 2.5 MB. It was 2 MB before the
// recall tool, the durable state and five framework adapters (2.23 MB with them), and
// 2.4 MB before images, documents and the providers' own items (2.41 MB with them: the
// media rules in the rules' wasm, the five formats' new block types in the shell), and
// 2.5 MB before every part counted by what it is (2.52 MB with them: PDF filters and
// audio and video headers in the rules' wasm, +42 KB raw, shipped twice; the trap guard),
// and 2.6 MB before compaction kept what matters (2.60 MB with it: the working state's
// readers of the user's words and the file trail, the squeeze's levels and the restated
// protected results in the rules' wasm, 572 -> 628 KB raw, shipped twice).
const MAX_PACKED_BYTES = 2_700_000;

const smoke = `
  const provider = { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) };
  const r = new ContextRefresher({ threshold: 2, summaryProvider: provider });
  const first = await r.onTurn(1);
  const second = await r.onTurn(2);
  const entry = new TurnTracker('a', 'p').toLogEntry();
  console.log(JSON.stringify([first.refreshed, second.refreshed, typeof entry.timestamp_ns]));
`;
const expected = JSON.stringify([false, true, 'bigint']);

describe('the tarball', () => {
  let unpacked;
  before(() => {
    unpacked = tempDir('unpacked');
    run('tar', ['-xzf', packedTarball(), '-C', unpacked], pkgDir);
  });
  const file = (name) => join(unpacked, 'package', name);

  it('holds the entries, their types, each wasm, the docs and the licences, and nothing else', () => {
    const listing = run('tar', ['-tzf', packedTarball()], pkgDir).trim().split('\n').sort();
    assert.deepEqual(listing, [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist/ai-sdk.cjs',
      'dist/ai-sdk.d.mts',
      'dist/ai-sdk.d.ts',
      'dist/ai-sdk.mjs',
      'dist/cli.mjs',
      'dist/eval.cjs',
      'dist/eval.d.mts',
      'dist/eval.d.ts',
      'dist/eval.mjs',
      'dist/glue.cjs',
      'dist/glue.mjs',
      'dist/host.cjs',
      'dist/host.mjs',
      'dist/index.browser.cjs',
      'dist/index.browser.mjs',
      'dist/index.cjs',
      'dist/index.d.mts',
      'dist/index.d.ts',
      'dist/index.mjs',
      'dist/langchain.cjs',
      'dist/langchain.d.mts',
      'dist/langchain.d.ts',
      'dist/langchain.mjs',
      'dist/licenses/tokenizers/LICENSE-APACHE',
      'dist/licenses/tokenizers/LICENSE-MIT',
      'dist/mastra.cjs',
      'dist/mastra.d.mts',
      'dist/mastra.d.ts',
      'dist/mastra.mjs',
      'dist/openai-agents.cjs',
      'dist/openai-agents.d.mts',
      'dist/openai-agents.d.ts',
      'dist/openai-agents.mjs',
      'dist/postgres.cjs',
      'dist/postgres.d.mts',
      'dist/postgres.d.ts',
      'dist/postgres.mjs',
      'dist/replay-view.js',
      'dist/replay.cjs',
      'dist/replay.d.mts',
      'dist/replay.d.ts',
      'dist/replay.mjs',
      'dist/rules-wasm.js',
      'dist/rules.wasm',
      'dist/shell.cjs',
      'dist/shell.mjs',
      'dist/slim.cjs',
      'dist/slim.d.mts',
      'dist/slim.d.ts',
      'dist/slim.mjs',
      'dist/sqlite.cjs',
      'dist/sqlite.d.mts',
      'dist/sqlite.d.ts',
      'dist/sqlite.mjs',
      'dist/tanstack-ai.cjs',
      'dist/tanstack-ai.d.mts',
      'dist/tanstack-ai.d.ts',
      'dist/tanstack-ai.mjs',
      'dist/testing.cjs',
      'dist/testing.d.mts',
      'dist/testing.d.ts',
      'dist/testing.mjs',
      'dist/tokenizers-wasm.js',
      'dist/tokenizers.cjs',
      'dist/tokenizers.d.mts',
      'dist/tokenizers.d.ts',
      'dist/tokenizers.mjs',
      'package.json',
    ].map((name) => `package/${name}`));
  });

  it(`is at most ${MAX_PACKED_BYTES} bytes packed`, () => {
    const { size } = statSync(packedTarball());
    assert.ok(size <= MAX_PACKED_BYTES, `${size} bytes packed`);
  });

  it("ships each wasm's bytes once (the rules' twice: inlined, and as rules.wasm for the slim entry)", () => {
    const js = run('tar', ['-tzf', packedTarball()], pkgDir).trim().split('\n')
      .filter((name) => /\.(c|m)?js$/.test(name)).map((name) => name.replace(/^package\//, ''));
    // A wasm module starts with "\0asm", which is "AGFzbQ" in base64.
    const holders = js.filter((name) => readFileSync(file(name), 'latin1').includes('AGFzbQ')).sort();
    assert.deepEqual(holders, ['dist/rules-wasm.js', 'dist/tokenizers-wasm.js']);
    const inlined = (name) => /"([A-Za-z0-9+/=]+)"/.exec(readFileSync(file(name), 'latin1'))[1];
    assert.ok(Buffer.from(inlined('dist/rules-wasm.js'), 'base64').equals(readFileSync(file('dist/rules.wasm'))));
  });

  it('carries the repository README, LICENSE and CHANGELOG, and the tokenizer fork\'s licences', () => {
    for (const name of ['README.md', 'LICENSE', 'CHANGELOG.md']) {
      assert.equal(readFileSync(file(name), 'utf8'), readFileSync(join(repoRoot, name), 'utf8'), name);
    }
    for (const name of ['LICENSE-MIT', 'LICENSE-APACHE']) {
      assert.equal(readFileSync(file(`dist/licenses/tokenizers/${name}`), 'utf8'),
        readFileSync(join(repoRoot, 'crates/tokenizer', name), 'utf8'), name);
    }
    assert.match(readFileSync(file('LICENSE'), 'utf8'), /^MIT License/);
  });

  it('keeps node: imports out of everything a browser build can reach', () => {
    for (const name of ['index.browser.cjs', 'index.browser.mjs', 'slim.cjs', 'slim.mjs', 'shell.cjs', 'shell.mjs', 'host.cjs', 'host.mjs', 'glue.cjs', 'glue.mjs', 'tokenizers.cjs', 'tokenizers.mjs']) {
      assert.doesNotMatch(readFileSync(file(`dist/${name}`), 'utf8'), /["'`]node:/, name);
    }
  });
});

describe('installed in a host project', () => {
  it("require('@devs/context') works", () => {
    const dir = hostProject('cjs', {
      'main.cjs': `const { ContextRefresher, TurnTracker } = require('@devs/context');\n(async () => {${smoke}})();`,
    });
    assert.equal(run('node', ['main.cjs'], dir).trim(), expected);
  });

  it("import { ContextRefresher } from '@devs/context' works", () => {
    const dir = hostProject('esm', {
      'main.mjs': `import { ContextRefresher, TurnTracker } from '@devs/context';\n${smoke}`,
    });
    assert.equal(run('node', ['main.mjs'], dir).trim(), expected);
  });

  it('require and import in one process share the wasm bytes module, and both run', () => {
    const dir = hostProject('dual', {
      'main.mjs': `
        import { createRequire } from 'node:module';
        import * as esm from '@devs/context';
        import { createTokenCounter } from '@devs/context/tokenizers';
        const require = createRequire(import.meta.url);
        const cjs = require('@devs/context');
        const cjsCounter = require('@devs/context/tokenizers').createTokenCounter('cl100k_base');
        console.log(esm.countTokens('hello world') === cjs.countTokens('hello world'),
          createTokenCounter('cl100k_base')('hello world'), cjsCounter('hello world'));`,
    });
    assert.equal(run('node', ['main.mjs'], dir).trim(), 'true 2 2');
  });

  it('@devs/context/tokenizers counts exactly, CJS and ESM', () => {
    const script = (load) => `${load}\nconst count = createTokenCounter('o200k_base');\nconsole.log(count('hello world'), count('<|endoftext|>'));`;
    const dir = hostProject('tokenizers', {
      'main.cjs': script("const { createTokenCounter } = require('@devs/context/tokenizers');"),
      'main.mjs': script("import { createTokenCounter } from '@devs/context/tokenizers';"),
    });
    assert.equal(run('node', ['main.cjs'], dir).trim(), '2 7');
    assert.equal(run('node', ['main.mjs'], dir).trim(), '2 7');
  });

  it('@devs/context/slim throws until init(), then runs; init reads rules.wasm from disk or takes its bytes', () => {
    // Alone, slim has no rules until init(). With @devs/context loaded too, the two share
    // one shell, and the rules that entry loaded.
    const script = `
      let before;
      try { slim.countTokens('hello world'); before = 'ran'; } catch (error) { before = error.message; }
      const second = slim.init();
      await Promise.all([second, slim.init()]);
      console.log(JSON.stringify([before, slim.countTokens('hello world'), typeof new slim.TurnTracker('a', 'p').toLogEntry().timestamp_ns]));`;
    const dir = hostProject('slim', {
      'main.mjs': `import * as slim from '@devs/context/slim';\n${script}`,
      'main.cjs': `const slim = require('@devs/context/slim');\n(async () => {${script}})();`,
      'both.mjs': `import * as slim from '@devs/context/slim';\nimport * as main from '@devs/context';\n${script}`,
      'bytes.cjs': `
        const { readFileSync } = require('node:fs');
        const slim = require('@devs/context/slim');
        slim.init(readFileSync(require.resolve('@devs/context/rules.wasm')))
          .then(() => console.log(slim.countTokens('hello world')));`,
    });
    const want = JSON.stringify(['@devs/context: the rules are not loaded yet (asked for seed); with @devs/context/slim, call `await init()` once first', 3, 'bigint']);
    assert.equal(run('node', ['main.mjs'], dir).trim(), want);
    assert.equal(run('node', ['main.cjs'], dir).trim(), want);
    assert.equal(run('node', ['both.mjs'], dir).trim(), JSON.stringify(['ran', 3, 'bigint']));
    assert.equal(run('node', ['bytes.cjs'], dir).trim(), '3');
  });

  it('@devs/context/sqlite needs its optional peer, and says so; the rules do not', () => {
    const dir = hostProject('no-sqlite', {
      'main.cjs': `
        require('@devs/context');
        try { require('@devs/context/sqlite'); console.log('loaded'); }
        catch (e) { console.log(e.code, /better-sqlite3/.test(e.message)); }`,
    });
    assert.equal(run('node', ['main.cjs'], dir).trim(), 'MODULE_NOT_FOUND true');
  });

  it('@devs/context/postgres loads without pg (the host passes its pool), CJS and ESM, and refuses a pool that is not one', () => {
    const dir = hostProject('no-pg', {
      'main.cjs': `
        const { PostgresStateRepository } = require('@devs/context/postgres');
        try { new PostgresStateRepository({}); } catch (e) { console.log(e instanceof TypeError, e.field); }`,
      'main.mjs': `
        import { PostgresStateRepository } from '@devs/context/postgres';
        import { SessionConflictError } from '@devs/context';
        console.log(typeof PostgresStateRepository, typeof SessionConflictError);`,
    });
    assert.equal(run('node', ['main.cjs'], dir).trim(), 'true pool');
    assert.equal(run('node', ['main.mjs'], dir).trim(), 'function function');
  });
});

// Issue 47: `engines` says what is tested. One host project (one install of the tarball above),
// its smoke (node-smoke.mjs) run under each Node: every entry loads both ways, and the build
// and the counts are the same on each. better-sqlite3 is pkg/'s, built for Node 20's ABI.
describe('on Node 20, 22 and 24', () => {
  let dir;
  let first;
  before(() => {
    dir = hostProject('nodes', { 'smoke.mjs': readFileSync(join(pkgDir, 'test/packaging/node-smoke.mjs'), 'utf8') }, {},
      ['better-sqlite3', 'langchain', '@langchain/core', '@openai/agents']);
  });

  it('engines.node is the oldest Node tested', () => {
    const { engines } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    assert.equal(engines.node, `>=${NODES[0][0]}`);
  });

  for (const version of NODES) {
    const [major, node] = version;
    it(`Node ${major}: every entry by require and import, a build, the tokenizers`, () => {
      const out = JSON.parse(runOn(version, ['smoke.mjs'], dir));
      assert.equal(out.node.split('.')[0], major, `${node} is Node ${out.node}`);
      for (const [name, exports] of Object.entries(out.entries)) {
        assert.ok(typeof exports === 'string' && exports !== '' && !exports.startsWith('failed'), `${name} on Node ${major}: ${JSON.stringify(exports)}`);
      }
      assert.deepEqual(out.tokens, [2, 2, 7]);
      assert.equal(out.build.messages, 3);
      assert.equal(out.build.tool, 'recall');
      assert.ok(out.build.cut === 1 && out.build.tokens <= 10_000, JSON.stringify(out.build));
      // The SQLite store where better-sqlite3 loads: on the Node it was built for, and
      // elsewhere a refusal naming the ABI it was built for, never another error.
      if (major === '20') assert.equal(out.sqlite, 'ok');
      else assert.match(out.sqlite, /^ok$|NODE_MODULE_VERSION 115\b/, `Node ${major}: ${out.sqlite}`);
      const same = { ...out, node: undefined, sqlite: undefined };
      first ??= same;
      assert.deepEqual(same, first, `Node ${major} differs from Node ${NODES[0][0]}`);
    });
  }
});
