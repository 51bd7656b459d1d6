// The package as npm delivers it: packed, installed into a fresh host project, then
// loaded by require, by import, and type-checked by tsc under both module systems.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, hostProject, packedTarball, pkgDir, run } from './harness.mjs';

const smoke = `
  const provider = { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) };
  const r = new ContextRefresher({ threshold: 2, summaryProvider: provider });
  const first = await r.onTurn(1);
  const second = await r.onTurn(2);
  const entry = new TurnTracker('a', 'p').toLogEntry();
  console.log(JSON.stringify([first.refreshed, second.refreshed, typeof entry.timestamp_ns]));
`;
const expected = JSON.stringify([false, true, 'bigint']);

describe('npm pack', () => {
  it('ships only the entries and their types, with the wasm inlined', () => {
    const listing = run('tar', ['-tzf', packedTarball()], pkgDir).trim().split('\n').sort();
    assert.deepEqual(listing, [
      'package/dist/index.cjs',
      'package/dist/index.d.mts',
      'package/dist/index.d.ts',
      'package/dist/index.mjs',
      'package/dist/sqlite.cjs',
      'package/dist/sqlite.d.mts',
      'package/dist/sqlite.d.ts',
      'package/dist/sqlite.mjs',
      'package/dist/tokenizers.cjs',
      'package/dist/tokenizers.d.mts',
      'package/dist/tokenizers.d.ts',
      'package/dist/tokenizers.mjs',
      'package/package.json',
    ]);
  });

  it("require('@devs/context') works in a host project", () => {
    const dir = hostProject('cjs', {
      'main.cjs': `const { ContextRefresher, TurnTracker } = require('@devs/context');\n(async () => {${smoke}})();`,
    });
    assert.equal(run('node', ['main.cjs'], dir).trim(), expected);
  });

  it("import { ContextRefresher } from '@devs/context' works in a host project", () => {
    const dir = hostProject('esm', {
      'main.mjs': `import { ContextRefresher, TurnTracker } from '@devs/context';\n${smoke}`,
    });
    assert.equal(run('node', ['main.mjs'], dir).trim(), expected);
  });

  it('@devs/context/tokenizers counts exactly from an installed package, CJS and ESM', () => {
    const script = (load) => `${load}\nconst count = createTokenCounter('o200k_base');\nconsole.log(count('hello world'), count('<|endoftext|>'));`;
    const dir = hostProject('tokenizers', {
      'main.cjs': script("const { createTokenCounter } = require('@devs/context/tokenizers');"),
      'main.mjs': script("import { createTokenCounter } from '@devs/context/tokenizers';"),
    });
    assert.equal(run('node', ['main.cjs'], dir).trim(), '2 7');
    assert.equal(run('node', ['main.mjs'], dir).trim(), '2 7');
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

  for (const [label, ext, module] of [['esm', 'mts', 'node16'], ['cjs', 'cts', 'node16'], ['bundler', 'ts', 'preserve']]) {
    it(`types check under --strict for a ${label} host`, () => {
      const source = readFileSync(join(pkgDir, 'test/types/seed-host.ts'), 'utf8');
      const dir = hostProject(`types-${label}`, { [`host.${ext}`]: source });
      const resolution = module === 'preserve' ? 'bundler' : 'node16';
      run(bin('tsc'), ['--strict', '--noEmit', '--module', module, '--moduleResolution', resolution,
        '--target', 'es2022', '--types', 'node', '--typeRoots', join(pkgDir, 'node_modules/@types'), `host.${ext}`], dir);
    });
  }
});
