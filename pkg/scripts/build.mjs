#!/usr/bin/env node
// Builds pkg/dist from the crates: each wasm (cargo → wasm-bindgen → wasm-opt), then the
// entries, then one self-contained .d.ts per entry, emitted from the TypeScript shell with
// its JSDoc, then the documents the tarball carries (README, licences, changelog).
//
// What dist/ holds, and which host gets what (package.json `exports` says the same):
//   shell.cjs, shell.mjs                  the API, once per module format, shared by the
//                                         three entries below, which provide it the rules
//                                         (and Node's files) through host.cjs / host.mjs
//   glue.cjs, glue.mjs                    wasm-bindgen's glue of the rules, likewise shared
//   index.cjs, index.mjs                  Node (`node` condition): require / import
//   index.browser.cjs, index.browser.mjs  every other host (`browser`, and the default):
//                                         the same, without Node's file access, so that no
//                                         bundler ever meets a `node:` import
//   rules-wasm.js                         the rules' wasm as base64, once, for those four
//   slim.cjs, slim.mjs + rules.wasm       `@devs/context/slim`: the same API, the wasm as
//                                         a separate file, instantiated by `await init()`
//   tokenizers.cjs, tokenizers.mjs        `@devs/context/tokenizers`, every host
//   tokenizers-wasm.js                    the tokenizers' wasm as base64, once
//   sqlite.*, postgres.*, testing.*       the stores (`src/stores/<name>/`), each over the
//                                         package itself: `@devs/context/sqlite` (Node only),
//                                         `/postgres`, `/testing` (the stores' conformance suite)
//   eval.cjs, eval.mjs                    `@devs/context/eval` (Node only): the eval of
//                                         `devs-context eval` and the benches, over the package
//   ai-sdk.*, langchain.*, openai-agents.*  the framework adapters (`src/adapters/<name>/`),
//                                         over the package itself; each framework an optional peer
// A bytes module (`*-wasm.js`) is a plain script: it stores its base64 text on
// `globalThis` under a registered symbol named for the package version, and the entries
// import it for that effect. A script with no `import`, `export` or `require` loads the
// same way under `require`, `import`, a bundler and a browser's native ES modules, which
// is what lets CommonJS and ESM entries share one copy of the bytes.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';
import { recoverable } from './recoverable-glue.mjs';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkgDir, '..');
const dist = join(pkgDir, 'dist');
const src = join(pkgDir, 'src');
const bin = (name) => join(pkgDir, 'node_modules/.bin', name);
// By path: the packaging tests install other TypeScript versions, which also offer `tsc`.
const tsc = join(pkgDir, 'node_modules/typescript/bin/tsc');
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

function run(cmd, args, cwd = root) {
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
}

// Both wasm crates in one cargo command: they share their dependencies' builds, and each
// one's link (fat LTO, one codegen unit: single-threaded) runs beside the other's.
const WASM_CRATES = ['devs-context', 'devs-context-tokenizer-wasm'];

/** Crate `name`'s wasm32 release build (see WASM_CRATES) through wasm-bindgen into `outDir`. */
function wasm(name, outDir, outName, optimize, recover = false) {
  const built = join(root, 'target/wasm32-unknown-unknown/release', `${name.replaceAll('-', '_')}.wasm`);
  // The entries inline the bytes, so the glue must not reach for `import.meta.url`.
  run('wasm-bindgen', ['--target', 'web', '--omit-default-module-path', '--out-dir', outDir, '--out-name', outName, built]);
  if (recover) {
    const glue = join(outDir, `${outName}.js`);
    writeFileSync(glue, recoverable(readFileSync(glue, 'utf8')));
  }
  const file = join(outDir, `${outName}_bg.wasm`);
  if (optimize) run(bin('wasm-opt'), ['-Oz', '--strip-debug', '--strip-producers', file, '-o', file], pkgDir);
  // The glue's typings of the raw exports would shadow `src/core/wasm.d.ts` (the bytes as base64).
  rmSync(join(outDir, `${outName}_bg.wasm.d.ts`), { force: true });
  // The glue is ESM; say so, for the benchmarks that import it directly.
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }\n');
  return file;
}

