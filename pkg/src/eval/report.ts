// The eval's HTML report: one file, no external asset. Per budget and session, each
// strategy side by side: the tokens of each request against the budget (each compaction
// marked), what each request read from the cache and wrote to it (by the clock), and the
// recall over the session so far. Then the tables.
import type { EvalResult } from './evaluate.js';
import type { EvalRun } from './figures.js';
import { renderTables } from './table.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COL = 300;
const PANEL = 100;
const GAP = 30;
const LEFT = 44;
const TOP = 40;
const COLORS = { tokens: '#1f77b4', read: '#2ca02c', written: '#ff7f0e', recall: '#9467bd', long: '#8c564b', mark: '#d62728' };

/** A polyline of `values` (0 at the bottom, `max` at the top) over `n` requests, in a panel at (x0, y0). */
function line(values: readonly number[], max: number, x0: number, y0: number, color: string, dash = ''): string {
  const w = COL - LEFT - 16;
  const n = Math.max(1, values.length - 1);
  const pts = values.map((v, i) => `${(x0 + (w * i) / n).toFixed(1)},${(y0 + PANEL - (PANEL * Math.min(v, max)) / (max || 1)).toFixed(1)}`).join(' ');
  return `<polyline fill="none" stroke="${color}" stroke-width="1.3"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${pts}"/>`;
}

function axes(x0: number, y0: number, label: string, top: string): string {
  const w = COL - LEFT - 16;
  return `<rect x="${x0}" y="${y0}" width="${w}" height="${PANEL}" fill="none" stroke="#ccc"/>`
    + `<text x="${x0 - 4}" y="${y0 + 9}" text-anchor="end">${esc(top)}</text><text x="${x0 - 4}" y="${y0 + PANEL}" text-anchor="end">0</text>`
    + `<text x="${x0 + 2}" y="${y0 - 3}" fill="#555">${esc(label)}</text>`;
}

/** The cumulative share of references present (and long-range ones) at each request. */
function recallSeries(run: EvalRun): { all: number[]; long: number[] } {
  let refs = 0, present = 0, long = 0, longPresent = 0;
  const all: number[] = [];
  const lr: number[] = [];
  for (const r of run.requests) {
    refs += r.refs; present += r.present; long += r.long; longPresent += r.longPresent;
    all.push(refs ? present / refs : 1);
    lr.push(long ? longPresent / long : 1);
  }
  return { all, long: lr };
}

const kilo = (n: number): string => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

/** One budget and session: each strategy's column of three panels, as an SVG. */
export function chartSvg(result: EvalResult, budget: number, session: string): string {
  const runs = result.runs.filter((r) => r.budget === budget && r.session === session);
  const width = Math.max(1, runs.length) * COL + 10;
  const height = TOP + 3 * (PANEL + GAP) + 24;
  const maxTokens = Math.max(budget, ...runs.flatMap((r) => r.requests.map((q) => q.tokens)));
  const maxCache = Math.max(1, ...runs.flatMap((r) => r.clock.perRequest.flatMap((p) => [p.read, p.written])));
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="sans-serif" font-size="10">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="8" y="14" font-size="12" font-weight="bold">${esc(session)} at ${budget / 1000}k: per request, each strategy (compactions marked in red; cache by the clock, ${esc(result.settings.ttl)})</text>`];
  runs.forEach((run, k) => {
    const x0 = k * COL + LEFT;
    const name = result.strategies.find((s) => s.id === run.strategy)?.id ?? run.strategy;
    out.push(`<text x="${x0}" y="${TOP - 14}" font-size="11" font-weight="bold">${esc(name)}</text>`);
    let y0 = TOP;
    out.push(axes(x0, y0, 'tokens sent (budget dashed)', kilo(maxTokens)));
    const w = COL - LEFT - 16;
    const by = y0 + PANEL - (PANEL * budget) / maxTokens;
    out.push(`<line x1="${x0}" x2="${x0 + w}" y1="${by.toFixed(1)}" y2="${by.toFixed(1)}" stroke="#999" stroke-dasharray="4 3"/>`);
    out.push(line(run.requests.map((r) => r.tokens), maxTokens, x0, y0, COLORS.tokens));
    const n = Math.max(1, run.requests.length - 1);
    run.requests.forEach((r, i) => {
      if (r.compaction) out.push(`<line x1="${(x0 + (w * i) / n).toFixed(1)}" x2="${(x0 + (w * i) / n).toFixed(1)}" y1="${y0}" y2="${y0 + 7}" stroke="${COLORS.mark}" stroke-width="1.5"/>`);
    });
    y0 += PANEL + GAP;
    out.push(axes(x0, y0, 'cache read (green), written (orange)', kilo(maxCache)));
    out.push(line(run.clock.perRequest.map((p) => p.read), maxCache, x0, y0, COLORS.read));
    out.push(line(run.clock.perRequest.map((p) => p.written), maxCache, x0, y0, COLORS.written));
    y0 += PANEL + GAP;
    const rs = recallSeries(run);
    out.push(axes(x0, y0, 'recall so far (long-range dashed)', '1'));
    out.push(line(rs.all, 1, x0, y0, COLORS.recall));
    out.push(line(rs.long, 1, x0, y0, COLORS.long, '3 2'));
  });
  out.push(`<text x="8" y="${height - 6}" fill="#555">request →</text>`, '</svg>');
  return out.join('\n');
}

/** The whole report: self-contained HTML. */
export function reportHtml(result: EvalResult): string {
  const charts = result.settings.budgets.flatMap((b) => result.sessions.map((s) => `<h2>${esc(s.name)} at ${b / 1000}k</h2>\n<div class="chart">${chartSvg(result, b, s.name)}</div>`));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>devs-context eval</title>
<style>body{font-family:sans-serif;margin:16px;color:#222}.chart{overflow-x:auto}pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px}</style>
</head><body>
<h1>devs-context eval</h1>
<pre>${esc(renderTables(result))}</pre>
${charts.join('\n')}
</body></html>
`;
}
