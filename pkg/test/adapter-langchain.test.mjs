// `@devs/context/langchain`: the middleware in LangChain.js v1's own `createAgent`, with
// LangChain's own fake chat model (`fakeModel` from `@langchain/core/testing`), a
// checkpointer (`MemorySaver`) and a thread id, through 100-step tool loops whose tool
// returns 20 KB each time, at a 20,000-token budget. The model records every message list
// it is given, reports usage as a provider would (the input's tokens, the part shared with
// the previous input as cache reads), and once a compaction has stored a text it calls the
// `recall` tool with an id its input names. Checked, by exact o200k counts: every input is
// within the budget; every tool call in it has its result and every result its call;
// consecutive inputs extend each other except at a compaction (the whole previous input is
// the next one's prefix, read from the cache; the run's cache share, common-prefix tokens
// over all tokens, is printed: each step appends a 20 KB output cut to 15% of the budget,
// so it is bounded by the workload, not by the middleware); the loop completes; the
// recall call is answered through the middleware's tool; the reported usage reaches the
// thread's manager; two threads run at once do not mix; the agent's state keeps every
// message whole; a thread whose list another middleware rewrote is taken in anew, with a
// warning; and, with a SQLite store, a thread resumed by a new agent instance (a new store
// over the same file, the same checkpointer) goes on from its session; a LangChain chat
// model summarizes; at most maxThreads threads stay in memory. Bad options are a
// TypeError or RangeError naming the field. That the README example and the @example
// compile against LangChain's own types is packaging/adapter-docs-types.test.mjs's (tsc).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, createAgent, createMiddleware, tool } from 'langchain';
import { fakeModel } from '@langchain/core/testing';
import { MemorySaver } from '@langchain/langgraph';
import { z } from 'zod';
import { contextMiddleware } from '@devs/context/langchain';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { createTokenCounter } from '@devs/context/tokenizers';

const o200k = createTokenCounter('o200k_base');
const BUDGET = 20_000;
const STEPS = 100;
const SYSTEM = 'You are a coding agent. Read the files you are asked to read, one at a time.';

// ---- What the model is given, measured as a provider reads it.

const counted = new Map();
/** A text's exact o200k tokens (each distinct text counted once). */
function tokens(text) {
  let n = counted.get(text);
  if (n === undefined) {
    n = o200k(text);
    if (counted.size > 50_000) counted.clear();
    counted.set(text, n);
  }
  return n;
}

const ROLE = { system: 'system', human: 'user', ai: 'assistant', tool: 'tool' };
const textOf = (content) => (typeof content === 'string' ? content : content.map((b) => (typeof b === 'string' ? b : b.type === 'text' ? b.text : JSON.stringify(b))).join('\n'));

/** One message as the text a provider reads: its role, its text, its calls or the call it answers. */
function chunk(m) {
  const type = m.getType();
  const lines = [type === 'tool' ? `tool\nresult ${m.tool_call_id}` : ROLE[type] ?? type, textOf(m.content)];
  for (const c of m.tool_calls ?? []) lines.push(`call ${c.name} ${c.id} ${JSON.stringify(c.args)}`);
  return lines.join('\n');
}

/** An input's tokens, by exact o200k. */
const inputTokens = (chunks) => chunks.reduce((n, c) => n + tokens(c), 0);

/** The tokens `current` shares with `previous` from its start: whole messages, then the common start of the first that differs. */
function prefixTokens(current, previous) {
  let prefix = 0;
  for (let i = 0; i < current.length && i < previous.length; i++) {
    if (current[i] === previous[i]) {
      prefix += tokens(current[i]);
      continue;
    }
    let k = 0;
    while (k < current[i].length && k < previous[i].length && current[i].charCodeAt(k) === previous[i].charCodeAt(k)) k++;
    return prefix + (k ? tokens(current[i].slice(0, k)) : 0);
  }
  return prefix;
}

