// Issue 19: ContextManager takes a host's messages in its provider's own shape and builds
// requests that are valid for that provider, within the budget, cache-stable between
// compactions, with every stored output byte-equal by its id. Driven on the real
// sessions in each of the five formats, with the exact o200k counter and the provider's
// count (o200k of the request as sent) fed back through recordUsage.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { callInputs, fakeVscode, outputsById, providerTurns, realSessions } from './provider-sessions.mjs';
import { PROBLEMS, requestText } from './validity.mjs';
import { assertFieldError, rejected, thrown } from './helpers.mjs';
import { FORMATS } from './formats.mjs';

const o200k = createTokenCounter('o200k_base');
const modelMessages = (await import('ai')).modelMessageSchema.array();
const sessions = realSessions();
const summarizer = (prompt) => `Earlier: ${prompt.slice(0, 1500)}`;

/** Shares of each request that repeat the previous one, by the characters of the request as sent. */
function sharedPrefix(previous, text) {
  let k = 0;
  while (k < previous.length && k < text.length && previous.charCodeAt(k) === text.charCodeAt(k)) k++;
  return k;
}

/** Replays `session` in `format` at `budget`; checks every request; returns what it saw. */
async function replay(session, format, budget, options = {}) {
  const store = new MemoryStateRepository();
  const cm = new ContextManager({ format, budget, countTokens: o200k, store, summarizer, system: 'You are a coding agent.', vscode: fakeVscode, ...options });
  let previous = '';
  const seen = { requests: 0, tokens: 0, shared: 0, largest: 0, compactions: 0, problems: [] };
  for (const turn of providerTurns(session, format)) {
    if (turn.input.length) cm.append(turn.input);
    const request = await cm.build();
    const problems = PROBLEMS[format](request);
    // The AI SDK checks its own messages: its schema, as generateText applies it.
    if (format === 'ai-sdk') {
      const parsed = modelMessages.safeParse(request.messages);
      if (!parsed.success) problems.push(`the AI SDK's modelMessageSchema: ${parsed.error.message.slice(0, 300)}`);
    }
    if (problems.length) seen.problems.push(`request ${seen.requests + 1}: ${problems.join('; ')}`);
    const text = requestText(request);
    const tokens = o200k(text);
    seen.requests++;
    seen.tokens += tokens;
    seen.shared += o200k(text.slice(0, sharedPrefix(previous, text)));
    seen.largest = Math.max(seen.largest, tokens);
    if (request.ledger.compaction) seen.compactions++;
    assert.ok(request.tokens <= budget, `request ${seen.requests}: ${request.tokens} tokens by the manager`);
    previous = text;
    // The provider's count of what was sent, as a host reports it.
    cm.recordUsage(format === 'anthropic' ? { input_tokens: tokens } : format === 'openai-chat' ? { prompt_tokens: tokens }
      : format === 'openai-responses' ? { input_tokens: tokens } : format === 'gemini' ? { promptTokenCount: tokens } : { inputTokens: tokens });
    if (turn.response.length) cm.append(turn.response);
    if (turn.results.length) cm.append(turn.results);
  }
  return { cm, store, seen };
}

