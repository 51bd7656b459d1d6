#!/usr/bin/env node
// The JS↔wasm boundary of @devs/context, against the seeds transcribed to plain JS
// (bench/peers/), in one run: `node bench/boundary.mjs`. A benchmark, not a test: nothing
// is asserted. Four phases, each in its own child process:
//   1. timing     per-call median and p90 of seven operations at N = 100, 2,000, 20,000
//                 turns, with the default counter (length/4) and an exact one (o200k_base);
//   2. crossings  JS→wasm and wasm→JS calls per operation, counted by wrapping the
//                 `WebAssembly.Instance` the package creates (bench/crossings.mjs), in a
//                 process of its own so the wrappers never slow the timings;
//   3. replay     the real sessions of pkg/test/fixtures/sessions/ (pkg/test/sessions.mjs)
//                 through AgentRunner with every rule on, and through the plain-JS loop;
//   4. memory     10^5 create/drop cycles per class without free(), under --expose-gc,
//                 reading the wasm memory size before and after.
// `node bench/boundary.mjs timing replay` runs only the phases named. Set
// DEVS_CONTEXT_DIST to measure a package built elsewhere (default: pkg/dist); the entries
// are copied once at the start, so every phase measures the same build. BOUNDARY_SIZES
// (e.g. 100,2000) and BOUNDARY_CYCLES shorten a run while developing.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installCrossingCounter, instances, since, snapshot } from './crossings.mjs';

const self = fileURLToPath(import.meta.url);
const SIZES = (process.env.BOUNDARY_SIZES ?? '100,2000,20000').split(',').map(Number);
const PHASES = ['timing', 'crossings', 'replay', 'memory'];

// ---------- formatting ----------

const fmtUs = (ns) => (ns / 1000).toFixed(ns < 10_000 ? 2 : ns < 100_000 ? 1 : 0);
const fmtMs = (ms) => ms.toFixed(ms < 1 ? 3 : ms < 10 ? 2 : 1);
const ratio = (a, b) => `${(a / b).toFixed(a / b < 0.1 ? 3 : 2)}×`;
const int = (n) => n.toLocaleString('en-US');
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))];
};

