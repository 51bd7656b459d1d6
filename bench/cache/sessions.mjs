// The sessions and the system prompt that bench/cache.mjs, bench/recall.mjs and
// bench/frameworks.mjs replay, written once so that their figures are of the same runs,
// and the one split of the sessions into the half the defaults are tuned on and the half
// held out (issue 38).
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { ORIGINAL_SESSIONS, readSessions, sessionFiles } from '../../pkg/test/sessions.mjs';

// A coding agent's system prompt of about 2,000 tokens, the same for every strategy: the eval's default.
export const SYSTEM = createRequire(new URL('../../pkg/package.json', import.meta.url))('@devs/context/eval').DEFAULT_SYSTEM;

/** The halves, in the order the benches print them. */
export const HALVES = Object.freeze(['tune', 'held']);

// The seed of the split. Chosen once, before any figure of the held-out half was seen;
// changing it re-deals the halves, and every default would have to be chosen again.
const SEED = 38;

/** mulberry32: a small seeded generator, so that the split is the same on every machine. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A session's size: the characters of its steps, which is what a replay appends. */
const size = (s) => s.steps.reduce((m, step) => m + JSON.stringify(step).length, 0);

/**
 * The split, by file (the sessions of one file stay together), the rule:
 *   - the four original files (`ORIGINAL_SESSIONS`) are tuned on: every default before issue
 *     38 was chosen on them, so they cannot be held out;
 *   - the other files, sorted by their size on disk (so that no reader's change re-deals
 *     them), are dealt in threes, smallest first; from each three a seeded choice (`SEED`)
 *     takes one to tune on and holds out the other two; the one or two left over are held
 *     out.
 * Dealing by size keeps long and short sessions in both halves, so that each half has
 * sessions a 50k budget bites on; two of three held out makes the halves about equal in
 * sessions (the originals are six). Gives `Map(file name → 'tune' | 'held')`.
 */
export function split(files = sessionFiles()) {
  const next = random(SEED);
  const halves = new Map();
  const others = [];
  for (const file of files) {
    const name = basename(file);
    if (ORIGINAL_SESSIONS.includes(name)) halves.set(name, 'tune');
    else others.push({ name, size: statSync(file).size });
  }
  others.sort((a, b) => a.size - b.size || (a.name < b.name ? -1 : 1));
  for (let i = 0; i < others.length; i += 3) {
    const three = others.slice(i, i + 3);
    const tuned = three.length === 3 ? Math.floor(next() * 3) : -1;
    three.forEach((o, k) => halves.set(o.name, k === tuned ? 'tune' : 'held'));
  }
  return halves;
}

/**
 * The real sessions (pkg/test/fixtures/sessions/), each with its `half`, and, since none
 * reaches 90% of 200k, each half's longest session three times over (its calls renumbered
 * by turn; the Claude Code one in the tune half); those whose name includes `filter`, of
 * `half` ('tune', 'held' or 'all').
 */
export function benchSessions(filter = '', half = 'all') {
  if (half !== 'all' && !HALVES.includes(half)) throw new RangeError(`half: '${half}' is not one of 'tune', 'held', 'all'`);
  const halves = split();
  const out = [];
  for (const h of HALVES) {
    const files = sessionFiles().filter((f) => halves.get(basename(f)) === h);
    const sessions = files.flatMap((f) => readSessions(f)).map((s) => ({ ...s, half: h }));
    const longest = sessions.reduce((a, b) => (size(b) > size(a) ? b : a));
    sessions.push({ ...longest, name: `${longest.name} ×3`, steps: [...longest.steps, ...longest.steps, ...longest.steps] });
    out.push(...sessions);
  }
  return out.filter((s) => (half === 'all' || s.half === half) && s.name.toLowerCase().includes(filter.toLowerCase()));
}

/** Whether a strategy is picked by `--strategy`: its name includes one of the comma-separated words. */
export const picked = (name, filter) => filter.split(',').some((f) => name.toLowerCase().includes(f.trim().toLowerCase()));

/**
 * The command line both take, plus `extra` options: `--budget 200000,50000`, `--session`,
 * `--half tune|held|all`, `--strategy auto,context` (names that include one of them), `--set lowWater=0.3,...`
 * (options for ContextManager). Gives the parsed values, the budgets, the options, the
 * sessions and the halves to report.
 */
export function benchArgs(extra = {}) {
  const { values: args } = parseArgs({
    options: {
      budget: { type: 'string', default: '200000,50000' },
      session: { type: 'string', default: '' },
      half: { type: 'string', default: 'all' },
      strategy: { type: 'string', default: '' },
      set: { type: 'string', default: '' },
      ...extra,
    },
  });
  const options = Object.fromEntries(args.set.split(',').filter(Boolean).map((kv) => { const [k, v] = kv.split('='); return [k, Number(v)]; }));
  const sessions = benchSessions(args.session, args.half);
  const halves = HALVES.filter((h) => sessions.some((s) => s.half === h));
  return { args, budgets: args.budget.split(',').map(Number), options, sessions, halves };
}
