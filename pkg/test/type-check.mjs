// A scratch TypeScript project that depends on the built package by name, as a host's would:
// for the tests that type-check examples (examples.test.mjs, the adapters' docs examples).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// By path: other TypeScript versions are installed too.
export const tsc = join(pkgDir, 'node_modules/typescript/bin/tsc');

/** Every package of pkg/node_modules (the adapters' examples import their framework): `{ name: path under pkg/ }`. */
export function allModules() {
  const out = {};
  for (const name of readdirSync(join(pkgDir, 'node_modules'))) {
    if (name !== '@devs' && !name.startsWith('.')) out[name] = join('node_modules', name);
  }
  return out;
}

/** A host's strict project, the libraries' own declarations not checked. */
const HOST_OPTIONS = { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, lib: ['es2022', 'dom'], types: ['node'], skipLibCheck: true };

/**
 * A project in a new temp dir (`devs-context-<label>-…`): `@devs/context` linked to pkg/,
 * each of `modules` (`{ name: path under pkg/ }`) linked under its name, a package.json of
 * an ES module project, a tsconfig.json of `compilerOptions` (a host's strict project's by
 * default) over `include` (`*.ts` by default), and `files`. Returns its directory; the caller removes it.
 */
export function scratchProject(label, { modules, compilerOptions = HOST_OPTIONS, files = {}, include = ['*.ts'] }) {
  const dir = mkdtempSync(join(tmpdir(), `devs-context-${label}-`));
  try {
    for (const [name, target] of Object.entries({ '@devs/context': '.', ...modules })) {
      const at = join(dir, 'node_modules', name);
      mkdirSync(dirname(at), { recursive: true });
      symlinkSync(join(pkgDir, target), at, 'dir');
    }
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'examples', private: true, type: 'module' }));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include }, null, 2));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** What `tsc -p dir` (and `args`) says when it fails; null when it passes. */
export function typeErrors(dir, args = []) {
  try {
    execFileSync(process.execPath, [tsc, '-p', dir, ...args], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    return null;
  } catch (error) {
    return `${error.stdout ?? ''}${error.stderr ?? ''}`;
  }
}

/** What `tsc` says of a scratch project made as `scratchProject(label, options)` (null when it passes); the project is removed after. */
export function checkScratch(label, options) {
  const dir = scratchProject(label, options);
  try {
    return typeErrors(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `checkScratch` for several hosts at once: `files` (`{ 'name.ts': text }`) compiled by
 * one `tsc` in one scratch project, as separate modules; what it says of each, by file
 * (null when it passes). An error in no file of `files` (a library's, the config's) is
 * every file's.
 */
export function checkEach(label, { files, ...options }) {
  const output = checkScratch(label, { ...options, files, include: Object.keys(files) }) ?? '';
  const diagnostics = output.split(/\n(?=\S)/).filter((d) => d.trim());
  const own = (name) => (d) => d.startsWith(`${name}(`);
  const nobody = diagnostics.filter((d) => !Object.keys(files).some((name) => own(name)(d)));
  return Object.fromEntries(Object.keys(files).map((name) => {
    const mine = [...diagnostics.filter(own(name)), ...nobody];
    return [name, mine.length ? mine.join('\n') : null];
  }));
}
