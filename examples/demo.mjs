#!/usr/bin/env node
// The demo: replays the scripted session in examples/parser-fix through the package's own
// replay engine (`@devs/context/replay`: AgentRunner with every rule on and the `bounded`
// option), and prints, per turn, the number each rule compares with its threshold. Writes
// the per-turn ledger (ledger.jsonl), the replay report (report.html, the same view as
// `devs-context replay --html` and www/) and the raw tool outputs (state.sqlite). Run it
// with `bash scripts/demo.sh`, which builds the package first when a source changed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HELP = `Usage: bash scripts/demo.sh [options]     (or: node examples/demo.mjs [options])

Replays examples/parser-fix, a scripted 120-turn session of an agent fixing
parser::tests::trailing_token, through AgentRunner with every rule on and the
bounded option. Prints one line per turn with the number each rule compares with
its threshold, then what fired; writes the ledger and the replay report.

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
  monitor  what the threshold monitor has counted (on a refresh turn, the total that
           reached the threshold), and % of thresholdTokens
  prompt   the tokens of the prompt sent to the LLM (turn.promptTokens), and % of the budget
  fired    one letter per rule that fired; the first firing of each, and every prune,
           handoff and drop, is also told in words on the line below`;

const PROJECT = join(dirname(fileURLToPath(import.meta.url)), 'parser-fix');

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
const maxTurns = values.turns === undefined ? Infinity : wholeNumber('turns', clean(values.turns), 1);
const counters = ['o200k_base', 'cl100k_base', 'heuristic'];
if (!counters.includes(values.counter)) usage(`--counter must be one of ${counters.join(', ')}, got ${JSON.stringify(values.counter)}`);
const refreshOn = values['refresh-on'];
if (!['response', 'context'].includes(refreshOn)) usage(`--refresh-on must be response or context, got ${JSON.stringify(refreshOn)}`);

// Only now the package: --help and a bad option need no build.
const [{ ContextComposer }, { MARKERS, MARKER_INFO, replay, reportHtml }, { SqliteStateRepository }, { session }] = await Promise.all([
  import('@devs/context'), import('@devs/context/replay'), import('@devs/context/sqlite'), import('./parser-fix/session.mjs'),
]).catch(missingPackage);

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

/** 1234567 → "1,234,567". */
const fmt = (n) => (n === null || n === undefined ? '—' : Math.round(n).toLocaleString('en-US'));
const kb = (bytes) => `${fmt(bytes / 1024)} KB`;
// Floored, so that 100% means the threshold was reached.
const pct = (v, of) => (v === null ? '' : `${Math.floor((100 * v) / of)}%`);
const cell = (v, of) => `${fmt(v).padStart(9)} ${pct(v, of).padStart(4)}`;
const pruneAt = budget * 0.9;

// The scripted session, as the replay engine takes a recorded one.
const script = session().slice(0, maxTurns);
const recorded = {
  name: 'parser-fix', format: 'saop-jsonl', warnings: [], unmatchedResults: 0,
  steps: script.map((s) => ({
    input: s.user,
    text: s.answer,
    calls: [{
      envelope: {
        schema_version: '1.0.0', turn_index: 0, agent_id: 'dev-agent', phase: s.phase,
        thought: { reasoning: s.reasoning, plan: s.plan },
        action: { tool_name: s.tool, arguments: s.args },
        observation: { status: s.status, output: s.output },
      },
    }],
  })),
};

// A deterministic stand-in for the summarizer LLM. The prune's prompt asks it to keep the
// plan, the TAS and the failing observation verbatim: it does, which shows they are there.
let summarizerCalls = 0;
const section = (prompt, name) => prompt.split(`## ${name} (keep verbatim)\n`)[1]?.split('\n\n## ')[0];
const summarizer = {
  summarize(prompt) {
    summarizerCalls += 1;
    const plan = section(prompt, 'Plan');
    if (plan !== undefined) {
      return `[PRUNED CONTEXT]\nPlan: ${plan}\nTAS: ${(section(prompt, 'TAS') ?? '').split('\n')[0]}\n`
        + `Failing observation: ${(section(prompt, 'Current failing Observation') ?? '').slice(0, 300)}\nSummary: reading, patching and re-running the parser tests.`;
    }
    return `Earlier turns (${prompt.length} chars): read the lexer and parser, reproduced the failure, patched the lexer.`;
  },
};

