// Issue 10: real sessions stay inside the budget. Each real session (fixtures/sessions) is replayed in
// its native format through an AgentRunner with `bounded`, with the exact o200k counter;
// every prompt is counted whole and checked against the budget.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AgentRunner, ContextComposer, ContextPruner, MemoryStateRepository, SummarizationHandoff, ToolOutputPruner, WindowComposer, createDefaultWindowBudget,
} from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { loadSession, originalSessionFiles } from './sessions.mjs';
import { assertFieldError, envelope, rejected, thrown } from './helpers.mjs';

const o200k = createTokenCounter('o200k_base');
const specs = [{ name: 'TAS', content: 'Rust core' }, { name: 'PRD', content: 'Stay on track' }];

/** A store that hands out ids and reads outputs back by them. */
function memoryStore() {
  const rows = new Map();
  return {
    rows,
    async insertRawToolOutput(entry) {
      const id = `raw-${rows.size + 1}`;
      rows.set(id, { ...entry });
      return id;
    },
    getRawToolOutput: (id) => rows.get(id),
  };
}

function boundedRunner({ steps, budget, store = memoryStore(), summarizer, counter = o200k, usage, extra = {} }) {
  let k = 0;
  const prompts = [];
  const llm = {
    async complete(request) {
      prompts.push(request);
      const step = steps[k++] ?? { text: 'done' };
      const response = step.envelope ? { text: step.text, envelope: step.envelope } : { text: step.text };
      if (usage) response.usage = { inputTokens: usage(request) };
      return response;
    },
  };
  const runner = new AgentRunner({
    agentId: 'replay', taskGoal: 'Fix the failing test', llm, countTokens: counter,
    composer: new ContextComposer({ specs }), handoff: new SummarizationHandoff({ llmClient: { summarize: async () => 'S' } }),
    bounded: { budget, store, summarizer, pinned: ['TAS: Rust core', 'PRD: Stay on track'] },
    ...extra,
  });
  return { runner, prompts, store };
}

const summarizerPrompts = [];
const summarizer = { summarize: async (prompt) => { summarizerPrompts.push(prompt); return `Earlier: ${prompt.length} characters of work, condensed.`; } };

/** Replays `steps` and checks every prompt; returns what happened. */
async function replay(steps, budget) {
  const { runner, prompts, store } = boundedRunner({ steps, budget, summarizer });
  const counts = { masked: 0, cut: 0, summarized: 0, dropped: 0, largest: 0 };
  for (const step of steps) {
    const result = await runner.runTurn(step.input);
    const { prompt, promptTokens } = prompts.at(-1);
    const whole = o200k(prompt);
    assert.ok(whole <= budget, `turn ${result.turnIndex}: the prompt is ${whole} tokens, over ${budget}`);
    assert.ok(promptTokens <= budget && promptTokens >= whole, `turn ${result.turnIndex}: promptTokens ${promptTokens} bounds the whole count ${whole}`);
    assert.equal(result.promptTokens, promptTokens);
    // No output without its call, and no call without its output or placeholder.
    assert.equal(prompt.split('\n## call ').length, prompt.split('\n## output of ').length, `turn ${result.turnIndex}: calls and outputs pair up`);
    const { ledger } = result;
    assert.equal(ledger.tokens, promptTokens, 'the ledger records the prompt that was sent');
    const sum = Object.values(ledger.sections).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - ledger.rawTokens) < 1e-6, 'the ledger adds up');
    for (const id of ledger.compaction?.masked ?? []) {
      assert.ok(store.rows.has(id), `masked ${id} is in the store`);
      counts.masked++;
    }
    counts.cut += ledger.cut;
    counts.summarized += ledger.compaction?.summarized ? 1 : 0;
    counts.dropped += ledger.compaction?.dropped ? 1 : 0;
    counts.largest = Math.max(counts.largest, promptTokens);
  }
  // Every stored text is one the session produced, byte for byte (an output, a message, a
  // call's arguments), or the manager's own: the transcript of turns folded away, a
  // listing of its index, or the runner's own user message (the specs re-injected), stored
  // before a fold takes it as every user text is (the working state names it by id).
  const produced = new Set(steps.flatMap((s) => [s.input, s.text, s.envelope?.observation.output, s.envelope && JSON.stringify(s.envelope.action.arguments)]));
  const own = { transcript: '[Transcript of messages ', index: '[Entries of the index of stored texts', user: '[SPEC REFRESH]\n' };
  for (const row of store.rows.values()) {
    if (row.toolName in own && row.rawContent.startsWith(own[row.toolName])) continue;
    assert.ok(produced.has(row.rawContent), 'a stored text is one the session produced, unchanged');
  }
  return { counts, runner };
}