describe('ContextManager on the real sessions, in every format', () => {
  for (const format of FORMATS) {
    for (const budget of [200_000, 50_000]) {
      describe(`${format} at ${budget.toLocaleString('en-US')} tokens`, () => {
        for (const session of sessions) {
          it(`${session.name}: valid, within the budget, raw outputs byte-equal`, async () => {
            const { cm, store, seen } = await replay(session, format, budget);
            assert.deepEqual(seen.problems, []);
            // The provider's count, learned through recordUsage, bounds what was sent.
            assert.ok(seen.largest <= budget * 1.02, `largest request ${seen.largest} by o200k of what was sent`);
            // Every stored text is one the session produced, byte for byte (an output, or a
            // message), or the manager's own: the transcript of turns folded away, or a listing of the index.
            const produced = new Set([...outputsById(session, format).values(), ...callInputs(session), ...session.steps.flatMap((s) => [s.input, s.text])]);
            const own = { transcript: '[Transcript of messages ', index: '[Entries of the index of stored texts' };
            for (const row of store.getRawToolOutputs()) {
              if (row.toolName in own && row.rawContent.startsWith(own[row.toolName])) continue;
              assert.ok(produced.has(row.rawContent), `stored ${row.id} is unchanged`);
            }
            for (const record of cm.ledger) {
              for (const id of record.compaction?.masked ?? []) assert.ok(store.getRawToolOutput(id), `masked ${id} reads back`);
            }
            if (seen.requests >= 50) assert.ok(seen.shared / seen.tokens >= 0.85, `cache share ${(seen.shared / seen.tokens).toFixed(3)}`);
          });
        }
      });
    }
  }
});

describe('ContextManager: the cache', () => {
  it('between compactions, each request is the previous one plus what was appended', async () => {
    const session = sessions.find((s) => s.steps.length > 100);
    const cm = new ContextManager({ format: 'anthropic', budget: 50_000, countTokens: o200k, cacheControl: false });
    let previous = null;
    for (const turn of providerTurns(session, 'anthropic')) {
      if (turn.input.length) cm.append(turn.input);
      const { messages, ledger } = await cm.build();
      if (previous && !ledger.compaction) {
        // The previous request's messages, but its last, come back unchanged; the last may
        // have grown by what was appended to its role.
        for (let i = 0; i < previous.length - 1; i++) assert.deepEqual(messages[i], previous[i], `message ${i}`);
        assert.ok(ledger.cache.read > 0);
      }
      previous = messages;
      cm.append(turn.response);
      if (turn.results.length) cm.append(turn.results);
    }
    assert.ok(cm.ledger.some((r) => r.compaction), 'the session compacts at 50k');
  });

  it('re-sends each reminder at the tail on its schedule, never above what was sent, valid in every format', async () => {
    const session = sessions.find((s) => s.steps.length > 100);
    const ROLE = { anthropic: 'user', 'openai-chat': 'system', 'openai-responses': 'system', gemini: 'user', 'ai-sdk': 'user', vscode: 1 };
    for (const format of FORMATS) {
      let calls = 0;
      const reminders = [{ every: 5, text: 'TAS: Rust core. PRD: stay on track.' }, { every: 10, text: async () => `Specs, read ${++calls} times` }];
      const cm = new ContextManager({ format, budget: 200_000, countTokens: o200k, system: 'sys', reminders, vscode: fakeVscode, cacheControl: false });
      let previous = null;
      for (const [t, turn] of providerTurns(session, format).slice(0, 30).entries()) {
        if (turn.input.length) cm.append(turn.input);
        const request = await cm.build();
        assert.deepEqual(PROBLEMS[format](request), [], `${format} request ${t + 1}`);
        const text = JSON.stringify(request.messages);
        const due = [(t + 1) % 5 === 0, (t + 1) % 10 === 0];
        const last = request.messages.at(-1);
        if (due[1]) assert.ok(JSON.stringify(last).includes(`Specs, read ${(t + 1) / 10} times`), `${format} request ${t + 1}: the specs are last`);
        else if (due[0]) assert.ok(JSON.stringify(last).includes('TAS: Rust core'), `${format} request ${t + 1}: the summaries are last`);
        if (due[0] || due[1]) assert.ok(format === 'anthropic' || format === 'vscode' || last.role === ROLE[format], `${format}: the reminder's role`);
        // Nothing before the tail changed: the previous request is a prefix of this one.
        if (previous) for (let i = 0; i < previous.length - 1; i++) assert.deepEqual(request.messages[i], previous[i], `${format} request ${t + 1}, message ${i}`);
        assert.equal(text.split('TAS: Rust core').length - 1, Math.floor((t + 1) / 5), `${format} request ${t + 1}: each reminder once per time due`);
        previous = request.messages;
        cm.append(turn.response);
        if (turn.results.length) cm.append(turn.results);
      }
      assert.equal(calls, 3, `${format}: the text function is called when due, once`);
    }
  });

  it('a reminder whose text function throws fails that build and changes nothing', async () => {
    const boom = new Error('no specs');
    let fail = true;
    const cm = new ContextManager({ format: 'openai-chat', budget: 10_000, reminders: [{ every: 1, text: () => { if (fail) throw boom; return 'specs'; } }] });
    cm.append({ role: 'user', content: 'go' });
    assert.equal(await rejected(cm.build()), boom);
    assert.equal(cm.ledger.length, 0);
    fail = false;
    const { messages } = await cm.build();
    assert.deepEqual(messages, [{ role: 'user', content: 'go' }, { role: 'system', content: 'specs' }]);
    assertFieldError(thrown(() => new ContextManager({ format: 'anthropic', budget: 10_000, reminders: [{ every: 0, text: 'x' }] })), RangeError, 'options.reminders[0].every');
    assertFieldError(thrown(() => new ContextManager({ format: 'anthropic', budget: 10_000, reminders: [{ every: 2, text: 3 }] })), TypeError, 'options.reminders[0].text');
    assertFieldError(thrown(() => new ContextManager({ format: 'anthropic', budget: 10_000, reminders: 'x' })), TypeError, 'options.reminders');
    const bad = new ContextManager({ format: 'anthropic', budget: 10_000, reminders: [{ every: 1, text: async () => 42 }] });
    bad.append({ role: 'user', content: 'go' });
    assertFieldError(await rejected(bad.build()), TypeError, 'options.reminders[0].text()');
  });

  it('places at most 4 Anthropic cache breakpoints, and none with cacheControl: false', async () => {
    const session = sessions[0];
    for (const cacheControl of [true, false]) {
      const cm = new ContextManager({ format: 'anthropic', budget: 50_000, countTokens: o200k, system: 'sys', pinned: ['TAS'], cacheControl });
      for (const turn of providerTurns(session, 'anthropic').slice(0, 40)) {
        if (turn.input.length) cm.append(turn.input);
        const request = await cm.build();
        const marks = JSON.stringify(request).split('"cache_control"').length - 1;
        if (cacheControl) assert.ok(marks >= 2 && marks <= 4, `${marks} breakpoints`);
        else assert.equal(marks, 0);
        cm.append(turn.response);
        if (turn.results.length) cm.append(turn.results);
      }
    }
  });
});