/** Prints an aligned table; `right` lists the columns to right-align. */
function table(headers, rows, right = []) {
  const width = headers.map((h, c) => Math.max(h.length, ...rows.filter(Boolean).map((r) => String(r[c]).length)));
  const line = (cells) => cells.map((x, c) => (right.includes(c) ? String(x).padStart(width[c]) : String(x).padEnd(width[c]))).join('  ').trimEnd();
  console.log(line(headers));
  console.log(width.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(r === null ? '' : line(r));
}

function header(title) {
  console.log(`\n=== ${title} ${'='.repeat(Math.max(0, 86 - title.length))}\n`);
}

// ---------- phase 1: timing ----------

async function measure(work, isAsync, budgetMs, { minCalls = 15, maxCalls = 2000, warmCalls = 30 } = {}) {
  let i = 0;
  const run = async (timed) => {
    work.prepare?.(i);
    const t0 = process.hrtime.bigint();
    if (isAsync) await work.call(i);
    else work.call(i);
    const dt = Number(process.hrtime.bigint() - t0);
    i++;
    return timed ? dt : 0;
  };
  const warmStart = performance.now();
  for (let w = 0; w < warmCalls && (w < 3 || performance.now() - warmStart < budgetMs / 3); w++) await run(false);
  const samples = [];
  const start = performance.now();
  while (samples.length < maxCalls && (samples.length < minCalls || performance.now() - start < budgetMs)) samples.push(await run(true));
  return samples;
}

async function timingPhase() {
  const { OPS, loadOurs, loadPlain, historyOf, EXACT_PEER } = await import('./boundary-workloads.mjs');
  const sides = [await loadOurs(), loadPlain()];
  const counters = sides.map((s) => s.exact());
  for (const c of counters) c('warm the exact counters up: o200k_base'); // tables built outside the timings

  header('1. Per-call time, ours (@devs/context) against the seeds in plain JS');
  console.log(`Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}`);
  console.log('counters: "length/4" = each side\'s default countTokens; "o200k_base" = ours: createTokenCounter(\'o200k_base\')');
  console.log(`  from '@devs/context/tokenizers'; plain JS: ${EXACT_PEER}`);
  console.log('"ours ÷ plain JS" = ratio of medians: below 1× ours is faster. Times in µs per call.\n');

  const rows = [];
  for (const n of SIZES) {
    const data = historyOf(n);
    const budgetMs = n >= 20_000 ? 500 : 300;
    for (const op of OPS) {
      for (const counter of op.counts ? ['length/4', 'o200k_base'] : ['—']) {
        const stats = [];
        for (const [k, side] of sides.entries()) {
          const count = counter === 'o200k_base' ? counters[k] : undefined;
          const work = await op.make(side, data, count);
          const samples = await measure(work, op.async, budgetMs, { minCalls: n >= 20_000 ? 10 : 15 });
          stats.push({ median: quantile(samples, 0.5), p90: quantile(samples, 0.9), calls: samples.length });
        }
        const [o, p] = stats;
        rows.push([op.name, int(n), counter, fmtUs(o.median), fmtUs(o.p90), fmtUs(p.median), fmtUs(p.p90), ratio(o.median, p.median), `${o.calls}/${p.calls}`]);
      }
    }
    rows.push(null);
  }
  rows.pop();
  table(['operation', 'N turns', 'counter', 'ours med', 'ours p90', 'plain med', 'plain p90', 'ours ÷ plain JS', 'calls'], rows, [1, 3, 4, 5, 6, 7, 8]);
  console.log('\nN is the history: ContextComposer gets N TurnEntry turns; WindowComposer N envelopes; applyContextManagement');
  console.log('N turns, N envelopes and 2 tool outputs (one truncated per call); the injector and the tracker have seen N turns;');
  console.log('the log is full at maxSize N; AgentRunner (context management, tracker, log, injector) starts each 20 turns');
  console.log('from a context of N turns and N envelopes. Turns are 40–200 characters, so no call prunes.');
  console.log('With o200k_base, ours counts each turn once and reuses the count (README: "Counts are cached per turn");');
  console.log('the plain-JS seeds recount every turn on every call, as the seeds are written.');
}

// ---------- phase 2: crossings ----------

/** `__wbg_get_2793…` → `__wbg_get`; `__wbindgen_generic_000…02` → `__wbindgen_generic#2`. */
const shortName = (name) => name.replace(/_0{8,}([0-9a-f]+)$/, (_, n) => `#${parseInt(n, 16)}`).replace(/_[0-9a-f]{16}$/, '');

async function crossingsPhase() {
  installCrossingCounter();
  const { OPS, loadOurs, historyOf } = await import('./boundary-workloads.mjs');
  const ours = await loadOurs();
  // Instances made while loading the entries are the rules'; the tokenizer's comes with the
  // first createTokenCounter.
  const rulesCount = instances.length;
  const exact = ours.exact();
  exact('warm up');
  const add = (list) => list.reduce((a, d) => ({ jsToWasm: a.jsToWasm + d.jsToWasm, wasmToJs: a.wasmToJs + d.wasmToJs, exports: new Map([...a.exports, ...d.exports]), imports: new Map([...a.imports, ...d.imports]) }),
    { jsToWasm: 0, wasmToJs: 0, exports: new Map(), imports: new Map() });
  const CALLS = 20;

  header('2. JS↔wasm crossings per call, ours (goal: constant in N)');
  console.log('Counted by wrapping the exports (JS→wasm) and the import object (wasm→JS) of each WebAssembly.Instance');
  console.log(`the package creates; nothing in the package is hooked. ${CALLS} calls per cell after 3 warm-up calls;`);
  console.log('cell = JS→wasm / wasm→JS per call, "mean (min–max)"; "+tok" = calls into the tokenizer wasm per call.\n');

  const per = (xs) => {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const lo = Math.min(...xs);
    const hi = Math.max(...xs);
    const m = Number.isInteger(mean) ? String(mean) : mean.toFixed(1);
    return lo === hi ? m : `${m} (${lo}–${hi})`;
  };
  const results = new Map();
  const busiest = new Map();
  for (const n of SIZES) {
    const data = historyOf(n);
    for (const op of OPS) {
      for (const counter of op.counts ? ['length/4', 'o200k_base'] : ['—']) {
        const work = await op.make(ours, data, counter === 'o200k_base' ? exact : undefined);
        let i = 0;
        const one = async () => {
          work.prepare?.(i);
          const before = snapshot();
          if (op.async) await work.call(i);
          else work.call(i);
          i++;
          const d = since(before);
          return [add(d.slice(0, rulesCount)), add(d.slice(rulesCount))];
        };
        for (let w = 0; w < 3; w++) await one();
        const j2w = [];
        const w2j = [];
        const tok = [];
        const names = new Map();
        for (let c = 0; c < CALLS; c++) {
          const d = await one();
          const [rules, tokenizer] = d;
          j2w.push(rules.jsToWasm);
          w2j.push(rules.wasmToJs);
          tok.push(tokenizer.jsToWasm + tokenizer.wasmToJs);
          for (const [k, v] of [...rules.exports, ...rules.imports]) names.set(k, (names.get(k) ?? 0) + v);
        }
        const key = `${op.name}|${counter}`;
        if (!results.has(key)) results.set(key, { op: op.name, counter, cells: [], raw: [] });
        const cell = `${per(j2w)} / ${per(w2j)}${tok.some((t) => t) ? ` +tok ${per(tok)}` : ''}`;
        results.get(key).cells.push(cell);
        results.get(key).raw.push(`${j2w}|${w2j}|${tok}`);
        if (n === SIZES.at(-1)) {
          const top = [...names].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${shortName(k)} ${(v / CALLS).toFixed(1)}`);
          busiest.set(key, top.join(', '));
        }
      }
    }
  }
  table(['operation', 'counter', ...SIZES.map((n) => `N = ${int(n)}`), 'constant in N'],
    [...results.values()].map((r) => [r.op, r.counter, ...r.cells, r.raw.every((x) => x === r.raw[0]) ? 'yes' : 'NO']));
  console.log(`\nMost-called functions per call at N = ${int(SIZES.at(-1))} (export or import name, hash suffix cut):`);
  table(['operation', 'counter', 'top 3'], [...results.values()].map((r) => [r.op, r.counter, busiest.get(`${r.op}|${r.counter}`) ?? '']));
  const inst = instances.map((r) => `#${r.id}: ${r.exportNames.length} exports${r.memory ? `, memory ${int(r.memory.buffer.byteLength)} B` : ''}`);
  console.log(`\ninstances: ${inst.join('; ')} (rules: #0${rulesCount > 1 ? `–#${rulesCount - 1}` : ''}; the rest: the tokenizer)`);
}

// ---------- phase 3: replay ----------

async function replayPhase() {
  const { loadOurs, loadPlain, managedRunner } = await import('./boundary-workloads.mjs');
  const { loadSession, sessionFiles } = await import('../pkg/test/sessions.mjs');
  const sides = [await loadOurs(), loadPlain()];
  // Every vendored session (issue 37's figure is the median over them, and the worst).
  const sessions = sessionFiles().flatMap((f) => loadSession(f));

  header('3. Real sessions replayed through AgentRunner with every rule on');
  console.log(`${sessions.length} sessions from pkg/test/fixtures/sessions/: each tool call and its result is one SAOP envelope, returned`);
  console.log('with the model\'s text by a scripted LLM as { text, envelope }; the user\'s messages are runTurn(input).');
  console.log('Ours: AgentRunner with contextManagement, tracker, log, injector (as in pkg/test/agent-runner-management.test.mjs);');
  console.log('plain JS: the same loop over the seeds (bench/peers/seed-runner.mjs). Default counter (length/4). Each session');
  console.log('runs once untimed (warm-up), then again on fresh objects, timed per turn.\n');

  const replay = async (side, session) => {
    let k = 0;
    const prompts = [];
    const llm = { complete: async ({ prompt }) => { prompts.push(prompt); const s = session.steps[k++]; return s.envelope ? { text: s.text, envelope: s.envelope } : { text: s.text }; } };
    const goal = (session.steps.find((s) => s.input)?.input ?? session.name).slice(0, 2000);
    const { runner } = managedRunner(side, null, { llm, agentId: session.steps.find((s) => s.envelope)?.envelope.agent_id ?? 'agent', taskGoal: goal });
    const times = [];
    for (const step of session.steps) {
      const t0 = performance.now();
      await runner.runTurn(step.input);
      times.push(performance.now() - t0);
    }
    return { times, prompts };
  };
  const rows = [];
  const ratios = [];
  for (const session of sessions) {
    const out = [];
    for (const side of sides) {
      await replay(side, session);
      out.push(await replay(side, session));
    }
    const [o, p] = out.map((r) => r.times);
    const same = out[0].prompts.length === out[1].prompts.length && out[0].prompts.every((x, i) => x === out[1].prompts[i]);
    const bytes = session.steps.reduce((s, x) => s + (x.envelope?.observation.output.length ?? 0), 0);
    ratios.push(quantile(o, 0.5) / quantile(p, 0.5));
    rows.push([session.name.replace('openhands-multi-swe-bench-output.jsonl', 'openhands…output.jsonl'), session.format.replace(/ \S+$/, ''), int(session.steps.length), `${(bytes / 1e6).toFixed(2)} M`,
      fmtMs(quantile(o, 0.5)), fmtMs(quantile(p, 0.5)), ratio(quantile(o, 0.5), quantile(p, 0.5)),
      fmtMs(o.reduce((a, b) => a + b, 0)), fmtMs(p.reduce((a, b) => a + b, 0)), same ? 'yes' : 'NO']);
  }
  table(['session', 'agent', 'turns', 'tool out', 'ours ms/turn', 'plain ms/turn', 'ours ÷ plain JS', 'ours total ms', 'plain total ms', 'same prompts'], rows, [2, 3, 4, 5, 6, 7, 8]);
  console.log(`\nours ÷ plain JS per turn, over the ${ratios.length} sessions: median ${ratio(quantile(ratios, 0.5), 1)}, worst ${ratio(Math.max(...ratios), 1)}`);
  console.log('\nms/turn = median of runTurn; "tool out" = characters of tool output in the session; "same prompts" = both');
  console.log('sides sent the LLM the very same prompt text on every turn.');
}

// ---------- phase 4: memory ----------

async function memoryPhase() {
  if (typeof globalThis.gc !== 'function') throw new Error('the memory phase needs node --expose-gc');
  installCrossingCounter({ count: false });
  const { loadOurs } = await import('./boundary-workloads.mjs');
  const { specs } = await import('./corpus.mjs');
  const { lib } = await loadOurs();
  const memory = instances[0].memory;
  const CYCLES = Number(process.env.BOUNDARY_CYCLES ?? 100_000);
  const settle = async () => {
    for (let k = 0; k < 3; k++) {
      globalThis.gc();
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 0));
    }
  };

  const provider = { getSummary: async () => ({ tasSummary: 'T', prdSummary: 'P' }) };
  const budget = lib.createDefaultWindowBudget(800_000);
  const refresher = new lib.ContextRefresher({ threshold: 5, summaryProvider: provider });
  const llm = { complete: async () => ({ text: 'ok' }) };
  const composer = new lib.ContextComposer({ specs });
  const handoff = new lib.SummarizationHandoff({ llmClient: { summarize: async () => 'S' } });
  const factories = {
    ContextRefresher: () => new lib.ContextRefresher({ threshold: 5, summaryProvider: provider }),
    OrchestratorContextInjector: () => new lib.OrchestratorContextInjector(refresher),
    TurnTracker: () => new lib.TurnTracker('dev-agent', 'implement'),
    AgentLogStore: () => new lib.AgentLogStore(1000),
    SlidingRelevanceWindow: () => new lib.SlidingRelevanceWindow({ maxTurns: 20 }),
    SpecRefreshProtocol: () => new lib.SpecRefreshProtocol(),
    ContextComposer: () => new lib.ContextComposer({ specs }),
    TokenThresholdMonitor: () => new lib.TokenThresholdMonitor({ onThresholdExceeded: async () => {} }),
    SummarizationHandoff: () => new lib.SummarizationHandoff({ llmClient: { summarize: async () => 'S' } }),
    WindowComposer: () => new lib.WindowComposer(budget),
    ContextPruner: () => new lib.ContextPruner({ summarize: async () => 'S' }),
    ToolOutputPruner: () => new lib.ToolOutputPruner(),
    AgentRunner: () => new lib.AgentRunner({ agentId: 'dev-agent', taskGoal: 'goal', llm, composer, handoff }),
  };

  header('4. Wasm memory across create/drop cycles without free()');
  console.log(`${int(CYCLES)} cycles per class: each creates an object and drops it; every 10,000 cycles and at the end, gc()`);
  console.log('and a few event-loop turns let the FinalizationRegistry callbacks free the wasm side. Memory is the rules');
  console.log('instance\'s memory.buffer.byteLength (wasm memory never shrinks: "after" is the peak). Goal: flat.\n');
  await settle();
  const start = memory.buffer.byteLength;
  const rows = [];
  for (const [name, make] of Object.entries(factories)) {
    await settle();
    const before = memory.buffer.byteLength;
    let first = before;
    const t0 = performance.now();
    for (let i = 1; i <= CYCLES; i++) {
      make();
      if (i % 10_000 === 0) {
        await settle();
        if (i === 10_000) first = memory.buffer.byteLength;
      }
    }
    await settle();
    const after = memory.buffer.byteLength;
    const growth = (a, b) => (a === b ? 'flat' : `+${int(a - b)}`);
    rows.push([name, int(before), int(first), int(after), growth(after, before), growth(after, first), fmtMs(performance.now() - t0)]);
  }
  table(['class', 'before (B)', 'after 10^4 (B)', `after ${CYCLES === 100_000 ? '10^5' : int(CYCLES)} (B)`, 'growth', 'growth after 10^4', 'ms'], rows, [1, 2, 3, 4, 5, 6]);
  const end = memory.buffer.byteLength;
  console.log(`\nwasm memory: ${int(start)} B at start, ${int(end)} B after all ${Object.keys(factories).length} classes (${end === start ? 'flat' : `+${int(end - start)} B`}).`);
}

// ---------- driver ----------

const phaseArg = process.argv.indexOf('--phase');
if (phaseArg > 0) {
  const phase = process.argv[phaseArg + 1];
  await { timing: timingPhase, crossings: crossingsPhase, replay: replayPhase, memory: memoryPhase }[phase]();
} else {
  const chosen = process.argv.slice(2).filter((a) => PHASES.includes(a));
  const run = chosen.length ? chosen : PHASES;
  // Every phase measures one build: pkg/dist is copied once (the entries import the shell,
  // host and glue modules beside them), so a rebuild of pkg/dist during the run changes nothing.
  const dist = process.env.DEVS_CONTEXT_DIST ?? fileURLToPath(new URL('../pkg/dist/', import.meta.url));
  const entries = ['index.mjs', 'tokenizers.mjs'];
  const missing = entries.filter((f) => !existsSync(join(dist, f)));
  if (missing.length) {
    console.error(`${dist}: no ${missing.join(', ')}; build the package first (bash scripts/build.sh)`);
    process.exit(1);
  }
  const snapshotDir = mkdtempSync(join(tmpdir(), 'devs-context-boundary-'));
  cpSync(dist, snapshotDir, { recursive: true });
  let head = '';
  try {
    head = execFileSync('git', ['log', '-1', '--format=%h %cI'], { cwd: fileURLToPath(new URL('..', import.meta.url)), encoding: 'utf8' }).trim();
  } catch {}
  console.log(`@devs/context at the JS↔wasm boundary; phases: ${run.join(', ')}; sizes: ${SIZES.map(int).join(', ')} turns`);
  console.log(`build: ${dist} (index.mjs ${statSync(join(dist, 'index.mjs')).mtime.toISOString()}${head ? `; git HEAD ${head}` : ''})`);
  const t0 = performance.now();
  try {
    for (const phase of run) {
      const flags = phase === 'memory' ? ['--expose-gc'] : [];
      const env = { ...process.env, DEVS_CONTEXT_DIST: snapshotDir };
      const r = spawnSync(process.execPath, [...flags, self, '--phase', phase], { stdio: 'inherit', env });
      if (r.status !== 0) console.log(`\n[phase ${phase} exited with ${r.status ?? r.signal}]`);
    }
  } finally {
    rmSync(snapshotDir, { recursive: true, force: true });
  }
  console.log(`\ntotal: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
