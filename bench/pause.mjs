#!/usr/bin/env node
// The cache priced by the clock, and ContextManager's compaction at a pause (issue 50,
// items 3 and 4), on the real sessions whose steps carry a time. Nothing is asserted.
//
//   node bench/pause.mjs --count                       pauses over the TTL in each half
//   node bench/pause.mjs [--half tune|held|all] [--budget 200000,50000]
//                        [--levels 0,0.3,0.4,0.5] [--ttl 300000] [--set lowWater=0.3,...]
//
// Each session is replayed as bench/recall.mjs replays ContextManager (the same system
// prompt, counter, summarizer and store), passing each step's recorded time to
// `build({ now })` (never going back), once per level of `pauseCompactAt` (0: without it).
// A meter of its own (until pkg/src/eval has one) prices each request with a cache of
// `--ttl` ms: a request whose previous request is older than the TTL (both times known)
// writes its whole prefix (1.25×); otherwise it reads what it shares with it (0.1×) and
// writes the rest, as with no expiry (a session with no time at all is priced so). Each
// summarizer call is priced as a write of its whole prompt (1.25×). Recall is
// bench/recall.mjs's references meter: of the references of the recorded next output, the
// share whose exact string the request holds.
import { createRequire } from 'node:module';
import { chunks, measure, o200k, sum, tokens } from './cache/measure.mjs';
import { SYSTEM, benchArgs } from './cache/sessions.mjs';
import { summarize } from './cache/strategies.mjs';
import { sessionReferences } from './recall/references.mjs';

const require = createRequire(new URL('../pkg/package.json', import.meta.url));
const { ContextManager, MemoryStateRepository } = require('@devs/context');
const { providerTurns } = require('@devs/context/replay');

const { args, budgets, options, sessions } = benchArgs({
  count: { type: 'boolean', default: false },
  levels: { type: 'string', default: '0,0.3,0.4,0.5' },
  ttl: { type: 'string', default: '300000' },
});
const TTL = Number(args.ttl);
// The ×3 copies repeat their steps' times: no clock.
const timed = sessions.filter((s) => !s.name.endsWith(' ×3') && s.steps.some((st) => st.time !== undefined));

/**
 * The pauses longer than the TTL: between two consecutive steps that both have a time (by
 * their clock, never going back). Aider's times are its chats' starts only: no pause is
 * counted across the turns between them.
 */
function pauses(session) {
  let last;
  let n = 0;
  for (const st of session.steps) {
    if (st.time === undefined) {
      last = undefined;
      continue;
    }
    if (last !== undefined && st.time - last > TTL) n++;
    last = Math.max(last ?? 0, st.time);
  }
  return n;
}

if (args.count) {
  for (const half of ['tune', 'held']) {
    const of = sessions.filter((s) => s.half === half && !s.name.endsWith(' ×3'));
    const t = of.filter((s) => timed.includes(s));
    console.log(`${half}: ${of.length} sessions, ${t.length} with times, ${sum(t, (s) => s.steps.length)} steps among them, ${sum(t, pauses)} pauses over ${TTL / 60000} min`);
    for (const s of t) console.log(`  ${s.name}: ${s.steps.length} steps, ${pauses(s)} pauses`);
  }
  process.exit(0);
}

/** One session at one budget and level: per request, its tokens, prefix, time and recall; and the summary prompts' tokens. */
async function run(session, budget, level) {
  const store = new MemoryStateRepository();
  let summaryTokens = 0;
  const summarizer = (text) => {
    summaryTokens += tokens(text);
    return summarize(text);
  };
  const manager = new ContextManager({
    format: 'anthropic', budget, system: SYSTEM, countTokens: o200k, summarizer, store, ...options,
    ...(level > 0 ? { pauseCompactAt: level, cacheTtlMs: TTL } : {}),
  });
  const refs = sessionReferences(providerTurns(session, 'openai-chat'), SYSTEM);
  const requests = [];
  let previous = [];
  let clock = 0;
  for (const [t, turn] of providerTurns(session, 'anthropic').entries()) {
    manager.append(turn.input);
    const time = session.steps[t]?.time;
    if (time !== undefined) clock = Math.max(clock, time);
    const request = await manager.build(time === undefined ? undefined : { now: clock });
    const current = chunks(request);
    const m = measure(current, previous);
    previous = current;
    manager.recordUsage({ input_tokens: 0, cache_read_input_tokens: m.prefix, cache_creation_input_tokens: m.tokens - m.prefix, output_tokens: 1 });
    const text = current.join('\n');
    const r = refs[t].refs;
    requests.push({ ...m, time: time === undefined ? undefined : clock, refs: r.length, present: sum(r, ({ ref }) => text.includes(ref)), pause: request.ledger.compaction?.trigger === 'pause' });
    manager.append(turn.response);
    manager.append(turn.results);
  }
  manager.free();
  store.free();
  return { requests, summaryTokens };
}

