#!/usr/bin/env node
// The demo: replays the scripted session in examples/parser-fix through AgentRunner with
// every rule on and the `bounded` option, and prints, per turn, the number each rule
// compares with its threshold. Writes the per-turn ledger (ledger.jsonl), a chart of it
// (report.html) and the raw tool outputs (state.sqlite). Run it with `bash scripts/demo.sh`,
// which builds the package first when a source changed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const HELP = `Usage: bash scripts/demo.sh [options]     (or: node examples/demo.mjs [options])

Replays examples/parser-fix, a scripted 120-turn session of an agent fixing
parser::tests::trailing_token, through AgentRunner with every rule on and the
bounded option. Prints one line per turn with the number each rule compares with
its threshold, then what fired; writes the ledger and a chart of it.

Options:
  --budget N         the token budget: the bounded prompt's bound and the window budget
                     whose 90% triggers the prune (default 800000, at least 1000)
  --counter NAME     o200k_base | cl100k_base (exact, @devs/context/tokenizers) or
                     heuristic (countTokens, length/4) (default o200k_base)
  --threshold N      the monitor's thresholdTokens (default 800000)
  --refresh-on WHAT  what the monitor counts: response (the model's answers, the seed's
                     wiring) or context (every token entering the context) (default response)
  --turns N          replay only the first N turns (default all 120)
  --out DIR          where ledger.jsonl, report.html and state.sqlite go
                     (default examples/parser-fix)
  -h, --help         this help

Columns:
  prune    the tokens applyContextManagement asks the prune rule (shouldPrune) about:
           the context's messages (context.turns), not its slots or tool outputs,
           and % of 90% of the budget
  monitor  what the threshold monitor has counted since its last refresh
           (runner.accumulatedTokens; on a refresh turn, the total that reached the
           threshold), and % of thresholdTokens
  prompt   the tokens of the prompt sent to the LLM (turn.promptTokens), and % of the budget
  fired    one letter per rule that fired; the first firing of each, and every prune,
           context refresh and drop, is also told in words on the line below`;

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        budget: { type: 'string', default: '800000' },
        counter: { type: 'string', default: 'o200k_base' },
        threshold: { type: 'string', default: '800000' },
        'refresh-on': { type: 'string', default: 'response' },
        turns: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    usage(error.message);
  }
})();
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

function usage(message) {
  console.error(`demo: ${message}\nRun with --help for the options.`);
  process.exit(2);
}
function wholeNumber(name, text, min) {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min) {
    usage(`--${name} must be a whole number >= ${min}, got ${JSON.stringify(text)}`);
  }
  return n;
}
const clean = (s) => s.replaceAll('_', '').replaceAll(',', '');
const budget = wholeNumber('budget', clean(values.budget), 1000);
const threshold = wholeNumber('threshold', clean(values.threshold), 1);
const turns = values.turns === undefined ? Infinity : wholeNumber('turns', clean(values.turns), 1);
const counters = ['o200k_base', 'cl100k_base', 'heuristic'];
if (!counters.includes(values.counter)) usage(`--counter must be one of ${counters.join(', ')}, got ${JSON.stringify(values.counter)}`);
if (!['response', 'context'].includes(values['refresh-on'])) usage(`--refresh-on must be response or context, got ${JSON.stringify(values['refresh-on'])}`);
// Only now the package: --help and a bad option need no build.
const { PROJECT, RULES, fmt, kb, replay } = await import('./replay.mjs').catch(missingPackage);
const { reportHtml } = await import('./report.mjs');

function missingPackage(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('@devs/context')) throw error;
  console.error(`demo: ${error.message}\nRun it with \`bash scripts/demo.sh\`, which builds the package and links it as examples/node_modules/@devs/context.`);
  process.exit(1);
}

const out = values.out ?? PROJECT;
mkdirSync(out, { recursive: true });
const where = (file) => {
  const path = relative(process.cwd(), join(out, file));
  return path.startsWith('..') || isAbsolute(path) ? resolve(out, file) : path;
};
const code = Object.fromEntries(RULES.map((r) => [r.id, r.code]));
const told = new Set();
const always = new Set(['prune', 'handoff', 'drop', 'warning']);

// Floored, so that 100% means the threshold was reached.
const pct = (v, of) => (v === null ? '' : `${Math.floor((100 * v) / of)}%`);
const cell = (v, of) => `${fmt(v).padStart(9)} ${pct(v, of).padStart(4)}`;
const pruneAt = budget * 0.9;

console.log(`@devs/context demo: examples/parser-fix through AgentRunner, bounded to ${fmt(budget)} tokens, counted with ${values.counter}`);
console.log(`Rules and their thresholds: prune at 90% of the budget (${fmt(pruneAt)}), context refresh when the monitor reaches ${fmt(threshold)}` +
  ` (counting ${values['refresh-on'] === 'context' ? 'every token entering the context' : "the model's responses"}), prompt ≤ ${fmt(budget)}.`);