describe('real sessions, replayed in their native formats, stay inside the budget', () => {
  const files = originalSessionFiles();
  for (const file of files) {
    for (const session of loadSession(file)) {
      it(`${session.name} at 20,000 tokens`, async () => {
        summarizerPrompts.length = 0;
        const { counts, runner } = await replay(session.steps, 20_000);
        assert.ok(counts.largest <= 20_000);
        // A session that passed the high water mark was compacted: its old outputs masked.
        if (counts.largest > 0.9 * 20_000 && session.steps.length > 30) assert.ok(counts.masked > 0, 'old outputs were masked');
        const cap = 0.4 * 20_000;
        for (const p of summarizerPrompts) assert.ok(o200k(p) <= cap, `a summarizer prompt of ${o200k(p)} tokens is over its cap ${cap}`);
        assert.equal(runner.ledgerJsonl().trim().split('\n').length, session.steps.length);
      });
    }
  }
});

describe('bounded runner', () => {
  it('keeps a ~1 MB single output inside the budget, head and tail, stored whole', async () => {
    const huge = `BEGIN ${'diff --git a/x b/x\n+line\n'.repeat(40_000)} END`;
    const steps = [
      { text: 'looking', envelope: envelope({ action: { tool_name: 'bash', arguments: { cmd: 'git diff' } }, observation: { status: 'success', output: huge } }) },
      { text: 'next' },
    ];
    const { runner, prompts, store } = boundedRunner({ steps, budget: 50_000 });
    await runner.runTurn('show me the diff');
    const second = await runner.runTurn('and now?');
    const { prompt } = prompts[1];
    assert.ok(o200k(prompt) <= 50_000);
    assert.ok(prompt.includes('BEGIN') && prompt.includes('END'), 'head and tail');
    assert.match(prompt, /characters cut; the whole output is stored as raw-1/);
    assert.equal(store.getRawToolOutput('raw-1').rawContent, huge, 'stored byte for byte');
    assert.equal(second.ledger.cut, 1, 'cut when first sent');
    assert.equal((await runner.runTurn('and then?')).ledger.cut, 0, 'and not again');
  });

  it('re-injects the specs every 10 turns at the tail of the conversation, leaving what was sent before it', async () => {
    const steps = Array.from({ length: 12 }, (_, i) => ({ text: `step ${i}` }));
    const { runner, prompts } = boundedRunner({ steps, budget: 50_000 });
    for (let t = 1; t <= 12; t++) await runner.runTurn(`input ${t}`);
    const conversation = (p) => p.prompt.slice(p.prompt.indexOf('# Conversation'), p.prompt.lastIndexOf('\n# Plan'));
    const refresh = (p) => conversation(p).split('[SPEC REFRESH]').length - 1;
    assert.deepEqual(prompts.map(refresh), [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1], 'once, on turn 10, and kept after');
    const tenth = conversation(prompts[9]);
    assert.ok(tenth.indexOf('[SPEC REFRESH]') > tenth.indexOf('input 10'), 'after the turn\'s input');
    assert.match(tenth, /Rust core/);
    assert.ok(conversation(prompts[9]).startsWith(conversation(prompts[8])), 'what was sent before is unchanged');
    assert.ok(conversation(prompts[10]).startsWith(tenth), 'and stays where it was');
  });

  it('hands the counter each text of a real session about once', async () => {
    const session = loadSession(originalSessionFiles().find((f) => f.includes('claude-code')))[0];
    let handed = 0;
    const counter = (text) => { handed += text.length; return o200k(text); };
    const { runner } = boundedRunner({ steps: session.steps, budget: 50_000, counter, extra: { composer: undefined, handoff: undefined } });
    for (const step of session.steps) await runner.runTurn(step.input);
    const text = session.steps.reduce((n, s) => n + (s.input?.length ?? 0) + (s.text?.length ?? 0)
      + (s.envelope ? JSON.stringify(s.envelope.action.arguments).length + s.envelope.observation.output.length : 0), 0);
    // The rest is the manager's own texts: placeholders, cuts, and a line per stored text for its index.
    assert.ok(handed <= 1.3 * text, `the counter was handed ${(handed / text).toFixed(2)}× the session's text`);
  });

  it('stores each output once when contextManagement shares its store, whichever stores it first', async () => {
    // 60 KB each: the seeds' pruner stores an output that size after 2 turns. The bound
    // stores 15,000 tokens of B when first sent (it is cut), 937 of dashes when it masks them.
    for (const [big, first] of [['B'.repeat(60_000), 'the bound'], ['-'.repeat(60_000), "the seeds' pruner"]]) {
      const budget = createDefaultWindowBudget(20_000);
      const context = { turns: [], goal: 'g', map: '', plan: '', tas: 't', currentObservation: '', envelopes: [], pendingToolOutputs: [], budget };
      const store = new MemoryStateRepository();
      let n = 0;
      const prompts = [];
      const runner = new AgentRunner({
        agentId: 'a', taskGoal: 'g', countTokens: o200k,
        llm: async ({ prompt }) => { prompts.push(prompt); n++; return { text: `t${n}`, envelope: envelope({ action: { tool_name: 'cat', arguments: { n } }, observation: { status: 'success', output: n === 1 ? big : `small ${n} `.repeat(500) } }) }; },
        contextManagement: { context, deps: { composer: new WindowComposer(budget), pruner: new ContextPruner({ summarize: async () => 'S' }), toolOutputPruner: new ToolOutputPruner(), stateRepository: store } },
        bounded: { summarizer: async () => 'S' },
      });
      for (let t = 0; t < 30; t++) await runner.runTurn(`go ${t}`);
      const rows = store.getRawToolOutputs().filter((r) => r.rawContent === big);
      assert.equal(rows.length, 1, `stored first by ${first}: once`);
      assert.ok(prompts.some((p) => p.includes(`stored as ${rows[0].id}`)), `stored first by ${first}: the bound names it by that id`);
      const all = store.getRawToolOutputs();
      assert.equal(new Set(all.map((r) => r.rawContent)).size, all.length, 'no output is stored twice');
    }
  });

  it('names ids in the ledger even when the store cannot read them back', async () => {
    const steps = Array.from({ length: 30 }, (_, i) => ({ text: `t${i}`, envelope: envelope({ turn_index: i, observation: { status: 'success', output: `out ${i} `.repeat(600) } }) }));
    const ids = [];
    const store = { insertRawToolOutput: async () => { ids.push(`id-${ids.length}`); return ids.at(-1); } };
    const { runner } = boundedRunner({ steps, budget: 10_000, store });
    let masked = [];
    for (const step of steps) masked = masked.concat((await runner.runTurn(step.input)).ledger.compaction?.masked ?? []);
    assert.ok(masked.length > 0);
    assert.ok(masked.every((id) => ids.includes(id)));
  });

  it('calibrates to the provider: promptTokens is what the provider will count', async () => {
    const steps = Array.from({ length: 20 }, (_, i) => ({ text: 'x '.repeat(300 + 50 * i) }));
    const { runner, prompts } = boundedRunner({ steps, budget: 100_000, usage: (r) => Math.round(400 + 1.25 * o200k(r.prompt)) });
    for (const step of steps) await runner.runTurn(step.input);
    const c = runner.calibration;
    assert.ok(c.samples === 20 && c.ratio > 1.15 && c.ratio < 1.35, JSON.stringify(c));
    const last = prompts.at(-1);
    const provider = 400 + 1.25 * o200k(last.prompt);
    assert.ok(Math.abs(last.promptTokens - provider) / provider < 0.05, `${last.promptTokens} vs ${provider}`);
  });

  it('refuses a usage that is not a count, naming usage.inputTokens', async () => {
    for (const [bad, type] of [[-1, RangeError], [NaN, RangeError], ['12', TypeError]]) {
      const steps = [{ text: 'a' }];
      const { runner } = boundedRunner({ steps, budget: 10_000, usage: () => bad });
      const error = await rejected(runner.runTurn('go'));
      assertFieldError(error, type, 'llm.complete().usage.inputTokens');
      assert.equal(runner.turnCount, 0);
    }
  });

  it('reads keepFirstMessage, as BoundedOptions declares it: a value not a boolean is a TypeError naming it', () => {
    assertFieldError(thrown(() => boundedRunner({ steps: [], budget: 10_000, extra: { bounded: { budget: 10_000, keepFirstMessage: 'yes' } } })), TypeError, 'options.bounded.keepFirstMessage');
    assert.doesNotThrow(() => boundedRunner({ steps: [], budget: 10_000, extra: { bounded: { budget: 10_000, keepFirstMessage: false } } }));
  });

  it('refuses at construction a budget too small for the pinned content', () => {
    const error = thrown(() => boundedRunner({ steps: [], budget: 1_000, extra: { bounded: { budget: 1_000, pinned: ['p'.repeat(4_000)] } } }));
    assertFieldError(error, RangeError, 'options.bounded.budget');
    assert.match(error.message, /the pinned texts \(\d+ tokens\)/);
  });

  it('falls back to the cut, with a warning, when the summary is over its cap', async () => {
    const steps = Array.from({ length: 40 }, () => ({ text: 'words '.repeat(400) }));
    const long = { summarize: async () => 'long '.repeat(5_000) };
    const { runner } = boundedRunner({ steps, budget: 8_000, summarizer: long });
    const warnings = [];
    for (const step of steps) warnings.push(...(await runner.runTurn(step.input)).ledger.warnings);
    assert.ok(warnings.some((w) => w.code === 'summary-over-cap' && /over its cap/.test(w.message)), JSON.stringify(warnings));
  });

  it("refreshOn: 'context' counts every token entering the context toward the 800k refresh", async () => {
    const output = 'lorem ipsum dolor sit amet, '.repeat(160);
    const steps = Array.from({ length: 6 }, (_, i) => ({ text: 'ok', envelope: envelope({ turn_index: i, observation: { status: 'success', output } }) }));
    const seed = boundedRunner({ steps, budget: 100_000, extra: { thresholdTokens: 1_500 } });
    const context = boundedRunner({ steps, budget: 100_000, extra: { thresholdTokens: 1_500, refreshOn: 'context' } });
    const refreshes = async ({ runner }) => {
      let n = 0;
      for (const step of steps) if ((await runner.runTurn(step.input)).contextRefresh) n++;
      return n;
    };
    assert.equal(await refreshes(seed), 0, 'the seed wiring counts only the response text');
    assert.ok(await refreshes(context) >= 2);
    assertFieldError(thrown(() => boundedRunner({ steps, budget: 100_000, extra: { refreshOn: 'everything' } })), RangeError, 'options.refreshOn');
  });

  it('a failed turn leaves the bounded history as it was', async () => {
    const steps = Array.from({ length: 10 }, (_, i) => ({ text: `t${i}`, envelope: envelope({ turn_index: i, observation: { status: 'success', output: 'z'.repeat(3_000) } }) }));
    let fail = false;
    const { runner, prompts } = boundedRunner({ steps, budget: 6_000, usage: () => (fail ? -5 : 100) });
    for (let i = 0; i < 8; i++) await runner.runTurn(`step ${i}`);
    fail = true;
    await rejected(runner.runTurn('step 8'));
    fail = false;
    const before = prompts.at(-1).prompt;
    await runner.runTurn('step 8');
    assert.equal(prompts.at(-1).prompt, before, 'the retry sends what the failed turn sent');
  });
});