/**
 * Input cost with a cache that expires `TTL` ms after its last read or write: a request
 * whose time and the previous request's are both known and further apart pays writes for
 * its whole prefix; a request with no time, or after one, is priced with no expiry.
 */
function clockSpend({ requests, summaryTokens }) {
  let last;
  let units = 1.25 * summaryTokens;
  for (const r of requests) {
    const cold = r.time !== undefined && last !== undefined && r.time - last > TTL;
    units += cold ? 1.25 * r.tokens : 0.1 * r.prefix + 1.25 * (r.tokens - r.prefix);
    last = r.time;
  }
  return units;
}
const flatSpend = ({ requests, summaryTokens }) => 1.25 * summaryTokens + sum(requests, (r) => 0.1 * r.prefix + 1.25 * (r.tokens - r.prefix));

const levels = args.levels.split(',').map(Number);
const halves = ['tune', 'held'].filter((h) => timed.some((s) => s.half === h));
const results = [];
for (const budget of budgets) {
  for (const s of timed) {
    for (const level of levels) {
      const t0 = performance.now();
      const out = await run(s, budget, level);
      results.push({ budget, session: s.name, half: s.half, level, out });
      process.stderr.write(`${budget / 1000}k ${s.half} ${s.name} level ${level}: ${out.requests.length} requests, ${sum(out.requests, (r) => r.pause)} pause compactions, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    }
  }
}

for (const half of halves) {
  const names = timed.filter((s) => s.half === half).map((s) => s.name);
  console.log(`\n## ${half}: ${names.length} timestamped sessions, ${sum(timed.filter((s) => s.half === half), pauses)} pauses over ${TTL / 60000} min; spend relative to the same budget without the option`);
  console.log('\n| budget | pauseCompactAt | clock-priced spend | spend, no expiry | recall | pause compactions |');
  console.log('|---|--:|--:|--:|--:|--:|');
  for (const budget of budgets) {
    const at = (level) => results.filter((r) => r.budget === budget && r.half === half && r.level === level);
    const base = at(levels[0]);
    const baseClock = sum(base, (r) => clockSpend(r.out));
    const baseFlat = sum(base, (r) => flatSpend(r.out));
    for (const level of levels) {
      const rs = at(level);
      const all = rs.flatMap((r) => r.out.requests);
      const recall = sum(all, (r) => r.present) / sum(all, (r) => r.refs);
      console.log(`| ${budget / 1000}k | ${level || 'off'} | ${(sum(rs, (r) => clockSpend(r.out)) / baseClock).toFixed(3)}× | ${(sum(rs, (r) => flatSpend(r.out)) / baseFlat).toFixed(3)}× | ${recall.toFixed(3)} | ${sum(all, (r) => r.pause)} |`);
    }
    console.log(`| ${budget / 1000}k | (off: clock-priced over no-expiry) | ${(baseClock / baseFlat).toFixed(3)}× | | | |`);
  }
}

console.log('\nPer session (clock-priced spend against the same budget without the option, recall, pause compactions):');
for (const budget of budgets) {
  for (const s of timed) {
    const rs = results.filter((r) => r.budget === budget && r.session === s.name);
    const base = clockSpend(rs[0].out);
    const cells = rs.map((r) => `${r.level || 'off'} ${(clockSpend(r.out) / base).toFixed(3)}× ${(sum(r.out.requests, (q) => q.present) / Math.max(1, sum(r.out.requests, (q) => q.refs))).toFixed(3)} ${sum(r.out.requests, (q) => q.pause)}`);
    console.log(`  ${budget / 1000}k ${s.half} ${s.name}: ${cells.join(', ')}`);
  }
}