const counter = values.counter === 'heuristic' ? undefined : (await import('@devs/context/tokenizers')).createTokenCounter(values.counter);
const composer = await ContextComposer.fromProject(PROJECT);
const [tas, prd] = composer.specs;
const dbPath = join(out, 'state.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
const store = new SqliteStateRepository(dbPath);

const always = new Set(['prune', 'handoff', 'drop']);
const told = new Set();
console.log(`@devs/context demo: examples/parser-fix through AgentRunner, bounded to ${fmt(budget)} tokens, counted with ${values.counter}`);
console.log(`Rules and their thresholds: prune at 90% of the budget (${fmt(pruneAt)}), context refresh when the monitor reaches ${fmt(threshold)}`
  + ` (counting ${refreshOn === 'context' ? 'every token entering the context' : "the model's responses"}), prompt ≤ ${fmt(budget)}.`);
console.log(`Letters under "fired": ${MARKERS.map((m) => `${MARKER_INFO[m].code} ${MARKER_INFO[m].label}`).join(', ')}, ! a warning.\n`);
const header = `${'turn'.padStart(4)}  ${'phase'.padEnd(9)} ${'tool'.padEnd(12)} ${'output'.padStart(7)} │ ${'prune count'.padStart(14)} │ ${'monitor'.padStart(14)} │ ${'prompt'.padStart(14)} │ fired`;
console.log(header);
console.log(`${''.padStart(4)}  ${''.padEnd(9)} ${''.padEnd(12)} ${''.padStart(7)} │ ${`vs ${fmt(pruneAt)}`.padStart(14)} │ ${`vs ${fmt(threshold)}`.padStart(14)} │ ${`vs ${fmt(budget)}`.padStart(14)} │`);
console.log('─'.repeat(header.length + 8));

const settings = { budget, counterName: values.counter, thresholdTokens: threshold, refreshOn, refreshEvery: 5 };
let result;
try {
  result = await replay(recorded, settings, counter, {
    store, summarizer, specs: { tas: tas.content, prd: prd.content },
    goal: 'Make parser::tests::trailing_token pass without breaking any other test.',
    map: 'tinyparse/\n  src/lexer.rs   tokens\n  src/parser.rs  Pratt parser\n  src/ast.rs     nodes\n  tests/         regression tests',
    onTurn(t) {
      const s = script[t.turn - 1];
      const warnings = t.ledger.warnings;
      const fired = [...t.markers.map((m) => MARKER_INFO[m].code), ...(warnings.length ? ['!'] : [])].join(' ');
      console.log(`${String(t.turn).padStart(4)}  ${s.phase.padEnd(9)} ${s.tool.padEnd(12)} ${kb(Buffer.byteLength(s.output)).padStart(7)} │ `
        + `${cell(t.pruneTokens, pruneAt)} │ ${cell(t.monitorTokens, threshold)} │ ${cell(t.promptTokens, budget)} │ ${fired}`.trimEnd());
      for (const e of t.events) {
        if (!always.has(e.marker) && told.has(e.marker)) continue;
        const later = always.has(e.marker) ? '' : ` [first ${MARKER_INFO[e.marker].label}; later ones are marked ${MARKER_INFO[e.marker].code}]`;
        console.log(`${''.padStart(6)}↳ ${e.text}${later}`);
        told.add(e.marker);
      }
      for (const w of warnings) console.log(`${''.padStart(6)}↳ warning: ${w}`);
    },
  });
} catch (error) {
  // The runner names the option at fault (e.g. a budget too small for the pinned specs).
  if (error instanceof RangeError || error instanceof TypeError) usage(error.message);
  throw error;
}

// The report's view script ships beside the replay entry, as the CLI reads it.
const view = readFileSync(join(dirname(createRequire(import.meta.url).resolve('@devs/context/package.json')), 'dist/replay-view.js'), 'utf8');
writeFileSync(join(out, 'ledger.jsonl'), result.turns.map((t) => `${JSON.stringify(t.ledger)}\n`).join(''));
writeFileSync(join(out, 'report.html'), reportHtml(result, view));
const stored = store.getRawToolOutputs();
store.close();

/** [1,2,3,5] → "1–3, 5". */
function ranges(ns) {
  const spans = [];
  for (const n of ns) {
    const last = spans.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else spans.push([n, n]);
  }
  const texts = spans.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`));
  return texts.length > 12 ? `${texts.slice(0, 8).join(', ')}, … ${texts.slice(-2).join(', ')}` : texts.join(', ');
}
const { turns } = result;
const largest = (key) => turns.reduce((best, t) => ((t[key] ?? -1) > (best[key] ?? -1) ? t : best), turns[0]);
const bigPrompt = largest('promptTokens');
const bigPrune = largest('pruneTokens');
const bigMonitor = largest('monitorTokens');
console.log('\nWhat fired, and when');
for (const m of MARKERS) {
  const at = turns.filter((t) => t.markers.includes(m)).map((t) => t.turn);
  const pruned = turns.flatMap((t) => t.events.filter((e) => e.marker === 'prune').map((e) => e.toTurn - e.fromTurn + 1));
  const extra = m === 'prune' && at.length
    ? ` (${pruned.length === 1 ? `${pruned[0]} turns summarized` : `${pruned.reduce((x, y) => x + y, 0)} turns summarized in all, at most ${Math.max(...pruned)} at once`})`
    : '';
  console.log(`  ${MARKER_INFO[m].code} ${MARKER_INFO[m].label.padEnd(26)} ${String(at.length).padStart(4)}×  ${at.length ? `turn${at.length === 1 ? '' : 's'} ${ranges(at)}` : 'never'}${extra}`);
}
const warnings = turns.flatMap((t) => t.ledger.warnings);
if (warnings.length) console.log(`  ! warnings                   ${String(warnings.length).padStart(4)}×`);
console.log(`
Numbers
  largest prompt sent        ${fmt(bigPrompt.promptTokens)} tokens at turn ${bigPrompt.turn} (${pct(bigPrompt.promptTokens, budget)} of the ${fmt(budget)} budget)
  largest prune count        ${fmt(bigPrune.pruneTokens)} tokens at turn ${bigPrune.turn} (prunes at ${fmt(pruneAt)})
  largest monitor total      ${fmt(bigMonitor.monitorTokens)} tokens at turn ${bigMonitor.turn} (refreshes at ${fmt(threshold)})
  summarizer calls           ${summarizerCalls} (the prune, the handoff and the bound's summaries)
  raw outputs in the store   ${stored.length} rows, ${kb(stored.reduce((n, o) => n + o.byteSize, 0))}

Files
  ${where('ledger.jsonl').padEnd(36)} the ledger, one JSON record per turn
  ${where('report.html').padEnd(36)} the replay report: tokens per turn by section against the budget, each rule's firing marked
  ${where('state.sqlite').padEnd(36)} the raw tool outputs, by id

${turns.length} turns in ${(result.ms / 1000).toFixed(2)} s`);
