#!/usr/bin/env node
// Redraws the guides' pictures from the code as it is: the replay report of the Claude
// Code session at 50k (docs/images/replay-report.png, through Chromium), the cache chart
// of bench/cache.mjs (docs/images/cache-share.svg), and the computer-use loop of
// bench/multimodal.mjs at 30k (docs/images/multimodal.svg). Run after `bash scripts/build.sh`:
//   node scripts/images.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'pkg/package.json'));
const { chromium } = require('playwright-core');
const dir = mkdtempSync(join(tmpdir(), 'devs-context-images-'));
try {
  const html = join(dir, 'report.html');
  execFileSync('node', [join(root, 'pkg/dist/cli.mjs'), 'replay', join(root, 'pkg/test/fixtures/sessions/claude-code-session.jsonl'),
    '--counter', 'o200k_base', '--budget', '50000', '--cost', '--quiet', '--html', html], { stdio: ['ignore', 'inherit', 'inherit'] });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(pathToFileURL(html).href);
  await page.screenshot({ path: join(root, 'docs/images/replay-report.png'), fullPage: true });
  await browser.close();
  console.log('wrote docs/images/replay-report.png');
  execFileSync('node', [join(root, 'bench/cache.mjs'), '--svg', join(root, 'docs/images/cache-share.svg')], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log('wrote docs/images/cache-share.svg');
  execFileSync('node', [join(root, 'bench/multimodal.mjs'), '--budget', '30000', '--loop', 'computer', '--svg', join(root, 'docs/images/multimodal.svg')], { stdio: ['ignore', 'ignore', 'inherit'] });
  console.log('wrote docs/images/multimodal.svg');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