// Issue 18: the defaults work, the calibration can never wedge a session, and a failing
// summarizer is visible.
describe('bounded runner: defaults, calibration and failures a host can see', () => {
  const toolSteps = (n, size = 2_000) => Array.from({ length: n }, (_, i) => ({
    text: `step ${i}`,
    envelope: envelope({ turn_index: i, observation: { status: 'success', output: `${i} `.repeat(size / 2) } }),
  }));

  it('a minimal bounded runner needs only agentId, taskGoal and llm', async () => {
    let k = 0;
    const steps = toolSteps(30, 4_000);
    const runner = new AgentRunner({ agentId: 'a', taskGoal: 'g', llm: async () => steps[k++], bounded: { budget: 20_000 }, thresholdTokens: 5_000 });
    for (let i = 0; i < steps.length; i++) {
      const turn = await runner.runTurn(`go ${i}`);
      assert.ok(turn.promptTokens <= 20_000);
      assert.equal(turn.contextRefresh, null, 'no handoff given: a refresh re-injects nothing');
    }
    assert.equal(runner.turnCount, 30);
  });

  it('masks old outputs with no store given: they are kept in memory and read back by id', async () => {
    const steps = toolSteps(14);
    const runner = new AgentRunner({
      agentId: 'a', taskGoal: 'g', countTokens: o200k, llm: (() => { let k = 0; return { complete: async () => steps[k++] }; })(),
      composer: new ContextComposer({ specs }), handoff: new SummarizationHandoff({ llmClient: async () => 'S' }),
      bounded: { budget: 20_000 },
    });
    let masked = 0;
    const warnings = [];
    for (let i = 0; i < steps.length; i++) {
      const { ledger } = await runner.runTurn(`go ${i}`);
      masked += ledger.compaction?.masked.length ?? 0;
      warnings.push(...ledger.warnings);
    }
    assert.ok(masked >= 7, `${masked} outputs masked`);
    assert.deepEqual(warnings, []);
  });

  it("follows a host overhead that grows from 5k to 30k mid-session, and never wedges", async () => {
    const steps = toolSteps(160, 600);
    let overhead = 5_000;
    let turn = 0;
    const reported = [];
    const { runner, prompts } = boundedRunner({
      steps, budget: 50_000,
      usage: (r) => { const n = overhead + o200k(r.prompt); reported.push({ turn: ++turn, n, promptTokens: r.promptTokens }); return n; },
    });
    for (let i = 0; i < steps.length; i++) {
      if (i === 80) overhead = 30_000;
      await runner.runTurn(`go ${i}`);
    }
    assert.equal(prompts.length, 160);
    const late = reported.filter((r) => r.turn > 82);
    assert.ok(late.every((r) => r.n <= 50_000 * 1.01), `the provider counted ${Math.max(...late.map((r) => r.n))}`);
    assert.ok(late.every((r) => r.promptTokens >= r.n * 0.99), 'promptTokens is what the provider counts');
    const c = runner.calibration;
    // Our count of a prompt is its parts plus framing, a little over a count of the whole: the ratio is a little under 1.
    assert.ok(c.ratio > 0.8 && c.ratio <= 1.05 && c.overhead > 28_000 && c.overhead < 34_000, JSON.stringify(c));
  });

  it('sets aside a usage that would leave the conversation no room, with a warning, and never throws; resetCalibration() and calibrate: false recover', async () => {
    const steps = toolSteps(30, 400);
    let overhead = 2_000;
    const { runner } = boundedRunner({ steps, budget: 50_000, usage: (r) => overhead + o200k(r.prompt) });
    for (let i = 0; i < 10; i++) await runner.runTurn(`go ${i}`);
    const before = runner.calibration;
    // 45,000 tokens of the host's own every request: no conversation would fit, so no report of it is learned from.
    overhead = 45_000;
    await runner.runTurn('go 10');
    const next = await runner.runTurn('go 11');
    assert.equal(next.turnIndex, 12, 'the next turn runs');
    assert.ok(next.ledger.warnings.some((w) => w.code === 'usage-set-aside'), JSON.stringify(next.ledger.warnings));
    assert.deepEqual(runner.calibration, before, 'the calibration stays what it was');
    assert.equal((await runner.runTurn('go 12')).turnIndex, 13);
    runner.resetCalibration();
    overhead = 2_000;
    assert.equal((await runner.runTurn('go 13')).turnIndex, 14);

    overhead = 45_000;
    const fixed = new AgentRunner({ agentId: 'b', taskGoal: 'g', countTokens: o200k,
      llm: { complete: async (r) => ({ text: 'ok', usage: { inputTokens: overhead + o200k(r.prompt) } }) },
      composer: new ContextComposer({ specs }), handoff: new SummarizationHandoff({ llmClient: async () => 'S' }),
      bounded: { budget: 50_000, calibrate: false } });
    for (let i = 0; i < 5; i++) await fixed.runTurn(`go ${i}`);
    assert.deepEqual(fixed.calibration, { overhead: 0, ratio: 1, mediaRatio: 1, samples: 0 });
    assertFieldError(thrown(() => boundedRunner({ steps, budget: 50_000, extra: { bounded: { calibrate: 'no' } } })), TypeError, 'options.bounded.calibrate');
  });

  for (const [what, summarize, words] of [
    ['throws', async () => { throw new Error('rate limited'); }, /the summarizer failed.*\(Error: rate limited\)/],
    ["returns ''", async () => '', /the summarizer failed.*\(TypeError: summarizer\.summarize\(\) returned an empty text\)/],
    ['returns 42', async () => 42, /the summarizer failed.*\(TypeError: summarizer\.summarize\(\) must be a string, got the number 42\)/],
  ]) {
    it(`a summarizer that ${what}: the turn falls back to the cut, and the warning carries the error`, async () => {
      const steps = Array.from({ length: 40 }, () => ({ text: 'words '.repeat(400) }));
      const seen = [];
      const { runner } = boundedRunner({ steps, budget: 8_000, summarizer: { summarize }, extra: {} });
      const withWarning = new AgentRunner({
        agentId: 'w', taskGoal: 'g', countTokens: o200k,
        llm: (() => { let k = 0; return { complete: async () => steps[k++] ?? { text: 'done' } }; })(),
        composer: new ContextComposer({ specs }), handoff: new SummarizationHandoff({ llmClient: async () => 'S' }),
        bounded: { budget: 8_000, summarizer: summarize, onWarning: (w) => seen.push(w) },
      });
      const warnings = [];
      for (let i = 0; i < steps.length; i++) {
        warnings.push(...(await withWarning.runTurn(`turn ${i}`)).ledger.warnings.map((w) => w.message));
        await runner.runTurn(`turn ${i}`);
      }
      assert.ok(warnings.some((w) => words.test(w)), warnings.join('; '));
      const failed = seen.filter((w) => /summarizer failed/.test(w.message));
      assert.ok(failed.length > 0);
      assert.ok(failed.every((w) => w.error !== undefined && typeof w.request === 'number' && words.test(w.message)));
      if (what === 'throws') assert.equal(failed[0].error.message, 'rate limited');
    });
  }
});