// The shell's side of the protocol (src/core/protocol.ts), written from the rules' tables
// before anything compiles it; crates/protocol/tests/committed.rs fails when it is not committed.
run('cargo', ['run', '--quiet', '-p', 'devs-context-protocol', '--', join(src, 'core/protocol.ts')]);

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
run('cargo', ['build', '--release', '--lib', '--target', 'wasm32-unknown-unknown', ...WASM_CRATES.flatMap((name) => ['-p', name])]);
// The rules' glue can start over after a trap (`recoverable-glue.mjs`, `src/core/guard.ts`).
const rulesWasm = wasm('devs-context', join(dist, 'wasm'), 'devs_context', true, true);
// No wasm-opt for the tokenizers: it saves about 1% of a module that is mostly vocabulary data.
const tokenizerWasm = wasm('devs-context-tokenizer-wasm', join(dist, 'tokenizers'), 'devs_context_tokenizer', false);

// ---- The wasm bytes: each once, as a bytes module; the rules' also as a file, for slim.

const bytesModules = {
  [rulesWasm]: { file: 'rules-wasm.js', what: "the rules' WebAssembly module" },
  [tokenizerWasm]: { file: 'tokenizers-wasm.js', what: "the tokenizers' WebAssembly module (o200k_base, cl100k_base)" },
};
for (const [wasmFile, { file, what }] of Object.entries(bytesModules)) {
  const key = `@devs/context@${version}/${file}`;
  writeFileSync(join(dist, file), `// @devs/context ${version}: ${what}, base64. The entries import this script for its\n`
    + '// one effect, which stores the text under a registered symbol; see scripts/build.mjs.\n'
    + `globalThis[Symbol.for(${JSON.stringify(key)})] = "${readFileSync(wasmFile).toString('base64')}";\n`);
}
copyFileSync(rulesWasm, join(dist, 'rules.wasm'));

// ---- The entries.

/** `import x from '…_bg.wasm'` as the bytes module's text: an import of it, for its effect. */
const inlineWasm = {
  name: 'inline-wasm',
  setup(build) {
    build.onResolve({ filter: /_bg\.wasm$/ }, (args) => {
      const wasmFile = join(args.resolveDir, args.path);
      const module = bytesModules[wasmFile];
      if (!module) throw new Error(`no bytes module for ${wasmFile}`);
      return { path: module.file, namespace: 'wasm-bytes' };
    });
    build.onLoad({ filter: /.*/, namespace: 'wasm-bytes' }, (args) => ({
      contents: `import './${args.path}';\nexport default globalThis[Symbol.for(${JSON.stringify(`@devs/context@${version}/${args.path}`)})];\n`,
      loader: 'js',
    }));
    build.onResolve({ filter: /-wasm\.js$/, namespace: 'wasm-bytes' }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * The modules every entry shares, left to the files they are built to: `host.js` (the
 * slots an entry fills) and, from an entry, the API itself (`../index.js` → the shell).
 */
function shared(format, { shell = false } = {}) {
  const ext = format === 'cjs' ? 'cjs' : 'mjs';
  return {
    name: 'shared-modules',
    setup(build) {
      build.onResolve({ filter: /(^|\/)host\.js$/ }, () => ({ path: `./host.${ext}`, external: true }));
      build.onResolve({ filter: /devs_context\.js$/ }, () => ({ path: `./glue.${ext}`, external: true }));
      if (shell) build.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: `./shell.${ext}`, external: true }));
    },
  };
}

/**
 * The slim entry: `./wasm.js` (which instantiates inlined bytes at load) becomes a module
 * whose `rules` exist once `init()` has fetched or read `rules.wasm`. Until then every use
 * of the rules throws an error that says to call `init()`.
 */
