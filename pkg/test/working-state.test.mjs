// Issue 49 item 4: the working state, a section the engine writes after the summary at each
// compaction (never the summarizer): the user's own words, the file trail, the open calls.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager } from '@devs/context';
import { assertFieldError } from './helpers.mjs';

const REMINDER = '<system-reminder>\nThe todo list is empty. Do not mention this to the user.\n</system-reminder>';
// 30 files, each edited again and again.
const edit = (t) => JSON.stringify({ file_path: `src/module${t % 30}.ts`, old_string: 'a', new_string: 'b' });

/** An Anthropic-format agent loop at `budget`: a user rule every 5 steps, an Edit call each step, every request checked. */
async function loop(options, { steps = 150, budget = 10_000, check } = {}) {
  const manager = new ContextManager({ format: 'anthropic', budget, ...options });
  await manager.append({ role: 'user', content: 'Refactor the parser modules.' });
  const requests = [];
  for (let t = 0; t < steps; t++) {
    if (t % 5 === 0) await manager.append({ role: 'user', content: [{ type: 'text', text: `${REMINDER}\nRule ${t}: keep module ${t} backwards compatible.` }] });
    await manager.append([
      { role: 'assistant', content: [{ type: 'text', text: `Editing module ${t}.` }, { type: 'tool_use', id: `e${t}`, name: 'Edit', input: JSON.parse(edit(t)) }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `e${t}`, content: `edited module ${t}\n${'diff line\n'.repeat(20)}` }] },
    ]);
    const built = await manager.build();
    const request = JSON.stringify(built);
    requests.push(request);
    assert.ok(built.tokens <= budget, `step ${t}: ${built.tokens} tokens over the budget`);
    check?.(request, manager, t);
  }
  const state = manager.workingState;
  manager.free();
  return { requests, state };
}

