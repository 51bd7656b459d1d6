// The eval's text output: what ran and how it was priced, then a table per budget, the
// totals over all sessions first, then each session.
import type { EvalResult } from './evaluate.js';
import type { EvalFigures } from './figures.js';

const r3 = (x: number | null): string => (x === null ? '–' : x.toFixed(3));
const times = (x: number | null): string => (x === null ? '–' : `${x.toFixed(2)}×`);
const units = (x: number): string => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)}k` : x.toFixed(0));

const HEAD = ['strategy', 'recall', 'long-range', 'recoverable long', 'user words', 'file trail', 'cache share', 'spend', 'clock spend', 'vs base', 'clock vs base',
  'expired', 'over budget', 'invalid', 'compactions', 'summary requests', 'build ms p50 / p95', 'run s (cpu s)'];

function row(name: string, f: EvalFigures): string[] {
  return [
    name, r3(f.recall), r3(f.longRange), r3(f.recoverableLong), r3(f.userWords), r3(f.fileTrail), r3(f.cacheShare), units(f.spend), units(f.clockSpend),
    times(f.spendRatio), times(f.clockSpendRatio), String(f.expired), String(f.overBudget), String(f.invalid), String(f.compactions), String(f.summaryRequests),
    `${f.buildMs.p50.toFixed(2)} / ${f.buildMs.p95.toFixed(2)}`, `${(f.runMs / 1000).toFixed(2)} (${(f.cpuMs / 1000).toFixed(2)})`,
  ];
}

const md = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const rule = (n: number): string => `|${Array.from({ length: n }, (_, i) => (i === 0 ? '---' : '--:')).join('|')}|`;

/** The header: the settings, the prices, each strategy (what it is, where it comes from, or why it is absent), the notes. */
export function renderHeader(result: EvalResult): string {
  const s = result.settings;
  const out = [
    `${result.sessions.length} session${result.sessions.length === 1 ? '' : 's'}, ${result.sessions.reduce((n, x) => n + x.requests, 0)} model calls; counter ${s.counter}; ours in ${s.format}`,
    `prices: ${s.prices.source}; cache lifetime ${s.ttl}${s.ttlMs === null ? '' : ' after the last read or write'}; spend in uncached input tokens`,
    '  spend: nothing expiring, reads 0.1× and writes 1.25× (the figures before the clock); clock spend: at the prices above, by the clock, summary requests included',
    `  vs base: against ${s.baseline ?? '(none)'}; summaries: ${s.summarizer}`,
    'strategies:',
    ...result.strategies.map((x) => `  ${x.id}${x.absent ? ' (ABSENT)' : x.failed ? ' (FAILED)' : ''}: ${x.what}. From: ${x.source}${x.absent ? `. Not run: ${x.absent}` : ''}`),
    ...result.notes.map((n) => `note: ${n}`),
  ];
  return out.join('\n');
}

/** The tables, one per budget: the totals over all sessions, then each session's rows. */
export function renderTables(result: EvalResult): string {
  const name = (id: string): string => id;
  const out = [renderHeader(result)];
  for (const budget of result.settings.budgets) {
    const totals = result.totals.filter((f) => f.budget === budget);
    out.push('', `## ${budget / 1000}k: all ${result.sessions.length} session${result.sessions.length === 1 ? '' : 's'}`, '', md(HEAD), rule(HEAD.length));
    for (const f of totals) out.push(md(row(name(f.strategy), f)));
    if (result.sessions.length > 1) {
      out.push('', `### ${budget / 1000}k: each session`, '', md(['session', ...HEAD]), rule(HEAD.length + 1));
      for (const session of result.sessions) {
        for (const f of result.perSession.filter((x) => x.budget === budget && x.session === session.name)) out.push(md([session.name, ...row(name(f.strategy), f)]));
      }
    }
  }
  return `${out.join('\n')}\n`;
}