describe('ContextManager: what is never lost or changed', () => {
  it('keeps a ~1 MB single output within the budget, head and tail, stored whole', async () => {
    const huge = `BEGIN ${'diff --git a/x b/x\n+line\n'.repeat(40_000)} END`;
    const store = new MemoryStateRepository();
    const cm = new ContextManager({ format: 'openai-chat', budget: 50_000, countTokens: o200k, store });
    cm.append([
      { role: 'user', content: 'show me the diff' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"cmd":"git diff"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: huge },
    ]);
    const { messages, tokens, ledger } = await cm.build();
    assert.ok(tokens <= 50_000);
    const tool = messages.find((m) => m.role === 'tool');
    assert.ok(tool.content.startsWith('BEGIN') && tool.content.endsWith('END'));
    assert.match(tool.content, /characters cut; the whole output is stored as 1/);
    assert.equal(store.getRawToolOutput(1).rawContent, huge);
    assert.equal(ledger.cut, 1);
  });

  it('passes signed thinking back byte for byte, and drops it only after an edit, saying so', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 20_000, countTokens: o200k });
    cm.append({ role: 'user', content: 'go' });
    let dropped = 0;
    for (let t = 0; t < 40; t++) {
      const thinking = { type: 'thinking', thinking: `step ${t}: I should look`, signature: `sig-${t}-${'x'.repeat(40)}` };
      cm.append({ role: 'assistant', content: [thinking, { type: 'tool_use', id: `t${t}`, name: 'read', input: { t } }] });
      cm.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${t}`, content: `${t} `.repeat(2_000) }] });
      cm.append({ role: 'user', content: 'go on' });
      const { messages, ledger } = await cm.build();
      dropped += ledger.thinkingDropped;
      for (const m of messages) {
        for (const b of Array.isArray(m.content) ? m.content : []) {
          if (b.type === 'thinking') assert.match(b.signature, /^sig-\d+-x{40}$/);
        }
      }
      if (ledger.compaction) {
        const edit = ledger.compaction.editFrom;
        assert.ok(edit !== null);
      }
    }
    assert.ok(dropped > 0, 'compactions drop the thinking after their edit');
  });

  it('never cuts the system prompt or the pinned texts, on any path', async () => {
    const pinned = [`TAS: ${'the lexer emits every token. '.repeat(200)}`, 'PRD: the parser tests pass.'];
    const cm = new ContextManager({ format: 'anthropic', budget: 10_000, countTokens: o200k, system: 'You are careful.', pinned, summarizer });
    cm.append({ role: 'user', content: 'go' });
    for (let t = 0; t < 30; t++) {
      cm.append({ role: 'assistant', content: [{ type: 'tool_use', id: `t${t}`, name: 'read', input: {} }] });
      cm.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${t}`, content: 'z '.repeat(1_500) }] });
      if (t % 7 === 0) cm.compact();
      const { system, tokens } = await cm.build();
      const text = typeof system === 'string' ? system : system.map((b) => b.text).join('\n\n');
      assert.equal(text, ['You are careful.', ...pinned].join('\n\n'));
      assert.ok(tokens <= 10_000);
    }
    assert.ok(cm.ledger.some((r) => r.compaction?.trigger === 'asked'));
  });

  it('gives a call the agent left unanswered a marked result', async () => {
    for (const format of FORMATS) {
      const session = { name: 'x', steps: [{ input: 'go', text: 'trying', calls: [{ envelope: { action: { tool_name: 'bash', arguments: { cmd: 'ls' } }, observation: { status: 'partial', output: '' } }, unanswered: true }] }, { text: 'done', calls: [] }] };
      const cm = new ContextManager({ format, budget: 10_000, vscode: fakeVscode });
      const [first] = providerTurns(session, format);
      cm.append(first.input);
      cm.append(first.response);
      const request = await cm.build();
      assert.deepEqual(PROBLEMS[format](request), [], format);
      assert.match(JSON.stringify(request.messages), /No result was recorded for this call/);
    }
  });
});

