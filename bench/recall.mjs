#!/usr/bin/env node
// What each strategy's requests still hold of what the agent goes on to use, and what that
// costs, in one run. Each real session (pkg/test/fixtures/sessions/, plus each half's
// longest three times over) is replayed as bench/cache.mjs replays it: the same system
// prompt, per model turn append the user's input, build a request, append the recorded
// response and the tool results. Nothing is asserted: it is a benchmark.
//
//   node bench/recall.mjs [--budget 200000,50000] [--session claude] [--strategy context]
//                         [--half tune|held|all] [--persist-edits] [--set lowWater=0.3,...]
//
// The table comes once per half (bench/cache/sessions.mjs `split`): the sessions the
// defaults are tuned on, and the ones held out, which no default was chosen on; a tuning
// run takes `--half tune`.
//
// `--persist-edits` keeps contextEditingMiddleware's cleared results in the history, as
// `createAgent`'s state keeps them (its hook edits the state's own array); by default the
// history is append-only and the middleware edits each request's copy only.
//
// Definitions:
//   next output   at each model call (each turn of `providerTurns`), what the recorded model
//                 wrote in response (`turn.response`): its text and its tool calls' argument
//                 values (not the calls' ids, tool names or argument keys).
//   reference     a distinctive token of the next output (pkg/src/eval/references.ts):
//                   - a file path: a token with `/` (4+ characters, a letter), or a file
//                     name `name.ext` with a known-looking extension (py, ts, rs, ex, …);
//                   - in any other token, each word (split at `.`, `/`, `-`) that is an
//                     identifier of 6+ characters with `_`, an inner capital (camelCase,
//                     PascalCase) or a digit; a number of 4+ digits; an error name
//                     (`\w+Error`, `\w+Exception`) or code (`E0308`, `F401`, `TS2345`);
//                 (tokens are runs of letters, digits and `_./-`, without a trailing `.`,
//                 `/`, `-` or a leading `-`), kept only when it occurred EARLIER in the
//                 conversation, in a message before this call as recorded (the call's own
//                 user input included), and is NOT in the system prompt. An earlier message
//                 "holds" a reference when it holds it as a token, as a word of a token, or as
//                 a part of a path between `/`s (`src/a.py` of `/repo/src/a.py`). Each
//                 distinct reference counts once per call. (In the ×3 session, the second
//                 and third copies repeat the first: most of their long-range references
//                 were written by the model itself in the first copy, so a strategy that
//                 keeps the assistant's messages whole keeps them.)
//   present       its exact string occurs in the text of the request the strategy built for
//                 the call: every text of the request, as pkg/src/eval/measure.ts's
//                 `chunks()` gives it (system, each message's text, calls with their
//                 arguments, results).
//   long-range    a reference whose last occurrence in the recorded conversation was 20 or
//                 more messages before the call, messages counted as OpenAI Chat has them
//                 (a user input, an assistant message, one message per tool result).
//   recoverable   present, or held by a stored text whose store id the request names
//                 (ContextManager: `stored as 17`, `stored text 17`, `recall id 17`,
//                 `"id": 17`, looked up in the store the bench gave it). A strategy that
//                 stores nothing recovers nothing: recoverable = present.
//   user's words  what the user typed in a step's input, less what a harness injected there
//                 (`<system-reminder>`, `<environment_context>`, `<environment_details>`, an
//                 AGENTS.md, aider's confirmations, mini-SWE's format errors, …), read by
//                 pkg/src/eval/survival.ts's own lists of markers, not by the engine's. A pair
//                 is (message, request built after it was appended, its own turn's included);
//                 it is kept when the request holds each run of the message verbatim, or
//                 holds its first line (its first 40 characters) and names a store id whose
//                 stored text holds it (the engine's working state names older messages so).
//   file trail    each path the agent created, edited, moved or deleted, read from its calls'
//                 inputs by pkg/src/eval/survival.ts (Edit/Write/MultiEdit, `apply_patch`
//                 envelopes, editor tools' writing commands, write_to_file, write_file,
//                 SWE-agent's create/edit, the obvious writes of a shell command: heredoc
//                 and echo redirects, tee, sed -i, mv, cp, rm, touch; aider's and Moatless's
//                 results, which alone name the file). A pair is (path, request built after
//                 the call that first wrote it); it is kept when the request's text holds the
//                 path as written in the call.
// Columns, per strategy and budget (cells "first budget / second budget"):
//   recall               present / references, over every call of every session;
//   long-range           present / references, long-range ones only;
//   user words           user's words kept / pairs;
//   file trail           paths kept / pairs;
//   recoverable long     recoverable / references, long-range ones only;
//   recoverable          recoverable / references;
//   cache share          tokens a request shares with the one before, over all tokens sent;
//   spend                input cost (cache reads 0.1×, writes 1.25×) relative to the first
//                        strategy's, the auto-compact's (both as bench/cache.mjs computes
//                        them, with bench/cache/measure.mjs: exact o200k);
//   over budget          requests whose exact o200k tokens exceed the budget;
//   invalid, empty       requests a provider would reject (pkg/test/validity.mjs), and
//                        requests with no message but the system prompt;
//   requests             requests built;
//   clock spend          input cost priced by the cache's clock (pkg/src/eval/clock.ts: Anthropic's
//                        prices, a 5-minute TTL, each summary request priced too) relative to the
//                        first strategy's; sessions without timestamps never expire, so with
//                        none it differs from spend only by the summary requests.
// Every strategy that summarizes gets the same stand-in summarizer (`standInSummary` of
// pkg/src/eval/strategies/summarize.ts: the head and tail of its prompt, so it carries no more
// information than those). The strategies are the eval's (pkg/src/eval/strategies/, bench/recall/strategies.mjs lists them), plus LangChain.js
// v1's `contextEditingMiddleware` and `summarizationMiddleware`, run through their real hooks
// as `createAgent` runs them (see `langchainContextEditing` and `langchainSummarization`).
import { createRequire } from 'node:module';
import { cacheShare, meter, spend, sum } from './cache/measure.mjs';
import { recallStrategies } from './recall/strategies.mjs';
import { SYSTEM, benchArgs, picked } from './cache/sessions.mjs';