/** What is wrong with an input's calls and results: each call answered right after it, each result by a call before it. */
function callProblems(messages) {
  const problems = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.getType() === 'tool') {
      let j = i - 1;
      while (j >= 0 && messages[j].getType() === 'tool') j--;
      if (j < 0 || !(messages[j].tool_calls ?? []).some((c) => c.id === m.tool_call_id)) problems.push(`message ${i}: a result of ${m.tool_call_id} with no call before it`);
    }
    const calls = m.getType() === 'ai' ? m.tool_calls ?? [] : [];
    if (!calls.length) continue;
    const answered = new Set();
    for (let j = i + 1; j < messages.length && messages[j].getType() === 'tool'; j++) answered.add(messages[j].tool_call_id);
    for (const c of calls) if (!answered.has(c.id)) problems.push(`message ${i}: call ${c.id} has no result`);
  }
  return problems;
}

// ---- The tool and the scripted model.

/** About 20 KB of source: which thread and file it is is on every line, so a text of one thread is known anywhere. */
function source(thread, path) {
  const lines = [];
  for (let i = 0; lines.join('\n').length < 20_000; i++) {
    lines.push(`// ${thread}:${path} line ${i}\npub fn item_${i}(x: u64) -> u64 { x.wrapping_mul(${(i * 7919) % 10007}).rotate_left(${i % 63}) ^ 0x${(i * 2654435761 % 4294967296).toString(16)} }`);
  }
  return lines.join('\n').slice(0, 20_000);
}

const readFile = tool(async ({ path, thread }) => source(thread, path), {
  name: 'read_file',
  description: 'Read a file of the repository',
  schema: z.object({ path: z.string(), thread: z.string() }),
});
/** The tools' definitions as a provider counts them, part of every input it reports. */
const TOOLS_OVERHEAD = 250;

/**
 * A thread's script: `steps` tool calls (one `recall` among them, once a compaction has
 * stored a text, at step `recallFrom` or later), then a final answer. `log` keeps every
 * input, its measure and the usage reported.
 */
function script(thread, { steps = STEPS, recallFrom = 30, start = 0, log = newLog(), chatty = false } = {}) {
  let step = start;
  const respond = (messages) => {
    const chunks = messages.map(chunk);
    const total = inputTokens(chunks);
    const previous = log.inputs.at(-1);
    const prefix = previous ? prefixTokens(chunks, previous.chunks) : 0;
    // As a provider reports it: the tools are read first, from the cache when the prefix is.
    const usage = { input_tokens: total + TOOLS_OVERHEAD, output_tokens: 20, total_tokens: total + TOOLS_OVERHEAD + 20, input_token_details: { cache_read: prefix ? prefix + TOOLS_OVERHEAD : 0, cache_creation: prefix ? total - prefix : total + TOOLS_OVERHEAD } };
    log.inputs.push({ messages: [...messages], chunks, total, prefix, usage });
    const text = chunks.join('\n');
    const n = step++;
    if (n >= steps) return new AIMessage({ content: `Done with ${thread}.`, usage_metadata: usage });
    const named = [...text.matchAll(/stored as ([^\s,;)\]]+?)[.:]?(?=[\s,;)\]]|$)/g)].map((m) => m[1]);
    if (log.recall === null && n >= recallFrom && named.length) {
      log.recall = { step: n, id: named[0], input: log.inputs.length - 1 };
      return new AIMessage({ content: `Reading back ${named[0]}.`, tool_calls: [{ id: `${thread}-recall-${n}`, name: 'recall', args: { id: named[0] } }], usage_metadata: usage });
    }
    // A chatty model says what it makes of each file: turns that a compaction summarizes, not only outputs it stores.
    const said = chatty ? ` Module ${n - 1} folds its input through ${n + 3} rotations and a multiply; ${'it keeps the hash stable across runs, which the tests rely on. '.repeat(8)}` : '';
    return new AIMessage({ content: `Reading step ${n}.${said}`, tool_calls: [{ id: `${thread}-call-${n}`, name: 'read_file', args: { path: `src/mod${n}.rs`, thread } }], usage_metadata: usage });
  };
  return { respond, log };
}

