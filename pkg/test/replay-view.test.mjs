// The replay report's chart (pkg/src/replay/view.ts, the CLI's HTML report and the www/
// page), drawn from real replays of the vendored sessions into a minimal DOM: its token
// axis carries numbers, it draws the manager's own marks (highWater, lowWater) where the
// ledger says they are, and it has a lane for each rule that fired and none for a rule
// that did not.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_SETTINGS, parseTranscript, render, replay } from '../dist/replay.mjs';

/** Just enough of a DOM for the view: elements with attributes, text and children. */
class Element {
  constructor(tag) {
    this.tag = tag;
    this.attributes = new Map();
    this.children = [];
    this.text = '';
  }
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name) {
    return this.attributes.get(name) ?? null;
  }
  append(...nodes) {
    this.children.push(...nodes);
  }
  addEventListener() {}
  set textContent(value) {
    this.children = [];
    this.text = String(value);
  }
  get textContent() {
    return this.text + this.children.map((c) => c.textContent).join('');
  }
  /** Every element below this one, in document order, that `test` keeps. */
  all(test) {
    return this.children.flatMap((c) => (c instanceof Element ? [...(test(c) ? [c] : []), ...c.all(test)] : []));
  }
}
class Text {
  constructor(text) {
    this.textContent = text;
  }
}
globalThis.document = {
  createElement: (tag) => new Element(tag),
  createElementNS: (_ns, tag) => new Element(tag),
  createTextNode: (text) => new Text(text),
};

const session = (name) => {
  const file = new URL(`./fixtures/sessions/${name}`, import.meta.url);
  return parseTranscript(readFileSync(file, 'utf8'), name)[0];
};

/** The report of `result` as the view draws it: its token chart, and the whole page. */
function draw(result) {
  const page = new Element('div');
  render(page, result);
  const [chart] = page.all((e) => e.getAttribute('class') === 'chart');
  assert.ok(chart, 'the view drew its chart');
  return { page, chart };
}

const hasClass = (name) => (e) => (e.getAttribute('class') ?? '').split(' ').includes(name);

/** The token axis's labels: the number each shows, and the height it is drawn at. */
function tokenTicks(chart) {
  return chart.all((e) => e.tag === 'text' && hasClass('tick')(e) && hasClass('tokens')(e)).map((e) => ({
    tokens: Number(e.textContent.replace(/,/g, '')),
    y: Number(e.getAttribute('y')) - 3, // the label sits 3 below its grid line, centred on it
  }));
}

/** The height `tokens` is at on the axis the labels describe (a straight line through two of them). */
function heightOf(ticks, tokens) {
  const [a, b] = [ticks[0], ticks[ticks.length - 1]];
  return a.y + ((tokens - a.tokens) * (b.y - a.y)) / (b.tokens - a.tokens);
}

function markLine(chart, mark) {
  const [line] = chart.all((e) => e.tag === 'line' && e.getAttribute('data-mark') === mark);
  assert.ok(line, `a line for ${mark}`);
  return line;
}

const lanes = (chart) => chart.all((e) => e.tag === 'text' && hasClass('lane')(e)).map((e) => e.getAttribute('data-marker'));