const require = createRequire(new URL('../pkg/package.json', import.meta.url));
const { LONG_RANGE: LONG, clockSpend, parsePrices, prepareSession, runSession } = require('@devs/context/eval');

const { args, budgets, options, sessions, halves } = benchArgs({ 'persist-edits': { type: 'boolean', default: false } });
const strategies = recallStrategies().filter(([name]) => picked(name, args.strategy));
// The clock's price (both prices are reported): Anthropic's, a 5-minute cache, summary requests included.
const TTL = 5 * 60_000;
const PRICES = parsePrices('anthropic', TTL);

// Each session read once (its turns, references, user's words and file trail), for every
// strategy and budget: the eval's `prepareSession`.
const started = performance.now();
const prepared = new Map(sessions.map((s) => [s.name, prepareSession(s, SYSTEM)]));

/** One session through one strategy: per request, its measure, validity and what it holds (the eval's `runSession`). */
async function run(session, budget, info) {
  const requests = await runSession(prepared.get(session.name), budget, info, { meter, system: SYSTEM, options, persist: args['persist-edits'] });
  requests.clock = clockSpend(requests, PRICES, TTL).spend;
  return requests;
}

const share = cacheShare;
const ratio = (a, b) => (b === 0 ? '–' : (a / b).toFixed(3));

