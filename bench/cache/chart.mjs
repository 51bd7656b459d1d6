// One session's requests, per strategy, as an SVG: above, each request's size against
// the budget; below, the share of it the provider reads from its cache. A compaction shows
// as a drop in both.

const COLORS = ['#8c8c8c', '#e69f00', '#56b4e9', '#d62728', '#009e73'];
const W = 900;
const PANEL = 150;
const PAD = { left: 56, right: 240, top: 34, gap: 40, bottom: 34 };

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** `series`: `[{ name, requests: [{ tokens, prefix }] }]`; `budget` in tokens. */
export function chart({ title, budget, series }) {
  const n = Math.max(...series.map((s) => s.requests.length));
  const plotW = W - PAD.left - PAD.right;
  const x = (i) => PAD.left + (plotW * i) / Math.max(1, n - 1);
  const H = PAD.top + 2 * PANEL + PAD.gap + PAD.bottom;
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`];
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${PAD.left}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`);
  const panel = (top, label, value, ticks) => {
    const y = (v) => top + PANEL - PANEL * v;
    for (const t of ticks) {
      out.push(`<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/>`);
      out.push(`<text x="${PAD.left - 6}" y="${y(t) + 4}" text-anchor="end">${t}</text>`);
    }
    out.push(`<text transform="translate(14 ${top + PANEL / 2}) rotate(-90)" text-anchor="middle">${esc(label)}</text>`);
    series.forEach((s, k) => {
      const points = s.requests.map((r, i) => `${x(i).toFixed(1)},${y(Math.min(1.05, value(r))).toFixed(1)}`).join(' ');
      out.push(`<polyline fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="1.5" points="${points}"/>`);
    });
  };
  panel(PAD.top, 'request / budget', (r) => r.tokens / budget, [0, 0.25, 0.5, 0.75, 1]);
  panel(PAD.top + PANEL + PAD.gap, 'cache share', (r) => (r.tokens ? r.prefix / r.tokens : 0), [0, 0.5, 1]);
  out.push(`<text x="${PAD.left + plotW / 2}" y="${H - 8}" text-anchor="middle">request</text>`);
  series.forEach((s, k) => {
    const y = PAD.top + 14 + k * 20;
    out.push(`<line x1="${W - PAD.right + 14}" x2="${W - PAD.right + 34}" y1="${y - 4}" y2="${y - 4}" stroke="${COLORS[k % COLORS.length]}" stroke-width="3"/>`);
    out.push(`<text x="${W - PAD.right + 40}" y="${y}">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
