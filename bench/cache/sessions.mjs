// The sessions and the system prompt that bench/cache.mjs, bench/recall.mjs and
// bench/frameworks.mjs replay, written once so that their figures are of the same runs.
import { parseArgs } from 'node:util';
import { realSessions } from '../../pkg/test/provider-sessions.mjs';

// A coding agent's system prompt of about 2,000 tokens, the same for every strategy.
export const SYSTEM = Array.from({ length: 40 }, (_, i) => `Rule ${i + 1}: work in small verified steps; read a file before editing it, run the tests after each change, and report what you changed and why in one short paragraph.`).join('\n');

/**
 * The real sessions (pkg/test/fixtures/sessions/), and, since none reaches 90% of 200k, the
 * Claude Code one three times over (about 350k tokens of history, its calls renumbered by
 * turn); those whose name includes `filter`.
 */
export function benchSessions(filter = '') {
  const recorded = realSessions();
  const claude = recorded.find((s) => s.name.startsWith('claude-code'));
  const long = { name: `${claude.name} ×3`, steps: [...claude.steps, ...claude.steps, ...claude.steps] };
  return [...recorded, long].filter((s) => s.name.toLowerCase().includes(filter.toLowerCase()));
}

/**
 * The command line both take, plus `extra` options: `--budget 200000,50000`, `--session`,
 * `--strategy` (names that include it), `--set lowWater=0.3,...` (options for
 * ContextManager). Gives the parsed values, the budgets, the options and the sessions.
 */
export function benchArgs(extra = {}) {
  const { values: args } = parseArgs({
    options: {
      budget: { type: 'string', default: '200000,50000' },
      session: { type: 'string', default: '' },
      strategy: { type: 'string', default: '' },
      set: { type: 'string', default: '' },
      ...extra,
    },
  });
  const options = Object.fromEntries(args.set.split(',').filter(Boolean).map((kv) => { const [k, v] = kv.split('='); return [k, Number(v)]; }));
  return { args, budgets: args.budget.split(',').map(Number), options, sessions: benchSessions(args.session) };
}
