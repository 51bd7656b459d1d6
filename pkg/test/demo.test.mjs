// The demo (examples/demo.mjs): its chart draws the runner's ledger, and each rule's
// marker falls at a turn where that rule fired, by the ledger or by the runner's results.
// Run on a small budget, where every step of the bound fires.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
const { replay, RULES } = await import('../../examples/replay.mjs');
const { chartData, reportHtml, SECTIONS } = await import('../../examples/report.mjs');

const BUDGET = 20_000;
const dir = mkdtempSync(join(tmpdir(), 'devs-demo-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

/** The chart's embedded JSON, its bars and its markers, read back from the page. */
function readPage(html) {
  const json = /<script type="application\/json" id="chart-data">([^<]*)<\/script>/.exec(html);
  assert.ok(json, 'the page embeds its data');
  const bars = [...html.matchAll(/<rect class="bar" [^>]*data-turn="(\d+)" data-section="(\w+)" data-tokens="([\d.]+)"/g)]
    .map((m) => ({ turn: +m[1], section: m[2], tokens: +m[3] }));
  const markers = [...html.matchAll(/<circle class="marker" [^>]*data-rule="(\w+)" data-turn="(\d+)"/g)].map((m) => ({ rule: m[1], turn: +m[2] }));
  return { chart: JSON.parse(json[1]), bars, markers };
}

/** The turns at which the ledger says a step of the bound fired. */
function ledgerTurns(ledger) {
  return {
    mask: ledger.filter((l) => l.masked.length).map((l) => l.turn),
    cut: ledger.filter((l) => l.cut.length).map((l) => l.turn),
    summary: ledger.filter((l) => l.summarized).map((l) => l.turn),
    drop: ledger.filter((l) => l.dropped).map((l) => l.turn),
  };
}

describe('the demo, through its data function', () => {
  let data;
  let page;
  before(async () => {
    data = await replay({ budget: BUDGET, turns: 40, counter: 'o200k_base', dbPath: join(dir, 'replay.sqlite') });
    page = readPage(reportHtml(data));
  });

  it('replays the turns asked for, with a ledger record each', () => {
    assert.equal(data.rows.length, 40);
    assert.deepEqual(data.ledger.map((l) => l.turn), data.rows.map((r) => r.turn));
    assert.deepEqual(data.ledgerJsonl.trim().split('\n').map((line) => JSON.parse(line)), data.ledger);
  });

  it("embeds the ledger's sections, turn by turn, as the chart's data", () => {
    assert.deepEqual(page.chart, JSON.parse(JSON.stringify(chartData(data))));
    assert.deepEqual(page.chart.turns.map((t) => t.turn), data.ledger.map((l) => l.turn));
    page.chart.turns.forEach((t, i) => assert.deepEqual(t.sections, data.ledger[i].sections, `turn ${t.turn}`));
    assert.equal(page.chart.budget, BUDGET);
    assert.equal(page.chart.pruneAt, BUDGET * 0.9);
  });

  it('draws one bar segment per non-zero section, of the ledger’s size', () => {
    const expected = data.ledger.flatMap((l) => SECTIONS.filter((s) => l.sections[s.id] > 0).map((s) => ({ turn: l.turn, section: s.id, tokens: l.sections[s.id] })));
    assert.deepEqual(page.bars, expected);
  });

  it("puts each bound marker at a turn where the ledger names that step, and misses none", () => {
    const named = ledgerTurns(data.ledger);
    for (const rule of Object.keys(named)) {
      assert.deepEqual(page.markers.filter((m) => m.rule === rule).map((m) => m.turn), named[rule], rule);
    }
    // On a 20k budget the bound masks, cuts and summarizes.
    for (const rule of ['mask', 'cut', 'summary']) assert.ok(named[rule].length > 0, `${rule} fires on a ${BUDGET} budget`);
  });

  it("puts each other rule's marker at a turn where the runner reported it", () => {
    const turnsOf = (rule) => page.markers.filter((m) => m.rule === rule).map((m) => m.turn);
    assert.deepEqual(turnsOf('spec'), data.rows.filter((r) => r.specInjected).map((r) => r.turn));
    assert.deepEqual(turnsOf('truncate'), data.rows.filter((r) => r.truncated > 0).map((r) => r.turn));
    // The prune fires exactly when the count it is asked about reaches 90% of the budget,
    // and the monitor's refresh when its total reaches the threshold.
    assert.deepEqual(turnsOf('prune'), data.rows.filter((r) => r.prune !== null && r.prune >= r.pruneAt).map((r) => r.turn));
    assert.ok(turnsOf('prune').length > 0, `the prune fires on a ${BUDGET} budget`);
    assert.deepEqual(turnsOf('handoff'), data.rows.filter((r) => r.monitor >= r.threshold).map((r) => r.turn));
    assert.deepEqual(turnsOf('reasoning'), data.rows.filter((r) => r.turn % 5 === 0).map((r) => r.turn));
    const known = new Set(RULES.map((r) => r.id));
    for (const m of page.markers) assert.ok(known.has(m.rule), m.rule);
  });

  it('shows the monitor total it compares with the threshold', () => {
    let before = 0;
    for (const r of data.rows) {
      if (r.monitor < r.threshold) assert.equal(r.monitorAfter, before + r.monitorDelta, `turn ${r.turn}`);
      before = r.monitorAfter;
    }
  });

  it('counts pruned turns, not messages', () => {
    let from = 1;
    for (const r of data.rows) {
      const e = r.events.find((ev) => ev.rule === 'prune');
      if (!e) continue;
      assert.equal(e.fromTurn, from);
      assert.equal(e.toTurn, r.turn - 1);
      assert.equal(e.turns, r.turn - from);
      const n = r.turn - from;
      const span = n === 1 ? `turn ${from} \\(1 turn` : `turns ${from}–${r.turn - 1} \\(${n} turns`;
      assert.match(e.text, new RegExp(`${span}, \\d+ messages\\)`));
      from = r.turn;
    }
  });

  it('keeps every prompt it sends within the budget', () => {
    for (const r of data.rows) assert.ok(r.promptTokens <= BUDGET, `turn ${r.turn}: ${r.promptTokens}`);
  });

  it('charts a ledger that describes the prompt that was sent', () => {
    data.rows.forEach((r, i) => assert.equal(data.ledger[i].promptTokens, r.promptTokens, `turn ${r.turn}`));
    page.chart.turns.forEach((t) => assert.ok(Object.values(t.sections).reduce((a, b) => a + b, 0) <= BUDGET, `turn ${t.turn}: the bar is within the budget`));
  });
});

describe('the demo, as a command', () => {
  it('writes the ledger and a page whose chart data is that ledger', () => {
    const out = join(dir, 'cli');
    const stdout = execFileSync(process.execPath, [demo, '--budget', String(BUDGET), '--turns', '30', '--counter', 'heuristic', '--out', out], { encoding: 'utf8' });
    const ledger = readFileSync(join(out, 'ledger.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.equal(ledger.length, 30);
    assert.ok(ledger.every((l) => l.budget === BUDGET && l.counter === 'countTokens'));
    const page = readPage(readFileSync(join(out, 'report.html'), 'utf8'));
    assert.deepEqual(page.chart.turns.map((t) => [t.turn, t.sections]), ledger.map((l) => [l.turn, l.sections]));
    const named = ledgerTurns(ledger);
    for (const rule of Object.keys(named)) assert.deepEqual(page.markers.filter((m) => m.rule === rule).map((m) => m.turn), named[rule], rule);
    assert.deepEqual(page.markers, page.chart.markers.map(({ rule, turn }) => ({ rule, turn })));
    // The page needs nothing from the network.
    assert.doesNotMatch(readFileSync(join(out, 'report.html'), 'utf8'), /\b(src|href)="(https?:)?\/\//);

    // A header, one line per turn, and each event told in words once.
    const lines = stdout.split('\n');
    assert.ok(lines.some((l) => /^turn\s+phase\s+tool\s+output │\s+prune count │\s+monitor │\s+prompt │ fired$/.test(l)), 'a header row');
    assert.equal(lines.filter((l) => /^\s*\d+ {2}\w+/.test(l)).length, 30);
    assert.ok(lines.filter((l) => l.includes('[first truncation')).length === 1);
    assert.ok(lines.filter((l) => l.includes('truncated in the context')).length <= 1, 'truncations are told once');
    assert.match(stdout, /prune: [\d,]+ ≥ 18,000, so turns 1–\d+ \(\d+ turns, \d+ messages\)/);
  });

  it('prints its help, and refuses bad options, before touching the package', () => {
    const help = spawnSync(process.execPath, [demo, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--budget N/);
    assert.match(help.stdout, /--counter NAME/);
    for (const args of [['--budget', 'lots'], ['--budget', '10'], ['--counter', 'p50k'], ['--bogus']]) {
      const bad = spawnSync(process.execPath, [demo, ...args], { encoding: 'utf8' });
      assert.equal(bad.status, 2, args.join(' '));
      assert.match(bad.stderr, /^demo: /);
    }
  });
});