console.log(`Letters under "fired": ${RULES.map((r) => `${r.code} ${r.name}`).join(', ')}.\n`);
const header = `${'turn'.padStart(4)}  ${'phase'.padEnd(9)} ${'tool'.padEnd(12)} ${'output'.padStart(7)} │ ${'prune count'.padStart(14)} │ ${'monitor'.padStart(14)} │ ${'prompt'.padStart(14)} │ fired`;
console.log(header);
console.log(`${''.padStart(4)}  ${''.padEnd(9)} ${''.padEnd(12)} ${''.padStart(7)} │ ${`vs ${fmt(pruneAt)}`.padStart(14)} │ ${`vs ${fmt(threshold)}`.padStart(14)} │ ${`vs ${fmt(budget)}`.padStart(14)} │`);
console.log('─'.repeat(header.length + 8));

const data = await replay({
  budget, threshold, turns, counter: values.counter, refreshOn: values['refresh-on'], dbPath: join(out, 'state.sqlite'),
  onTurn(row) {
    const fired = [...new Set(row.events.map((e) => code[e.rule] ?? '!'))].join(' ');
    console.log(`${String(row.turn).padStart(4)}  ${row.phase.padEnd(9)} ${row.tool.padEnd(12)} ${kb(row.outputBytes).padStart(7)} │ ` +
      `${cell(row.prune, row.pruneAt)} │ ${cell(row.monitor, row.threshold)} │ ${cell(row.promptTokens, row.budget)} │ ${fired}`.trimEnd());
    for (const e of row.events) {
      if (!always.has(e.rule) && told.has(e.rule)) continue;
      const rule = RULES.find((r) => r.id === e.rule);
      const later = rule && !always.has(e.rule) ? ` [first ${rule.name}; later ones are marked ${rule.code}]` : '';
      console.log(`${''.padStart(6)}↳ ${e.text}${later}`);
      told.add(e.rule);
    }
  },
}).catch((error) => {
  // The runner names the option at fault (e.g. a budget too small for the pinned specs).
  if (error instanceof RangeError || error instanceof TypeError) usage(error.message);
  throw error;
});

writeFileSync(join(out, 'ledger.jsonl'), data.ledgerJsonl);
writeFileSync(join(out, 'report.html'), reportHtml(data));

/** [1,2,3,5] → "1–3, 5". */
function ranges(ns) {
  const out = [];
  for (const n of ns) {
    const last = out.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  const texts = out.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`));
  return texts.length > 12 ? `${texts.slice(0, 8).join(', ')}, … ${texts.slice(-2).join(', ')}` : texts.join(', ');
}
const { rows } = data;
const largest = (key) => rows.reduce((best, r) => ((r[key] ?? -1) > (best[key] ?? -1) ? r : best), rows[0]);
const bigPrompt = largest('promptTokens');
const bigPrune = largest('prune');
const bigMonitor = largest('monitor');
console.log('\nWhat fired, and when');
for (const rule of RULES) {
  const at = rows.filter((r) => r.events.some((e) => e.rule === rule.id)).map((r) => r.turn);
  const pruned = rows.flatMap((r) => r.events.filter((e) => e.rule === 'prune').map((e) => e.turns));
  const extra = rule.id === 'prune' && at.length
    ? ` (${pruned.length === 1 ? `${pruned[0]} turns summarized` : `${pruned.reduce((x, y) => x + y, 0)} turns summarized in all, at most ${Math.max(...pruned)} at once`}; summarizer calls: ${data.calls.prune})`
    : rule.id === 'handoff' && at.length ? ` (handoff LLM calls: ${data.calls.handoff})`
      : rule.id === 'summary' && at.length ? ` (summarizer calls: ${data.calls.bounded})` : '';
  console.log(`  ${rule.code} ${rule.name.padEnd(26)} ${String(at.length).padStart(4)}×  ${at.length ? `turn${at.length === 1 ? '' : 's'} ${ranges(at)}` : 'never'}${extra}`);
}
const warnings = rows.flatMap((r) => r.events.filter((e) => e.rule === 'warning'));
if (warnings.length) console.log(`  ! warnings                   ${String(warnings.length).padStart(4)}×`);
console.log(`
Numbers
  largest prompt sent        ${fmt(bigPrompt.promptTokens)} tokens at turn ${bigPrompt.turn} (${pct(bigPrompt.promptTokens, budget)} of the ${fmt(budget)} budget)
  largest prune count        ${fmt(bigPrune.prune)} tokens at turn ${bigPrune.turn} (prunes at ${fmt(pruneAt)})
  largest monitor total      ${fmt(bigMonitor.monitor)} tokens at turn ${bigMonitor.turn} (refreshes at ${fmt(threshold)})
  raw outputs in the store   ${data.store.rows} rows, ${kb(data.store.bytes)}
  agent log                  ${data.log.entries} entries, turn_index ${data.log.first}..${data.log.last}

Files
  ${where('ledger.jsonl').padEnd(36)} the ledger, one JSON record per turn (runner.ledgerJsonl())
  ${where('report.html').padEnd(36)} the chart: tokens per turn by section against the budget and thresholds
  ${where('state.sqlite').padEnd(36)} the raw tool outputs, by id

${rows.length} turns in ${data.seconds.toFixed(2)} s`);
