// Issue 21, item 1: an AgentRunner with `bounded` gets snapshot() and restore(). Restored
// (through JSON) at a third and two thirds of each real session, the runner sends, turn
// after turn, byte for byte the prompts of the uninterrupted one, and asks its summarizer
// only for the summaries still to come. A snapshot that cannot be restored is refused
// naming the field, and a runner without `bounded` has none to give.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AgentRunner, ContextComposer, MemoryStateRepository, SummarizationHandoff } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { loadSession, originalSessionFiles } from './sessions.mjs';
import { assertFieldError, thrown } from './helpers.mjs';

const o200k = createTokenCounter('o200k_base');
const specs = [{ name: 'TAS', content: 'Rust core' }, { name: 'PRD', content: 'Stay on track' }];
const sessions = originalSessionFiles().flatMap((file) => [loadSession(file)].flat()).filter((s) => s.steps.length >= 12);

/** The options of a bounded runner over `steps` from step `from`; its prompts and summarizer calls go to `seen`. */
function options(steps, from, seen, store) {
  let k = from;
  return {
    agentId: 'replay', taskGoal: 'Fix the failing test', countTokens: o200k, thresholdTokens: 3_000,
    composer: new ContextComposer({ specs }), handoff: new SummarizationHandoff({ llmClient: { summarize: async () => 'S' } }),
    llm: {
      async complete({ prompt }) {
        seen.prompts.push(prompt);
        const step = steps[k++] ?? { text: 'done' };
        const response = step.envelope ? { text: step.text, envelope: step.envelope } : { text: step.text };
        // The provider counts a little more than we do.
        return { ...response, usage: { inputTokens: Math.round(o200k(prompt) * 1.05) + 30 } };
      },
    },
    bounded: { budget: 6_000, store, summarizer: async (p) => { seen.summaries.push(p); return `Earlier: ${p.length} characters.`; }, pinned: ['TAS: Rust core'] },
  };
}

/** A new store holding what `rows` held, with the same ids: the store as it was when the snapshot was taken. */
async function storeOf(rows) {
  const store = new MemoryStateRepository();
  for (const r of rows) await store.insertRawToolOutput({ toolName: r.toolName, rawContent: r.rawContent, byteSize: r.byteSize, turnAge: r.turnAge, capturedAt: r.capturedAt });
  return store;
}

async function turns(runner, steps, from) {
  for (let t = from; t < steps.length; t++) await runner.runTurn(steps[t].input);
}

describe('AgentRunner.restore(runner.snapshot())', () => {
  it('every later prompt is the uninterrupted runner\'s, and no summary is asked for twice', async () => {
    assert.ok(sessions.length >= 3, `${sessions.length} sessions`);
    for (const session of sessions) {
      const steps = session.steps;
      const store = new MemoryStateRepository();
      const whole = { prompts: [], summaries: [] };
      const runner = new AgentRunner(options(steps, 0, whole, store));
      const taken = new Map();
      const at = [Math.floor(steps.length / 3), Math.floor((2 * steps.length) / 3)];
      for (let t = 0; t < steps.length; t++) {
        await runner.runTurn(steps[t].input);
        if (at.includes(t + 1)) taken.set(t + 1, { json: JSON.stringify(runner.snapshot()), summaries: whole.summaries.length, rows: store.getRawToolOutputs() });
      }
      assert.ok(whole.summaries.length > 0, `${session.name}: the budget makes the runner summarize`);
      for (const [t, { json, summaries, rows }] of taken) {
        const again = { prompts: [], summaries: [] };
        const restored = AgentRunner.restore(JSON.parse(json), options(steps, t, again, await storeOf(rows)));
        assert.equal(restored.turnCount, t);
        await turns(restored, steps, t);
        assert.deepEqual(again.prompts, whole.prompts.slice(t), `${session.name}: every prompt after a restore at turn ${t}`);
        assert.deepEqual(again.summaries, whole.summaries.slice(summaries), `${session.name}: only the summaries still to come`);
        assert.equal(restored.accumulatedTokens, runner.accumulatedTokens, `${session.name}: the refresh monitor`);
        // The turns kept are the first runner's, their times too; later ones differ only in when they were made.
        const untimed = (list) => list.map(({ createdAt, ...t }) => (void createdAt, t));
        assert.deepEqual(untimed(restored.turns), untimed(runner.turns));
        const kept = JSON.parse(json).turns.length;
        assert.deepEqual(restored.turns.slice(0, kept), runner.turns.slice(0, kept));
      }
    }
  });

  it('refuses a snapshot that cannot be restored, naming the field; a runner without bounded has none', async () => {
    const steps = sessions[0].steps;
    const store = new MemoryStateRepository();
    const runner = new AgentRunner(options(steps, 0, { prompts: [], summaries: [] }, store));
    await turns(runner, steps.slice(0, 5), 0);
    const good = JSON.stringify(runner.snapshot());
    const restore = (edit) => thrown(() => {
      const snap = JSON.parse(good);
      edit(snap);
      AgentRunner.restore(snap, options(steps, 5, { prompts: [], summaries: [] }, store));
    });
    const newer = restore((s) => { s.version = 3; });
    assert.equal(newer.code, 'ERR_SNAPSHOT_VERSION');
    assert.match(newer.message, /snapshot\.version is 3, newer than this package's 2/);
    assertFieldError(restore((s) => { s.kind = 'manager'; }), TypeError, 'snapshot.kind');
    assertFieldError(restore((s) => { s.turns[0].content += '!'; }), TypeError, 'snapshot.check');
    assertFieldError(restore((s) => { delete s.plan; }), TypeError, 'snapshot.plan');
    // The bounded part is a manager's snapshot inside: an edit there fails the outer check first.
    assertFieldError(restore((s) => { s.bounded.summary = 'edited'; }), TypeError, 'snapshot.check');
    const plain = new AgentRunner({ agentId: 'a', taskGoal: 'g', llm: async () => ({ text: 'ok' }) });
    assertFieldError(thrown(() => plain.snapshot()), TypeError, 'options.bounded');
    const turn = runner.runTurn('more');
    assert.equal(thrown(() => runner.snapshot()).code, 'ERR_TURN_IN_FLIGHT');
    await turn;
  });
});
