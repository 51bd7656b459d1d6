// The replay's picture: tokens per turn by section against the budget, each rule's firing
// marked, and a turn's detail on click. One module for the CLI's HTML report and the
// www/ page (bundled as `dist/replay-view.js`, global `DevsReplayView`).
import type { Marker, ReplayResult, ReplayTurn } from './replay.js';

const SVG = 'http://www.w3.org/2000/svg';
const SECTIONS = ['system', 'pinned', 'summary', 'history', 'appended', 'framing'] as const;
const SECTION_COLORS: Record<(typeof SECTIONS)[number], string> = {
  system: '#a29bfe', pinned: '#6c5ce7', summary: '#00b894', history: '#0984e3', appended: '#e17055', framing: '#b2bec3',
};
/** Each marker's colour, letter (in tables), legend label and meaning, as the chart, the CLI and the demo show them. */
export const MARKER_INFO: Record<Marker, { color: string; code: string; label: string; meaning: string }> = {
  'spec-refresh': { color: '#6c5ce7', code: 'S', label: 'spec refresh', meaning: 'the TAS/PRD specs were re-injected (every 10 turns)' },
  'context-refresh': { color: '#a29bfe', code: 'R', label: 'context refresh', meaning: "the TAS/PRD summaries were prepended to the envelope's reasoning (every 5 turns)" },
  handoff: { color: '#d63031', code: 'H', label: 'handoff', meaning: 'the 800k monitor fired: recent turns were summarized into a [CONTEXT REFRESH]' },
  prune: { color: '#e84393', code: 'P', label: 'prune', meaning: 'applyContextManagement summarized context.turns at 90% of the budget' },
  truncation: { color: '#fd79a8', code: 'T', label: 'truncation', meaning: 'a tool output 2+ turns old and over 50 KiB was stored, then cut to 500 characters' },
  mask: { color: '#fdcb6e', code: 'M', label: 'masking', meaning: 'outputs that left Recent Past became one-line placeholders naming their store id' },
  cut: { color: '#e17055', code: 'C', label: 'cutting', meaning: 'a message, call or output over its share was cut to its head and tail' },
  summary: { color: '#00b894', code: 'Σ', label: 'summary', meaning: 'the oldest turns were summarized, in capped chunks' },
  drop: { color: '#2d3436', code: 'D', label: 'drop', meaning: 'the oldest turns were dropped to fit the budget (the deterministic cut)' },
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Draws `result` into `container`: a summary line, the chart, the legend and a detail panel. */
export function render(container: HTMLElement, result: ReplayResult): void {
  container.textContent = '';
  const { settings, turns } = result;
  container.append(el('h2', {}, `${result.session.name} (${result.session.format}): ${turns.length} turns`));
  container.append(el('p', { class: 'summary' },
    `budget ${fmt(settings.budget)} tokens, counter ${settings.counterName}; largest prompt ${fmt(result.largestPromptTokens)} `
    + `(${((100 * result.largestPromptTokens) / settings.budget).toFixed(1)}% of the budget); replayed in ${fmt(result.ms)} ms`));
  const detail = el('div', { class: 'detail' }, 'Click a turn to see its prompt sections and its ledger record.');
  container.append(chart(result, (turn) => showTurn(detail, turn, result)));
  container.append(cacheChart(result));
  container.append(legend(result));
  container.append(detail);
}

/** Round steps for an axis from 0 to `max`: 1, 2, 2.5 or 5 times a power of ten, about `count` of them. */
function ticks(max: number, count: number, whole = false): number[] {
  if (!(max > 0)) return [0];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  let step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  if (whole) step = Math.max(1, Math.round(step));
  const out: number[] = [];
  for (let v = 0; v <= max + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** A label rotated to read upwards, centred on the plot's height: an axis's name. */
function axisTitle(text: string, x: number, centre: number): SVGElement {
  const title = svg('text', { x, y: centre, transform: `rotate(-90 ${x} ${centre})`, 'text-anchor': 'middle', 'font-size': 10, fill: '#636e72', class: 'axis-title' });
  title.textContent = text;
  return title;
}

function chart(result: ReplayResult, onPick: (turn: ReplayTurn) => void): SVGElement {
  const { turns, settings } = result;
  // A lane for each rule that fired in this run: one that never fired has nothing to show.
  const lanes = (Object.keys(MARKER_INFO) as Marker[]).filter((m) => turns.some((t) => t.markers.includes(m)));
  const width = 1000, left = 110, right = 10, laneHeight = 12, top = lanes.length * laneHeight + 10, plot = 260, bottom = 38;
  const height = top + plot + bottom;
  const recorded = turns.map((t) => t.recorded.inputTokens ?? 0);
  // The provider's counts of the recorded agent can dwarf the budget: they are drawn up to
  // two and a half budgets, and pinned to the top edge above that.
  const ceiling = Math.max(settings.budget, result.largestPromptTokens) * 2.5;
  const max = Math.min(Math.max(settings.budget, result.largestPromptTokens, ...recorded), ceiling) * 1.08;
  const step = (width - left - right) / Math.max(turns.length, 1);
  const x = (i: number) => left + i * step;
  const y = (tokens: number) => top + plot - (tokens / max) * plot;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', class: 'chart' });
  root.append(svg('rect', { x: left, y: top, width: width - left - right, height: plot, fill: '#fafafa' }));
  // The token axis: a number at each round step, with a faint grid line across the plot.
  for (const tokens of ticks(max, 6)) {
    root.append(svg('line', { x1: left, x2: width - right, y1: y(tokens), y2: y(tokens), stroke: '#dfe6e9', 'stroke-width': 1, class: 'grid' }));
    const label = svg('text', { x: left - 6, y: y(tokens) + 3, 'text-anchor': 'end', 'font-size': 9, fill: '#636e72', class: 'tick tokens', 'data-tokens': tokens });
    label.textContent = fmt(tokens);
    root.append(label);
  }
  root.append(axisTitle('tokens', 14, top + plot / 2));
  // The turn axis: turn numbers at round steps, under the middle of their bar.
  const turnTitle = svg('text', { x: left - 6, y: top + plot + 12, 'text-anchor': 'end', 'font-size': 9, fill: '#636e72', class: 'axis-title' });
  turnTitle.textContent = 'turn';
  root.append(turnTitle);
  for (const turn of ticks(turns.length, 10, true)) {
    if (turn < 1) continue;
    const label = svg('text', { x: x(turn - 1) + step / 2, y: top + plot + 12, 'text-anchor': 'middle', 'font-size': 9, fill: '#636e72', class: 'tick turn', 'data-turn': turn });
    label.textContent = String(turn);
    root.append(label);
  }
  lanes.forEach((m, l) => {
    const label = svg('text', { x: left - 6, y: l * laneHeight + 10, 'text-anchor': 'end', 'font-size': 9, fill: MARKER_INFO[m].color, class: 'lane', 'data-marker': m });
    label.textContent = MARKER_INFO[m].label;
    root.append(label);
  });
  turns.forEach((t, i) => {
    let base = 0;
    const bar = svg('g', { class: 'turn', 'data-turn': t.turn, cursor: 'pointer' });
    for (const s of SECTIONS) {
      const v = t.ledger.sections[s];
      if (v <= 0) continue;
      bar.append(svg('rect', { x: x(i), y: y(base + v), width: Math.max(step * 0.85, 0.5), height: y(base) - y(base + v), fill: SECTION_COLORS[s], 'data-section': s }));
      base += v;
    }
    const hit = svg('rect', { x: x(i), y: top, width: Math.max(step, 1), height: plot, fill: 'transparent' });
    const title = svg('title', {});
    title.textContent = `turn ${t.turn}: ${fmt(t.promptTokens)} tokens${t.markers.length ? `; ${t.markers.join(', ')}` : ''}`;
    hit.append(title);
    bar.append(hit);
    bar.addEventListener('click', () => onPick(t));
    root.append(bar);
    for (const m of t.markers) {
      const l = lanes.indexOf(m);
      root.append(svg('circle', { cx: x(i) + step / 2, cy: l * laneHeight + 7, r: Math.min(4, Math.max(step / 2, 1.5)), fill: MARKER_INFO[m].color, class: 'marker', 'data-marker': m, 'data-turn': t.turn }));
    }
    if (t.recorded.compaction) {
      root.append(svg('line', { x1: x(i), x2: x(i), y1: top, y2: top + plot, stroke: '#d63031', 'stroke-width': 2, class: 'recorded-compaction', 'data-turn': t.turn }));
    }
    if (t.recorded.inputTokens !== undefined) {
      const over = t.recorded.inputTokens > max;
      root.append(svg('circle', { cx: x(i) + step / 2, cy: y(Math.min(t.recorded.inputTokens, max)), r: 2, fill: over ? '#b2bec3' : '#2d3436', class: 'recorded-input', 'data-turn': t.turn }));
    }
  });
  const line = (tokens: number, label: string, color: string, dash: string, end: boolean, attrs: Record<string, string | number>) => {
    root.append(svg('line', { x1: left, x2: width - right, y1: y(tokens), y2: y(tokens), stroke: color, 'stroke-dasharray': dash, 'data-tokens': tokens, ...attrs }));
    // A white halo keeps the words readable over the bars.
    const text = svg('text', { x: end ? width - right - 4 : left + 4, y: y(tokens) - 3, 'font-size': 10, fill: color, 'text-anchor': end ? 'end' : 'start', stroke: '#fff', 'stroke-width': 3, 'paint-order': 'stroke' });
    text.textContent = label;
    root.append(text);
  };
  line(settings.budget, `budget ${fmt(settings.budget)}`, '#d63031', '6 3', false, { class: 'budget' });
  // The manager's own marks (older results carry none): where a compaction starts, and where it ends.
  const { marks } = result;
  if (marks) {
    const share = (tokens: number) => `${Math.round((100 * tokens) / settings.budget)}%`;
    line(marks.highWater, `high water ${fmt(marks.highWater)} (${share(marks.highWater)}): past it, a compaction`, '#e17055', '2 3', true, { class: 'mark', 'data-mark': 'highWater' });
    line(marks.lowWater, `low water ${fmt(marks.lowWater)} (${share(marks.lowWater)}): a compaction ends under it`, '#00b894', '2 3', true, { class: 'mark', 'data-mark': 'lowWater' });
  }
  // The caption names only what this run drew.
  const drawn = ["bars: each prompt's tokens by section"];
  if (turns.some((t) => t.recorded.inputTokens !== undefined)) drawn.push("dots: the recorded agent's input tokens as its provider counted them (grey: off the scale)");
  if (turns.some((t) => t.recorded.compaction)) drawn.push('red lines: its own compactions');
  const axis = svg('text', { x: left, y: height - 6, 'font-size': 10, fill: '#636e72', class: 'caption' });
  axis.textContent = drawn.join('; ');
  root.append(axis);
  return root;
}

/** Per request, the share read from the provider's cache: ours, and the recorded agent's. */
function cacheChart(result: ReplayResult): SVGElement {
  const { turns, cost } = result;
  const width = 1000, left = 110, right = 10, top = 8, plot = 90, bottom = 22;
  const root = svg('svg', { viewBox: `0 0 ${width} ${top + plot + bottom}`, width: '100%', role: 'img', class: 'cache-chart' });
  const step = (width - left - right) / Math.max(turns.length, 1);
  const x = (i: number) => left + i * step + step / 2;
  const y = (share: number) => top + plot - share * plot;
  root.append(svg('rect', { x: left, y: top, width: width - left - right, height: plot, fill: '#fafafa' }));
  for (const share of [0, 0.5, 1]) {
    const tick = svg('text', { x: left - 6, y: y(share) + 3, 'text-anchor': 'end', 'font-size': 9, fill: '#636e72', class: 'tick share', 'data-share': share });
    tick.textContent = String(share);
    root.append(tick);
  }
  root.append(axisTitle('cache share', 14, top + plot / 2));
  const line = (points: Array<[number, number]>, color: string, cls: string) => {
    if (!points.length) return;
    root.append(svg('polyline', { points: points.map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), fill: 'none', stroke: color, 'stroke-width': 1.5, class: cls }));
  };
  line(turns.map((t, i) => [i, t.ledger.tokens ? t.ledger.cache.read / t.ledger.tokens : 0]), '#0984e3', 'ours');
  line(turns.flatMap((t, i) => (t.recorded.cacheRead !== undefined && t.recorded.inputTokens ? [[i, t.recorded.cacheRead / t.recorded.inputTokens] as [number, number]] : [])), '#2d3436', 'recorded');
  // Each compaction: what it wrote to the cache (orange) and what it invalidated (red), against the largest of either.
  const compactions = result.compactions ?? [];
  const most = Math.max(1, ...compactions.flatMap((c) => [c.cacheWritten, c.cacheInvalidated]));
  for (const c of compactions) {
    const i = turns.findIndex((t) => t.turn === c.turn);
    if (i < 0) continue;
    const g = svg('g', { class: 'compaction', 'data-turn': c.turn, 'data-written': c.cacheWritten, 'data-invalidated': c.cacheInvalidated });
    const w = Math.max(step * 0.4, 1);
    const h = (v: number) => (v / most) * plot;
    g.append(svg('rect', { x: x(i) - w, y: top + plot - h(c.cacheWritten), width: w, height: h(c.cacheWritten), fill: '#e17055', opacity: 0.8 }));
    g.append(svg('rect', { x: x(i), y: top + plot - h(c.cacheInvalidated), width: w, height: h(c.cacheInvalidated), fill: '#d63031', opacity: 0.8 }));
    const title = svg('title', {});
    title.textContent = `turn ${c.turn}, a compaction (${c.trigger}): ${fmt(c.tokensBefore)} → ${fmt(c.tokensAfter)} tokens; the cache read ${fmt(c.cacheRead)}, wrote ${fmt(c.cacheWritten)} and invalidated ${fmt(c.cacheInvalidated)}`;
    g.append(title);
    root.append(g);
  }
  const written = compactions.reduce((n, c) => n + c.cacheWritten, 0);
  const invalidated = compactions.reduce((n, c) => n + c.cacheInvalidated, 0);
  const axis = svg('text', { x: left, y: top + plot + 15, 'font-size': 10, fill: '#636e72' });
  axis.textContent = `share of each request read from the cache (0–1): ours in blue, ${cost.cacheShare.toFixed(3)} over the session, input cost ${cost.relativeCost.toFixed(3)}× uncached`
    + (cost.recorded ? `; the recorded agent in black, ${cost.recorded.cacheShare.toFixed(3)}, ${cost.recorded.relativeCost.toFixed(3)}×` : '')
    + (compactions.length ? `; at each of ${compactions.length} compactions, bars of the tokens it wrote to the cache (orange, ${fmt(written)} in all) and invalidated (red, ${fmt(invalidated)})` : '');
  root.append(axis);
  return root;
}

/** The keys of what the chart drew: the sections some prompt held, the rules that fired; the rest named in one line. */
function legend(result: ReplayResult): HTMLElement {
  const box = el('div', { class: 'legend' });
  const sections = el('p');
  for (const s of SECTIONS.filter((s) => result.turns.some((t) => t.ledger.sections[s] > 0))) {
    const key = el('span', { style: `background:${SECTION_COLORS[s]};display:inline-block;width:10px;height:10px;margin:0 4px 0 12px` });
    sections.append(key, document.createTextNode(s));
  }
  box.append(sections);
  const list = el('ul');
  const idle: string[] = [];
  for (const [m, info] of Object.entries(MARKER_INFO) as [Marker, (typeof MARKER_INFO)[Marker]][]) {
    if (result.counts[m] > 0) list.append(el('li', { style: `color:${info.color}`, 'data-marker': m }, `${info.label} (${result.counts[m]} turns): ${info.meaning}`));
    else idle.push(info.label);
  }
  box.append(list);
  if (idle.length) box.append(el('p', { class: 'idle' }, `Did not fire in this run: ${idle.join(', ')}.`));
  return box;
}

function showTurn(detail: HTMLElement, turn: ReplayTurn, result: ReplayResult): void {
  detail.textContent = '';
  detail.append(el('h3', {}, `Turn ${turn.turn}: ${fmt(turn.promptTokens)} of ${fmt(result.settings.budget)} tokens`));
  if (turn.markers.length) detail.append(el('p', {}, `Rules that fired: ${turn.markers.map((m) => MARKER_INFO[m].label).join(', ')}`));
  if (turn.recorded.inputTokens !== undefined) detail.append(el('p', {}, `The recorded agent's provider counted ${fmt(turn.recorded.inputTokens)} input tokens.`));
  if (turn.recorded.compaction) detail.append(el('p', {}, 'The recorded agent compacted its context before this turn.'));
  const ours = result.compactions?.find((c) => c.turn === turn.turn);
  if (ours) {
    detail.append(el('p', { class: 'compaction' }, `A compaction (${ours.trigger}): ${fmt(ours.tokensBefore)} → ${fmt(ours.tokensAfter)} tokens; the cache read ${fmt(ours.cacheRead)} tokens, wrote ${fmt(ours.cacheWritten)} and invalidated ${fmt(ours.cacheInvalidated)} (what the request before had there and this one no longer reads).`));
  }
  const table = el('table');
  table.append(el('tr', {}, ''));
  for (const s of SECTIONS) {
    const row = el('tr');
    row.append(el('td', {}, s), el('td', { style: 'text-align:right' }, fmt(turn.ledger.sections[s])));
    table.append(row);
  }
  detail.append(table);
  for (const p of turn.preview) {
    detail.append(el('h4', {}, p.section), el('pre', { class: 'preview' }, p.text));
  }
  detail.append(el('h4', {}, 'Ledger record'), el('pre', { class: 'ledger' }, JSON.stringify(turn.ledger, null, 2)));
}

/** A self-contained HTML page of the replay: `viewScript` is `dist/replay-view.js`. */
export function reportHtml(result: ReplayResult, viewScript: string): string {
  const data = JSON.stringify(result).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>devs-context replay: ${escapeHtml(result.session.name)}</title>
<style>${STYLE}</style></head>
<body><div id="app"></div>
<script>${viewScript.replace(/<\/script/gi, '<\\/script')}</script>
<script>DevsReplayView.render(document.getElementById('app'), ${data});</script>
</body></html>
`;
}

export const STYLE = `body{font:14px system-ui,sans-serif;margin:24px;color:#2d3436}
.chart{border:1px solid #dfe6e9;background:#fff}.turn:hover rect{opacity:.8}
.detail{margin-top:16px;border-top:1px solid #dfe6e9}pre{background:#f5f6fa;padding:8px;overflow:auto;max-height:240px;white-space:pre-wrap}
.legend ul{columns:2;font-size:12px}`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}