function newLog() {
  return { inputs: [], recall: null };
}

/** LangChain's fake chat model, answering each call with the script of the thread the input is for (named in its first user message). */
function scriptedModel(scripts, calls) {
  const model = fakeModel();
  for (let i = 0; i < calls; i++) {
    model.respond((messages) => {
      const task = messages.find((m) => m.getType() === 'human');
      const thread = /thread (\S+):/.exec(textOf(task.content))[1];
      return scripts[thread].respond(messages);
    });
  }
  return model;
}

const task = (thread) => ({ role: 'user', content: `Task for thread ${thread}: read the modules one by one and report what they compute.` });

/** Ledger records by thread, and warnings, as the middleware reports them. */
function reports() {
  const ledger = {};
  const warnings = [];
  return {
    ledger,
    warnings,
    onLedger: (record, threadId) => (ledger[threadId] ??= []).push(record),
    // The ledger record comes first: `calls` is the model call the warning is about.
    onWarning: (warning, threadId) => warnings.push({ ...warning, threadId, calls: ledger[threadId]?.length ?? 0 }),
  };
}

/**
 * Checks one thread's run: every input bounded and valid, consecutive inputs extend each
 * other except where the ledger says a compaction ran; returns the figures.
 */
function checkRun(thread, log, records, { from = 0 } = {}) {
  const inputs = log.inputs;
  assert.equal(records.length, inputs.length, `${thread}: one ledger record per model call`);
  let largest = 0;
  let compactions = 0;
  let shared = 0;
  let all = 0;
  let extended = 0;
  let reread = 0;
  let rereadShared = 0;
  for (const [k, input] of inputs.entries()) {
    largest = Math.max(largest, input.total);
    assert.ok(input.total <= BUDGET, `${thread}: input ${from + k + 1} is ${input.total} tokens, over the budget of ${BUDGET}`);
    assert.deepEqual(callProblems(input.messages), [], `${thread}: input ${from + k + 1}`);
    assert.equal(input.messages[0].getType(), 'system');
    assert.equal(input.messages[0].text, SYSTEM, 'the agent\'s system prompt, first');
    for (const m of input.messages) assert.ok(!textOf(m.content).includes(thread === 'a' ? 'b:src/' : 'a:src/'), `${thread}: input ${from + k + 1} holds another thread's text`);
    if (records[k].compaction) compactions++;
    if (k === 0) continue;
    const previous = inputs[k - 1];
    all += input.total;
    shared += input.prefix;
    if (records[k].compaction) continue;
    // No compaction: the previous input, message for message, then what is new; the
    // provider reads the whole previous input from its cache (a cache share of 1 of it).
    assert.deepEqual(input.chunks.slice(0, previous.chunks.length), previous.chunks, `${thread}: input ${from + k + 1} does not extend input ${from + k}`);
    assert.ok(input.chunks.length > previous.chunks.length);
    assert.ok(input.prefix / previous.total >= 0.9, `${thread}: input ${from + k + 1} shares ${input.prefix} of input ${from + k}'s ${previous.total} tokens`);
    extended++;
    reread += previous.total;
    rereadShared += input.prefix;
  }
  // `cacheShare`: of all the tokens sent after the first call, those read from the cache
  // (common prefix with the previous input). Each step here appends one 20 KB output, cut
  // to 15% of the budget, to a request of 25-75% of it: the share is bounded well below 1
  // by the workload itself. `previousReread`: between compactions, the share of the
  // previous input read again from the cache.
  return { largest, compactions, cacheShare: shared / all, previousReread: rereadShared / reread, extended };
}

