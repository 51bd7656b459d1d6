// The past fixtures (fixtures/past/, written by scripts/past-fixtures.mjs): one folder per
// durable format and decisions number, `format-<F>-decisions-<D>/`, each holding its cases
// (a past commit's own build, at the usual options or others) in one brotli stream,
// `cases.br`. One stream per folder, files ordered by their path within the case, so that
// what two cases wrote alike is stored about once: a folder costs what its cases differ by.
//
// Inside the stream, every file is stored as written but never gzipped (a `.gz` the build
// wrote is stored unzipped, under its name without `.gz`): `<case>/manifest.json`, and
// `<case>/<session>/<point>/<file>`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

export const PAST = fileURLToPath(new URL('./fixtures/past/', import.meta.url));
export const BUNDLE = 'cases.br';

/** The folder of a durable format and decisions number. */
export const folderOf = (format, decisions) => `format-${format}-decisions-${decisions}`;

/**
 * One brotli stream of `files` (path → Buffer): a 4-byte length, a JSON header of
 * `[path, offset, length]` rows, then the bytes, identical contents stored once.
 * `order` sorts the paths (by default: by their path inside the case, then by case).
 */
export function pack(files, order = (a, b) => inCase(a).localeCompare(inCase(b)) || a.localeCompare(b)) {
  const paths = [...files.keys()].sort(order);
  const at = new Map();
  const rows = [];
  const blobs = [];
  let offset = 0;
  for (const path of paths) {
    const bytes = files.get(path);
    const key = createHash('sha256').update(bytes).digest('hex');
    if (!at.has(key)) {
      at.set(key, offset);
      blobs.push(bytes);
      offset += bytes.length;
    }
    rows.push([path, at.get(key), bytes.length]);
  }
  const header = Buffer.from(JSON.stringify(rows));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  const raw = Buffer.concat([length, header, ...blobs]);
  return brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
}

/** The files of a stream `pack` wrote, path → Buffer. */
export function unpack(compressed) {
  const raw = brotliDecompressSync(compressed);
  const length = raw.readUInt32BE(0);
  const rows = JSON.parse(raw.subarray(4, 4 + length).toString('utf8'));
  const base = 4 + length;
  return new Map(rows.map(([path, offset, n]) => [path, raw.subarray(base + offset, base + offset + n)]));
}

const inCase = (path) => path.slice(path.indexOf('/') + 1);

/**
 * Every case of every folder under `root`, oldest first: its folder, its name (the short
 * hash, or `<hash>-<what differs>`), its manifest, and its files by path inside the case.
 */
export function pastCases(root = PAST) {
  const cases = [];
  for (const folder of readdirSync(root).sort()) {
    if (!existsSync(join(root, folder, BUNDLE))) continue;
    const files = unpack(readFileSync(join(root, folder, BUNDLE)));
    const names = [...files.keys()].filter((p) => p.endsWith('/manifest.json') && p.split('/').length === 2).map((p) => p.split('/')[0]);
    for (const name of names) {
      const manifest = JSON.parse(files.get(`${name}/manifest.json`).toString('utf8'));
      const bytes = (path) => files.get(`${name}/${path}`) ?? null;
      cases.push({ ...manifest, folder, name, bytes, text: (path) => bytes(path)?.toString('utf8') ?? null });
    }
  }
  return cases.sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name));
}
