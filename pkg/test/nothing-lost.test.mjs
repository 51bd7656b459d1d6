// What a new user meets first, tried as one would: the task stays in every request, the
// bound holds whatever the usage says, a message that is not one is refused, and a
// compaction says what it folded away.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { ContextManager, MemoryStateRepository } = require('@devs/context');
const { createTokenCounter } = require('@devs/context/tokenizers');

const o200k = createTokenCounter('o200k_base');
const TASK = 'TASK: make the parser accept trailing commas in src/parse.rs';

/** A 6 KB log the user pastes as text, different each time. */
const log = (n) => Array.from({ length: 120 }, (_, i) => `[${n}.${i}] error[E0308]: mismatched types at src/parse.rs:${i}`).join('\n').slice(0, 6_000);

/** What a request holds, as text, counted exactly. */
const requestText = (r) => [typeof r.system === 'string' ? r.system : JSON.stringify(r.system ?? ''), JSON.stringify(r.messages)].join('\n');

describe('the task survives', () => {
  it('an Anthropic loop at 16k with no summarizer, where the user pastes 6 KB logs: the task is in every request, and every paste of the user is still named (the working state)', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 16_000, countTokens: o200k, system: 'You are a coding agent.' });
    cm.append({ role: 'user', content: TASK });
    const warnings = [];
    for (let turn = 0; turn < 40; turn++) {
      const request = await cm.build();
      assert.ok(requestText(request).includes(TASK), `request ${turn + 1} holds the task`);
      assert.ok(o200k(requestText(request)) <= 16_000 * 1.02, `request ${turn + 1} within the budget`);
      warnings.push(...request.ledger.warnings.map((w) => w.code));
      cm.append({ role: 'assistant', content: [{ type: 'tool_use', id: `t${turn}`, name: 'bash', input: { command: `cargo test ${turn}` } }] });
      cm.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${turn}`, content: `test ${turn} failed\n`.repeat(60) }, { type: 'text', text: log(turn) }] });
    }
    // The pastes folded away are the user's words: the working state names each by its first
    // line, so nothing the user wrote leaves unsaid (`user-text-dropped` is not raised).
    const last = requestText(await cm.build());
    for (let n = 0; n < 40; n++) assert.ok(last.includes(`[${n}.0] error[E0308]`), `paste ${n} named in the last request`);
    assert.ok(!warnings.includes('user-text-dropped'));
    // And what was folded is stored whole, named in the request.
    assert.match(last, /conversation, messages \d+–\d+, [\d,]+ tokens, stored as \d+/);
  });

  it('keepFirstMessage: false lets the opening message go like any other: out of the window, into the working state', async () => {
    const cm = new ContextManager({ format: 'openai-chat', budget: 4_000, countTokens: o200k, keepFirstMessage: false });
    cm.append({ role: 'user', content: TASK });
    let last = '';
    for (let turn = 0; turn < 30; turn++) {
      last = requestText(await cm.build());
      cm.append({ role: 'assistant', content: `step ${turn}: ${'x '.repeat(150)}` });
      cm.append({ role: 'user', content: `go on ${turn}` });
    }
    // Not pinned ahead of the conversation any more: where it is, it is the user's words
    // the working state keeps, as every other message the user typed.
    const state = last.indexOf('<working-state>');
    assert.ok(state >= 0, 'a compaction wrote the working state');
    assert.equal(last.indexOf(TASK), last.indexOf(TASK, state));
  });
});

describe('the bound holds whatever the usage says', () => {
  it("a stand-in usage that never changes (the quick start's), in a 40-call tool loop at 16k: no request over the budget, and the ledger says the usage was set aside", async () => {
    const budget = 16_000;
    const cm = new ContextManager({ format: 'anthropic', budget, countTokens: o200k, system: 'You are a coding agent.' });
    cm.append({ role: 'user', content: TASK });
    let largest = 0;
    const warnings = new Set();
    for (let call = 0; call < 40; call++) {
      const request = await cm.build();
      largest = Math.max(largest, o200k(requestText(request)));
      for (const w of request.ledger.warnings) warnings.add(w.code);
      cm.recordUsage({ input_tokens: 1_200, output_tokens: 50 });
      cm.append({ role: 'assistant', content: [{ type: 'tool_use', id: `t${call}`, name: 'read_file', input: { path: `src/f${call}.rs` } }] });
      cm.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${call}`, content: `fn f${call}() {}\n`.repeat(150) }] });
    }
    assert.ok(largest <= budget, `largest request ${largest} tokens by exact o200k, budget ${budget}`);
    assert.ok(warnings.has('usage-set-aside'), [...warnings].join(', '));
    assert.equal(cm.calibration.ratio, 1, 'nothing was learned from it');
  });

  it('a usage of zero, or far under the request, is set aside too; a consistent one is learned', async () => {
    const cm = new ContextManager({ format: 'openai-chat', budget: 20_000, countTokens: o200k });
    cm.append({ role: 'user', content: 'go' });
    const request = await cm.build();
    cm.recordUsage({ prompt_tokens: 0 });
    assert.equal(cm.calibration.samples, 0);
    cm.append({ role: 'assistant', content: 'ok '.repeat(300) });
    await cm.build();
    cm.recordUsage({ prompt_tokens: 1 });
    assert.equal(cm.calibration.samples, 0);
    cm.append({ role: 'user', content: 'more' });
    const third = await cm.build();
    assert.ok(third.ledger.warnings.some((w) => w.code === 'usage-set-aside'));
    cm.recordUsage({ prompt_tokens: third.tokens + 40 });
    assert.equal(cm.calibration.samples, 1);
    assert.ok(request.tokens > 0);
  });
});