describe('the working state', () => {
  it("states the user's words, newest first, without the harness's text, and every path edited", async () => {
    const prompts = [];
    const events = [];
    const { requests, state } = await loop({ summarizer: async (prompt) => { prompts.push(prompt); return 'The agent edits the modules.'; }, onCompaction: (e) => events.push(e) });
    // The compaction event (and its span) carries the section the compaction wrote.
    assert.equal(events.filter((e) => e.actions.summarized).at(-1).workingState, state);
    assert.ok(prompts.length >= 2, `${prompts.length} summaries`);
    assert.ok(state.startsWith('<working-state>') && state.endsWith('</working-state>'), state);
    const last = requests.at(-1);
    assert.ok(last.includes(JSON.stringify(state).slice(1, -1)), 'the request shows the working state as the host reads it');
    // Every rule is live or stated; the stated ones newest first, without the reminder.
    for (let t = 0; t < 150; t += 5) assert.ok(last.includes(`Rule ${t}: keep module ${t} backwards compatible.`), `rule ${t}`);
    const rules = [...state.matchAll(/Rule (\d+):/g)].map((m) => Number(m[1]));
    assert.ok(rules.length >= 3, state);
    for (let i = 1; i < rules.length; i++) assert.ok(rules[i] < rules[i - 1], 'newest first');
    assert.ok(!state.includes('todo list is empty'));
    // Every module edited is in the request: in the trail, or in a live call.
    for (let t = 0; t < 30; t++) assert.ok(last.includes(`src/module${t}.ts`), `module ${t}`);
    assert.match(state, /"src\/module\d+\.ts": edited\n/);
    // The summarizer is told of the section, and never given it.
    for (const p of prompts) {
      assert.ok(p.includes('a section of its own after the summary'), 'the summarizer is told');
      assert.ok(!p.includes('<working-state>'), 'the summarizer never sees it');
    }
  });

  it('changes only at a compaction, and is absent before the first one', async () => {
    let before = 0;
    const seen = new Set();
    await loop({ summarizer: async () => 'summary' }, {
      check: (request, manager) => {
        if (manager.workingState === '') {
          assert.ok(!request.includes('<working-state>'));
          before++;
        }
        seen.add(manager.workingState);
      },
    });
    assert.ok(before > 0, 'some requests came before the first compaction');
    const compactions = (await (async () => {
      let n = 0;
      await loop({ summarizer: async () => 'summary', onCompaction: () => n++ });
      return n;
    })());
    // One state before the first compaction, then at most one per compaction.
    assert.ok(seen.size <= compactions + 1, `${seen.size} states, ${compactions} compactions`);
  });

  it('keeps the user words and the trail without a summarizer, where the turns were dropped before', async () => {
    const { requests, state } = await loop({});
    assert.ok(state.includes('Rule 0: keep module 0 backwards compatible.') || state.includes('"Rule 0: keep module 0 backwards compatible." (message'), state);
    assert.ok(requests.at(-1).includes('src/module0.ts'));
  });

  it("reads a host's own edit tools and harness text, and shell moves only when asked", async () => {
    const manager = new ContextManager({
      format: 'openai-chat',
      budget: 6_000,
      summarizer: async () => 'summary',
      workingState: { editTools: ['save_doc'], shellCommands: true, injected: (text) => text.startsWith('[hook]') },
    });
    await manager.append({ role: 'user', content: 'Write the docs.' });
    for (let t = 0; t < 30; t++) {
      await manager.append([
        { role: 'user', content: t % 2 ? `[hook] step ${t}` : `Please keep doc ${t} short.` },
        {
          role: 'assistant', content: null, tool_calls: [
            { id: `s${t}`, type: 'function', function: { name: 'save_doc', arguments: JSON.stringify({ path: `docs/d${t}.md`, text: 'x' }) } },
            { id: `b${t}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `mv tmp${t}.md old${t}.md` }) } },
          ],
        },
        { role: 'tool', tool_call_id: `s${t}`, content: `saved ${'.'.repeat(600)}` },
        { role: 'tool', tool_call_id: `b${t}`, content: 'ok' },
      ]);
      await manager.build();
    }
    const state = manager.workingState;
    manager.free();
    assert.match(state, /"docs\/d\d+\.md": edited/);
    assert.match(state, /"tmp(\d+)\.md": moved to "old\1\.md"/);
    assert.ok(state.includes('Please keep doc 0 short.'));
    assert.ok(!state.includes('[hook]'), state);
  });

  it('lists a call still open when the compaction runs', async () => {
    const manager = new ContextManager({ format: 'openai-chat', budget: 5_000, summarizer: async () => 'summary' });
    await manager.append({ role: 'user', content: 'Start.' });
    // Outputs too short to mask: the compaction has to fold turns.
    for (let t = 0; t < 120; t++) {
      await manager.append([
        { role: 'assistant', content: null, tool_calls: [{ id: `r${t}`, type: 'function', function: { name: 'read', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: `r${t}`, content: `line ${t}\n`.repeat(10) },
      ]);
      await manager.build();
    }
    await manager.append({ role: 'assistant', content: null, tool_calls: [{ id: 'agent1', type: 'function', function: { name: 'subagent', arguments: '{}' } }] });
    manager.compact();
    await manager.build();
    assert.ok(manager.workingState.includes('- subagent (agent1): no result yet'), manager.workingState);
    manager.free();
  });

  it('refuses bad options, naming the field', () => {
    assert.throws(() => new ContextManager({ format: 'anthropic', budget: 8_000, userWordsShare: 0.9 }), (e) => (assertFieldError(e, RangeError, 'options.userWordsShare'), true));
    assert.throws(() => new ContextManager({ format: 'anthropic', budget: 8_000, workingState: { editTools: 'Edit' } }), (e) => (assertFieldError(e, TypeError, 'options.workingState.editTools'), true));
    assert.throws(() => new ContextManager({ format: 'anthropic', budget: 8_000, workingState: { injected: 3 } }), (e) => (assertFieldError(e, TypeError, 'options.workingState.injected'), true));
  });
});
