// Issue 49 item 4, what was left of it: the user's older words named by their first line and
// a store id the recall tool answers with the whole text; a failed summarizer's turns keep
// their user words; a compaction that only masks writes the working state too; the working
// state goes on after the provider's own compaction (an Anthropic `compaction` block, a
// Responses `compaction` item); and a provider's compaction with nothing to restate leaves
// no old summary for the next one of ours.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { PROBLEMS } from './validity.mjs';

// A rule the user gives, long enough that a few of them pass their share of a small budget.
const rule = (t) => `Rule ${t}: keep module ${t} backwards compatible.\n${`Module ${t} is imported by the plugins, so its exports stay as they are. `.repeat(8)}`;
const edit = (t) => ({ file_path: `src/module${t % 30}.ts`, old_string: 'a', new_string: 'b' });
const diff = (t) => `edited module ${t}\n${'diff line\n'.repeat(40)}`;

/** An Anthropic agent loop at `budget`: a user rule every 4 steps, an Edit call each step; every request checked. */
async function loop(options, { steps = 120, budget = 12_000, check } = {}) {
  const warnings = [];
  const cm = new ContextManager({ format: 'anthropic', budget, store: new MemoryStateRepository(), onWarning: (w) => warnings.push(w), ...options });
  cm.append({ role: 'user', content: 'Refactor the parser modules.' });
  const said = [];
  let last;
  for (let t = 0; t < steps; t++) {
    if (t % 4 === 0) {
      said.push(rule(t));
      cm.append({ role: 'user', content: [{ type: 'text', text: rule(t) }] });
    }
    cm.append([
      { role: 'assistant', content: [{ type: 'text', text: `Editing module ${t}.` }, { type: 'tool_use', id: `e${t}`, name: 'Edit', input: edit(t) }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `e${t}`, content: diff(t) }] },
    ]);
    last = await cm.build();
    assert.ok(last.tokens <= budget, `step ${t}: ${last.tokens} tokens over the budget`);
    assert.deepEqual(PROBLEMS.anthropic(last), [], `step ${t}`);
    check?.(last, cm, t);
  }
  return { cm, said, last, warnings };
}

/** The store ids the working state names its older words by, with the first line each names. */
const named = (state) => [...state.matchAll(/^- "(.*)" \(stored as ([^)\s]+)\)$/gm)].map((m) => ({ line: m[1], id: m[2] }));

/** Of the user's messages, those neither verbatim in the request nor named there by a store id whose text holds them. */
async function lost(cm, said, request) {
  const text = JSON.stringify(request);
  const state = cm.workingState;
  const out = [];
  for (const s of said.map((w) => w.trim())) {
    if (text.includes(JSON.stringify(s).slice(1, -1))) continue;
    const first = s.split('\n')[0];
    const entry = named(state).find((n) => first.startsWith(n.line.replace(/…$/, '')));
    if (!entry || !(await cm.recall(entry.id)).includes(s)) out.push(first);
  }
  return out;
}

describe("the user's older words, by store id", () => {
  it('names each older message by its first line and a store id whose recall gives it whole', async () => {
    const { cm, said, last } = await loop({ summarizer: async () => 'The agent edits the modules.', userWordsShare: 0.05 });
    const state = cm.workingState;
    const entries = named(state);
    assert.ok(entries.length >= 3, `older words named by store id:\n${state}`);
    for (const { line, id } of entries) {
      const text = await cm.recall(id);
      const whole = said.find((s) => s.startsWith(line.replace(/…$/, '')));
      assert.ok(whole, `"${line}" is the first line of a message the user wrote`);
      assert.ok(text.includes(whole), `recall(${id}) gives "${line}" whole`);
    }
    assert.deepEqual(await lost(cm, said, last), []);
    cm.free();
  });
});

describe('a failed summarizer', () => {
  it("keeps its turns' user words in the working state, and says it failed", async () => {
    const { cm, said, last, warnings } = await loop({ summarizer: async () => { throw new Error('summarizer down'); } });
    assert.ok(warnings.some((w) => w.code === 'summarizer-failed'), 'the failure is warned');
    assert.ok(!warnings.some((w) => w.code === 'user-text-dropped'), warnings.map((w) => w.code).join(', '));
    assert.match(cm.workingState, /Rule \d+: keep module/);
    assert.deepEqual(await lost(cm, said, last), []);
    cm.free();
  });
});

