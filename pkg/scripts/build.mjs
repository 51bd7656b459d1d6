#!/usr/bin/env node
// Builds pkg/dist from the crates: each wasm (cargo → wasm-bindgen → wasm-opt), then the
// CJS and ESM entries with the wasm bytes inlined, then one self-contained .d.ts per
// entry, emitted from the TypeScript shell with its JSDoc.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkgDir, '..');
const dist = join(pkgDir, 'dist');
const bin = (name) => join(pkgDir, 'node_modules/.bin', name);

function run(cmd, args, cwd = root) {
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
}

/** Builds crate `name` for wasm32 with `profile`, and its wasm-bindgen glue into `outDir`. */
function wasm(name, profile, outDir, outName, optimize) {
  run('cargo', ['build', '--profile', profile, '--lib', '--target', 'wasm32-unknown-unknown', '-p', name]);
  const built = join(root, 'target/wasm32-unknown-unknown', profile, `${name.replaceAll('-', '_')}.wasm`);
  // The entries inline the bytes, so the glue must not reach for `import.meta.url`.
  run('wasm-bindgen', ['--target', 'web', '--omit-default-module-path', '--out-dir', outDir, '--out-name', outName, built]);
  const file = join(outDir, `${outName}_bg.wasm`);
  if (optimize) run(bin('wasm-opt'), ['-Oz', '--strip-debug', '--strip-producers', file, '-o', file], pkgDir);
  // The glue's typings of the raw exports would shadow `src/wasm.d.ts` (the bytes as base64).
  rmSync(join(outDir, `${outName}_bg.wasm.d.ts`), { force: true });
  // The glue is ESM; say so, for the benchmarks that import it directly.
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');
  return file;
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const rulesWasm = wasm('devs-context', 'release', join(dist, 'wasm'), 'devs_context', true);
// No wasm-opt for the tokenizers: it saves about 1% of a module that is mostly vocabulary data.
const tokenizerWasm = wasm('devs-context-tokenizer-wasm', 'tokenizer', join(dist, 'tokenizers'), 'devs_context_tokenizer', false);

const shared = {
  bundle: true,
  platform: 'neutral',
  target: 'es2020',
  loader: { '.wasm': 'base64' },
  legalComments: 'none',
  logLevel: 'warning',
};
const entries = [
  { name: 'index', entry: 'src/index.ts', options: {} },
  // Node-only, and loads better-sqlite3 (an optional peer) and the rules from the host.
  { name: 'sqlite', entry: 'src/sqlite.ts', options: { platform: 'node', external: ['better-sqlite3', '@devs/context'] } },
  { name: 'tokenizers', entry: 'src/tokenizers.ts', options: {} },
];
for (const { name, entry, options } of entries) {
  for (const format of ['cjs', 'esm']) {
    const outfile = join(dist, `${name}.${format === 'cjs' ? 'cjs' : 'mjs'}`);
    await esbuild.build({ ...shared, ...options, entryPoints: [join(pkgDir, entry)], format, outfile });
  }
}

// Declarations: emitted from the shell by tsc, then rolled into one file per entry.
run(bin('tsc'), ['-p', 'tsconfig.json'], pkgDir);
await rollDeclarations('index');
await rollDeclarations('tokenizers');
// The store's declarations import the rules' types from the package itself, built above.
run(bin('tsc'), ['src/sqlite.ts', '--declaration', '--emitDeclarationOnly', '--strict', '--target', 'es2022',
  '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--rootDir', 'src', '--outDir', join(dist, 'types')], pkgDir);
await rollDeclarations('sqlite');
rmSync(join(dist, 'types'), { recursive: true, force: true });

const sizes = (file) => `${statSync(file).size} bytes raw, ${gzipSync(readFileSync(file), { level: 9 }).length} bytes gzipped`;
console.log(`built pkg/dist: rules wasm ${sizes(rulesWasm)}; tokenizers wasm ${sizes(tokenizerWasm)}`);

/** `dist/types/NAME.d.ts` and what it imports, rolled into `dist/NAME.d.ts` (and `.d.mts`). */
async function rollDeclarations(name) {
  const bundle = await rollup({
    input: join(dist, 'types', `${name}.d.ts`),
    plugins: [dts()],
    external: ['better-sqlite3', '@devs/context'],
    onwarn: (warning) => {
      throw new Error(`declarations of ${name}: ${warning.message}`);
    },
  });
  const { output } = await bundle.generate({ format: 'es' });
  const text = exportInPlace(output[0].code);
  if (name !== 'sqlite' && /from '\.\.?\//.test(text)) throw new Error(`${name}.d.ts must not import relative paths`);
  const untyped = text.split('\n').filter((line) => /[:|<(,]\s*any\b/.test(line));
  if (untyped.length) throw new Error(`untyped (any) declarations in ${name}.d.ts:\n${untyped.join('\n')}`);
  writeFileSync(join(dist, `${name}.d.ts`), text);
  writeFileSync(join(dist, `${name}.d.mts`), text);
}

/**
 * `declare class X … export { X }` as `export declare class X`: each value says at its
 * declaration that it is exported, as a reader (and `test/exports.test.mjs`) expects.
 */
function exportInPlace(text) {
  const line = /^export \{ ([^}]*) \};\n/m.exec(text);
  if (!line) return text;
  let out = text.replace(line[0], '');
  const left = line[1].split(', ').filter((name) => {
    const declaration = new RegExp(`^declare (class|function|const) ${name}\\b`, 'm');
    if (!declaration.test(out)) return true;
    out = out.replace(declaration, `export declare $1 ${name}`);
    return false;
  });
  return left.length ? `${out}export { ${left.join(', ')} };\n` : out;
}
