// Every bundler, in a real browser: one page, built from the packed package by webpack 5
// (target web), Vite, Rollup (node-resolve, browser) and esbuild (platform browser), and
// once with no bundler at all (native ES modules and an import map), each loaded in
// headless Chromium. The page runs the rules from all three browser entries: the main
// one (inline wasm, no init), `/tokenizers`, and `/slim` (a separate rules.wasm); webpack
// also builds a page that loads the package with require().
// Builds must be free of warnings, and pages free of console errors, warnings, uncaught
// errors and failed requests.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { hostProject, launchChromium, loadPage, origin, serve, writeFiles } from './harness.mjs';

const page = `
import { ContextComposer, ContextRefresher, TurnTracker, countTokens } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import * as slim from '@devs/context/slim';

async function run() {
  const provider = { getSummary: async () => ({ tasSummary: 'TAS', prdSummary: 'PRD' }) };
  const refresher = new ContextRefresher({ threshold: 2, summaryProvider: provider });
  const refreshed = [(await refresher.onTurn(1)).refreshed, (await refresher.onTurn(2)).refreshed];
  const tracker = new TurnTracker('page', 'p');
  const stamp = typeof tracker.toLogEntry().timestamp_ns;
  const disposable = typeof tracker[Symbol.dispose];
  const fromProject = await ContextComposer.fromProject('/').then(() => 'resolved', (error) => error.message);
  const exact = createTokenCounter('o200k_base')('hello world');
  let slimBefore = 'ran';
  try { slim.countTokens('hello world'); } catch (error) { slimBefore = error.message; }
  await slim.init();
  return { countTokens: countTokens('hello world'), refreshed, stamp, disposable, fromProject, exact, slimBefore,
    slim: slim.countTokens('hello world') };
}
run().then((result) => { window.__result = result; }, (error) => { window.__result = { error: String(error.stack || error) }; });
`;

// The same package through require(), as a CommonJS browser app has it (webpack only).
const requirePage = `
const { TurnTracker, countTokens } = require('@devs/context');
const { createTokenCounter } = require('@devs/context/tokenizers');
window.__result = { countTokens: countTokens('hello world'), stamp: typeof new TurnTracker('page', 'p').toLogEntry().timestamp_ns,
  exact: createTokenCounter('cl100k_base')('hello world') };
`;

const html = (script, head = '') => `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}</head>
<body><script type="module" src="${script}"></script></body></html>
`;

let dir;
let browser;
let server;
let expected;

before(async () => {
  dir = hostProject('bundlers', { 'src/main.js': page, 'src/require.cjs': requirePage });
  const require = createRequire(join(dir, 'index.js'));
  const node = require('@devs/context');
  expected = {
    countTokens: node.countTokens('hello world'),
    refreshed: [false, true],
    stamp: 'bigint',
    disposable: 'function',
    exact: 2,
    // The page loads @devs/context too: slim shares its shell and the rules it loaded.
    slimBefore: 'ran',
  };
  expected.slim = expected.countTokens;
  [browser, server] = await Promise.all([launchChromium(), serve(dir)]);
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Loads `out/index.html` and checks what the page computed, and that nothing went wrong. */
async function assertPageRuns(out) {
  const { result, problems } = await loadPage(browser, `${origin(server)}/${out}/index.html`);
  assert.deepEqual(problems, []);
  assert.equal(result.error, undefined, result.error);
  const { fromProject, ...rest } = result;
  assert.deepEqual(rest, expected);
  assert.match(fromProject, /^ContextComposer\.fromProject needs Node\.js file access/);
}

/** Places rules.wasm next to a bundle, as the slim entry's JSDoc says to for esbuild and Rollup. */
function copyRulesWasm(out) {
  copyFileSync(join(dir, 'node_modules/@devs/context/dist/rules.wasm'), join(dir, out, 'rules.wasm'));
}

describe('browser pages', () => {
  it('webpack 5, target web', async () => {
    const { default: webpack } = await import('webpack');
    const stats = await new Promise((resolve, reject) => {
      webpack({
        mode: 'production',
        target: 'web',
        context: dir,
        entry: { main: './src/main.js', require: './src/require.cjs' },
        output: { path: join(dir, 'webpack'), filename: '[name].js' },
        performance: { hints: false },
      }, (error, result) => (error ? reject(error) : resolve(result)));
    });
    const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
    assert.deepEqual([...errors, ...warnings].map((w) => w.message), []);
    writeFiles(dir, { 'webpack/index.html': html('main.js'), 'webpack/require.html': html('require.js') });
    // webpack emitted rules.wasm itself, from `new URL('./rules.wasm', import.meta.url)`.
    assert.ok(readdirSync(join(dir, 'webpack')).some((name) => name.endsWith('.wasm')));
    await assertPageRuns('webpack');
    const { result, problems } = await loadPage(browser, `${origin(server)}/webpack/require.html`);
    assert.deepEqual(problems, []);
    assert.deepEqual(result, { countTokens: expected.countTokens, stamp: 'bigint', exact: 2 });
  });

  it('Vite', async () => {
    const { build } = await import('vite');
    const warnings = [];
    const logger = {
      info() {}, clearScreen() {}, hasErrorLogged: () => false, hasWarned: false,
      warn(message) { warnings.push(message); }, warnOnce(message) { warnings.push(message); },
      error(message) { warnings.push(message); },
    };
    writeFiles(dir, { 'vite-src/index.html': html('../src/main.js') });
    await build({
      root: join(dir, 'vite-src'),
      base: './',
      logLevel: 'warn',
      customLogger: logger,
      build: { outDir: join(dir, 'vite'), emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
    });
    assert.deepEqual(warnings, []);
    assert.ok(readdirSync(join(dir, 'vite/assets')).some((name) => name.endsWith('.wasm')));
    await assertPageRuns('vite');
  });

  it('Rollup with @rollup/plugin-node-resolve (browser)', async () => {
    const { rollup } = await import('rollup');
    const { nodeResolve } = await import('@rollup/plugin-node-resolve');
    const warnings = [];
    const bundle = await rollup({
      input: join(dir, 'src/main.js'),
      plugins: [nodeResolve({ browser: true, rootDir: dir })],
      onwarn: (warning) => warnings.push(warning.message),
    });
    await bundle.write({ dir: join(dir, 'rollup'), format: 'es' });
    await bundle.close();
    assert.deepEqual(warnings, []);
    copyRulesWasm('rollup');
    writeFiles(dir, { 'rollup/index.html': html('main.js') });
    await assertPageRuns('rollup');
  });

  it('esbuild, platform browser', async () => {
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      absWorkingDir: dir,
      entryPoints: ['src/main.js'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      outfile: join(dir, 'esbuild/main.js'),
      logLevel: 'silent',
    });
    assert.deepEqual([...result.errors, ...result.warnings].map((w) => w.text), []);
    copyRulesWasm('esbuild');
    writeFiles(dir, { 'esbuild/index.html': html('main.js') });
    await assertPageRuns('esbuild');
  });

  it('no bundler: native ES modules with an import map', async () => {
    const dist = '/node_modules/@devs/context/dist';
    const imports = {
      '@devs/context': `${dist}/index.browser.mjs`,
      '@devs/context/tokenizers': `${dist}/tokenizers.mjs`,
      '@devs/context/slim': `${dist}/slim.mjs`,
    };
    writeFiles(dir, {
      'native/index.html': html('/src/main.js', `<script type="importmap">${JSON.stringify({ imports })}</script>`),
    });
    await assertPageRuns('native');
  });
});
