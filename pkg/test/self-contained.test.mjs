// A user's clone has nothing beside it: no test, bench, script, example or page may read
// a folder outside the repository (the sessions it needs are in fixtures/sessions/).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FOLDERS = ['pkg/test', 'pkg/scripts', 'pkg/src', 'tests', 'bench', 'scripts', 'examples', 'www', '.ci'];
const CODE = /\.(mjs|cjs|js|ts|mts|sh|html|rs)$|^run$/;
// The shared folder written as a relative path, or as path segments joined at run time.
const OUTSIDE = [/\.\.[\\/]+(\.\.[\\/]+)*shared\b/, /['"]\.\.['"]\s*,\s*(['"]\.\.['"]\s*,\s*)*['"]shared['"]/];

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'fixtures') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (CODE.test(entry.name)) yield path;
  }
}

it('no file in the repository reads the shared folder beside it', () => {
  const offenders = [];
  let scanned = 0;
  for (const folder of FOLDERS) {
    for (const path of files(join(root, folder))) {
      scanned++;
      readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
        if (OUTSIDE.some((re) => re.test(line))) offenders.push(`${relative(root, path)}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  assert.ok(scanned > 100, `scanned only ${scanned} files`);
  assert.deepEqual(offenders, []);
});

it('the pattern catches both spellings', () => {
  const dots = '..';
  for (const line of [`new URL('${dots}/${dots}/shared/transcripts/')`, `join(root, '${dots}', 'shared', 'x')`, `${dots}\\shared`]) {
    assert.ok(OUTSIDE.some((re) => re.test(line)), line);
  }
  assert.ok(!OUTSIDE.some((re) => re.test("const shared = { minify: true };")));
});
