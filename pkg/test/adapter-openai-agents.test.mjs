// @devs/context/openai-agents under the real run() of @openai/agents. A scripted Model (the
// SDK's `Model` interface, no network) drives tool loops whose tool returns 20 KB each
// time, at a 20,000-token budget. Every input the model receives is measured as it
// arrived: its size by exact o200k, its calls and results, the prefix it shares with the
// input before; and each response reports usage as a provider would.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { Agent, MemorySession, Usage, run, setTracingDisabled, tool } from '@openai/agents';
import { contextFilter } from '@devs/context/openai-agents';
import { createTokenCounter } from '@devs/context/tokenizers';
import { assertFieldError, rejected, thrown } from './helpers.mjs';

const o200k = createTokenCounter('o200k_base');
const BUDGET = 20_000;
const INSTRUCTIONS = 'You are a coding agent. Read the files you need.';
// The version tested: the SDK does not export its package.json, so it is read by path.
const SDK_VERSION = JSON.parse(readFileSync(new URL('../node_modules/@openai/agents/package.json', import.meta.url), 'utf8')).version;

// The SDK exports traces to OpenAI when it can: nothing here may touch the network.
process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
setTracingDisabled(true);

/** A 20 KB file as `read_file` returns it: code-like lines, different for each path (about 7,500 tokens). */
function fileText(path) {
  const lines = [];
  for (let i = 0; lines.join('\n').length < 20_000; i++) {
    lines.push(`${String(i + 1).padStart(4)} | pub fn ${path.replace(/\W/g, '_')}_item_${i}(input: &str) -> Result<Item, ParseError> { let n = input.len() * ${i * 7 + 3}; check(n, "${path}:${i}")?; Ok(Item::new(n)) }`);
  }
  return lines.join('\n').slice(0, 20_000);
}

/** One item as the provider reads it. */
const itemText = (item) => JSON.stringify(item);
/** A model input (the instructions, then each item's JSON) counted exactly. */
const inputTokens = ({ instructions, input }) => o200k([instructions ?? '', ...input.map(itemText)].join('\n'));

/** Tokens of the prefix `b` shares with `a` (the instructions and the items equal in both, from the first): what a cache reads. */
function sharedTokens(a, b) {
  if (a.instructions !== b.instructions) return 0;
  let n = 0;
  while (n < a.input.length && n < b.input.length && itemText(a.input[n]) === itemText(b.input[n])) n++;
  return n === 0 ? 0 : o200k([a.instructions ?? '', ...a.input.slice(0, n).map(itemText)].join('\n'));
}

/** Whether `b` is `a` and items after it. */
const extendsInput = (a, b) => a.instructions === b.instructions && a.input.length <= b.input.length && a.input.every((item, i) => itemText(item) === itemText(b.input[i]));

/** What is wrong with an input's calls and results: each call answered after it, no result without its call. */
function callProblems(input) {
  const problems = [];
  const open = new Map();
  input.forEach((item, i) => {
    if (item.type === 'function_call') open.set(item.callId, false);
    if (item.type === 'function_call_result') {
      if (!open.has(item.callId)) problems.push(`input[${i}]: result ${item.callId} without its call before it`);
      else open.set(item.callId, true);
    }
  });
  for (const [callId, answered] of open) if (!answered) problems.push(`call ${callId} has no result`);
  return problems;
}

