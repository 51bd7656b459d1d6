#!/usr/bin/env node
// Issue 34's figures: scripted computer-use, browser, document, MCP, provider-tool,
// large-input and provider-compaction loops (bench/multimodal/loops.mjs), in every format
// with the SDKs' own shapes (shapes.mjs), through ContextManager and its peers side by
// side in one run: Anthropic's computer-use reference policy, LangChain's summarization
// middleware with its approximate counter, and the AI SDK's pruneMessages. Every request
// is measured as the provider bills it (multimodal/measure.mjs) and checked against the
// provider's rules (pkg/test/validity.mjs).
//
//   node bench/multimodal.mjs [--budget 30000,200000] [--loop computer,pdf] [--strategy anthropic]
//                             [--steps 200] [--svg docs/images/multimodal.svg] [--json out.json]
//
// A benchmark, not a test: nothing is asserted; the goals are printed as met or not.
// Columns, per loop, budget and strategy:
//   largest   the largest request as billed, against the budget;  over: requests past it
//   counted   the strategy's own count over the bill, lowest and highest (— : it counts nothing)
//   bad       requests the provider would refuse
//   newest    requests holding the newest output (and its image whole, where it has one)
//   kept      requests after a provider compaction holding it byte for byte
//   cache     tokens read from the cache over all tokens billed;  spend: input cost,
//             cache reads at 0.1 and writes at 1.25, in thousands of input tokens
//   recall    a stored image asked back through the recall tool: as an image, as text, or —
// Then the fan-out loops, a table of their own (`--loop fan-out` for them alone; columns in
// multimodal/fan-out.mjs).
import { writeFileSync } from 'node:fs';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { chart } from './cache/chart.mjs';
import { PROVIDER, imagesIn, recallCall } from '../pkg/test/media-loops.mjs';
import { png } from '../pkg/test/media-bytes.mjs';
import { fakeVscode } from '../pkg/test/provider-sessions.mjs';
import { PROBLEMS } from '../pkg/test/validity.mjs';
import { LOOPS, marker } from './multimodal/loops.mjs';
import { bill, cost, shared, words } from './multimodal/measure.mjs';
import { render } from './multimodal/shapes.mjs';
import { STRATEGIES } from './multimodal/strategies.mjs';
import { fanOutSection } from './multimodal/fan-out.mjs';

const { values: args } = parseArgs({
  options: {
    budget: { type: 'string', default: '30000,200000' },
    loop: { type: 'string', default: '' },
    strategy: { type: 'string', default: '' },
    steps: { type: 'string' },
    svg: { type: 'string' },
    json: { type: 'string' },
  },
});
const budgets = args.budget.split(',').map(Number);
const loops = Object.entries(LOOPS).filter(([name]) => !args.loop || args.loop.split(',').includes(name));
const strategies = Object.entries(STRATEGIES).filter(([name]) => name.toLowerCase().includes(args.strategy.toLowerCase()));
const SYSTEM = 'You are an agent that reviews pull requests in a browser and fixes what the review finds.';
const TASK = 'Review the open pull request, fix what fails, and report.';

/** The task as `format`'s first message: Gemini's messages hold `parts`, VS Code's are its own class. */
const taskMessage = (format) => format === 'vscode' ? fakeVscode.LanguageModelChatMessage.User(TASK) : format === 'gemini' ? { role: 'user', parts: [{ text: TASK }] } : { role: 'user', content: TASK };
const sameBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** Every `{ type: 'compaction' }` object `value` holds. */
function compactions(value, out = []) {
  if (Array.isArray(value)) value.forEach((v) => compactions(v, out));
  else if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    if (value.type === 'compaction') out.push(value);
    Object.values(value).forEach((v) => compactions(v, out));
  }
  return out;
}