/** Usage the model reported, as the thread's manager recorded it. */
function checkUsage(thread, log, manager) {
  // A session restored from a checkpoint keeps its last records, not every one: matched by number.
  const ledger = manager.ledger;
  assert.equal(ledger.at(-1).request, log.inputs.length, `${thread}: the manager built every input`);
  for (const rec of ledger) {
    const input = log.inputs[rec.request - 1];
    assert.equal(rec.cache.observedRead, input.usage.input_token_details.cache_read, `${thread}: request ${rec.request}'s cache reads, as usage_metadata said`);
    assert.equal(rec.cache.observedWrite, input.usage.input_token_details.cache_creation, `${thread}: request ${rec.request}'s cache writes`);
  }
  assert.ok(manager.calibration.samples > 0, `${thread}: the usage calibrated the count`);
}

/** The recall call was answered by the middleware's tool: its result, in the next input, is the stored text. */
function checkRecall(thread, log) {
  assert.ok(log.recall, `${thread}: the model found a stored id to recall`);
  const next = log.inputs[log.recall.input + 1];
  const answer = next.messages.find((m) => m.getType() === 'tool' && m.tool_call_id === `${thread}-recall-${log.recall.step}`);
  assert.ok(answer, `${thread}: the recall call has its result in the next input`);
  assert.ok(textOf(answer.content).startsWith(`[Stored text ${log.recall.id}`), `${thread}: the result is the stored text: ${textOf(answer.content).slice(0, 200)}`);
  assert.match(textOf(answer.content), new RegExp(`// ${thread}:src/mod\\d+\\.rs line \\d+`), `${thread}: the stored text is this thread's`);
}

/** The agent's state keeps every message whole: the middleware sends a view, and rewrites nothing. */
function checkState(thread, messages, steps) {
  const results = messages.filter((m) => m.getType() === 'tool' && m.name === 'read_file');
  assert.equal(results.length, steps - 1, `${thread}: every read_file result is in the state`);
  for (const r of results) assert.equal(textOf(r.content).length, 20_000, `${thread}: the state keeps ${r.tool_call_id}'s result whole`);
  assert.equal(messages.at(-1).text, `Done with ${thread}.`, `${thread}: the loop completed`);
}

/** Every message of the inputs the agent had is its own object, or a copy with its id, its call id and its calls. */
function checkIds(thread, log, state) {
  const byId = new Map(state.map((m) => [m.id, m]));
  let copies = 0;
  for (const input of log.inputs) {
    for (const m of input.messages.slice(1)) {
      const own = byId.get(m.id);
      if (!own) continue;
      if (own !== m) copies++;
      assert.equal(m.getType(), own.getType());
      if (m.getType() === 'tool') assert.equal(m.tool_call_id, own.tool_call_id);
      if (m.getType() === 'ai') assert.deepEqual(m.tool_calls, own.tool_calls);
    }
    // No call is left unanswered in these loops: every result is one of the state's, by its id.
    for (const m of input.messages) if (m.getType() === 'tool') assert.ok(byId.has(m.id), `${thread}: a tool result with no id of the state's`);
  }
  return copies;
}

const agentFor = (model, middleware, checkpointer) => createAgent({ model, tools: [readFile], systemPrompt: SYSTEM, middleware: [middleware], checkpointer });