describe('a message that is not one is refused', () => {
  const cases = {
    anthropic: [{ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }], model: 'claude-sonnet-4-6', stop_reason: 'end_turn', usage: { input_tokens: 5, output_tokens: 1 } }, 'message.id'],
    'openai-chat': [{ role: 'assistant', content: 'hi', refusal: null, annotations: [], usage: { prompt_tokens: 5 } }, 'message.usage'],
    'ai-sdk': [{ role: 'assistant', content: 'hi', response: { id: 'r' } }, 'message.response'],
  };
  for (const [format, [message, field]] of Object.entries(cases)) {
    it(`${format}: an SDK's whole response appended as a message is a TypeError naming its field, and nothing is appended`, async () => {
      const cm = new ContextManager({ format, budget: 10_000 });
      cm.append({ role: 'user', content: 'hi' });
      assert.throws(() => cm.append(message), (e) => e instanceof TypeError && e.field === field && /not a field of/.test(e.message));
      const { messages } = await cm.build();
      assert.equal(JSON.stringify(messages).includes('usage'), false);
      assert.equal(messages.length, format === 'anthropic' ? 1 : 1);
    });
  }

  it("openai-chat: the response's own message (refusal, annotations) is taken as it is", () => {
    const cm = new ContextManager({ format: 'openai-chat', budget: 10_000 });
    cm.append({ role: 'user', content: 'hi' });
    cm.append({ role: 'assistant', content: 'hello', refusal: null, annotations: [] });
  });

  it('a refusal part too long for the request is cut in its own field, as a text part is', async () => {
    const long = Array.from({ length: 3_000 }, (_, i) => `I cannot run step ${i} of that command.`).join('\n');
    const cases = {
      'openai-responses': [{ role: 'user', content: 'run it' }, { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: long }] }, { role: 'user', content: 'why?' }],
      'openai-chat': [{ role: 'user', content: 'run it' }, { role: 'assistant', content: [{ type: 'refusal', refusal: long }] }, { role: 'user', content: 'why?' }],
    };
    for (const [format, messages] of Object.entries(cases)) {
      const cm = new ContextManager({ format, budget: 10_000, countTokens: o200k });
      for (const m of messages) cm.append(m);
      const built = await cm.build();
      const part = built.messages.find((m) => Array.isArray(m.content) && m.content[0]?.type === 'refusal')?.content[0];
      assert.ok(part, `${format}: the refusal is in the request`);
      assert.equal(part.text, undefined, `${format}: no text field added to a refusal`);
      assert.ok(part.refusal.length < long.length / 2, `${format}: the refusal itself is cut (${part.refusal.length} of ${long.length} characters)`);
    }
  });
});

