// The demo (examples/demo.mjs), run as a command on a small budget where every step of the
// bound fires. It is a host of the package's replay engine and view: its report embeds
// the replay's result, whose markers must agree with the ledger and with what each rule
// compared against its threshold.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKERS } from '@devs/context/replay';

const root = fileURLToPath(new URL('../../', import.meta.url));
const demo = join(root, 'examples/demo.mjs');

// The examples import the package by name; scripts/demo.sh links it, and so does this test.
const link = join(root, 'examples/node_modules/@devs/context');
if (!existsSync(link)) {
  mkdirSync(dirname(link), { recursive: true });
  try {
    symlinkSync('../../../pkg', link, 'dir');
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
}

const BUDGET = 20_000;
const dir = mkdtempSync(join(tmpdir(), 'devs-demo-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function run(...args) {
  return spawnSync(process.execPath, [demo, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The replay result the report embeds for its view. */
function embedded(html) {
  // The last call: the view's own code, inlined above it, holds the same words.
  const head = "DevsReplayView.render(document.getElementById('app'), ";
  const start = html.lastIndexOf(head);
  const end = html.lastIndexOf(');</script>');
  assert.ok(start >= 0 && end > start, 'the page embeds the replay result');
  return JSON.parse(html.slice(start + head.length, end));
}

/** The turns at which the ledger says a step of the bound fired. */
function ledgerTurns(ledger) {
  return {
    mask: ledger.filter((l) => l.compaction?.masked.length).map((l) => l.request),
    cut: ledger.filter((l) => l.cut).map((l) => l.request),
    summary: ledger.filter((l) => l.compaction?.summarized).map((l) => l.request),
    drop: ledger.filter((l) => l.compaction?.dropped).map((l) => l.request),
  };
}

describe('the demo', () => {
  const out = join(dir, 'o200k');
  let stdout;
  let ledger;
  let html;
  let result;
  before(() => {
    const r = run('--budget', String(BUDGET), '--turns', '40', '--counter', 'o200k_base', '--out', out);
    assert.equal(r.status, 0, r.stderr);
    stdout = r.stdout;
    ledger = readFileSync(join(out, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    html = readFileSync(join(out, 'report.html'), 'utf8');
    result = embedded(html);
  });

  it('writes one ledger record per turn, and the report shows that ledger', () => {
    assert.equal(ledger.length, 40);
    assert.deepEqual(ledger.map((l) => l.request), Array.from({ length: 40 }, (_, i) => i + 1));
    assert.deepEqual(result.turns.map((t) => t.ledger), ledger);
    assert.ok(ledger.every((l) => l.budget === BUDGET && l.counter === 'count_o200k_base'), ledger[0].counter);
  });

  it("puts each bound marker at a turn where the ledger names that step, and misses none", () => {
    const named = ledgerTurns(ledger);
    for (const rule of Object.keys(named)) {
      assert.deepEqual(result.turns.filter((t) => t.markers.includes(rule)).map((t) => t.turn), named[rule], rule);
    }
    for (const rule of ['mask', 'cut', 'summary']) assert.ok(named[rule].length > 0, `${rule} fires on a ${BUDGET} budget`);
  });

  it("puts each other rule's marker where that rule's number reached its threshold", () => {
    const at = (marker) => result.turns.filter((t) => t.markers.includes(marker)).map((t) => t.turn);
    assert.deepEqual(at('prune'), result.turns.filter((t) => t.pruneTokens !== null && t.pruneTokens >= BUDGET * 0.9).map((t) => t.turn));
    assert.ok(at('prune').length > 0, `the prune fires on a ${BUDGET} budget`);
    assert.deepEqual(at('handoff'), result.turns.filter((t) => t.monitorTokens >= result.settings.thresholdTokens).map((t) => t.turn));
    assert.deepEqual(at('context-refresh'), result.turns.filter((t) => t.turn % 5 === 0).map((t) => t.turn));
    assert.deepEqual(at('spec-refresh'), result.turns.filter((t) => t.turn % 10 === 0).map((t) => t.turn));
    for (const t of result.turns) for (const m of t.markers) assert.ok(MARKERS.includes(m), m);
  });

  it('counts pruned turns, not messages, from the turn after the last prune', () => {
    let from = 1;
    for (const t of result.turns) {
      const e = t.events.find((ev) => ev.marker === 'prune');
      if (!e) continue;
      assert.equal(e.fromTurn, from);
      assert.equal(e.toTurn, t.turn - 1);
      from = t.turn;
    }
  });

  it('keeps every prompt it sends within the budget', () => {
    for (const t of result.turns) assert.ok(t.promptTokens <= BUDGET, `turn ${t.turn}: ${t.promptTokens}`);
    for (const l of ledger) assert.ok(Object.values(l.sections).reduce((a, b) => a + b, 0) <= l.rawTokens + 1e-6);
  });

  it('prints a header, one line per turn, and each kind of event in words once', () => {
    const lines = stdout.split('\n');
    assert.ok(lines.some((l) => /^turn\s+phase\s+tool\s+output │\s+prune count │\s+monitor │\s+prompt │ fired$/.test(l)), 'a header row');
    assert.equal(lines.filter((l) => /^\s*\d+ {2}\w+/.test(l)).length, 40);
    assert.equal(lines.filter((l) => l.includes('[first masking')).length, 1);
    assert.ok(lines.filter((l) => /masked \d+ tool outputs? in the prompt/.test(l)).length === 1, 'masking is told once');
    assert.match(stdout, /prune: [\d,]+ ≥ 18,000, so turns 1–\d+ and this turn's input became one summary/);
  });

  it('writes a page that needs nothing from the network', () => {
    assert.doesNotMatch(html, /\b(src|href)="(https?:)?\/\//);
    assert.match(html, /DevsReplayView/);
  });

  it('prints its help, and refuses bad options, before touching the package', () => {
    const help = run('--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--budget N/);
    assert.match(help.stdout, /--counter NAME/);
    for (const args of [['--budget', 'lots'], ['--budget', '10'], ['--counter', 'p50k'], ['--bogus']]) {
      const bad = run(...args);
      assert.equal(bad.status, 2, args.join(' '));
      assert.match(bad.stderr, /^demo: /);
    }
  });
});
