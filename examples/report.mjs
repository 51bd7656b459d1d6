// The demo's HTML report: one self-contained page (inline SVG, a small inline script, no
// network) charting each turn's prompt by section, from the runner's ledger, against the
// budget, with the prune and monitor counts against their thresholds and each rule's
// firing marked. The chart's data is embedded as JSON (`<script id="chart-data">`).
import { RULES, fmt } from './replay.mjs';

export const SECTIONS = [
  { id: 'pinned', color: '#4e79a7', words: 'goal, plan, TAS and PRD summaries (never cut)' },
  { id: 'summary', color: '#b07aa1', words: 'the summary of earlier turns' },
  { id: 'recent', color: '#59a14f', words: 'earlier messages and tool calls' },
  { id: 'outputs', color: '#f28e2b', words: 'tool outputs: whole, masked to a placeholder, or cut' },
  { id: 'newInput', color: '#edc948', words: "this turn's new items" },
  { id: 'framing', color: '#bab0ac', words: 'headers and joins' },
];
const RULE_COLORS = {
  spec: '#4e79a7', reasoning: '#76b7b2', handoff: '#e15759', prune: '#9c27b0', truncate: '#f28e2b',
  mask: '#59a14f', cut: '#edc948', summary: '#b07aa1', drop: '#000000',
};

/**
 * What the chart draws, from a `replay()` result: per turn the ledger's sections, the
 * prompt, the prune count and the monitor total; the thresholds; and one marker per rule
 * firing, at the turn it fired.
 */
export function chartData(data) {
  const { options, rows, ledger } = data;
  return {
    budget: options.budget,
    pruneAt: options.pruneAt,
    threshold: options.threshold,
    counter: options.counter,
    refreshOn: options.refreshOn,
    turns: rows.map((row, i) => ({
      turn: row.turn,
      sections: { ...ledger[i].sections },
      ledgerPromptTokens: ledger[i].promptTokens,
      promptTokens: row.promptTokens,
      prune: row.prune,
      monitor: row.monitor,
      tool: row.tool,
      phase: row.phase,
    })),
    markers: rows.flatMap((row) => row.events.filter((e) => e.rule in RULE_COLORS).map((e) => ({ rule: e.rule, turn: row.turn, text: e.text }))),
  };
}

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const round = (n) => Math.round(n * 10) / 10;

/** A "nice" axis maximum and step at or above `max`. */
function axis(max) {
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  return { max: Math.ceil(max / step) * step, step };
}