it('bounded callbacks and flags of the wrong type are TypeErrors naming them', () => {
  for (const [key, bad] of [['onLedger', 'log'], ['onWarning', 42], ['calibrate', 'no'], ['calibrate', 1]]) {
    const error = thrown(() => boundedRunner({ steps: [], budget: 50_000, extra: { bounded: { [key]: bad } } }));
    assertFieldError(error, TypeError, `options.bounded.${key}`);
  }
});

it('an onLedger or onWarning that throws rejects the turn with its error and undoes it', async () => {
  for (const key of ['onLedger', 'onWarning']) {
    const boom = new Error(`${key} broke`);
    let fail = false;
    const steps = Array.from({ length: 40 }, () => ({ text: 'words '.repeat(400) }));
    const listener = () => { if (fail) throw boom; };
    const r = new AgentRunner({
      agentId: 'l', taskGoal: 'g', countTokens: o200k,
      llm: (() => { let k = 0; return { complete: async () => steps[k++] ?? { text: 'x' } }; })(),
      bounded: { budget: 8_000, summarizer: async () => { throw new Error('down'); }, [key]: listener },
    });
    let turn = 0;
    // Run until a turn has a warning (the summarizer fails once the prompt must shrink).
    for (; turn < 30; turn++) {
      const { ledger } = await r.runTurn(`t${turn}`);
      if (ledger.warnings.length) break;
    }
    fail = true;
    const before = { turns: r.turnCount, ledger: r.ledger.length };
    let error;
    for (let i = 0; i < 40 && !error; i++) {
      try {
        await r.runTurn(`more ${i}`);
      } catch (e) {
        error = e;
      }
    }
    assert.equal(error, boom, key);
    assert.ok(r.ledger.length === r.turnCount, 'the ledger holds committed turns only');
    fail = false;
    await r.runTurn('retry');
    assert.ok(r.turnCount > before.turns);
  }
});
