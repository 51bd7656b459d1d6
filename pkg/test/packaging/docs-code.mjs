// The code of the README and of the guides (docs/guides/*.md), compiled together: one
// `tsc` over every block per set of SDK releases, not one per page. Each page's test reads
// the errors in its own blocks, and every error outside any block (a library's own types,
// with skipLibCheck false) fails them all. In a run of scripts/test.sh (DEVS_TEST_RUN) the
// first test to ask compiles, in the run's folder, and the others wait for its result.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NEWEST_SDKS, docsProject, repoRoot, runAsync, tsc } from './harness.mjs';

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** The README's `ts` blocks: `{ name, code, line }`, compiled as `src/readme/<name>.mts`. */
export function readmeBlocks() {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m, i) => ({
    name: `block-${String(i + 1).padStart(2, '0')}`,
    code: m[1],
    line: lineOf(readme, m.index),
  }));
}

const guidesDir = join(repoRoot, 'docs/guides');
export const guides = readdirSync(guidesDir).filter((f) => f.endsWith('.md')).sort();

/** The guides' `ts` and `js` blocks: `{ file, lang, name, code, line }`, as `src/guides/<name>.mts` and `cjs/<name>.cjs`. */
export function guideBlocks() {
  return guides.flatMap((file) => {
    const text = readFileSync(join(guidesDir, file), 'utf8');
    const stem = file.replace(/\.md$/, '');
    return [...text.matchAll(/^```(ts|js)\n([\s\S]*?)^```$/gm)].map((m, i) => ({
      file,
      lang: m[1],
      name: `${stem}-${String(i + 1).padStart(2, '0')}`,
      code: m[2],
      line: lineOf(text, m.index),
    }));
  });
}

/** The SDK releases the blocks compile against, by name: `docsProject`'s `sources`. */
export const SDK_SETS = {
  lockfile: {},
  newest: NEWEST_SDKS,
  'oldest-ai': { ai: 'ai-oldest', '@ai-sdk/provider': 'ai-oldest/node_modules/@ai-sdk/provider' },
};

function files() {
  const out = {};
  for (const b of readmeBlocks()) out[`src/readme/${b.name}.mts`] = b.code;
  for (const b of guideBlocks()) out[b.lang === 'ts' ? `src/guides/${b.name}.mts` : `cjs/${b.name}.cjs`] = b.code;
  return out;
}

async function compile(set, root) {
  const dir = docsProject(`docs-${set}`, files(), SDK_SETS[set], root);
  let errors = '';
  try {
    await runAsync('node', [tsc, '-p', '.'], dir);
  } catch (error) {
    errors = String(error.message);
  }
  return { dir, errors };
}

const compiled = new Map();
/**
 * Every block compiled against `set` (a key of SDK_SETS): `{ dir, errors }`, the project
 * (its `out/` holds the emitted blocks, `cjs/` the js ones) and what `tsc` said.
 */
export function docsCompiled(set) {
  if (!compiled.has(set)) compiled.set(set, process.env.DEVS_TEST_RUN ? once(set, process.env.DEVS_TEST_RUN) : compile(set));
  return compiled.get(set);
}

// The first process to take the lock (an atomic mkdir) compiles; the others read its result.
async function once(set, shared) {
  const result = join(shared, `docs-${set}.json`);
  const root = join(shared, 'docs');
  mkdirSync(root, { recursive: true });
  let mine = true;
  try {
    mkdirSync(join(shared, `docs-${set}.lock`));
  } catch {
    mine = false;
  }
  if (mine) {
    let out;
    try {
      out = await compile(set, root);
    } catch (error) {
      out = { failed: String(error.stack ?? error) };
    }
    writeFileSync(result, JSON.stringify(out));
  }
  for (let waited = 0; !existsSync(result); waited += 200) {
    if (waited > 15 * 60_000) throw new Error(`no ${result} after 15 minutes: the test compiling it died`);
    await sleep(200);
  }
  const out = JSON.parse(readFileSync(result, 'utf8'));
  if (out.failed) throw new Error(`compiling the docs' blocks against ${set} failed: ${out.failed}`);
  return out;
}

/**
 * The errors of `tsc`'s output that are `mine` (a path prefix: 'src/readme/') or in no
 * block at all: those in another page's blocks are that page's.
 */
export function errorsOf(errors, mine) {
  const diagnostics = errors.split(/\n(?=\S)/).filter((d) => /error TS\d+/.test(d));
  // A tsc that failed without a diagnostic (it crashed) fails every page.
  if (errors && !diagnostics.length) return errors;
  const other = (d) => /^src\/(readme|guides)\//.test(d) && !d.startsWith(mine);
  return diagnostics.filter((d) => !other(d)).join('\n');
}