/** One loop through one strategy: each request's bill, count, cache share and checks. */
async function run(loop, budget, make) {
  const strategy = make({ budget, system: SYSTEM, vscode: fakeVscode });
  const provider = PROVIDER[strategy.format];
  strategy.append([taskMessage(strategy.format)]);
  const steps = Number(args.steps ?? loop.steps);
  const requests = [];
  let previous = [];
  let compaction = null;
  for (let t = 0; t < steps; t++) {
    const step = loop.step(t);
    const messages = render(strategy.format, step, fakeVscode);
    if (step.kind === 'compaction') compaction = compactions(messages)[0];
    strategy.append(messages);
    const started = performance.now();
    const { request, counted } = await strategy.build();
    const ms = performance.now() - started;
    const billed = bill(request, provider);
    const total = billed.parts.reduce((n, p) => n + p.tokens, 0);
    const prefix = shared(billed.parts, previous);
    previous = billed.parts;
    strategy.usage?.(billed.tokens);
    const images = imagesIn(request);
    // The step's marker, where its messages carry it (a computer call's output is its screenshot alone).
    const hasText = !words(messages).includes(marker(t)) || words(request.messages).includes(marker(t));
    const hasImage = !step.image || (images.length > 0 && sameBytes(images.at(-1), step.image.bytes));
    requests.push({
      tokens: billed.tokens, total, prefix, counted, ms,
      invalid: PROBLEMS[strategy.format](request).length > 0,
      newest: hasText && hasImage,
      kept: compaction === null ? null : compactions(request.messages).some((c) => isDeepStrictEqual(c, compaction)),
    });
  }
  const recall = await recallImage(strategy);
  strategy.free?.();
  return { requests, recall };
}

/** A stored image asked back through the recall tool: 'image', 'text', or null when none was stored or the strategy has no recall. */
async function recallImage(strategy) {
  if (!strategy.store) return null;
  const row = strategy.store.getRawToolOutputs().find((r) => r.rawContent.startsWith('data:image/'));
  if (!row) return null;
  const answer = await strategy.manager.recall(recallCall(strategy.format, row.id, fakeVscode));
  const back = imagesIn({ messages: [answer] });
  const stored = Buffer.from(row.rawContent.slice(row.rawContent.indexOf(',') + 1), 'base64');
  return back.length && sameBytes(back[0], stored) ? 'image' : 'text';
}

const results = [];
for (const budget of budgets) {
  for (const [loopName, loop] of loops) {
    for (const [name, make] of strategies) {
      if (!loop.formats.includes(make({ budget, system: SYSTEM, vscode: fakeVscode }).format)) continue;
      const { requests, recall } = await run(loop, budget, make);
      results.push({ budget, loop: loopName, strategy: name, requests, recall });
      process.stderr.write(`${budget / 1000}k ${loopName} ${name}: ${requests.length} requests\n`);
    }
  }
}

const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);
const pct = (n, d) => (d ? `${Math.round((100 * n) / d)}%` : '—');
function row(r, budget) {
  const q = r.requests;
  const counted = q.filter((x) => x.counted !== null).map((x) => x.counted / x.tokens);
  const after = q.filter((x) => x.kept !== null);
  const times = q.map((x) => x.ms).sort((a, b) => a - b);
  return {
    strategy: r.strategy,
    largest: `${Math.max(...q.map((x) => x.tokens)).toLocaleString('en')} (${(Math.max(...q.map((x) => x.tokens)) / budget).toFixed(2)}×)`,
    over: q.filter((x) => x.tokens > budget).length,
    counted: counted.length ? `${Math.min(...counted).toFixed(2)}–${Math.max(...counted).toFixed(2)}` : '—',
    bad: q.filter((x) => x.invalid).length,
    newest: pct(q.filter((x) => x.newest).length, q.length),
    kept: after.length ? pct(after.filter((x) => x.kept).length, after.length) : '—',
    cache: (sum(q, (x) => x.prefix) / sum(q, (x) => x.total)).toFixed(3),
    spend: Math.round(sum(q, (x) => cost(x.total, x.prefix)) / 1000).toLocaleString('en'),
    recall: r.recall ?? '—',
    ms: times[Math.floor(times.length / 2)].toFixed(1),
  };
}

const COLUMNS = ['strategy', 'largest', 'over', 'counted', 'bad', 'newest', 'kept', 'cache', 'spend', 'recall', 'ms'];
const lines = [];
for (const budget of budgets) {
  for (const [loopName, loop] of loops) {
    const runs = results.filter((r) => r.budget === budget && r.loop === loopName);
    if (!runs.length) continue;
    lines.push('', `### ${loopName} at ${budget / 1000}k: ${loop.title}, ${runs[0].requests.length} requests`, '');
    lines.push(`| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map((c, i) => (i === 0 ? '---' : '--:')).join('|')}|`);
    for (const r of runs) {
      const x = row(r, budget);
      lines.push(`| ${COLUMNS.map((c) => x[c]).join(' | ')} |`);
    }
  }
}

