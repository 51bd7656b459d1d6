// `devs-context eval` on a vendored real session (pkg/test/fixtures/sessions/, a Claude Code
// session and a mini-SWE-agent one): a table per budget with a row for each strategy, the
// totals first; `--json` holds the same figures `evaluate()` gives for the same sessions;
// `--html` is one self-contained file with a chart per budget and session.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTranscript } from '@devs/context/replay';
import { evaluate } from '@devs/context/eval';

const cli = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
const files = ['claude-code-short-session.jsonl', 'mini-swe-agent-xarray-4629.traj.json'].map((f) => fileURLToPath(new URL(`./fixtures/sessions/${f}`, import.meta.url)));
const IDS = ['ours', 'auto-compact', 'langchain-summarization', 'langchain-context-editing', 'ai-sdk-prune'];

/** `value` without its timings (ms), which differ from run to run. */
function untimed(value) {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'ms' || key === 'runMs' || key === 'cpuMs' || key === 'buildMs' ? undefined : v)));
}

describe('devs-context eval on real sessions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-cli-'));
  const json = join(dir, 'out.json');
  const html = join(dir, 'report.html');
  const r = spawnSync(process.execPath, [cli, 'eval', ...files, '--budget', '50000,20000', '--json', json, '--html', html], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

  it('prints a table per budget, each strategy a row, the totals over all sessions first', () => {
    assert.equal(r.status, 0, r.stderr);
    for (const budget of ['50k', '20k']) {
      const at = r.stdout.indexOf(`## ${budget}: all 2 sessions`);
      assert.ok(at >= 0, `no table at ${budget}`);
      const rows = r.stdout.slice(at).split('\n').slice(4, 4 + IDS.length);
      assert.deepEqual(rows.map((l) => l.split(' | ')[0].slice(2)), IDS);
      assert.ok(r.stdout.indexOf(`### ${budget}: each session`) > at);
    }
    assert.match(r.stdout, /prices: Anthropic: reads 0\.1×, writes 1\.25× \(5-minute cache\); cache lifetime 5 min/);
    assert.match(r.stdout, /note: no timestamps: priced with no expiry/);
    for (const id of IDS) assert.match(r.stdout, new RegExp(`^  ${id}: .+ From: `, 'm'));
    assert.equal(r.stderr, '', 'no progress bar when stderr is not a terminal');
  });

  it('writes the figures evaluate() gives for the same sessions to --json', async () => {
    const written = JSON.parse(readFileSync(json, 'utf8'));
    const sessions = files.flatMap((f) => parseTranscript(readFileSync(f, 'utf8'), f.split('/').at(-1)));
    const result = await evaluate(sessions, { budgets: [50_000, 20_000] });
    assert.deepEqual(untimed(written), untimed(result));
    assert.equal(written.totals.length, 2 * IDS.length);
    const ours = written.totals.find((f) => f.budget === 20_000 && f.strategy === 'ours');
    assert.equal(ours.overBudget, 0);
    assert.equal(ours.invalid, 0);
    assert.ok(ours.recall > 0 && ours.recall <= 1);
  });

  it('writes a self-contained HTML report with a chart per budget and session', () => {
    const page = readFileSync(html, 'utf8');
    assert.equal((page.match(/<svg /g) ?? []).length, 4);
    assert.doesNotMatch(page, /<script|<link|src="http|href="http/);
    for (const id of IDS) assert.match(page, new RegExp(`>${id}</text>`));
    rmSync(dir, { recursive: true, force: true });
  });
});
