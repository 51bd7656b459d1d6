#!/usr/bin/env node
// Builds pkg/dist from the crate: wasm (cargo → wasm-bindgen → wasm-opt), then the CJS
// and ESM entries with the wasm bytes inlined, then one self-contained .d.ts for each.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkgDir, '..');
const dist = join(pkgDir, 'dist');
const wasmDir = join(dist, 'wasm');
const crateWasm = join(root, 'target/wasm32-unknown-unknown/release/devs_context.wasm');
// The tokenizers are the same crate built with `tokenizer-module`, in their own target dir.
const tokenizerTarget = join(root, 'target/tokenizer');
const tokenizerWasm = join(tokenizerTarget, 'wasm32-unknown-unknown/tokenizer/devs_context.wasm');
const tokenizerDir = join(dist, 'tokenizers');

function run(cmd, args, cwd = root) {
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(wasmDir, { recursive: true });

run('cargo', ['build', '--release', '--lib', '--target', 'wasm32-unknown-unknown']);
run('wasm-bindgen', [
  '--target', 'web',
  // The entries inline the bytes, so the glue must not reach for `import.meta.url`.
  '--omit-default-module-path',
  '--out-dir', wasmDir,
  '--out-name', 'devs_context',
  crateWasm,
]);
const wasmFile = join(wasmDir, 'devs_context_bg.wasm');
run(join(pkgDir, 'node_modules/.bin/wasm-opt'), ['-Oz', '--strip-debug', '--strip-producers', wasmFile, '-o', wasmFile], pkgDir);

run('cargo', ['build', '--profile', 'tokenizer', '--lib', '--target', 'wasm32-unknown-unknown',
  '--features', 'tokenizer-module', '--target-dir', tokenizerTarget]);
// No wasm-opt here: it saves about 1% of a module that is mostly vocabulary data.
run('wasm-bindgen', ['--target', 'web', '--omit-default-module-path', '--out-dir', tokenizerDir,
  '--out-name', 'devs_context', tokenizerWasm]);

// The glue's typings of the raw wasm exports would shadow `src/wasm.d.ts` (the bytes as base64).
// The glue itself is ESM; say so, for the benchmarks that import it directly.
for (const dir of [wasmDir, tokenizerDir]) {
  rmSync(join(dir, 'devs_context_bg.wasm.d.ts'), { force: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
}

const shared = {
  entryPoints: [join(pkgDir, 'src/index.ts')],
  bundle: true,
  platform: 'neutral',
  target: 'es2020',
  loader: { '.wasm': 'base64' },
  legalComments: 'none',
  logLevel: 'warning',
};
await esbuild.build({ ...shared, format: 'cjs', outfile: join(dist, 'index.cjs') });
await esbuild.build({ ...shared, format: 'esm', outfile: join(dist, 'index.mjs') });

// The SQLite store is Node-only and loads better-sqlite3 (an optional peer) from the host.
const sqlite = { ...shared, entryPoints: [join(pkgDir, 'src/sqlite.ts')], platform: 'node', external: ['better-sqlite3', '@devs/context'] };
await esbuild.build({ ...sqlite, format: 'cjs', outfile: join(dist, 'sqlite.cjs') });
await esbuild.build({ ...sqlite, format: 'esm', outfile: join(dist, 'sqlite.mjs') });

const tokenizers = { ...shared, entryPoints: [join(pkgDir, 'src/tokenizers.ts')] };
await esbuild.build({ ...tokenizers, format: 'cjs', outfile: join(dist, 'tokenizers.cjs') });
await esbuild.build({ ...tokenizers, format: 'esm', outfile: join(dist, 'tokenizers.mjs') });

writeDeclarations();
writeSqliteDeclarations();
writeTokenizerDeclarations();

const sizes = (file) => `${statSync(file).size} bytes raw, ${gzipSync(readFileSync(file), { level: 9 }).length} bytes gzipped`;
console.log(`built pkg/dist: rules wasm ${sizes(wasmFile)}; tokenizers wasm ${sizes(join(tokenizerDir, 'devs_context_bg.wasm'))}`);

/**
 * wasm-bindgen cannot mark a typed parameter optional, so the Rust side types trailing
 * optional parameters as `T | undefined`; here they become `name?: T`.
 */
function optionalTrailingParams(text) {
  return text.replace(/(\w+): ([^,()]+?) \| undefined\)/g, '$1?: $2)');
}

/**
 * One self-contained declaration file: the wasm-bindgen types (classes, their docs and
 * the interfaces from src/bindings/types.rs) without the glue's init API, which this
 * package calls itself, followed by the declarations of the JS error classes.
 */
function writeDeclarations() {
  const glue = readFileSync(join(wasmDir, 'devs_context.d.ts'), 'utf8');
  const cut = glue.indexOf('export type InitInput');
  if (cut < 0) throw new Error('wasm-bindgen .d.ts changed shape: no InitInput section');
  run(join(pkgDir, 'node_modules/.bin/tsc'), ['src/errors.ts', '--declaration', '--emitDeclarationOnly', '--strict',
    '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--skipLibCheck', '--outDir', join(dist, 'types')], pkgDir);
  const extra = ['types/errors.d.ts', '../src/statics.d.ts'].map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
  const text = optionalTrailingParams(`${glue.slice(0, cut).trimEnd()}\n\n${extra}`);
  const untyped = text.split('\n').filter((line) => /[:|<(,]\s*any\b/.test(line));
  if (untyped.length) throw new Error(`untyped (any) declarations:\n${untyped.join('\n')}`);
  writeFileSync(join(dist, 'index.d.ts'), text);
  writeFileSync(join(dist, 'index.d.mts'), text);
}

/** The store's declarations; they import the rules' types from the package itself. */
function writeSqliteDeclarations() {
  run(join(pkgDir, 'node_modules/.bin/tsc'), ['src/sqlite.ts', '--declaration', '--emitDeclarationOnly', '--strict',
    '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck',
    '--rootDir', 'src', '--outDir', join(dist, 'types')], pkgDir);
  const text = readFileSync(join(dist, 'types/sqlite.d.ts'), 'utf8');
  writeFileSync(join(dist, 'sqlite.d.ts'), text);
  writeFileSync(join(dist, 'sqlite.d.mts'), text);
}

/** The tokenizers entry's declarations: self-contained, no import of the glue. */
function writeTokenizerDeclarations() {
  run(join(pkgDir, 'node_modules/.bin/tsc'), ['src/tokenizers.ts', 'src/wasm.d.ts', '--declaration', '--emitDeclarationOnly',
    '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--skipLibCheck',
    '--rootDir', 'src', '--outDir', join(dist, 'types')], pkgDir);
  const text = readFileSync(join(dist, 'types/tokenizers.d.ts'), 'utf8');
  if (/from '\.\.?\//.test(text)) throw new Error('tokenizers.d.ts must not import relative paths');
  writeFileSync(join(dist, 'tokenizers.d.ts'), text);
  writeFileSync(join(dist, 'tokenizers.d.mts'), text);
}
