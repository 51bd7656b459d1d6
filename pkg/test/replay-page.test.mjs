// www/index.html in headless Chromium: it replays a shipped sample in wasm, draws the
// chart, and its markers fall at the turns the ledger names, its token axis has numbers,
// the manager's marks are drawn, each rule that fired has a lane; the console shows no errors.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const types = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.json': 'application/json' };

function serve() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    let body;
    try {
      body = await readFile(join(root, path));
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const chromium = (url, ...flags) => promisify(execFile)('chromium', [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', `--user-data-dir=${mkdtempSync(join(tmpdir(), 'chromium-'))}`,
  '--virtual-time-budget=60000', ...flags, url,
], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });

it('www/index.html replays a sample with markers at the ledger\'s turns', async () => {
  const server = await serve();
  try {
    const url = `http://127.0.0.1:${server.address().port}/www/index.html?sample=samples/swe-agent-marshmallow-1867.traj&autorun`;
    const { stdout } = await chromium(url, '--dump-dom');
    const json = /<script type="application\/json" id="result">([\s\S]*?)<\/script>/.exec(stdout);
    assert.ok(json, `the page finished: ${/<p id="status"[^>]*>([^<]*)/.exec(stdout)?.[1]}`);
    const result = JSON.parse(json[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
    assert.deepEqual(result.errors, [], 'no console errors');
    assert.ok(result.turns.length > 5);
    const drawn = [...stdout.matchAll(/<circle[^>]*class="marker"[^>]*data-marker="([^"]+)"[^>]*data-turn="(\d+)"/g)].map((m) => `${m[2]}:${m[1]}`).sort();
    const named = result.turns.flatMap((t) => t.markers.map((m) => `${t.turn}:${m}`)).sort();
    assert.ok(named.length > 0, 'some rule fired');
    assert.deepEqual(drawn, named, 'each marker is drawn at the turn the ledger names');
    for (const t of result.turns) {
      if (t.ledger.compaction?.masked.length) assert.ok(t.markers.includes('mask'), `turn ${t.turn} masked`);
    }
    // The token axis carries numbers, and the manager's marks are drawn at the replay's values.
    const ticks = [...stdout.matchAll(/<text[^>]*class="tick tokens"[^>]*>([^<]*)<\/text>/g)].map((m) => Number(m[1].replace(/,/g, '')));
    assert.ok(ticks.length >= 3 && ticks.every(Number.isFinite) && ticks[0] === 0, `token labels: ${ticks}`);
    const markAt = (mark) => {
      const line = [...stdout.matchAll(/<line [^>]*>/g)].map((m) => m[0]).find((l) => l.includes(`data-mark="${mark}"`));
      return Number(/data-tokens="([^"]+)"/.exec(line ?? '')?.[1]);
    };
    assert.ok(result.marks.highWater > result.marks.lowWater && result.marks.lowWater > 0, JSON.stringify(result.marks));
    assert.equal(markAt('highWater'), result.marks.highWater);
    assert.equal(markAt('lowWater'), result.marks.lowWater);
    // A lane only for the rules that fired.
    const lanes = [...stdout.matchAll(/<text[^>]*class="lane"[^>]*data-marker="([^"]+)"/g)].map((m) => m[1]).sort();
    assert.deepEqual(lanes, [...new Set(named.map((n) => n.split(':')[1]))].sort());
    const shot = join(mkdtempSync(join(tmpdir(), 'shot-')), 'replay.png');
    await chromium(url, `--screenshot=${shot}`, '--window-size=1280,1400');
    assert.ok(existsSync(shot) && statSync(shot).size > 10_000, 'a screenshot was saved');
    assert.equal(readFileSync(shot).subarray(1, 4).toString(), 'PNG');
  } finally {
    server.close();
  }
});