describe('ContextManager: bad input', () => {
  it('an unknown format is named, with the formats', () => {
    const error = thrown(() => new ContextManager({ format: 'bedrock', budget: 10_000 }));
    assertFieldError(error, TypeError, 'options.format');
    assert.match(error.message, /'anthropic', 'openai-chat', 'openai-responses', 'gemini', 'ai-sdk', 'vscode'/);
    assertFieldError(thrown(() => new ContextManager({ format: 3, budget: 10_000 })), TypeError, 'options.format');
    assertFieldError(thrown(() => new ContextManager({ format: 'vscode', budget: 10_000 })), TypeError, 'options.vscode');
  });

  it('a budget that cannot hold system, pinned and the summary reserve is a RangeError naming each size', () => {
    const error = thrown(() => new ContextManager({ format: 'anthropic', budget: 4_000, system: 'x '.repeat(3_000), pinned: ['y '.repeat(1_000)] }));
    assertFieldError(error, RangeError, 'options.budget');
    assert.match(error.message, /system prompt \(\d+ tokens\) and the pinned texts \(\d+ tokens\) with the summary's reserve \(400 tokens\)/);
    assertFieldError(thrown(() => new ContextManager({ format: 'anthropic', budget: 500 })), RangeError, 'options.budget');
  });

  it("a message that does not fit its format is named by index and field, and nothing is appended", async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 10_000 });
    cm.append({ role: 'user', content: 'hello' });
    const before = await cm.build();
    for (const [bad, field] of [
      [[{ role: 'user', content: 'ok' }, { role: 'tool', content: 'x' }], 'messages[1].role'],
      [[{ role: 'assistant' }], 'messages[0].content'],
      [[{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'nope', content: 'x' }] }], 'messages[0].content[0].tool_use_id'],
      [[{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'x' }] }], 'messages[0].content[0].tool_use_id'],
      [[{ role: 'user', content: [{ type: 42 }] }], 'messages[0].content[0].type'],
    ]) {
      assertFieldError(thrown(() => cm.append(bad)), TypeError, field);
    }
    const chat = new ContextManager({ format: 'openai-chat', budget: 10_000 });
    assertFieldError(thrown(() => chat.append({ role: 'assistant' })), TypeError, 'message.content');
    const after = await cm.build();
    assert.deepEqual(after.messages, before.messages, 'nothing was appended');
  });

  it('a summarizer that throws, hangs past its timeout, or answers over its cap falls back to the cut, with a warning', async () => {
    for (const [what, summarize, code] of [
      ['throws', () => { throw new Error('rate limited'); }, /summarizer-failed/],
      ['hangs', () => new Promise(() => {}), /summarizer-failed/],
      ['is too long', () => 'long '.repeat(5_000), /summary-over-cap/],
    ]) {
      const warnings = [];
      const cm = new ContextManager({ format: 'anthropic', budget: 4_000, countTokens: o200k, summarizer: summarize, summarizerTimeoutMs: 50, onWarning: (w) => warnings.push(w) });
      for (let t = 0; t < 60; t++) {
        cm.append({ role: 'user', content: `turn ${t}: ${'words '.repeat(60)}` });
        cm.append({ role: 'assistant', content: `answer ${t}: ${'more words '.repeat(30)}` });
        const { tokens } = await cm.build();
        assert.ok(tokens <= 4_000, what);
      }
      assert.ok(warnings.some((w) => code.test(w.code)), `${what}: ${warnings.map((w) => w.code).join(', ')}`);
      if (what === 'throws') assert.equal(warnings.find((w) => w.code === 'summarizer-failed').error.message, 'rate limited');
    }
  });

  it('a usage of the wrong shape is a TypeError naming the field, and the calibration is unchanged', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 10_000 });
    cm.append({ role: 'user', content: 'hello' });
    await cm.build();
    cm.recordUsage({ input_tokens: 100, cache_read_input_tokens: 20 });
    const calibration = cm.calibration;
    assertFieldError(thrown(() => cm.recordUsage({ prompt_tokens: 5 })), TypeError, 'usage.input_tokens');
    assertFieldError(thrown(() => cm.recordUsage({ input_tokens: -1 })), RangeError, 'usage.input_tokens');
    assertFieldError(thrown(() => cm.recordUsage(null)), TypeError, 'usage');
    assert.deepEqual(cm.calibration, calibration);
    assert.equal(cm.ledger.at(-1).cache.observedRead, 20);
  });

  it('an onLedger that throws fails the build with its error, and the next build is the same one', async () => {
    let fail = true;
    const boom = new Error('ledger file full');
    const cm = new ContextManager({ format: 'anthropic', budget: 10_000, onLedger: () => { if (fail) throw boom; } });
    cm.append({ role: 'user', content: 'hello' });
    assert.equal(await rejected(cm.build()), boom);
    assert.equal(cm.ledger.length, 0);
    fail = false;
    const ok = await cm.build();
    assert.equal(ok.ledger.request, 1);
  });

  it('use after free', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 10_000 });
    cm.free();
    assert.equal(thrown(() => cm.append({ role: 'user', content: 'x' })).code, 'ERR_USE_AFTER_FREE');
    assert.equal((await rejected(cm.build())).code, 'ERR_USE_AFTER_FREE');
  });
});
