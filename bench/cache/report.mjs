// The table: one row per strategy and session, then an "all sessions" row per strategy;
// per budget, the cache share, the spend against the auto-compact's, the largest request
// against the budget, invalid and empty requests, and build ms (median, 95th percentile).

const short = (name) => name.replace(/^openhands-.*#\w+__/, 'openhands ').replace(/\.(jsonl|traj\.json|traj)/, '').replace(/-session$/, '');

/** `runs`: `[{ budget, strategy, session, figures }]`, the first strategy the baseline. */
export function table(runs, budgets, strategies, sessions) {
  const find = (budget, strategy, session) => runs.find((r) => r.budget === budget && r.strategy === strategy && r.session === session)?.figures;
  const cells = (budget, strategy, list) => {
    const mine = list.map((s) => find(budget, strategy, s)).filter(Boolean);
    const base = list.map((s) => find(budget, strategies[0], s)).filter(Boolean);
    const sum = (xs, k) => xs.reduce((n, f) => n + f[k], 0);
    if (!mine.length) return Array(7).fill('—');
    const ms = list.length === 1 ? mine[0] : null;
    return [
      (sum(mine, 'prefix') / sum(mine, 'tokens')).toFixed(3),
      `${(sum(mine, 'spend') / sum(base, 'spend')).toFixed(2)}×`,
      (Math.max(...mine.map((f) => f.largest)) / budget).toFixed(2),
      sum(mine, 'invalid'),
      sum(mine, 'empty'),
      ms ? ms.msP50.toFixed(2) : '',
      ms ? ms.msP95.toFixed(2) : '',
    ];
  };
  const k = (b) => `${b / 1000}k`;
  const head = ['strategy', 'session', ...budgets.flatMap((b) => ['cache', 'spend', 'largest', 'invalid', 'empty', 'p50 ms', 'p95 ms'].map((c) => `${k(b)} ${c}`))];
  const out = [`| ${head.join(' | ')} |`, `|---|---|${head.slice(2).map(() => '--:').join('|')}|`];
  for (const strategy of strategies) {
    for (const session of [...sessions, null]) {
      const list = session ? [session] : sessions;
      const row = budgets.flatMap((b) => cells(b, strategy, list));
      if (!session) {
        // Build times over every request of every session.
        for (const [i, b] of budgets.entries()) {
          const all = runs.filter((r) => r.budget === b && r.strategy === strategy).flatMap((r) => r.ms);
          all.sort((x, y) => x - y);
          const at = (q) => all[Math.min(all.length - 1, Math.ceil(q * all.length) - 1)] ?? 0;
          row[i * 7 + 5] = at(0.5).toFixed(2);
          row[i * 7 + 6] = at(0.95).toFixed(2);
        }
      }
      out.push(`| ${strategy} | ${session ? short(session) : '**all sessions**'} | ${row.join(' | ')} |`);
    }
  }
  return out.join('\n');
}