describe('the index of what was folded away', () => {
  it('a summarizer that keeps nothing loses no store id: every text stored is named in the request, or in a listing it names', async () => {
    const store = new MemoryStateRepository();
    const cm = new ContextManager({ format: 'openai-chat', budget: 8_000, countTokens: o200k, store, summarizer: async () => 'nothing' });
    cm.append({ role: 'user', content: TASK });
    let request;
    for (let turn = 0; turn < 80; turn++) {
      cm.append({ role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `grep -rn parse_item_${turn} src/` }) } }] });
      cm.append({ role: 'tool', tool_call_id: `c${turn}`, content: `src/parse.rs:${turn}: fn parse_item_${turn}() {}\n`.repeat(40) });
      request = await cm.build();
    }
    const named = (text) => new Set([...text.matchAll(/stored (?:as|text) (\d+)/g)].map((m) => m[1]));
    const text = requestText(request);
    // The listings of the index's oldest entries name each other, the newest the one before.
    const reach = named(text);
    for (const id of reach) for (const more of named(store.getRawToolOutput(id)?.rawContent ?? '')) reach.add(more);
    const stored = store.getRawToolOutputs().map((r) => String(r.id));
    assert.ok(stored.length > 20);
    for (const id of stored) assert.ok(reach.has(id), `stored text ${id} is named`);
    // The index says what each was, its command and the names it holds, in the request or
    // in the listings of its oldest entries.
    const listings = store.getRawToolOutputs('index').map((r) => r.rawContent).join('\n');
    assert.match(listings, /- output of bash `grep -rn parse_item_\d+ src\/`, [\d,]+ tokens, stored as \d+; names: src\/parse\.rs, parse_item_\d+/);
    assert.match(text, /names: src\/parse\.rs/);
  });
});

describe('a summary that can reuse the cache', () => {
  for (const format of ['anthropic', 'openai-chat', 'ai-sdk']) {
    it(`${format}: the summarizer gets the request last built, byte for byte, then the instruction`, async () => {
      const calls = [];
      const cm = new ContextManager({
        format, budget: 4_000, countTokens: o200k, system: 'You are a coding agent.',
        summarizer: { summarize: (prompt, request) => { calls.push({ prompt, request }); return 'what was done so far'; } },
      });
      cm.append({ role: 'user', content: TASK });
      let last;
      for (let turn = 0; turn < 40 && calls.length === 0; turn++) {
        cm.append({ role: 'assistant', content: `I looked at part ${turn}: ${'the parser reads items one by one. '.repeat(12)}` });
        cm.append({ role: 'user', content: `go on with part ${turn + 1}` });
        const before = last;
        last = await cm.build();
        if (calls.length) {
          const { request } = calls[0];
          assert.equal(JSON.stringify(request.system), JSON.stringify(before.system));
          assert.equal(JSON.stringify(request.messages.slice(0, -1)), JSON.stringify(before.messages), 'the request as sent: its prefix is cached');
          assert.match(JSON.stringify(request.messages.at(-1)), /Write a summary of the conversation above/);
          assert.match(calls[0].prompt, /Summarize the earlier part/, 'the text prompt still comes first');
        }
      }
      assert.equal(calls.length >= 1, true, 'a summary was asked for');
    });
  }
});
