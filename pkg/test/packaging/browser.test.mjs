// www/ in a real browser: headless Chromium loads the ESM entry (inline wasm, instantiated
// synchronously on the main thread) and runs 40 turns of AgentRunner with every rule on.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot, tempDir } from './harness.mjs';

const types = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript' };

/** Serves the repository read-only on loopback. */
function serve() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    try {
      const body = await readFile(join(repoRoot, path));
      res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

it('www/ runs the rules in headless Chromium', async () => {
  const server = await serve();
  try {
    const url = `http://127.0.0.1:${server.address().port}/www/index.html?autorun`;
    const { stdout } = await promisify(execFile)('chromium', [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--user-data-dir=${tempDir('chromium')}`, '--virtual-time-budget=20000', '--dump-dom', url,
    ], { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 });
    assert.match(stdout, /<span id="status">40 turns; 40 log entries; \d+ raw outputs kept<\/span>/);
    const rows = stdout.match(/<tr><td class="num">/g) ?? [];
    assert.equal(rows.length, 40);
    assert.match(stdout, /spec refresh, reasoning refresh/);
    assert.match(stdout, /truncated 1/);
  } finally {
    server.close();
  }
});