// The goals of issue 34, over every ContextManager run.
const ours = results.filter((r) => r.strategy.startsWith('ContextManager'));
const all = ours.flatMap((r) => r.requests.map((q) => ({ ...q, budget: r.budget })));
const ratios = all.map((q) => q.counted / q.tokens);
const goal = (ok, text) => lines.push(`- ${ok ? 'met' : 'NOT MET'}: ${text}`);
lines.push('', '### Goals (ContextManager, every loop, format and budget)', '');
goal(all.every((q) => q.tokens <= q.budget), `${all.filter((q) => q.tokens > q.budget).length} of ${all.length} requests over the budget as billed`);
goal(all.every((q) => !q.invalid), `${all.filter((q) => q.invalid).length} requests the provider would refuse`);
goal(ratios.every((x) => x >= 1 && x <= 1.15), `the count over the bill: ${Math.min(...ratios).toFixed(3)} to ${Math.max(...ratios).toFixed(3)} (goal 1 to 1.15)`);
goal(all.every((q) => q.newest), `${all.filter((q) => q.newest).length} of ${all.length} requests hold the newest output, its image whole`);
const after = all.filter((q) => q.kept !== null);
goal(after.every((q) => q.kept), `${after.filter((q) => q.kept).length} of ${after.length} requests after a provider compaction hold it byte for byte`);
const recalls = ours.filter((r) => r.recall !== null);
goal(recalls.every((r) => r.recall === 'image' || r.strategy.endsWith('openai-chat')), `stored images recalled as images: ${recalls.filter((r) => r.recall === 'image').length} of ${recalls.filter((r) => !r.strategy.endsWith('openai-chat')).length} runs (Chat Completions: as text, by design)`);
for (const budget of budgets) {
  const mine = results.find((r) => r.budget === budget && r.loop === 'computer' && r.strategy === 'ContextManager, anthropic');
  const ref = results.find((r) => r.budget === budget && r.loop === 'computer' && r.strategy.startsWith("Anthropic's reference"));
  if (!mine || !ref) continue;
  const share = (q) => sum(q, (x) => x.prefix) / sum(q, (x) => x.total);
  const spend = (q) => sum(q, (x) => cost(x.total, x.prefix));
  const [a, b] = [share(mine.requests), share(ref.requests)];
  const [s, t] = [spend(mine.requests), spend(ref.requests)];
  goal(a >= b && s <= t, `${mine.requests.length}-step computer-use loop at ${budget / 1000}k: cache share ${a.toFixed(3)} against the reference's ${b.toFixed(3)}, spend ${(s / t).toFixed(2)}× the reference's`);
}

lines.push(...(await screensSection()));
// The fan-out loops (issue 49 item 1), a section of their own: bench/multimodal/fan-out.mjs.
if (!args.loop || args.loop.split(',').includes('fan-out')) lines.push(...(await fanOutSection()));

process.stdout.write(`${lines.join('\n')}\n`);
if (args.json) writeFileSync(args.json, JSON.stringify(results.map((r) => ({ ...r, requests: r.requests.map(({ ms, ...q }) => q) }))));
if (args.svg) {
  const budget = budgets[0];
  // The peers first, ContextManager (in Anthropic's format, as the reference) last, in the chart's red.
  const short = { "Anthropic's reference": "Anthropic's reference", LangChain: 'LangChain summarization', 'AI SDK': 'AI SDK pruneMessages', 'ContextManager, anthropic': 'ContextManager' };
  const series = Object.entries(short).flatMap(([prefix, name]) => results
    .filter((r) => r.budget === budget && r.loop === 'computer' && r.strategy.startsWith(prefix))
    .map((r) => ({ name, requests: r.requests.map((q) => ({ tokens: q.tokens, prefix: q.prefix })) })));
  writeFileSync(args.svg, chart({ title: `The computer-use loop at ${budget / 1000}k, as Anthropic bills it`, budget, series }));
}

// ── Issue 49, item 3: the newest screen stays ─────────────────────────────────────────────
// A computer-use loop whose compactions fall between screenshots: a click and its screenshot
// every 4th step, 6 to 14 KB logs between (`--loop screens` runs it alone; `--steps` sets its
// length, 60 by default). Per strategy and format: the share of requests holding the newest
// screenshot whole, and the newest `keepImages` (3) of those sent, with the budget's figures:
// the largest request as billed, requests over the budget and invalid, and where the
// compactions landed (the request after each, over the budget).