function slimWasm(format) {
  const gluePath = join(dist, 'wasm/devs_context.js');
  // Where `rules.wasm` is by default: next to this file. Bundlers that understand
  // `new URL('…', import.meta.url)` (webpack 5, Vite) emit it with the bundle.
  const defaultSource = format === 'esm'
    ? "new URL('./rules.wasm', import.meta.url)"
    : "(typeof __dirname === 'string' ? { file: __dirname + '/rules.wasm' } : undefined)";
  const module = `
import * as glue from ${JSON.stringify(gluePath)};
import { provide } from './host.js';

let loading;

/**
 * Compiles and instantiates the rules' wasm. Resolves once; later calls return the same
 * promise. A failed load can be retried.
 */
export function init(source) {
  if (loading === undefined) {
    loading = load(source).catch((error) => {
      loading = undefined;
      throw error;
    });
  }
  return loading;
}

async function load(source) {
  let input = await (source === undefined ? ${defaultSource} : source);
  if (input === undefined) throw new Error('@devs/context/slim: init() needs the wasm here: pass its URL or bytes');
  const file = typeof input === 'object' && input !== null && typeof input.file === 'string' ? input.file
    : fileUrl(input) ? input : undefined;
  if (file !== undefined) input = readFile(file);
  await glue.default({ module_or_path: input });
  provide({ rules: glue });
}

function fileUrl(input) {
  return (typeof input === 'string' && input.startsWith('file:'))
    || (typeof URL === 'function' && input instanceof URL && input.protocol === 'file:');
}

/** A file's bytes, where the host is Node (22.3 or 20.16 and later: process.getBuiltinModule). */
function readFile(file) {
  const fs = typeof process === 'object' && typeof process.getBuiltinModule === 'function'
    ? process.getBuiltinModule('fs') : undefined;
  if (fs === undefined) {
    throw new Error('@devs/context/slim: init() cannot read ' + String(file) + ' on this host; pass the bytes: ' +
      "await init(fs.readFileSync(require.resolve('@devs/context/rules.wasm')))");
  }
  return fs.readFileSync(file);
}
`;
  return {
    name: 'slim-wasm',
    setup(build) {
      build.onResolve({ filter: /^slim:entry$/ }, () => ({ path: 'entry', namespace: 'slim' }));
      build.onResolve({ filter: /^slim:init$/ }, () => ({ path: 'init', namespace: 'slim' }));
      build.onLoad({ filter: /^init$/, namespace: 'slim' }, () => ({ contents: module, loader: 'js', resolveDir: src }));
      build.onLoad({ filter: /^entry$/, namespace: 'slim' }, () => ({
        contents: "export * from '../index.js';\nexport { init } from 'slim:init';\n", loader: 'ts', resolveDir: join(src, 'entries'),
      }));
    },
  };
}

const common = {
  bundle: true,
  platform: 'neutral',
  // ES2022 keeps `#private` fields native (Node ≥ 18 and every browser and bundler the
  // packaging tests use read them); es2020 rewrote each access as a WeakMap lookup.
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
  // Dead syntax goes; names and lines stay. Node prints the line that threw above an
  // uncaught error's message: one statement, not the whole shell on one line (45 KB).
  minifySyntax: true,
};
/** The framework adapters, one folder each under src/adapters/, with an `index.ts`. */
const ADAPTERS = (existsSync(join(src, 'adapters')) ? readdirSync(join(src, 'adapters'), { withFileTypes: true }) : [])
  .filter((d) => d.isDirectory() && existsSync(join(src, 'adapters', d.name, 'index.ts')))
  .map((d) => d.name)
  .sort();
/**
 * The stores, one folder each under src/stores/ with an `index.ts`, over the package itself.
 * One that imports a `node:` module is built for Node; any other must be browser-safe.
 */
