// Helpers for the packaging tests: run commands, pack the package once, and build
// throwaway host projects in a temp dir.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const repoRoot = join(pkgDir, '..');
export const bin = (name) => join(pkgDir, 'node_modules', '.bin', name);

/** Runs a command and returns its stdout; a failure throws with stderr included. */
export function run(cmd, args, cwd, env = {}) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${error.stdout}\n${error.stderr}`);
  }
}

export function tempDir(label) {
  return mkdtempSync(join(tmpdir(), `devs-context-${label}-`));
}

export function writeFiles(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

let tarball;
/** `npm pack` of the built package, made once per test process. */
export function packedTarball() {
  if (!tarball) {
    const out = tempDir('pack');
    const name = run('npm', ['pack', '--silent', '--pack-destination', out], pkgDir).trim().split('\n').pop();
    tarball = join(out, name);
  }
  return tarball;
}

/** A host project with the packed package installed from its tarball (no network). */
export function hostProject(label, files, pkgJson = {}) {
  const dir = tempDir(label);
  writeFiles(dir, { 'package.json': JSON.stringify({ name: `host-${label}`, private: true, ...pkgJson }), ...files });
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', packedTarball()], dir);
  return dir;
}
