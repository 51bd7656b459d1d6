#!/usr/bin/env node
// Who writes a compaction's summary, and what it costs as a bill shows it, side by side in
// one run: the AI SDK middleware's default (the wrapped model, sent the request it was last
// called with and the instruction, so the provider reads that prefix from its cache), the
// same middleware given a summarizer that is sent a fresh prompt of the turns to fold (what
// LangChain's `summarizationMiddleware` and most peers send), and none (turns dropped,
// stored and indexed). Nothing is asserted: it is a benchmark.
//
//   node bench/summaries.mjs [--steps 120] [--budget 30000]
//
// The agent: ai 6's `generateText` with one tool, a chatty model (its own words each step,
// which only a summary or a drop takes out of a request) reading 6 KB files, and a todo
// file it rewrites every 20 steps (a protected tool, but in the last row). The model is `MockLanguageModelV3`;
// every call (the agent's and the summaries') is billed as the provider bills it: the
// prefix it shares with the call before is read from the cache at 0.1 of an input token,
// the rest written at 1.25; a fresh prompt, sent apart, is read at the uncached price.
//
// Columns: the summaries written; their input tokens and what they cost (uncached-token
// units); the share of their input read from the cache; the whole run's spend (the agent's
// calls and the summaries'); and what the agent keeps: the share of its requests that hold
// the latest todo list whole, and the largest request.
import { createRequire } from 'node:module';
import { argv } from 'node:process';
import { measure, promptText } from '../pkg/test/ai-sdk-model.mjs';

const require = createRequire(new URL('../pkg/package.json', import.meta.url));
const ai = require('ai');
const { MockLanguageModelV3 } = require('ai/test');
const { contextMiddleware } = require('@devs/context/ai-sdk');
const { createTokenCounter } = require('@devs/context/tokenizers');
const o200k = createTokenCounter('o200k_base');

const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(argv[i + 1]);
};
const STEPS = arg('steps', 120);
const BUDGET = arg('budget', 30_000);
const READ = 0.1;
const WRITE = 1.25;

const isSummaryCall = (prompt) => promptText(prompt.slice(-1)).includes('[Context budget] Write a summary');
const todo = (step) => `TODO (step ${step})\n${Array.from({ length: 30 }, (_, i) => `- [${i < step / 8 ? 'x' : ' '}] module ${i}: port its tests`).join('\n')}`;
const file = (path) => Array.from({ length: 90 }, (_, i) => `${path}:${i + 1}: export const v${i} = compute(${(i * 7919) % 1009});`).join('\n');

/** One run: the middleware's `summarizer` option, or `'fresh'` for a summarizer sent a fresh prompt. */
async function run(label, summarizer, protect = true) {
  const bill = { agent: 0, summary: 0, summaryInput: 0, summaryRead: 0, summaries: 0, requests: 0, kept: 0, largest: 0 };
  let latestTodo = '';
  let step = 0;
  const answer = (prompt, previous) => {
    const m = measure(prompt, previous);
    return { m, cost: m.prefix * READ + (m.tokens - m.prefix) * WRITE };
  };
  let previous;
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const { m, cost } = answer(prompt, previous);
      previous = prompt;
      const usage = { inputTokens: { total: m.tokens, noCache: m.tokens - m.prefix, cacheRead: m.prefix, cacheWrite: m.tokens - m.prefix }, outputTokens: { total: 50, text: 50, reasoning: 0 } };
      if (isSummaryCall(prompt)) {
        bill.summaries++;
        bill.summary += cost;
        bill.summaryInput += m.tokens;
        bill.summaryRead += m.prefix;
        return { content: [{ type: 'text', text: `### Task\nPort every module's tests.\n### Next steps\nGo on from step ${step}.` }], usage, finishReason: { unified: 'stop', raw: undefined }, warnings: [] };
      }
      bill.agent += cost;
      bill.requests++;
      bill.largest = Math.max(bill.largest, m.tokens);
      if (latestTodo && promptText(prompt).includes(latestTodo)) bill.kept++;
      step++;
      const call = step % 20 === 1
        ? { type: 'tool-call', toolCallId: `c${step}`, toolName: 'todo', input: JSON.stringify({ step }) }
        : { type: 'tool-call', toolCallId: `c${step}`, toolName: 'read', input: JSON.stringify({ path: `src/m${step}.ts` }) };
      return { content: [{ type: 'text', text: `Module ${step - 1} computes a hash. `.repeat(30) }, call], usage, finishReason: { unified: 'tool-calls', raw: undefined }, warnings: [] };
    },
  });
  // A fresh prompt of the turns to fold, sent apart: it shares no prefix with any request.
  const fresh = async (prompt) => {
    const tokens = o200k(prompt);
    bill.summaries++;
    bill.summary += tokens;
    bill.summaryInput += tokens;
    return 'Summary of the work so far: modules read, todo list kept.';
  };
  const middleware = contextMiddleware({ budget: BUDGET, countTokens: o200k, protectedTools: protect ? ['todo'] : undefined, summarizer: summarizer === 'fresh' ? fresh : summarizer });
  const tools = {
    read: ai.tool({ description: 'Read a file', inputSchema: ai.jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }), execute: async ({ path }) => file(path) }),
    todo: ai.tool({ description: 'Rewrite the todo list', inputSchema: ai.jsonSchema({ type: 'object', properties: { step: { type: 'number' } } }), execute: async ({ step: s }) => (latestTodo = todo(s)) }),
  };
  const started = performance.now();
  await ai.generateText({ model: ai.wrapLanguageModel({ model, middleware }), system: 'You are a coding agent.', prompt: 'Port every module of src/.', tools, stopWhen: ai.stepCountIs(STEPS) });
  return { label, ...bill, ms: performance.now() - started };
}

const rows = [
  await run('ours: the wrapped model, from the request last sent (the default)', undefined),
  await run('a summarizer sent a fresh prompt (as summarizationMiddleware does)', 'fresh'),
  await run('no summarizer (summarizer: false): turns dropped, stored, indexed', false),
  await run('ours, the default, without protectedTools', undefined, false),
];
const fmt = (n) => Math.round(n).toLocaleString('en-US');
console.log(`\n### Summaries: ${STEPS} steps at ${fmt(BUDGET)} tokens, ai ${require('ai/package.json').version}\n`);
console.log('| strategy | summaries | their input | their cost | read from cache | run spend | todo kept | largest |');
console.log('|---|--:|--:|--:|--:|--:|--:|--:|');
for (const r of rows) {
  const share = r.summaryInput ? (r.summaryRead / r.summaryInput).toFixed(3) : '—';
  const kept = r.requests ? `${((100 * r.kept) / Math.max(1, r.requests - 1)).toFixed(0)}%` : '—';
  console.log(`| ${r.label} | ${r.summaries} | ${fmt(r.summaryInput)} | ${fmt(r.summary)} | ${share} | ${fmt(r.agent + r.summary)} | ${kept} | ${fmt(r.largest)} |`);
}
console.log('\nCost in uncached input tokens: cache reads at 0.1, writes at 1.25; a fresh prompt at 1.');