const results = [];
for (const budget of budgets) {
  for (const session of sessions) {
    for (const [name, , make] of strategies) {
      const t0 = performance.now();
      const requests = await run(session, budget, make);
      results.push({ budget, session: session.name, strategy: name, requests });
      process.stderr.write(`${budget / 1000}k ${session.half} ${session.name} ${name}: recall ${ratio(sum(requests, (r) => r.present), sum(requests, (r) => r.refs))}, ${requests.length} requests, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    }
  }
}

const find = (budget, session, strategy) => results.find((r) => r.budget === budget && r.session === session && r.strategy === strategy).requests;
const baseline = (budget, session) => find(budget, session, strategies[0][0]);

/** The table's figures for one strategy at one budget, over the given sessions. */
function figures(budget, name, names = sessions.map((s) => s.name)) {
  const all = names.flatMap((s) => find(budget, s, name));
  const base = names.flatMap((s) => baseline(budget, s));
  return {
    recall: ratio(sum(all, (r) => r.present), sum(all, (r) => r.refs)),
    'long-range': ratio(sum(all, (r) => r.longPresent), sum(all, (r) => r.long)),
    'user words': ratio(sum(all, (r) => r.wordsKept), sum(all, (r) => r.words)),
    'file trail': ratio(sum(all, (r) => r.pathsKept), sum(all, (r) => r.paths)),
    'recoverable long': ratio(sum(all, (r) => r.longRecoverable), sum(all, (r) => r.long)),
    recoverable: ratio(sum(all, (r) => r.recoverable), sum(all, (r) => r.refs)),
    'cache share': share(all).toFixed(3),
    spend: `${(spend(all) / spend(base)).toFixed(2)}×`,
    'over budget': String(sum(all, (r) => r.over)),
    'invalid, empty': `${sum(all, (r) => r.invalid)}, ${sum(all, (r) => r.empty)}`,
    requests: String(all.length),
    'clock spend': `${(sum(names, (n) => find(budget, n, name).clock) / sum(names, (n) => baseline(budget, n).clock)).toFixed(2)}×`,
  };
}

/** One half's table: per strategy, both budgets in each cell. */
function report(half) {
  const names = sessions.filter((s) => s.half === half).map((s) => s.name);
  const any = names.flatMap((s) => baseline(budgets[0], s));
  const title = half === 'tune' ? 'the half the defaults are tuned on' : 'the half held out';
  console.log(`\n## ${half}: ${title}, ${names.length} sessions, ${any.length} calls, ${sum(any, (r) => r.refs)} references (${sum(any, (r) => r.long)} long-range, ≥ ${LONG} messages back), ${sum(any, (r) => r.words)} (user message, request) pairs, ${sum(any, (r) => r.paths)} (path written, request) pairs; spend against ${strategies[0][0]}${args['persist-edits'] ? '; cleared results persist' : ''}\n`);
  const head = Object.keys(figures(budgets[0], strategies[0][0], names));
  const b = budgets.map((x) => `${x / 1000}k`).join(' / ');
  console.log(`| strategy (${b}) | ${head.join(' | ')} |`);
  console.log(`|---|${head.map(() => '--:').join('|')}|`);
  for (const [name] of strategies) {
    const per = budgets.map((budget) => figures(budget, name, names));
    console.log(`| ${name} | ${head.map((h) => per.map((f) => f[h]).join(' / ')).join(' | ')} |`);
  }
}

for (const half of halves) report(half);

console.log('\nPer session (recall, long-range recall, recoverable long-range recall, user words, file trail, spend against the first strategy):');
for (const budget of budgets) {
  for (const session of sessions) {
    const rs = baseline(budget, session.name);
    console.log(`  ${budget / 1000}k ${session.half} ${session.name} (${rs.length} calls, ${sum(rs, (r) => r.refs)} references, ${sum(rs, (r) => r.long)} long-range, ${sum(rs, (r) => r.words)} user-word and ${sum(rs, (r) => r.paths)} file-trail pairs):`);
    const cells = strategies.map(([name, short]) => {
      const f = figures(budget, name, [session.name]);
      return `${short} ${f.recall} ${f['long-range']} ${f['recoverable long']} ${f['user words']} ${f['file trail']} ${f.spend}`;
    });
    console.log(`    ${cells.join(', ')}`);
  }
}
console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
