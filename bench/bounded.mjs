#!/usr/bin/env node
// Issue 10's figures: each real session (pkg/test/fixtures/sessions/, native formats) replayed
// through a bounded AgentRunner (with contextManagement, tracker, log and injector) at a
// 200,000 and an 800,000 token budget with the exact o200k counter, against the same loop
// over the seeds in plain JS (bench/peers/seed-runner.mjs) with gpt-tokenizer's o200k.
// Prints, per session and budget: the largest promptTokens against the budget, how many
// steps of each kind ran, the largest summarizer input, and ms per turn.
// Run: node bench/bounded.mjs [budget …]
import { loadOurs, loadPlain, managedRunner } from './boundary-workloads.mjs';
import { loadSession, originalSessionFiles } from '../pkg/test/sessions.mjs';

const BUDGETS = process.argv.slice(2).map(Number).filter(Boolean);
const budgets = BUDGETS.length ? BUDGETS : [200_000, 800_000];

const ours = await loadOurs();
const plain = loadPlain();
const exact = ours.exact();
const plainExact = plain.exact();
const sessions = originalSessionFiles().flatMap((f) => loadSession(f));

/** A summarizer that condenses what it is given, recording the size of each prompt. */
function summarizer(inputs) {
  return { summarize: async (prompt) => { inputs.push(exact(prompt)); return `Condensed ${prompt.length} characters of earlier work.`; } };
}

/** The plain-JS seeds' loop over `session`: ms per turn. */
async function run(side, session) {
  let k = 0;
  const llm = { complete: async () => { const s = session.steps[k++] ?? { text: '' }; return s.envelope ? { text: s.text, envelope: s.envelope } : { text: s.text }; } };
  const count = side === ours ? exact : plainExact;
  const { runner } = managedRunner(side, null, { llm, count, agentId: 'replay', taskGoal: (session.steps.find((s) => s.input)?.input ?? session.name).slice(0, 2000) });
  const times = [];
  for (const step of session.steps) {
    const t0 = performance.now();
    await runner.runTurn(step.input);
    times.push(performance.now() - t0);
  }
  return { times };
}

async function runBounded(session, budget) {
  const { lib } = ours;
  let k = 0;
  const llm = { complete: async () => { const s = session.steps[k++] ?? { text: '' }; return s.envelope ? { text: s.text, envelope: s.envelope } : { text: s.text }; } };
  const store = { rows: 0, async insertRawToolOutput() { return `raw-${++this.rows}`; } };
  const inputs = [];
  const { context } = managedRunner(ours, null, { llm, count: exact, agentId: 'replay' });
  const runner = new lib.AgentRunner({
    agentId: 'replay', taskGoal: (session.steps.find((s) => s.input)?.input ?? session.name).slice(0, 2000), llm, countTokens: exact,
    composer: new lib.ContextComposer({ specs: [{ name: 'TAS', content: 'the technical architecture' }, { name: 'PRD', content: 'the product requirements' }] }),
    handoff: new lib.SummarizationHandoff({ llmClient: { summarize: async (p) => `summary of ${p.length} chars` } }),
    contextManagement: { context, deps: { composer: new lib.WindowComposer(context.budget, { countTokens: exact }), pruner: new lib.ContextPruner({ summarize: async () => 'pruned' }), toolOutputPruner: new lib.ToolOutputPruner(), stateRepository: store, countTokens: exact, logger: { warn() {} } } },
    tracker: new lib.TurnTracker('replay', 'implement'), log: new lib.AgentLogStore(1000),
    bounded: { budget, store, summarizer: summarizer(inputs) },
  });
  const times = [];
  const steps = { masked: 0, cut: 0, summarized: 0, dropped: 0 };
  let largest = 0;
  for (const step of session.steps) {
    const t0 = performance.now();
    const r = await runner.runTurn(step.input);
    times.push(performance.now() - t0);
    largest = Math.max(largest, r.promptTokens);
    steps.masked += r.ledger.masked.length;
    steps.cut += r.ledger.cut.length;
    steps.summarized += r.ledger.summarized ? 1 : 0;
    steps.dropped += r.ledger.dropped ? 1 : 0;
  }
  return { times, largest, steps, summarizerMax: inputs.length ? Math.max(...inputs) : 0 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => n.toLocaleString('en-US');
console.log(`Bounded AgentRunner on the real sessions, exact o200k counter; Node ${process.version}\n`);
console.log('| session | turns | budget | largest promptTokens | masked | cut | summarized (turns) | dropped (turns) | largest summarizer input | ours ms/turn | plain-JS seeds ms/turn |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const session of sessions) {
  await run(plain, session);
  const p = await run(plain, session);
  for (const budget of budgets) {
    await runBounded(session, budget);
    const o = await runBounded(session, budget);
    console.log(`| ${session.name.replace('openhands-multi-swe-bench-output.jsonl', 'openhands')} | ${session.steps.length} | ${fmt(budget)} | ${fmt(o.largest)} (${(100 * o.largest / budget).toFixed(1)}%) | ${o.steps.masked} | ${o.steps.cut} | ${o.steps.summarized} | ${o.steps.dropped} | ${fmt(o.summarizerMax)} | ${median(o.times).toFixed(3)} | ${median(p.times).toFixed(3)} |`);
  }
}
