// The packaging tier's shared work, done once per run of scripts/test.sh: `npm pack` of
// the built package into the folder named by the first argument (its path in the file
// `tarball` there), and one host project (`host/`) with it installed. The harness then
// reads both (DEVS_TEST_RUN) instead of packing and installing in every test file.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { install, pack } from './harness.mjs';

const [folder] = process.argv.slice(2);
if (!folder) throw new Error('usage: node pkg/test/packaging/prepare.mjs FOLDER');
const dest = resolve(folder);
const host = join(dest, 'host');
rmSync(host, { recursive: true, force: true });
mkdirSync(host, { recursive: true });
const tarball = pack(dest);
writeFileSync(join(host, 'package.json'), JSON.stringify({ name: 'host-shared', private: true }));
install(host, tarball);
writeFileSync(join(dest, 'tarball'), `${tarball}\n`);