/** Step `t` of the loop: every 4th a click and its screenshot, else a log. */
function screensStep(t) {
  const log = (kb) => Array.from({ length: Math.ceil((kb * 1024) / 70) }, (_, i) => `${i}: step ${t} reads section ${i % 23} of the review, line ${(i * 7) % 101}.`).join('\n');
  if (t % 4 === 0) {
    const [x, y] = [40 + ((t * 37) % 900), 60 + ((t * 53) % 600)];
    return { t, kind: 'computer', say: `Step ${t}: click at (${x}, ${y}).`, name: 'computer', input: { action: 'left_click', coordinate: [x, y], x, y }, text: `${marker(t)}: clicked (${x}, ${y})`, image: { bytes: png(1366, 768, 900 + t), type: 'image/png' } };
  }
  return { t, kind: 'call', say: `Step ${t}: read the build log.`, name: 'read_log', input: { path: `build-${t}.log` }, text: `${marker(t)}\n${log(6 + (t % 3) * 4)}` };
}

/** One strategy through the loop at `budget`: per request, the bill, and which screenshots it holds. */
async function screensRun(budget, make, steps) {
  const strategy = make({ budget, system: SYSTEM, vscode: fakeVscode });
  const provider = PROVIDER[strategy.format];
  strategy.append([taskMessage(strategy.format)]);
  const shots = [];
  const requests = [];
  let previous = [];
  for (let t = 0; t < steps; t++) {
    const step = screensStep(t);
    if (step.image) shots.push(step.image.bytes);
    strategy.append(render(strategy.format, step, fakeVscode));
    const { request } = await strategy.build();
    const billed = bill(request, provider);
    const total = billed.parts.reduce((n, p) => n + p.tokens, 0);
    const prefix = shared(billed.parts, previous);
    previous = billed.parts;
    strategy.usage?.(billed.tokens);
    const images = imagesIn(request);
    const holds = (b) => images.some((x) => sameBytes(x, b));
    const compaction = request.ledger?.compaction;
    requests.push({
      tokens: billed.tokens, total, prefix,
      invalid: PROBLEMS[strategy.format](request).length > 0,
      newest: holds(shots.at(-1)),
      kept: shots.slice(-3).every(holds),
      landed: compaction && compaction.trigger !== 'images' ? billed.tokens : null,
    });
  }
  strategy.free?.();
  return requests;
}

/** The section's lines: a table per budget, and the goal over every ContextManager run. */
async function screensSection() {
  if (args.loop && !args.loop.split(',').includes('screens')) return [];
  const steps = Number(args.steps ?? 60);
  const out = [];
  const mine = [];
  for (const budget of budgets) {
    out.push('', `### screens at ${budget / 1000}k: computer use, a screenshot every 4th step and 6 to 14 KB logs between, ${steps} requests`, '');
    const columns = ['strategy', 'newest', 'newest 3', 'largest', 'over', 'bad', 'compactions', 'landed', 'cache', 'spend'];
    out.push(`| ${columns.join(' | ')} |`, `|${columns.map((c, i) => (i === 0 ? '---' : '--:')).join('|')}|`);
    for (const [name, make] of strategies) {
      const q = await screensRun(budget, make, steps);
      process.stderr.write(`${budget / 1000}k screens ${name}: ${q.length} requests\n`);
      if (name.startsWith('ContextManager')) mine.push(...q.map((x) => ({ ...x, budget })));
      const landed = q.filter((x) => x.landed !== null).map((x) => x.landed / budget);
      const largest = Math.max(...q.map((x) => x.tokens));
      out.push(`| ${[
        name,
        `${q.filter((x) => x.newest).length}/${q.length}`,
        `${q.filter((x) => x.kept).length}/${q.length}`,
        `${largest.toLocaleString('en')} (${(largest / budget).toFixed(2)}×)`,
        q.filter((x) => x.tokens > budget).length,
        q.filter((x) => x.invalid).length,
        landed.length,
        landed.length ? `${Math.min(...landed).toFixed(2)}–${Math.max(...landed).toFixed(2)}` : '—',
        (sum(q, (x) => x.prefix) / sum(q, (x) => x.total)).toFixed(3),
        Math.round(sum(q, (x) => cost(x.total, x.prefix)) / 1000).toLocaleString('en'),
      ].join(' | ')} |`);
    }
  }
  if (mine.length) {
    out.push('', '### Goal of issue 49, item 3 (ContextManager, every format and budget)', '');
    const line = (ok, text) => out.push(`- ${ok ? 'met' : 'NOT MET'}: ${text}`);
    line(mine.every((x) => x.newest), `the newest screenshot in ${mine.filter((x) => x.newest).length} of ${mine.length} requests (the newest 3 in ${mine.filter((x) => x.kept).length})`);
    line(mine.every((x) => x.tokens <= x.budget && !x.invalid), `${mine.filter((x) => x.tokens > x.budget).length} requests over the budget as billed, ${mine.filter((x) => x.invalid).length} invalid`);
  }
  return out;
}
