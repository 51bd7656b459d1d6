#!/usr/bin/env node
// Builds the replay entries into pkg/dist (after pkg/scripts/build.mjs): the
// `devs-context` CLI, `@devs/context/replay` (ESM, for Node and the www/ page) and the
// report view as a classic script (inlined into the CLI's HTML reports). All of them use
// the package's own entries for the rules, so no wasm is bundled twice.
import { chmodSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(pkgDir, 'dist');
const external = ['@devs/context', '@devs/context/tokenizers'];
const shared = { bundle: true, target: 'es2022', legalComments: 'none', logLevel: 'warning', external };

await esbuild.build({ ...shared, entryPoints: [join(pkgDir, 'src/replay/cli.ts')], platform: 'node', format: 'esm',
  outfile: join(dist, 'cli.mjs'), banner: { js: '#!/usr/bin/env node' } });
chmodSync(join(dist, 'cli.mjs'), 0o755);
await esbuild.build({ ...shared, entryPoints: [join(pkgDir, 'src/replay/index.ts')], platform: 'neutral', format: 'esm',
  outfile: join(dist, 'replay.mjs') });
await esbuild.build({ ...shared, entryPoints: [join(pkgDir, 'src/replay/view.ts')], platform: 'browser', format: 'iife',
  globalName: 'DevsReplayView', outfile: join(dist, 'replay-view.js') });