describe('a compaction that only masks', () => {
  it('writes the working state anew, and the state changes at compactions alone', async () => {
    const events = [];
    // Large outputs: once a summary holds the state, masking alone brings most compactions down.
    const big = (t) => `edited module ${t}\n${'diff line of the module\n'.repeat(300)}`;
    const cm = new ContextManager({ format: 'anthropic', budget: 20_000, store: new MemoryStateRepository(), summarizer: async () => 'The agent edits the modules.', onCompaction: (e) => events.push(e) });
    cm.append({ role: 'user', content: 'Refactor the parser modules.' });
    let state = '';
    let changes = 0;
    for (let t = 0; t < 150; t++) {
      if (t % 10 === 0) cm.append({ role: 'user', content: `Rule ${t}: keep module ${t} backwards compatible.` });
      cm.append([
        { role: 'assistant', content: [{ type: 'text', text: `Editing module ${t}.` }, { type: 'tool_use', id: `e${t}`, name: 'Edit', input: { file_path: `src/step${t}.ts`, old_string: 'a', new_string: 'b' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `e${t}`, content: big(t) }] },
      ]);
      const n = events.length;
      const r = await cm.build();
      assert.ok(r.tokens <= 20_000);
      assert.deepEqual(PROBLEMS.anthropic(r), [], `step ${t}`);
      if (cm.workingState !== state) {
        changes++;
        assert.ok(events.length > n, `step ${t}: the working state changed without a compaction`);
        state = cm.workingState;
        assert.ok(JSON.stringify(r).includes(JSON.stringify(state).slice(1, -1)), `step ${t}: the request holds it`);
      }
    }
    const summarized = events.findIndex((e) => e.actions.summarized);
    const masking = events.slice(summarized + 1).filter((e) => !e.actions.summarized && !e.actions.dropped && e.actions.masked > 0);
    assert.ok(summarized >= 0 && masking.length >= 2, `${events.length} compactions, ${masking.length} that only masked after the first summary`);
    // Each wrote the trail up to its own request: the newest path edited before it is in it.
    for (const e of masking) assert.ok(e.workingState.includes(`"src/step${e.request - 1}.ts": edited`), `request ${e.request}:\n${e.workingState}`);
    assert.ok(changes >= masking.length);
    const last = masking.at(-1);
    assert.notEqual(last.workingState, events[summarized].workingState, 'a compaction that only masked wrote the state anew');
    cm.free();
  });
});

// The provider's compaction, after 14 steps: everything before it is read by the provider no more.
const FORMATS = {
  'anthropic (compaction block)': {
    format: 'anthropic',
    user: (text) => ({ role: 'user', content: text }),
    step: (t, output) => [
      { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'Edit', input: edit(t) }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: output }] },
    ],
    compaction: () => [{ role: 'assistant', content: [{ type: 'compaction', content: 'Summary: the parser fails on empty headers.', encrypted_content: `Ez${'k'.repeat(400)}` }, { type: 'text', text: 'Continuing.' }] }],
    after: (r) => r.messages.findIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'compaction')),
  },
  'openai-responses (compaction item)': {
    format: 'openai-responses',
    user: (text) => ({ role: 'user', content: text }),
    step: (t, output) => [
      { type: 'function_call', call_id: `c${t}`, name: 'Edit', arguments: JSON.stringify(edit(t)) },
      { type: 'function_call_output', call_id: `c${t}`, output },
    ],
    compaction: () => [{ type: 'compaction', id: 'cmp_1', encrypted_content: `gAAAA${'x'.repeat(600)}` }],
    after: (r) => r.messages.findIndex((m) => m.type === 'compaction'),
  },
};

describe("the working state through the provider's compaction", () => {
  for (const [name, f] of Object.entries(FORMATS)) {
    it(`${name}: every later request holds it after the compaction, with the user's words and paths that left`, async () => {
      const cm = new ContextManager({ format: f.format, budget: 30_000, store: new MemoryStateRepository(), summarizer: async () => 'Summary.' });
      cm.append(f.user('Fix the failing parser test.'));
      let checked = 0;
      for (let t = 0; t < 30; t++) {
        if (t === 3) cm.append(f.user("Don't touch the migrations; use pnpm."));
        if (t === 14) cm.append([...f.compaction(), f.user('go on')]);
        else cm.append(f.step(t, diff(t)));
        const r = await cm.build();
        assert.ok(r.tokens <= 30_000);
        assert.deepEqual(PROBLEMS[f.format](r), [], `request ${t}`);
        const at = f.after(r);
        if (t < 14) continue;
        assert.ok(at >= 0, `request ${t} holds the compaction`);
        // What the provider reads: from its compaction on.
        const read = JSON.stringify(r.messages.slice(at));
        assert.ok(read.includes('<working-state>'), `request ${t}: the working state after the compaction`);
        assert.ok(read.includes("Don't touch the migrations; use pnpm."), `request ${t}: the user's words`);
        assert.ok(read.includes('src/module1.ts'), `request ${t}: the file trail`);
        checked++;
      }
      assert.equal(checked, 16);
      cm.free();
    });
  }

  it('leaves no old summary behind when it has nothing to restate', async () => {
    // Our first summary; then the provider compacts, and what left holds nothing to keep;
    // then the summarizer fails, and the turns it was given fold into the summary so far,
    // which is none: the old summary's text is not brought back.
    let calls = 0;
    let provider = false;
    const warnings = [];
    const summarizer = async () => {
      calls++;
      if (provider) throw new Error('summarizer down');
      return 'SUMMARY ONE of the reads.';
    };
    const cm = new ContextManager({ format: 'anthropic', budget: 12_000, store: new MemoryStateRepository(), summarizer, onWarning: (w) => warnings.push(w.code) });
    cm.append({ role: 'user', content: 'Fix the failing parser test.' });
    // Reads with short outputs: masking takes little, so our compactions summarize.
    const read = (t) => [
      { role: 'assistant', content: [{ type: 'text', text: `Now I read log ${t} to see which parser section fails and why it fails there.` }, { type: 'tool_use', id: `r${t}`, name: 'Read', input: { path: `log${t}` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `r${t}`, content: `log ${t}: ok` }] },
    ];
    let after = 0;
    let before = 0;
    for (let t = 0; t < 1_000 && !(provider && calls > before); t++) {
      if (!provider && calls > 0) {
        before = calls;
        provider = true;
        cm.append([...FORMATS['anthropic (compaction block)'].compaction(), { role: 'user', content: 'go on' }]);
      }
      cm.append(read(t));
      const r = await cm.build();
      if (!provider) continue;
      after++;
      assert.ok(!JSON.stringify(r).includes('SUMMARY ONE'), `request ${t}, after the provider's compaction, holds no summary of ours from before it`);
    }
    assert.ok(provider && calls > before && after > 0, `${calls} summarizer calls, ${after} requests after the provider's compaction`);
    assert.ok(warnings.includes('summarizer-failed'));
    cm.free();
  });
});