const outputText = (item) => (typeof item.output === 'string' ? item.output : item.output?.type === 'text' ? item.output.text : JSON.stringify(item.output));
/** The store ids an input names (`stored as 17`, `listed in stored text 30`). */
const namedIds = (input) => [...input.map(itemText).join('\n').matchAll(/(?:stored as|listed in stored text) ([^\s,;[\]\\"`]+)/g)].map((m) => m[1].replace(/[.:]+$/, ''));

/**
 * A scripted model (the SDK's `Model` interface). It records each input it receives, and
 * answers with `read_file` calls, then a last message: `plan[i]` reads in the i-th run of
 * a conversation. After the first compaction (an input that does not extend the one
 * before) that names a stored id, it calls `recall` with that id once. Each response
 * reports usage as a provider would: the input's exact o200k count, and the prefix shared
 * with the input before as cached. Serves several conversations at once, told apart by
 * their first item (the task, whose first word names the files it reads).
 */
class ScriptedModel {
  /** Per task: the inputs, the cached tokens reported for each, and the recall it made. */
  conversations = new Map();

  constructor(plans, { streamed = false } = {}) {
    this.plans = plans;
    this.streamed = streamed;
  }

  respond(request) {
    const seen = { instructions: request.systemInstructions, input: structuredClone(request.input) };
    const task = seen.input[0].content;
    const word = task.split(':')[0];
    let c = this.conversations.get(task);
    if (!c) {
      c = { inputs: [], cached: [], recall: undefined, run: 0, reads: 0, plan: this.plans[word] };
      this.conversations.set(task, c);
    }
    const previous = c.inputs.at(-1);
    c.inputs.push(seen);
    const tokens = inputTokens(seen);
    const cached = previous ? sharedTokens(previous, seen) : 0;
    c.cached.push(cached);
    const usage = { requests: 1, inputTokens: tokens, outputTokens: 20, totalTokens: tokens + 20, inputTokensDetails: { cached_tokens: cached } };
    const step = c.inputs.length;
    const named = namedIds(seen.input);
    let output;
    if (!c.recall && previous && !extendsInput(previous, seen) && named.length) {
      c.recall = { id: named[0], callId: `${word}_recall`, at: step - 1 };
      output = [{ type: 'function_call', id: `fc_${word}_r`, callId: c.recall.callId, name: 'recall', arguments: JSON.stringify({ id: c.recall.id }), status: 'completed' }];
    } else if (c.reads < c.plan[c.run]) {
      c.reads++;
      output = [{ type: 'function_call', id: `fc_${word}_${step}`, callId: `${word}_call_${step}`, name: 'read_file', arguments: JSON.stringify({ path: `src/${word}/file_${step}.rs` }), status: 'completed' }];
    } else {
      c.run++;
      c.reads = 0;
      output = [{ type: 'message', id: `msg_${word}_${step}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `${word}: done` }] }];
    }
    return { usage, output, responseId: `resp_${word}_${step}` };
  }

  async getResponse(request) {
    const { usage, output, responseId } = this.respond(request);
    return { usage: new Usage(usage), output, responseId };
  }

  async *getStreamedResponse(request) {
    const { usage, output, responseId } = this.respond(request);
    yield { type: 'response_started' };
    yield { type: 'response_done', response: { id: responseId, usage, output } };
  }
}

const readFile = tool({
  name: 'read_file',
  description: 'Read a source file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: true },
  strict: false,
  execute: async ({ path }) => fileText(path),
});

/** A context over `model`, with its ledger records and warnings by conversation, and an agent using both. */
function setup(model, options = {}) {
  const records = new Map();
  const warnings = [];
  const context = contextFilter({
    // The scripted model answers the loop's steps: summaries by the model itself are tested on their own.
    budget: BUDGET, countTokens: o200k, summarizer: false,
    onLedger: (record, conversation) => records.set(conversation, [...(records.get(conversation) ?? []), record]),
    onWarning: (warning, conversation) => warnings.push({ ...warning, conversation }),
    ...options,
  });
  const agent = new Agent({ name: 'coder', instructions: INSTRUCTIONS, model: context.model(model), tools: [readFile, context.recallTool] });
  return { context, agent, records, warnings };
}

describe(`@devs/context/openai-agents with @openai/agents ${SDK_VERSION}: run() through tool loops of 20 KB outputs at a 20,000-token budget`, () => {
  // Two conversations at once, through one filter and one wrapped model: alpha 100 steps, beta 60.
  const TASKS = { alpha: 'alpha: make the parser tests pass', beta: 'beta: fix the lexer on CRLF input' };
  const PLANS = { alpha: [100], beta: [60] };
  let model, context, records, warnings, results;
  /** The conversation (name, manager, ledger) of a task: the manager with as many requests as the task's inputs. */
  const of = (word) => {
    const { inputs } = model.conversations.get(TASKS[word]);
    const found = context.conversations().filter((c) => c.manager.ledger.length === inputs.length);
    assert.equal(found.length, 1, `one manager for ${word}`);
    return { ...found[0], records: records.get(found[0].conversation), inputs };
  };

  before(async () => {
    model = new ScriptedModel(PLANS);
    let agent;
    ({ context, records, warnings, agent } = setup(model));
    results = await Promise.all(Object.values(TASKS).map((task) => run(agent, task, { callModelInputFilter: context.callModelInputFilter, maxTurns: 120 })));
  });

  it('the loops complete, every input within the budget by exact o200k, every function call with its result, the task first', () => {
    assert.deepEqual(results.map((r) => r.finalOutput), ['alpha: done', 'beta: done']);
    for (const word of ['alpha', 'beta']) {
      const { inputs } = of(word);
      assert.equal(inputs.length, PLANS[word][0] + 2, `${word}: its reads, a recall and the last answer`);
      const sizes = inputs.map(inputTokens);
      const largest = Math.max(...sizes);
      assert.ok(largest <= BUDGET, `${word}: largest input ${largest} tokens, budget ${BUDGET}`);
      inputs.forEach((seen, i) => {
        assert.deepEqual(callProblems(seen.input), [], `${word}: input ${i + 1}`);
        assert.equal(seen.input[0].content, TASKS[word], `${word}: input ${i + 1} opens with the task`);
        assert.equal(seen.instructions, INSTRUCTIONS, `${word}: input ${i + 1} has the agent's instructions`);
      });
      console.log(`# ${word}: ${inputs.length} inputs, largest ${largest} / ${BUDGET} tokens by exact o200k (${(largest / BUDGET).toFixed(3)})`);
    }
    assert.deepEqual(warnings, []);
  });

  it('the run keeps its own items whole: the history holds every output as the tool returned it', () => {
    const [alpha] = results;
    const outputs = alpha.history.filter((item) => item.type === 'function_call_result' && item.name === 'read_file');
    assert.equal(outputs.length, 100);
    for (const item of outputs) {
      const call = alpha.history.find((c) => c.type === 'function_call' && c.callId === item.callId);
      assert.equal(outputText(item), fileText(JSON.parse(call.arguments).path));
    }
  });

  it('each input extends the one before, except at a compaction; between compactions the cache reads all of the input before', () => {
    for (const word of ['alpha', 'beta']) {
      const { inputs, records: ledger } = of(word);
      assert.equal(ledger.length, inputs.length);
      let reread = 0, before = 0, read = 0, all = inputTokens(inputs[0]);
      const breaks = [];
      for (let i = 1; i < inputs.length; i++) {
        const shared = sharedTokens(inputs[i - 1], inputs[i]);
        read += shared;
        all += inputTokens(inputs[i]);
        if (extendsInput(inputs[i - 1], inputs[i])) {
          reread += shared;
          before += inputTokens(inputs[i - 1]);
        } else {
          breaks.push(i + 1);
        }
      }
      const compactions = ledger.filter((r) => r.compaction).map((r) => r.request);
      assert.deepEqual(breaks, compactions, `${word}: the inputs that do not extend the one before are the compactions`);
      assert.ok(compactions.length >= 5, `${word}: compacted several times (${compactions.length})`);
      const share = read / all;
      assert.ok(reread / before >= 0.9, `${word}: between compactions, common-prefix tokens over the tokens of the input before: ${reread / before}`);
      // Each step adds a 20 KB output cut to 3,000 tokens (15% of the budget, the cut's
      // share): a share above about 0.7 is not possible here, with or without compactions.
      assert.ok(share >= 0.6, `${word}: cache share ${share}`);
      console.log(`# ${word}: ${compactions.length} compactions; cache share ${share.toFixed(3)} (common-prefix tokens over all input tokens); between compactions ${(reread / before).toFixed(3)} of the input before is read again`);
    }
  });

  it('the recall call is answered by the recall tool, from its own conversation', () => {
    for (const word of ['alpha', 'beta']) {
      const { inputs } = of(word);
      const { recall } = model.conversations.get(TASKS[word]);
      assert.ok(recall, `${word} called recall`);
      assert.ok(namedIds(inputs[recall.at].input).includes(recall.id));
      const next = inputs[recall.at + 1].input;
      const answer = next.find((item) => item.type === 'function_call_result' && item.callId === recall.callId);
      assert.ok(answer, `${word}: the input after the recall call holds its result`);
      const text = outputText(answer);
      assert.ok(text.startsWith(`[Stored text ${recall.id} `), text.slice(0, 200));
      assert.match(text, new RegExp(`src/${word}/file_`));
      assert.doesNotMatch(text, new RegExp(`src/${word === 'alpha' ? 'beta' : 'alpha'}/`));
      console.log(`# ${word}: recalled ${recall.id} at input ${recall.at + 1}: ${text.split('\n')[0]}`);
    }
  });

  it("each response's usage reaches the manager of the input it answered", () => {
    for (const word of ['alpha', 'beta']) {
      const { manager, records: ledger } = of(word);
      const { cached } = model.conversations.get(TASKS[word]);
      assert.deepEqual(ledger.map((r) => r.cache.observedRead), cached, `${word}: the cached tokens each response reported, in order`);
      assert.ok(manager.calibration.samples > 0);
      const last = ledger.at(-1);
      assert.ok(last.tokens > last.rawTokens, `${word}: calibrated up to the provider's count (the items' JSON): ${last.rawTokens} counted, ${last.tokens} expected`);
    }
  });

  it('two conversations do not mix: neither input names the other\'s files, and their store ids differ', () => {
    const ids = {};
    for (const word of ['alpha', 'beta']) {
      const other = word === 'alpha' ? 'beta' : 'alpha';
      const { inputs, records: ledger } = of(word);
      for (const seen of inputs) assert.ok(!seen.input.map(itemText).join('\n').includes(`src/${other}/`), `${word}: an input names ${other}'s files`);
      ids[word] = new Set(ledger.flatMap((r) => r.compaction?.masked ?? []));
      assert.ok(ids[word].size > 0);
    }
    for (const id of ids.alpha) assert.ok(!ids.beta.has(id), `store id ${id} in both`);
  });
});

describe('several runs of one conversation', () => {
  it("with a Session: the session keeps the whole history, and the next run's manager goes on from it", async () => {
    const model = new ScriptedModel({ gamma: [24, 6] });
    const { context, agent, records, warnings } = setup(model);
    const session = new MemorySession();
    const options = { callModelInputFilter: context.callModelInputFilter, session, maxTurns: 60 };
    const first = await run(agent, 'gamma: port the tokenizer', options);
    assert.equal(first.finalOutput, 'gamma: done');
    const second = await run(agent, 'Now make the tests pass too.', options);
    assert.equal(second.finalOutput, 'gamma: done');

    const [conversation, ...others] = context.conversations();
    assert.deepEqual(others, [], 'one manager for both runs');
    const { inputs } = model.conversations.get('gamma: port the tokenizer');
    assert.equal(conversation.manager.ledger.length, inputs.length);
    assert.ok(records.get(conversation.conversation).some((r) => r.compaction), 'compacted');
    // The second run's message is dropped by a compaction in that run (no summarizer), said
    // with a warning; nothing is taken in anew: the second run extends the history the first left.
    assert.ok(!warnings.some((w) => w.code === 'history-rebuilt'), JSON.stringify(warnings));
    for (const seen of inputs) assert.ok(inputTokens(seen) <= BUDGET);

    const items = await session.getItems();
    const results = items.filter((item) => item.type === 'function_call_result' && item.name === 'read_file');
    assert.equal(results.length, 30);
    for (const item of results) {
      const call = items.find((c) => c.type === 'function_call' && c.callId === item.callId);
      assert.equal(outputText(item), fileText(JSON.parse(call.arguments).path), 'saved whole');
    }
    const texts = items.map(itemText).join('\n');
    assert.ok(!/stored as|were left out/.test(texts), 'no placeholder or note of the manager saved in the session');
    assert.deepEqual(items.filter((item) => item.role === 'user').map((item) => item.content), ['gamma: port the tokenizer', 'Now make the tests pass too.'], 'each run\'s message saved as given');
    const resumed = inputs.findIndex((seen) => seen.input.at(-1).content === 'Now make the tests pass too.');
    assert.ok(resumed > 0, "the second run's first input ends with its message");
    assert.equal(inputs[resumed - 1].input.at(-1).type, 'function_call_result', "and comes after the first run's last input");
  });

  it("with boundedModel, the agent's own model writes the summaries: the input last built, then the instruction, its usage the cost", async () => {
    const summaries = [];
    class Summarizing extends ScriptedModel {
      async getResponse(request) {
        const last = request.input.at(-1);
        const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
        if (!text.includes('[Context budget] Write a summary')) return super.getResponse(request);
        summaries.push(request);
        const tokens = inputTokens(request);
        return { usage: new Usage({ requests: 1, inputTokens: tokens, outputTokens: 30, totalTokens: tokens + 30, inputTokensDetails: { cached_tokens: tokens - 200 } }), output: [{ type: 'message', id: `msg_s${summaries.length}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `SUMMARY ${summaries.length}: files read, none fixed.` }] }], responseId: `resp_s${summaries.length}` };
      }
    }
    const model = new Summarizing({ mu: [40] });
    const events = [];
    const { context } = setup(model, { summarizer: undefined, onCompaction: (e, conversation) => events.push({ e, conversation }) });
    const agent = new Agent({ name: 'coder', instructions: INSTRUCTIONS, model: context.boundedModel(model), tools: [readFile, context.recallTool] });
    const result = await run(agent, 'mu: port the tokenizer', { maxTurns: 80 });
    assert.equal(result.finalOutput, 'mu: done');
    assert.ok(summaries.length > 0, "the agent's model was asked for a summary");
    for (const r of summaries) {
      assert.equal(r.systemInstructions, INSTRUCTIONS);
      assert.ok(r.tools.some((t) => t.name === 'read_file'), "with the last request's tools");
    }
    const summarized = events.filter(({ e }) => e.actions.summarized);
    assert.ok(summarized.length > 0);
    for (const { e } of summarized) assert.ok(e.summary.usage?.cacheRead > 0 && e.summary.usage.cost < e.summary.usage.input);
    const { inputs } = model.conversations.get('mu: port the tokenizer');
    assert.match(JSON.stringify(inputs.at(-1).input), new RegExp(`SUMMARY ${summaries.length}:`), 'the latest summary is in the input');
  });

  it('with boundedModel and a Session, no filter: the model is sent bounded inputs, and the SDK keeps every item as it came, a 9,000-token pasted message too', async () => {
    const model = new ScriptedModel({ kappa: [12, 10] });
    const { context, records, warnings } = setup(model);
    const agent = new Agent({ name: 'coder', instructions: INSTRUCTIONS, model: context.boundedModel(model), tools: [readFile, context.recallTool] });
    const session = new MemorySession();
    const paste = Array.from({ length: 400 }, (_, i) => `pasted line ${i}: error[E0308] mismatched types at src/kappa.rs:${i * 3}`).join('\n');
    assert.ok(o200k(paste) > 0.15 * BUDGET, 'longer than the cut');
    await run(agent, 'kappa: port the tokenizer', { session, maxTurns: 60 });
    const second = await run(agent, [{ role: 'user', content: paste }], { session, maxTurns: 60 });
    assert.equal(second.finalOutput, 'kappa: done');

    const { inputs, cached, recall } = model.conversations.get('kappa: port the tokenizer');
    for (const seen of inputs) {
      assert.ok(inputTokens(seen) <= BUDGET, `input of ${inputTokens(seen)} tokens`);
      assert.deepEqual(callProblems(seen.input), []);
    }
    const [conversation, ...others] = context.conversations();
    assert.deepEqual(others, []);
    const ledger = records.get(conversation.conversation);
    assert.equal(ledger.length, inputs.length);
    assert.ok(ledger.some((r) => r.compaction) && ledger.some((r) => r.cut), 'compacted, and cut the paste');
    assert.ok(!warnings.some((w) => w.code === 'history-rebuilt'), JSON.stringify(warnings));
    assert.deepEqual(ledger.map((r) => r.cache.observedRead), cached, 'usage recorded by the model');
    assert.ok(recall, 'recalled');
    const answer = inputs[recall.at + 1].input.find((item) => item.type === 'function_call_result' && item.callId === recall.callId);
    assert.ok(outputText(answer).startsWith(`[Stored text ${recall.id} `), outputText(answer).slice(0, 200));

    for (const items of [await session.getItems(), second.history]) {
      assert.ok(!/stored as|were left out/.test(items.map(itemText).join('\n')), 'nothing of the manager kept');
      assert.deepEqual(items.filter((item) => item.role === 'user').map((item) => item.content), ['kappa: port the tokenizer', paste]);
      const outputs = items.filter((item) => item.type === 'function_call_result' && item.name === 'read_file');
      assert.equal(outputs.length, 22);
      for (const item of outputs) assert.equal(outputText(item).length, 20_000);
    }
  });

  it('named by the `conversation` option: runs of one name share a manager, a history edited in between is taken in anew with a warning, another name has its own', async () => {
    const model = new ScriptedModel({ delta: [3, 2], epsilon: [2] });
    const { context, agent, warnings } = setup(model, { conversation: ({ context: c }) => c.thread });
    const options = (thread) => ({ callModelInputFilter: context.callModelInputFilter, context: { thread }, maxTurns: 20 });
    const first = await run(agent, 'delta: rename the module', options('t-1'));
    await run(agent, 'epsilon: update the docs', options('t-2'));
    // The host drops the last exchange before going on: an edited history.
    const edited = first.history.slice(0, -3).concat({ role: 'user', content: 'Try again, differently.' });
    await run(agent, edited, options('t-1'));
    assert.deepEqual(context.conversations().map((c) => c.conversation).sort(), ['t-1', 't-2']);
    assert.deepEqual(warnings.map((w) => [w.code, w.conversation]), [['history-rebuilt', 't-1']]);
  });

  it('unnamed runs that open with the same message stay apart from their first different item', async () => {
    const { context, warnings } = setup(new ScriptedModel({}));
    const task = { type: 'message', role: 'user', content: 'zeta: fix the build' };
    const call = (id) => ({ type: 'function_call', callId: id, name: 'read_file', arguments: `{"path":"${id}"}`, status: 'completed' });
    const result = (id) => ({ type: 'function_call_result', callId: id, name: 'read_file', status: 'completed', output: { type: 'text', text: `contents of ${id}` } });
    const filter = (input) => context.callModelInputFilter({ modelData: { input, instructions: INSTRUCTIONS }, agent: undefined, context: {} });
    await filter([task]);
    await filter([task, call('a'), result('a')]);
    await filter([task, call('b'), result('b')]);
    await filter([task, call('a'), result('a'), call('a2'), result('a2')]);
    const held = context.conversations().map((c) => [c.conversation, c.manager.ledger.length]).sort();
    assert.deepEqual(held, [['#1', 3], ['#2', 1]]);
    assert.deepEqual(warnings, []);
  });
});

describe('the adapter around the SDK', () => {
  it('a streamed run records usage from the response_done event', async () => {
    const model = new ScriptedModel({ eta: [4] }, { streamed: true });
    const { context, agent } = setup(model);
    const stream = await run(agent, 'eta: tidy the imports', { callModelInputFilter: context.callModelInputFilter, stream: true, maxTurns: 10 });
    for await (const _ of stream) { /* drain */ }
    await stream.completed;
    assert.equal(stream.finalOutput, 'eta: done');
    const [{ manager }] = context.conversations();
    assert.deepEqual(manager.ledger.map((r) => r.cache.observedRead), model.conversations.get('eta: tidy the imports').cached);
  });

  it('the wrapped model is still the host\'s: its class and members', () => {
    const model = new ScriptedModel({});
    const { context } = setup(model);
    const wrapped = context.model(model);
    assert.ok(wrapped instanceof ScriptedModel);
    assert.equal(wrapped.plans, model.plans);
    assert.equal(context.model(model), wrapped, 'wrapped once');
  });

  it('the items the filter returns are valid SDK items: a shown output is a function_call_result with its call id, name and text', async () => {
    const { context } = setup(new ScriptedModel({}));
    const input = [{ type: 'message', role: 'user', content: 'theta: read everything' }];
    for (let i = 0; i < 12; i++) {
      input.push({ type: 'function_call', id: `fc_${i}`, callId: `call_${i}`, name: 'read_file', arguments: `{"path":"f${i}"}`, status: 'completed' });
      input.push({ type: 'function_call_result', callId: `call_${i}`, name: 'read_file', status: 'completed', output: { type: 'text', text: fileText(`theta/f${i}`) } });
    }
    const { input: out, instructions } = await context.callModelInputFilter({ modelData: { input, instructions: INSTRUCTIONS }, agent: undefined, context: {} });
    assert.equal(instructions, INSTRUCTIONS);
    assert.equal(out[0], input[0], 'an item left whole is the very object given');
    assert.deepEqual(callProblems(out), []);
    const shown = out.filter((item) => item.type === 'function_call_result' && !input.includes(item));
    assert.ok(shown.length > 0);
    for (const item of shown) {
      assert.deepEqual(Object.keys(item).sort(), ['callId', 'name', 'output', 'status', 'type']);
      assert.equal(item.name, 'read_file');
      assert.equal(item.output.type, 'text');
      assert.match(item.output.text, /stored as \d+/);
    }
    assert.ok(out.every((item) => item.call_id === undefined), 'no Responses API field left on an SDK item');
    assert.ok(inputTokens({ instructions, input: out }) <= BUDGET);
  });
});

describe('options', () => {
  it('bad options are a TypeError or RangeError naming the field', () => {
    assertFieldError(thrown(() => contextFilter()), TypeError, 'options');
    assertFieldError(thrown(() => contextFilter({})), TypeError, 'options.budget');
    assertFieldError(thrown(() => contextFilter({ budget: '20000' })), TypeError, 'options.budget');
    assertFieldError(thrown(() => contextFilter({ budget: 500 })), RangeError, 'options.budget');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, countTokens: 5 })), TypeError, 'options.countTokens');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, recall: 'yes' })), TypeError, 'options.recall');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, highWater: 2 })), RangeError, 'options.highWater');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, summarizer: 5 })), TypeError, 'options.summarizer');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, onLedger: 'log' })), TypeError, 'options.onLedger');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, store: {} })), TypeError, 'options.store.insertRawToolOutput');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, system: 'x' })), TypeError, 'options.system');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, format: 'anthropic' })), TypeError, 'options.format');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, conversation: 'thread-1' })), TypeError, 'options.conversation');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, maxConversations: 0 })), RangeError, 'options.maxConversations');
    assertFieldError(thrown(() => contextFilter({ budget: 20_000, maxConversations: '4' })), TypeError, 'options.maxConversations');
  });

  it('a `conversation` option that returns a non-string rejects the model call, naming it', async () => {
    const context = contextFilter({ budget: 20_000, conversation: () => 42 });
    const error = await rejected(context.callModelInputFilter({ modelData: { input: [{ role: 'user', content: 'hi' }], instructions: 'x' }, agent: undefined, context: {} }));
    assertFieldError(error, TypeError, 'options.conversation()');
  });

  it('with recall: false there is no recall tool', () => {
    const context = contextFilter({ budget: 20_000, recall: false });
    assert.throws(() => context.recallTool, { code: 'ERR_RECALL_OFF' });
  });

  it('past maxConversations the least recently used conversation is let go of', async () => {
    const context = contextFilter({ budget: 20_000, maxConversations: 2 });
    const filter = (content) => context.callModelInputFilter({ modelData: { input: [{ role: 'user', content }], instructions: 'x' }, agent: undefined, context: {} });
    await filter('one');
    await filter('two');
    await filter('one');
    const [two] = context.conversations().filter((c) => c.conversation === '#2');
    await filter('three');
    assert.deepEqual(context.conversations().map((c) => c.conversation), ['#3', '#1']);
    assert.throws(() => two.manager.ledger, /free/i);
  });
});