describe('contextMiddleware (@devs/context/langchain) in createAgent', () => {
  it('bounds a 100-step tool loop in each of two threads run at once, append-only between compactions, with recall and usage', async () => {
    const r = reports();
    const middleware = contextMiddleware({ budget: BUDGET, countTokens: o200k, summarizer: false, onLedger: r.onLedger, onWarning: r.onWarning });
    const scripts = { a: script('a', { recallFrom: 30 }), b: script('b', { recallFrom: 45 }) };
    const agent = agentFor(scriptedModel(scripts, 2 * (STEPS + 1)), middleware, new MemorySaver());
    const run = (thread) => agent.invoke({ messages: [task(thread)] }, { configurable: { thread_id: thread }, recursionLimit: 10 * STEPS });
    const [a, b] = await Promise.all([run('a'), run('b')]);
    const figures = {};
    for (const [thread, result] of [['a', a], ['b', b]]) {
      const log = scripts[thread].log;
      assert.equal(log.inputs.length, STEPS + 1, `${thread}: the model was called at every step`);
      figures[thread] = checkRun(thread, log, r.ledger[thread]);
      assert.ok(figures[thread].compactions >= 3, `${thread}: ${figures[thread].compactions} compactions; the loop must compact several times`);
      checkRecall(thread, log);
      checkUsage(thread, log, middleware.manager(thread));
      checkState(thread, result.messages, STEPS);
      figures[thread].copies = checkIds(thread, log, result.messages);
    }
    // Between compactions the provider reads all but the new messages from its cache.
    for (const thread of ['a', 'b']) assert.ok(figures[thread].extended >= STEPS - figures[thread].compactions - 1);
    assert.deepEqual(r.warnings, [], 'nothing to warn about');
    assert.notEqual(middleware.manager('a'), middleware.manager('b'), 'a manager per thread');
    console.log(`# langchain, two threads of ${STEPS} steps, budget ${BUDGET}: ${JSON.stringify(figures)}`);
    await middleware.close();
    assert.equal(middleware.manager('a'), undefined, 'close() lets the threads go');
  });

  it('takes in anew, with a history-rebuilt warning, a list another middleware rewrote', async () => {
    const r = reports();
    const context = contextMiddleware({ budget: BUDGET, countTokens: o200k, summarizer: false, onLedger: r.onLedger, onWarning: r.onWarning });
    // From the 12th call on, an outer middleware sends the model the list without its first exchange.
    let calls = 0;
    const trim = createMiddleware({
      name: 'Trim',
      wrapModelCall: (request, handler) => (++calls >= 12 ? handler({ ...request, messages: [request.messages[0], ...request.messages.slice(3)] }) : handler(request)),
    });
    const scripts = { c: script('c', { steps: 20, recallFrom: Infinity }) };
    const agent = createAgent({ model: scriptedModel(scripts, 21), tools: [readFile], systemPrompt: SYSTEM, middleware: [trim, context], checkpointer: new MemorySaver() });
    const result = await agent.invoke({ messages: [task('c')] }, { configurable: { thread_id: 'c' }, recursionLimit: 500 });
    assert.equal(result.messages.at(-1).text, 'Done with c.');
    const rebuilt = r.warnings.filter((w) => w.code === 'history-rebuilt');
    assert.equal(rebuilt.length, 1, `one rebuild, at the call whose list changed: ${JSON.stringify(r.warnings)}`);
    assert.equal(rebuilt[0].threadId, 'c');
    assert.equal(rebuilt[0].calls, 12);
    for (const [k, input] of scripts.c.log.inputs.entries()) {
      assert.ok(input.total <= BUDGET);
      assert.deepEqual(callProblems(input.messages), [], `input ${k + 1}`);
    }
    await context.close();
  });

  it('with a SQLite store, a thread resumed by a new agent instance over the same checkpointer and store goes on from its session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'langchain-'));
    const file = join(dir, 'state.sqlite');
    const checkpointer = new MemorySaver();
    const half = STEPS / 2;
    const r = reports();
    const log = newLog();
    // The first process: half the loop, then the agent answers and the process ends.
    const first = script('d', { steps: half, recallFrom: Infinity, log });
    const storeA = new SqliteStateRepository(file);
    const contextA = contextMiddleware({ budget: BUDGET, countTokens: o200k, summarizer: false, store: storeA, onLedger: r.onLedger, onWarning: r.onWarning });
    const agentA = agentFor(scriptedModel({ d: first }, half + 1), contextA, checkpointer);
    const config = { configurable: { thread_id: 'd' }, recursionLimit: 10 * STEPS };
    const a = await agentA.invoke({ messages: [task('d')] }, config);
    assert.equal(a.messages.at(-1).text, 'Done with d.');
    const versionA = contextA.manager('d').version;
    const ledgerA = contextA.manager('d').ledger;
    assert.equal(ledgerA.length, half + 1);
    assert.ok(ledgerA.some((rec) => rec.compaction), 'the first half compacted');
    await contextA.close();
    storeA.close();

    // A new process: a new store over the same file, a new middleware and agent, the same checkpointer.
    const inputsA = log.inputs.length;
    const second = script('d', { steps: STEPS, start: half, recallFrom: half, log });
    const storeB = new SqliteStateRepository(file);
    const contextB = contextMiddleware({ budget: BUDGET, countTokens: o200k, summarizer: false, store: storeB, onLedger: r.onLedger, onWarning: r.onWarning });
    const agentB = agentFor(scriptedModel({ d: second }, STEPS - half + 1), contextB, checkpointer);
    const b = await agentB.invoke({ messages: [{ role: 'user', content: 'Go on with the remaining modules.' }] }, config);
    assert.equal(b.messages.at(-1).text, 'Done with d.');
    assert.deepEqual(r.warnings.filter((w) => w.code === 'history-rebuilt'), [], 'the session went on: nothing taken in anew');

    const session = contextB.manager('d');
    assert.equal(session.sessionId, 'd', 'the thread\'s session is named by its thread_id');
    // Its ledger goes on from the first process's: a record per model call since the
    // restart, after the records of the first the session's newest checkpoint kept.
    const numbers = session.ledger.map((rec) => rec.request);
    assert.deepEqual(numbers, Array.from({ length: numbers.length }, (_, i) => numbers[0] + i), 'numbered on');
    assert.equal(numbers.at(-1), log.inputs.length);
    assert.ok(numbers[0] <= inputsA + 1, 'every record since the restart');
    for (const rec of session.ledger.filter((x) => x.request <= ledgerA.length)) assert.equal(rec.tokens, ledgerA[rec.request - 1].tokens);
    assert.ok(session.version > versionA);
    // The first input after the restart is the last before it plus what is new (no compaction there), so the cache holds.
    const resumed = log.inputs[inputsA];
    const before = log.inputs[inputsA - 1];
    assert.equal(session.ledger.find((rec) => rec.request === inputsA + 1).compaction, null);
    assert.deepEqual(resumed.chunks.slice(0, before.chunks.length), before.chunks, 'the resumed request extends the last one before the restart');
    const figures = checkRun('d', log, r.ledger.d);
    checkUsage('d', log, session);
    figures.copies = checkIds('d', log, b.messages);
    // A text stored by the first process is read back by the second.
    checkRecall('d', log);
    assert.ok(log.recall.step >= half);
    assert.match(log.recall.id, /^d:\d+$/);
    console.log(`# langchain, SQLite, ${half} + ${STEPS - half} steps across a restart, budget ${BUDGET}: ${JSON.stringify(figures)}`);
    await contextB.close();
    storeB.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the agent\'s thread from its messages when it is invoked with no thread_id, and needs one with a store', async () => {
    const scripts = { e: script('e', { steps: 3, recallFrom: Infinity }) };
    const context = contextMiddleware({ budget: BUDGET, countTokens: o200k });
    const agent = createAgent({ model: scriptedModel(scripts, 4), tools: [readFile], systemPrompt: SYSTEM, middleware: [context] });
    const result = await agent.invoke({ messages: [task('e')] });
    assert.equal(result.messages.at(-1).text, 'Done with e.');
    for (const [k, input] of scripts.e.log.inputs.entries()) if (k) assert.deepEqual(input.chunks.slice(0, scripts.e.log.inputs[k - 1].chunks.length), scripts.e.log.inputs[k - 1].chunks);
    await context.close();

    const dir = mkdtempSync(join(tmpdir(), 'langchain-'));
    const store = new SqliteStateRepository(join(dir, 'state.sqlite'));
    const durable = contextMiddleware({ budget: BUDGET, store });
    const none = createAgent({ model: scriptedModel({ f: script('f', { steps: 1 }) }, 2), tools: [readFile], middleware: [durable] });
    await assert.rejects(none.invoke({ messages: [task('f')] }), /thread_id/);
    await durable.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("summarizes with the agent's own model by default: its last input and the instruction, tools bound, tagged as a compaction, its usage the cost", async () => {
    const s = script('o', { steps: 40, recallFrom: Infinity, chatty: true });
    const summaries = [];
    const model = fakeModel();
    for (let i = 0; i < 80; i++) {
      model.respond((messages) => {
        const last = textOf(messages.at(-1).content);
        if (!last.includes('[Context budget] Write a summary')) return s.respond(messages);
        summaries.push(messages);
        const previous = s.log.inputs.at(-1).messages;
        const prefix = inputTokens(previous.map(chunk));
        return new AIMessage({ content: `SUMMARY ${summaries.length}: the modules compute hashes.`, usage_metadata: { input_tokens: prefix + 300, output_tokens: 40, total_tokens: prefix + 340, input_token_details: { cache_read: prefix, cache_creation: 0 } } });
      });
    }
    // Every invoke of a bound model, with its config: the summary's carries the compaction's tags.
    const configs = [];
    const bindTools = model.bindTools.bind(model);
    model.bindTools = (tools, options) => {
      const bound = bindTools(tools, options);
      const invoke = bound.invoke.bind(bound);
      bound.invoke = (input, config) => {
        configs.push({ config, tools: tools.map((t) => t.name) });
        return invoke(input, config);
      };
      return bound;
    };
    const events = [];
    const r = reports();
    const context = contextMiddleware({ budget: BUDGET, countTokens: o200k, onLedger: r.onLedger, onWarning: r.onWarning, onCompaction: (e, thread) => events.push({ e, thread }) });
    const result = await agentFor(model, context, new MemorySaver()).invoke({ messages: [task('o')] }, { configurable: { thread_id: 'o' }, recursionLimit: 500 });
    assert.equal(result.messages.at(-1).text, 'Done with o.');
    assert.ok(summaries.length > 0, "the agent's model was asked for a summary");
    assert.deepEqual(r.warnings, [], 'no summary failed, no turn was dropped');
    for (const messages of summaries) {
      // The input it was last called with (the system prompt first), then the instruction as a human message.
      assert.equal(messages[0].getType(), 'system');
      assert.equal(messages.at(-1).getType(), 'human');
    }
    const tagged = configs.filter((c) => c.config?.metadata?.ls_agent_type === 'compaction');
    assert.equal(tagged.length, summaries.length, 'each summary run is tagged as a compaction');
    for (const c of tagged) assert.deepEqual(c.tools, ['read_file', 'recall'], "with the agent's tools bound, as its calls have them");
    const summarized = events.filter(({ e }) => e.actions.summarized);
    assert.ok(summarized.length > 0);
    for (const { e, thread } of summarized) {
      assert.equal(thread, 'o');
      assert.ok(e.summary.usage && e.summary.usage.cacheRead > 0 && e.summary.usage.cost < e.summary.usage.input, JSON.stringify(e.summary.usage));
    }
    assert.match(s.log.inputs.at(-1).chunks.join('\n'), new RegExp(`SUMMARY ${summaries.length}:`), 'the latest summary is in the request');
    await context.close();
  });

  it('summarizes the oldest turns with a LangChain chat model as the summarizer', async () => {
    const summarizer = fakeModel();
    const prompts = [];
    for (let i = 0; i < 40; i++) {
      summarizer.respond((messages) => {
        prompts.push(messages.map((m) => m.text).join('\n'));
        return new AIMessage(`SUMMARY ${prompts.length}: the modules read so far compute hashes.`);
      });
    }
    const r = reports();
    const context = contextMiddleware({ budget: BUDGET, countTokens: o200k, summarizer, onLedger: r.onLedger, onWarning: r.onWarning });
    const scripts = { s: script('s', { steps: 40, recallFrom: Infinity, chatty: true }) };
    const result = await agentFor(scriptedModel(scripts, 41), context, new MemorySaver()).invoke({ messages: [task('s')] }, { configurable: { thread_id: 's' }, recursionLimit: 500 });
    assert.equal(result.messages.at(-1).text, 'Done with s.');
    assert.ok(prompts.length > 0, 'the model was asked for a summary');
    assert.ok(r.ledger.s.some((rec) => rec.compaction?.summarized), 'a compaction summarized turns');
    assert.deepEqual(r.warnings, [], 'no summary failed, no turn was dropped');
    const last = scripts.s.log.inputs.at(-1);
    assert.match(last.chunks.join('\n'), new RegExp(`SUMMARY ${prompts.length}:`), 'the latest summary is in the request');
    checkRun('s', scripts.s.log, r.ledger.s);
    await context.close();
  });

  it('registers the rules\' recall tool, or none with recall: false', () => {
    const on = contextMiddleware({ budget: BUDGET });
    assert.deepEqual(on.tools.map((t) => t.name), ['recall']);
    assert.match(on.tools[0].description, /stored as/);
    assert.deepEqual(on.tools[0].schema.required, ['id']);
    assert.deepEqual(contextMiddleware({ budget: BUDGET, recall: false }).tools, []);
  });

  it('names the field of a bad option: TypeError or RangeError', () => {
    const cases = [
      [undefined, TypeError, 'options'],
      [{}, TypeError, 'options.budget'],
      [{ budget: '20k' }, TypeError, 'options.budget'],
      [{ budget: 500 }, RangeError, 'options.budget'],
      [{ budget: BUDGET, countTokens: 'o200k_base' }, TypeError, 'options.countTokens'],
      [{ budget: BUDGET, recall: 'yes' }, TypeError, 'options.recall'],
      [{ budget: BUDGET, summarizer: 42 }, TypeError, 'options.summarizer'],
      [{ budget: BUDGET, summarizer: {} }, TypeError, 'options.summarizer'],
      [{ budget: BUDGET, store: {} }, TypeError, 'options.store.loadSession'],
      [{ budget: BUDGET, store: 'state.sqlite' }, TypeError, 'options.store'],
      [{ budget: BUDGET, maxThreads: 0 }, RangeError, 'options.maxThreads'],
      [{ budget: BUDGET, maxThreads: '10' }, TypeError, 'options.maxThreads'],
      [{ budget: BUDGET, onWarning: 'log' }, TypeError, 'options.onWarning'],
      [{ budget: BUDGET, onLedger: {} }, TypeError, 'options.onLedger'],
      [{ budget: BUDGET, highWater: 2 }, RangeError, 'options.highWater'],
      [{ budget: BUDGET, budgte: 1 }, TypeError, 'options.budgte'],
    ];
    for (const [options, kind, field] of cases) {
      assert.throws(() => contextMiddleware(options), (error) => {
        assert.ok(error instanceof kind, `${JSON.stringify(options)}: a ${kind.name}, got ${error}`);
        assert.equal(error.field, field, `${JSON.stringify(options)}: ${error.message}`);
        assert.ok(error.message.includes(field), error.message);
        return true;
      });
    }
  });

  it('keeps at most maxThreads threads in memory, and a thread let go is taken in anew when it comes back', async () => {
    const scripts = { g: script('g', { steps: 2 }), h: script('h', { steps: 2 }) };
    const context = contextMiddleware({ budget: BUDGET, countTokens: o200k, maxThreads: 1 });
    const agent = agentFor(scriptedModel(scripts, 9), context, new MemorySaver());
    const config = (thread) => ({ configurable: { thread_id: thread }, recursionLimit: 100 });
    await agent.invoke({ messages: [task('g')] }, config('g'));
    await agent.invoke({ messages: [task('h')] }, config('h'));
    assert.equal(context.manager('g'), undefined, 'g was let go for h');
    assert.ok(context.manager('h'));
    await agent.invoke({ messages: [new HumanMessage('And the last one?')] }, config('g'));
    assert.equal(context.manager('g').ledger.length, 1, 'g came back: a new manager took its list in');
    assert.equal(context.manager('h'), undefined);
    const last = scripts.g.log.inputs.at(-1);
    assert.deepEqual(callProblems(last.messages), []);
    assert.equal(last.messages.length, 1 + 6 + 1, 'the system prompt, the whole first run, the new question');
    await context.close();
  });
});