describe('the replay report chart', () => {
  // The bounded runner at 20,000 tokens, marks moved from their defaults: it masks and
  // summarizes, and never hands off (the monitor's 800,000 is never reached).
  const runner = replay(session('mini-swe-agent-django-11138.traj.json'), { ...DEFAULT_SETTINGS, budget: 20_000, highWater: 0.6, lowWater: 0.2 }, undefined);

  it('labels its token axis with numbers, in order, from 0 past the budget', async () => {
    const result = await runner;
    const ticks = tokenTicks(draw(result).chart);
    assert.ok(ticks.length >= 3, `${ticks.length} labels`);
    for (const t of ticks) assert.ok(Number.isFinite(t.tokens), 'each label is a number');
    assert.equal(ticks[0].tokens, 0);
    assert.ok(ticks[ticks.length - 1].tokens >= result.settings.budget * 0.8, 'the labels reach the budget');
    for (let i = 1; i < ticks.length; i++) {
      assert.ok(ticks[i].tokens > ticks[i - 1].tokens, 'the numbers rise');
      assert.ok(ticks[i].y < ticks[i - 1].y, 'a larger number is drawn higher');
    }
    // The labels are one linear scale: each sits where the first and the last put it.
    for (const t of ticks) assert.ok(Math.abs(heightOf(ticks, t.tokens) - t.y) < 0.01, `${t.tokens} at ${t.y}`);
  });

  it("draws the manager's marks where its ledger puts them, and no seed prune line", async () => {
    const result = await runner;
    const compaction = result.turns.find((t) => t.ledger.compaction)?.ledger.compaction;
    assert.ok(compaction, 'the run compacted');
    // The report's data names the marks the manager used: those of its ledger.
    assert.deepEqual(result.marks, { highWater: compaction.highWater, lowWater: compaction.lowWater });
    assert.deepEqual(result.marks, { highWater: 12_000, lowWater: 4_000 }, 'the settings moved them');
    const { chart } = draw(result);
    const ticks = tokenTicks(chart);
    for (const [mark, tokens] of [['highWater', 12_000], ['lowWater', 4_000]]) {
      const line = markLine(chart, mark);
      assert.equal(Number(line.getAttribute('data-tokens')), tokens);
      assert.ok(Math.abs(Number(line.getAttribute('y1')) - heightOf(ticks, tokens)) < 0.01, `${mark} at ${tokens} on the axis`);
    }
    const said = chart.all((e) => e.tag === 'text').map((e) => e.textContent).join('\n');
    assert.match(said, /high water 12,000 \(60%\)/);
    assert.match(said, /low water 4,000 \(20%\)/);
    assert.doesNotMatch(said, /90%/, "the seeds' prune point is not drawn");
  });

  it("shows each compaction's cache written and invalidated, as onCompaction reports them", async () => {
    const result = await runner;
    const compacted = result.turns.filter((t) => t.ledger.compaction);
    assert.equal(result.compactions.length, compacted.length);
    for (const c of result.compactions) {
      const i = result.turns.findIndex((t) => t.turn === c.turn);
      const t = result.turns[i];
      assert.equal(c.cacheWritten, t.ledger.cache.write);
      assert.equal(c.cacheInvalidated, Math.max(0, (result.turns[i - 1]?.ledger.tokens ?? 0) - t.ledger.cache.read));
    }
    assert.ok(result.compactions.some((c) => c.cacheInvalidated > 0), 'a compaction invalidates what the cache held');
    const { page } = draw(result);
    const drawn = page.all(hasClass('compaction')).filter((e) => e.tag === 'g');
    assert.deepEqual(drawn.map((g) => Number(g.getAttribute('data-turn'))), result.compactions.map((c) => c.turn));
    for (const [k, g] of drawn.entries()) assert.equal(Number(g.getAttribute('data-invalidated')), result.compactions[k].cacheInvalidated);
    assert.match(page.textContent, /at each of \d+ compactions, bars of the tokens it wrote to the cache \(orange, [\d,]+ in all\) and invalidated \(red, [\d,]+\)/);
  });

  it('has a lane for each rule that fired, none for a rule that did not', async () => {
    const result = await runner;
    assert.equal(result.counts.handoff, 0, 'the session never reaches the handoff');
    assert.ok(result.counts.mask > 0 && result.counts.summary > 0, 'it masks and summarizes');
    const { page, chart } = draw(result);
    const fired = Object.keys(result.counts).filter((m) => result.counts[m] > 0);
    assert.deepEqual(lanes(chart), fired);
    assert.ok(!lanes(chart).includes('handoff'));
    // Every marker dot sits in a lane, and the legend explains only what fired.
    for (const dot of chart.all((e) => e.tag === 'circle' && hasClass('marker')(e))) assert.ok(fired.includes(dot.getAttribute('data-marker')));
    const explained = page.all((e) => e.tag === 'li' && e.getAttribute('data-marker')).map((e) => e.getAttribute('data-marker'));
    assert.deepEqual(explained, fired);
    const [idle] = page.all(hasClass('idle'));
    assert.match(idle.textContent, /^Did not fire in this run: .*handoff/);
  });

  it("draws the recorded agent's series only where the file has them", async () => {
    // SWE-agent's trajectory reports no usage and no compaction: no dots, no red lines.
    const quiet = await replay(session('swe-agent-marshmallow-1867.traj'), { ...DEFAULT_SETTINGS, budget: 20_000 }, undefined);
    assert.ok(quiet.turns.every((t) => t.recorded.inputTokens === undefined && !t.recorded.compaction));
    const { chart } = draw(quiet);
    assert.equal(chart.all(hasClass('recorded-input')).length, 0);
    const [caption] = chart.all(hasClass('caption'));
    assert.doesNotMatch(caption.textContent, /dots|red lines/);
    // Claude Code's session reports its usage and compacted: both are drawn, and named.
    const told = await replay(session('claude-code-session.jsonl'), { ...DEFAULT_SETTINGS, budget: 20_000 }, undefined);
    const drawn = draw(told).chart;
    assert.equal(drawn.all(hasClass('recorded-input')).length, told.turns.filter((t) => t.recorded.inputTokens !== undefined).length);
    assert.ok(drawn.all(hasClass('recorded-compaction')).length > 0);
    assert.match(drawn.all(hasClass('caption'))[0].textContent, /dots: .*; red lines: /);
  });

  it("takes the marks from the manager on the provider-message path too, where a run never compacts", async () => {
    const roomy = await replay(session('swe-agent-marshmallow-1867.traj'), { ...DEFAULT_SETTINGS, budget: 200_000, format: 'openai-chat' }, undefined);
    assert.ok(roomy.turns.every((t) => t.ledger.compaction === null), 'nothing compacted');
    // The documented defaults: a compaction past 75% of the budget, down under 25%.
    assert.deepEqual(roomy.marks, { highWater: 150_000, lowWater: 50_000 });
    const { chart } = draw(roomy);
    assert.equal(Number(markLine(chart, 'highWater').getAttribute('data-tokens')), 150_000);
    assert.deepEqual(lanes(chart), Object.keys(roomy.counts).filter((m) => roomy.counts[m] > 0));
  });
});