/** The page. */
export function reportHtml(data) {
  const chart = chartData(data);
  const n = chart.turns.length;
  const W = 1180, left = 150, right = 150, plotW = W - left - right;
  const bw = plotW / Math.max(n, 1);
  const x = (i) => left + i * bw;
  const cx = (i) => round(x(i) + bw / 2);
  const parts = [];

  // Panel 1: the prompt by section, the budget, the prune count against 90%.
  const top = 30, h1 = 300;
  const max1 = Math.max(chart.budget, ...chart.turns.map((t) => Math.max(sum(t.sections), t.prune ?? 0, t.promptTokens)));
  const a1 = axis(max1 * 1.05);
  const y1 = (v) => round(top + h1 - (v / a1.max) * h1);
  parts.push(gridAndAxis(a1, y1, left, W - right, 'tokens'));
  chart.turns.forEach((t, i) => {
    let base = 0;
    for (const s of SECTIONS) {
      const v = t.sections[s.id];
      if (v > 0) {
        parts.push(`<rect class="bar" x="${round(x(i) + 0.5)}" y="${y1(base + v)}" width="${round(Math.max(bw - 1, 0.5))}" height="${round(y1(base) - y1(base + v))}" fill="${s.color}" data-turn="${t.turn}" data-section="${s.id}" data-tokens="${v}"/>`);
      }
      base += v;
    }
  });
  // The budget's label above its line, the prune threshold's below: they are 10% apart.
  parts.push(hline(y1(chart.budget), left, W - right, '#d62728', '', `budget ${fmt(chart.budget)}`, -4));
  parts.push(hline(y1(chart.pruneAt), left, W - right, '#9c27b0', '6 4', `prune at 90%: ${fmt(chart.pruneAt)}`, 11));
  parts.push(polyline(chart.turns.map((t, i) => (t.prune === null ? null : [cx(i), y1(t.prune)])), '#9c27b0', 'prune-count'));
  parts.push(polyline(chart.turns.map((t, i) => [cx(i), y1(t.promptTokens)]), '#222', 'prompt-sent', '2 2'));

  // Panel 2: the monitor total against its threshold.
  const top2 = top + h1 + 40, h2 = 120;
  const a2 = axis(Math.max(chart.threshold, ...chart.turns.map((t) => t.monitor)) * 1.05);
  const y2 = (v) => round(top2 + h2 - (v / a2.max) * h2);
  parts.push(gridAndAxis(a2, y2, left, W - right, 'monitor'));
  parts.push(hline(y2(chart.threshold), left, W - right, '#e15759', '6 4', `refresh at ${fmt(chart.threshold)}`));
  parts.push(polyline(chart.turns.map((t, i) => [cx(i), y2(t.monitor)]), '#e15759', 'monitor-total'));

  // Panel 3: one lane per rule, a marker at each turn it fired.
  const top3 = top2 + h2 + 30, lane = 18;
  const rules = RULES.filter((r) => r.id in RULE_COLORS);
  rules.forEach((r, k) => {
    const y = top3 + k * lane + lane / 2;
    parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end" class="lane">${esc(r.name)}</text>`);
    parts.push(`<line x1="${left}" x2="${W - right}" y1="${y}" y2="${y}" stroke="#eee"/>`);
  });
  const index = new Map(chart.turns.map((t, i) => [t.turn, i]));
  for (const m of chart.markers) {
    const k = rules.findIndex((r) => r.id === m.rule);
    const y = top3 + k * lane + lane / 2;
    parts.push(`<circle class="marker" cx="${cx(index.get(m.turn))}" cy="${y}" r="${Math.max(2.5, Math.min(5, bw / 2))}" fill="${RULE_COLORS[m.rule]}" data-rule="${m.rule}" data-turn="${m.turn}"><title>turn ${m.turn}: ${esc(m.text)}</title></circle>`);
  }
  // Rare rules also as a line through the token panels (when rare enough to read).
  const rare = ['prune', 'handoff', 'drop'].filter((rule) => chart.markers.filter((mk) => mk.rule === rule).length <= 12);
  for (const m of chart.markers.filter((mk) => rare.includes(mk.rule))) {
    parts.push(`<line class="rule-line" x1="${cx(index.get(m.turn))}" x2="${cx(index.get(m.turn))}" y1="${top}" y2="${top2 + h2}" stroke="${RULE_COLORS[m.rule]}" stroke-width="1" stroke-dasharray="2 3" data-rule="${m.rule}" data-turn="${m.turn}"/>`);
  }
  const bottom = top3 + rules.length * lane;
  // Turn axis.
  const every = n > 60 ? 10 : n > 20 ? 5 : 1;
  chart.turns.forEach((t, i) => {
    if (t.turn % every === 0 || i === 0) parts.push(`<text x="${cx(i)}" y="${bottom + 14}" text-anchor="middle" class="tick">${t.turn}</text>`);
  });
  parts.push(`<text x="${left + plotW / 2}" y="${bottom + 30}" text-anchor="middle" class="tick">turn</text>`);
  // Hover columns, on top.
  chart.turns.forEach((t, i) => parts.push(`<rect class="hit" x="${round(x(i))}" y="${top}" width="${round(bw)}" height="${bottom - top}" data-i="${i}"/>`));
  const H = bottom + 40;

  const legend = SECTIONS.map((s) => `<li><span class="sw" style="background:${s.color}"></span><b>${s.id}</b>: ${esc(s.words)}</li>`).join('')
    + '<li><span class="sw line" style="border-color:#9c27b0"></span><b>prune count</b>: the tokens applyContextManagement asks <code>shouldPrune</code> about (the context\'s messages, <code>context.turns</code>; not its slots or tool outputs), against 90% of the budget</li>'
    + '<li><span class="sw line dashed" style="border-color:#222"></span><b>prompt sent</b>: <code>turn.promptTokens</code>, the bounded prompt the LLM received</li>'
    + `<li><span class="sw line" style="border-color:#e15759"></span><b>monitor</b>: what the threshold monitor has counted since its last refresh (<code>refreshOn: '${esc(chart.refreshOn)}'</code>), against <code>thresholdTokens</code></li>`;
  const ruleLegend = rules.map((r) => `<li><span class="dot" style="background:${RULE_COLORS[r.id]}"></span><b>${esc(r.name)}</b>: ${esc(r.words)} (${chart.markers.filter((m) => m.rule === r.id).length}×)</li>`).join('');
  const json = JSON.stringify(chart).replace(/</g, '\\u003c');
  const table = chart.turns.map((t) => {
    const ev = chart.markers.filter((m) => m.turn === t.turn).map((m) => esc(m.text)).join('<br>');
    return `<tr><td>${t.turn}</td><td>${esc(t.phase)}</td><td>${esc(t.tool)}</td>${SECTIONS.map((s) => `<td>${fmt(t.sections[s.id])}</td>`).join('')}`
      + `<td>${fmt(t.promptTokens)}</td><td>${fmt(t.prune)}</td><td>${fmt(t.monitor)}</td><td class="ev">${ev}</td></tr>`;
  }).join('\n');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@devs/context demo: parser-fix, budget ${fmt(chart.budget)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1200px; }
h1 { font-size: 20px; margin: 0 0 4px; }
svg text { font: 11px system-ui, sans-serif; fill: #444; }
svg .lane { font-size: 11px; }
.hit { fill: transparent; }
.hit:hover, .hit.on { fill: rgba(0,0,0,0.06); }
ul.legend { list-style: none; padding: 0; columns: 2; margin: 8px 0; }
ul.legend li { margin: 2px 0; break-inside: avoid; }
.sw { display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; }
.sw.line { height: 0; border-top: 2px solid; background: none !important; }
.sw.line.dashed { border-top-style: dashed; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 6px; }
#info { min-height: 4.5em; background: #f6f6f6; padding: 6px 10px; border-radius: 4px; white-space: pre-line; }
table { border-collapse: collapse; font-size: 12px; }
td, th { padding: 2px 6px; border-bottom: 1px solid #eee; text-align: right; vertical-align: top; }
td.ev { text-align: left; }
</style>
</head>
<body>
<h1>parser-fix: ${n} turns through <code>AgentRunner</code> with <code>bounded</code></h1>
<p>Budget ${fmt(chart.budget)} tokens, counter <code>${esc(chart.counter)}</code>, monitor threshold ${fmt(chart.threshold)}.
Each bar is one turn's ledger record (<code>runner.ledger</code>, also in <code>ledger.jsonl</code>), by section. Hover a turn for its numbers and what fired.</p>
<div id="info">Hover a turn.</div>
<svg id="chart" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="Tokens per turn by section against the budget and thresholds">
<text x="${left}" y="${top - 10}">prompt by section (ledger) · budget · prune count vs 90%</text>
<text x="${left}" y="${top2 - 10}">monitor total vs threshold</text>
<text x="${left}" y="${top3 - 8}">rules fired</text>
${parts.join('\n')}
</svg>
<ul class="legend">${legend}</ul>
<ul class="legend">${ruleLegend}</ul>
<details><summary>Every turn</summary>
<table><tr><th>turn</th><th>phase</th><th>tool</th>${SECTIONS.map((s) => `<th>${s.id}</th>`).join('')}<th>prompt</th><th>prune count</th><th>monitor</th><th>fired</th></tr>
${table}
</table></details>
<script type="application/json" id="chart-data">${json}</script>
<script>
(() => {
  const data = JSON.parse(document.getElementById('chart-data').textContent);
  const info = document.getElementById('info');
  const f = (v) => (v === null ? '—' : Math.round(v).toLocaleString('en-US'));
  const pct = (v, of) => (v === null ? '' : ' (' + Math.floor((100 * v) / of) + '%)');
  for (const hit of document.querySelectorAll('#chart .hit')) {
    hit.addEventListener('mouseenter', () => {
      const t = data.turns[+hit.dataset.i];
      const total = Object.values(t.sections).reduce((a, b) => a + b, 0);
      const fired = data.markers.filter((m) => m.turn === t.turn).map((m) => '• ' + m.text).join('\\n');
      info.textContent = 'turn ' + t.turn + ' (' + t.phase + ', ' + t.tool + '): prompt sent ' + f(t.promptTokens) + pct(t.promptTokens, data.budget) +
        ' of the budget; ledger ' + Object.entries(t.sections).map(([k, v]) => k + ' ' + f(v)).join(', ') + ' = ' + f(total) +
        '\\nprune count ' + f(t.prune) + pct(t.prune, data.pruneAt) + ' of ' + f(data.pruneAt) + ' · monitor ' + f(t.monitor) + pct(t.monitor, data.threshold) + ' of ' + f(data.threshold) +
        (fired ? '\\n' + fired : '');
    });
  }
})();
</script>
</body>
</html>
`;
}

function sum(sections) {
  return Object.values(sections).reduce((a, b) => a + b, 0);
}

function gridAndAxis(a, y, x0, x1, label) {
  const out = [];
  for (let v = 0; v <= a.max + 1e-9; v += a.step) {
    out.push(`<line x1="${x0}" x2="${x1}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/>`);
    out.push(`<text x="${x0 - 6}" y="${y(v) + 4}" text-anchor="end">${short(v)}</text>`);
  }
  out.push(`<text x="${x0 - 6}" y="${y(a.max) - 12}" text-anchor="end">${label}</text>`);
  return out.join('\n');
}

function short(v) {
  return v >= 1e6 ? `${round(v / 1e6)}M` : v >= 1e3 ? `${round(v / 1e3)}k` : String(v);
}

function hline(y, x0, x1, color, dash, label, dy = 4) {
  return `<line x1="${x0}" x2="${x1}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="1.5"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`
    + `<text x="${x1 + 4}" y="${y + dy}" style="fill:${color}">${esc(label)}</text>`;
}

function polyline(points, color, id, dash = '') {
  // Breaks the line where a point is missing (a turn the rule was not asked about).
  const runs = [[]];
  for (const p of points) {
    if (p === null) runs.push([]);
    else runs.at(-1).push(p);
  }
  return runs.filter((r) => r.length).map((r) => `<polyline class="${id}" fill="none" stroke="${color}" stroke-width="1.5"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${r.map((p) => p.join(',')).join(' ')}"/>`).join('\n');
}