const STORES = readdirSync(join(src, 'stores'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(src, 'stores', d.name, 'index.ts')))
  .map((d) => {
    const folder = join(src, 'stores', d.name);
    const node = readdirSync(folder).some((f) => f.endsWith('.ts') && /^import[^;]*from '(node:[^']+)'/m.test(readFileSync(join(folder, f), 'utf8')));
    return { name: d.name, node };
  })
  .sort((a, b) => (a.name < b.name ? -1 : 1));
/** What a store imports from its host: the package, and its database's driver (an optional peer). */
const STORE_EXTERNAL = ['@devs/context', ...Object.keys(JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).peerDependencies ?? {})];
/** What an adapter imports from its host: the package, and the frameworks (optional peers). */
const ADAPTER_EXTERNAL = ['@devs/context', '@devs/context/*', 'ai', '@ai-sdk/*', 'langchain', '@langchain/*', '@openai/*', 'zod'];

const entries = [
  { name: 'host', entry: join(src, 'core/host.ts'), browserSafe: true },
  // wasm-bindgen's glue of the rules, once per format, for the three entries.
  { name: 'glue', entry: join(dist, 'wasm/devs_context.js'), browserSafe: true },
  { name: 'shell', entry: join(src, 'index.ts'), plugins: (format) => [shared(format)], browserSafe: true },
  { name: 'index', entry: join(src, 'entries/node.ts'), plugins: (format) => [shared(format, { shell: true }), inlineWasm], options: { external: ['node:async_hooks', 'node:crypto'] } },
  { name: 'index.browser', entry: join(src, 'entries/browser.ts'), plugins: (format) => [shared(format, { shell: true }), inlineWasm], browserSafe: true },
  { name: 'slim', entry: 'slim:entry', plugins: (format) => [shared(format, { shell: true }), slimWasm(format)], browserSafe: true },
  { name: 'tokenizers', entry: join(src, 'tokens/tokenizers.ts'), plugins: [inlineWasm], browserSafe: true },
  // The stores: the rules, and a database driver, come from the host (postgres: the host
  // passes its own pg pool, so nothing of pg is imported).
  ...STORES.map(({ name, node }) => ({ name, entry: join(src, 'stores', name, 'index.ts'), options: { ...(node ? { platform: 'node' } : {}), external: STORE_EXTERNAL }, browserSafe: !node })),
  // The replay engine and view (`devs-context replay`, www/): the rules come from the host.
  { name: 'replay', entry: join(src, 'replay/index.ts'), options: { external: ['@devs/context', '@devs/context/tokenizers'] }, browserSafe: true },
  // The eval (`devs-context eval`, the benches), Node only: the package itself from the host, and
  // the peers' libraries, optional, loaded with `require` when a strategy runs (the ESM build
  // makes its own `require`).
  { name: 'eval', entry: join(src, 'eval/index.ts'), options: { platform: 'node', external: ['@devs/context', '@devs/context/*', ...ADAPTER_EXTERNAL] },
    banner: (format) => (format === 'esm' ? "import { createRequire as __evalRequire } from 'node:module';\nconst require = __evalRequire(import.meta.url);" : '') },
  // The framework adapters: the package itself and the framework come from the host.
  ...ADAPTERS.map((name) => ({ name, entry: join(src, 'adapters', name, 'index.ts'), options: { external: ADAPTER_EXTERNAL }, browserSafe: true })),
];
for (const { name, entry, plugins = [], options = {}, browserSafe, banner } of entries) {
  for (const format of ['cjs', 'esm']) {
    const outfile = join(dist, `${name}.${format === 'cjs' ? 'cjs' : 'mjs'}`);
    const resolved = typeof plugins === 'function' ? await Promise.all(plugins(format)) : plugins;
    const top = banner?.(format);
    await esbuild.build({ ...common, ...options, ...(top ? { banner: { js: top } } : {}), plugins: resolved, entryPoints: [entry], format, outfile });
    if (browserSafe && /["'`]node:/.test(readFileSync(outfile, 'utf8'))) {
      throw new Error(`${outfile} imports a node: module, which browser bundles cannot resolve`);
    }
  }
}

// The shell loads before an entry provides the rules, and slim before init(): anything
// that runs them at load fails here: what the shell needs at load is generated (core/protocol.ts).
for (const file of ['shell.mjs', 'slim.mjs']) {
  try {
    await import(pathToFileURL(join(dist, file)).href);
  } catch (error) {
    throw new Error(`dist/${file} runs the rules at load, before an entry provides them; generate what it needs into core/protocol.ts: ${error.message}`);
  }
}

// ---- Declarations: emitted from the shell by tsc, then rolled into one file per entry.

run('node', [tsc, '-p', 'tsconfig.json'], pkgDir);
await rollDeclarations('index', disposeDeclarations);
await rollDeclarations('tokenizers', (text) => text, 'tokens/tokenizers');
// The store's declarations import the rules' types from the package itself, built above.
run('node', [tsc, ...STORES.map((st) => `src/stores/${st.name}/index.ts`), '--declaration', '--emitDeclarationOnly', '--strict', '--target', 'es2022',
  '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--rootDir', 'src', '--outDir', join(dist, 'types')], pkgDir);
for (const { name } of STORES) await rollDeclarations(name, (text) => text, `stores/${name}/index`);
run('node', [tsc, 'src/replay/index.ts', '--declaration', '--emitDeclarationOnly', '--strict', '--target', 'es2022', '--lib', 'es2022,dom',
  '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--rootDir', 'src', '--outDir', join(dist, 'types')], pkgDir);
await rollDeclarations('replay', (text) => text, 'replay/index');
run('node', [tsc, 'src/eval/index.ts', '--declaration', '--emitDeclarationOnly', '--strict', '--target', 'es2022', '--lib', 'es2022,dom',
  '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--types', 'node', '--rootDir', 'src', '--outDir', join(dist, 'types')], pkgDir);
await rollDeclarations('eval', (text) => text, 'eval/index');
if (ADAPTERS.length) {
  run('node', [tsc, ...ADAPTERS.map((a) => `src/adapters/${a}/index.ts`), '--declaration', '--emitDeclarationOnly', '--strict', '--target', 'es2022', '--lib', 'es2022,dom',
    '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--rootDir', 'src', '--outDir', join(dist, 'types')], pkgDir);
  for (const a of ADAPTERS) await rollDeclarations(a, (text) => text, `adapters/${a}/index`);
}
rmSync(join(dist, 'types'), { recursive: true, force: true });

// ---- `devs-context` (the CLI, over `@devs/context/replay`) and the report view as a
// classic script, which the CLI inlines into its HTML reports.

const replayExternal = ['@devs/context', '@devs/context/tokenizers', '@devs/context/replay', '@devs/context/eval'];
await esbuild.build({ ...common, entryPoints: [join(src, 'replay/cli.ts')], platform: 'node', format: 'esm',
  external: replayExternal, outfile: join(dist, 'cli.mjs'), banner: { js: '#!/usr/bin/env node' } });
chmodSync(join(dist, 'cli.mjs'), 0o755);
await esbuild.build({ ...common, entryPoints: [join(src, 'replay/view.ts')], platform: 'browser', format: 'iife', minify: true,
  globalName: 'DevsReplayView', outfile: join(dist, 'replay-view.js') });
writeDeclarations('slim', slimDeclarations);

// ---- The documents the tarball carries, copied next to package.json (git ignores them).

copyFileSync(join(root, 'README.md'), join(pkgDir, 'README.md'));
copyFileSync(join(root, 'LICENSE'), join(pkgDir, 'LICENSE'));
copyFileSync(join(root, 'CHANGELOG.md'), join(pkgDir, 'CHANGELOG.md'));
// The tokenizers are a fork of tiktoken (MIT or Apache-2.0): its licences ship with them.
mkdirSync(join(dist, 'licenses/tokenizers'), { recursive: true });
for (const file of ['LICENSE-MIT', 'LICENSE-APACHE']) {
  copyFileSync(join(root, 'crates/tokenizer', file), join(dist, 'licenses/tokenizers', file));
}

// ---- The API reference, docs/api/, rendered from the declarations above on every build;
// git ignores it (ADR 0010), packaging/api-docs.test.mjs checks it against them.
run('node', [join(pkgDir, 'scripts/api-docs.mjs')]);

const sizes = (file) => `${statSync(file).size} bytes raw, ${gzipSync(readFileSync(file), { level: 9 }).length} bytes gzipped`;
console.log(`built pkg/dist: rules wasm ${sizes(rulesWasm)}; tokenizers wasm ${sizes(tokenizerWasm)}`);

/** `dist/types/NAME.d.ts` and what it imports, rolled into `dist/NAME.d.ts` (and `.d.mts`). */
async function rollDeclarations(name, edit = (text) => text, input = name) {
  const bundle = await rollup({
    input: join(dist, 'types', `${input}.d.ts`),
    plugins: [dts()],
    external: ['better-sqlite3', /^@devs\/context/, ...ADAPTER_EXTERNAL.filter((e) => !e.includes('*')), /^@ai-sdk\//, /^@langchain\//, /^@openai\//],
    onwarn: (warning) => {
      throw new Error(`declarations of ${name}: ${warning.message}`);
    },
  });
  const { output } = await bundle.generate({ format: 'es' });
  const text = edit(exportInPlace(output[0].code));
  if (name !== 'sqlite' && name !== 'postgres' && /from '\.\.?\//.test(text)) throw new Error(`${name}.d.ts must not import relative paths`);
  const untyped = text.split('\n').filter((line) => /[:|<(,]\s*any\b/.test(line));
  if (untyped.length) throw new Error(`untyped (any) declarations in ${name}.d.ts:\n${untyped.join('\n')}`);
  writeDeclarations(name, () => text);
}

/**
 * `dist/NAME.d.ts` (CommonJS types) and `dist/NAME.d.mts` (ESM types). The main entry's
 * ESM types re-export its CommonJS ones: one copy of its declarations in the tarball, and
 * one set of classes in a program that sees both.
 */
function writeDeclarations(name, text) {
  writeFileSync(join(dist, `${name}.d.ts`), text('cjs'));
  writeFileSync(join(dist, `${name}.d.mts`), name === 'index' ? "export * from './index.js';\n" : text('esm'));
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
    // A value and the interface of the same name (`ContextManager`) are exported together.
    const declaration = new RegExp(`^(declare (class|function|const)|interface) ${name.replaceAll('$', '\\$')}(?![\\w$])`, 'gm');
    if (!declaration.test(out)) return true;
    out = out.replace(declaration, 'export $&');
    return false;
  });
  return left.length ? `${out}export { ${left.join(', ')} };\n` : out;
}

/**
 * Declarations that compile under every lib a host may use, down to TypeScript 5.9's
 * default (target ES5, whose lib has no `Symbol`):
 * - `[Symbol.dispose]()` next to each class's `free()`, which is what the entries add at
 *   runtime where the host has `Symbol.dispose`, so that `using` type-checks. The symbol
 *   is declared as @types/node declares it, and `Symbol` itself as ES2015's lib does,
 *   with the same type, so both merge with any lib that has them. Every host that runs
 *   WebAssembly has `Symbol`.
 * - `private "#private"` for tsc's `#private` (a class with private fields), which
 *   TypeScript rejects below ES2015; a private member keeps the classes nominal the same way.
 */
function disposeDeclarations(text) {
  let className;
  let added = 0;
  const lines = text.split('\n').flatMap((line) => {
    // A class hosts see through an interface and a constructor (`ContextManager`) is not exported itself.
    const declared = /^(?:export )?declare class ([\w$]+)/.exec(line);
    if (declared) className = declared[1];
    if (line === '}') className = undefined;
    if (className !== undefined && line === '    #private;') return ['    private "#private";'];
    if (className === undefined || line !== '    free(): void;') return [line];
    added++;
    return [line, `    /** Same as \`free()\`: \`using\` calls it when the block ends (where the host has \`Symbol.dispose\`). */`,
      '    [Symbol.dispose](): void;'];
  });
  if (added === 0) throw new Error('index.d.ts: no class declares free()');
  if (lines.includes('    #private;')) throw new Error('index.d.ts: #private outside a class');
  return `${lines.join('\n')}
declare global {
    interface SymbolConstructor {
        /** As @types/node and the \`esnext.disposable\` lib declare it, for hosts with neither. */
        readonly dispose: unique symbol;
    }
    /** As ES2015's lib declares it, for hosts whose lib is ES5. */
    var Symbol: SymbolConstructor;
}
`;
}

/** The slim entry's declarations: the main entry's, and `init`. */
function slimDeclarations() {
  return `/**
 * \`@devs/context/slim\`: the same API as \`@devs/context\`, with the rules' WebAssembly in
 * a separate file, \`rules.wasm\` (also exported as \`@devs/context/rules.wasm\`), for hosts
 * that fetch and compile it apart from their JavaScript (streaming compilation, a
 * smaller bundle, their own caching). Call \`await init()\` once, first: until it
 * resolves, anything that runs the rules throws an error saying so (unless
 * \`@devs/context\` itself is loaded in the same program: the two share one shell, and
 * the rules that entry loaded).
 *
 * This build has no Node.js file access: \`ContextComposer.fromProject\` rejects, as in
 * the browser build of \`@devs/context\`.
 * @packageDocumentation
 * @example
 * import { init, countTokens } from '@devs/context/slim';
 * await init(); // fetches rules.wasm next to this module; webpack 5 and Vite emit it
 * countTokens('hello world');
 */
export * from './index.js';

/**
 * Where \`init\` finds the rules' wasm: a URL to fetch (a string or a \`URL\`; \`file:\`
 * URLs are read from disk under Node 20.16 / 22.3 and later), the bytes of \`rules.wasm\`
 * (an \`ArrayBuffer\` or a view of one, such as a Node \`Buffer\`), a fetch \`Response\`
 * for it, or a compiled \`WebAssembly.Module\`.
 */
export type SlimWasmSource = string | { readonly href: string } | ArrayBuffer | ArrayBufferView | object;

/**
 * Compiles and instantiates the rules' WebAssembly; until it resolves, anything in this
 * entry that runs the rules throws. Safe to call more than once: later calls return the first promise.
 * A failed load rejects, and may be retried.
 * @param source where \`rules.wasm\` is. Default: next to this module, as
 * \`new URL('./rules.wasm', import.meta.url)\`: fetched in a browser (webpack 5 and Vite
 * emit the file with the bundle; with esbuild or Rollup copy it next to the bundle, or
 * pass its URL), read from disk under Node 20.16 / 22.3 and later. Elsewhere pass its
 * bytes or URL.
 * @example
 * import { init } from '@devs/context/slim';
 * import { readFileSync } from 'node:fs';
 * import { createRequire } from 'node:module';
 *
 * // a bundler that does not emit the file: pass its URL
 * await init(new URL('/assets/rules.wasm', location.href));
 * // older Node: pass the bytes
 * await init(readFileSync(createRequire(import.meta.url).resolve('@devs/context/rules.wasm')));
 */
export declare function init(source?: SlimWasmSource | PromiseLike<SlimWasmSource>): Promise<void>;
`;
}
