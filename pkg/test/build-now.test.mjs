// The request's time from the host (issue 50, item 3): `build({ now })`, journaled, so a
// restored manager or a reopened session decides the same; `pauseCompactAt` compacts at the
// first request after a pause longer than `cacheTtlMs`, by masking, before the high water
// mark; without a time nothing changes; a bad time is a RangeError naming `options.now`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { createTokenCounter } from '@devs/context/tokenizers';
import { parseTranscript, providerTurns } from '@devs/context/replay';
import { assertFieldError, rejected } from './helpers.mjs';

const o200k = createTokenCounter('o200k_base');
const MINUTE = 60_000;
const START = Date.parse('2026-12-08T01:00:00Z');
const BUDGET = 20_000;

/** An Anthropic tool turn: a call and its result of about `size` characters. */
function turn(i, size = 4_000) {
  const id = `call_${i}`;
  return [
    { role: 'assistant', content: [{ type: 'text', text: `step ${i}` }, { type: 'tool_use', id, name: 'bash', input: { cmd: `cat src/file${i}.rs` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `fn f${i}() {}\n`.repeat(size / 14) }] },
  ];
}

/** A manager's options; `summarized` counts the summarizer's calls. */
function options(extra = {}, summarized = { calls: 0 }) {
  return {
    format: 'anthropic', budget: BUDGET, countTokens: o200k, store: new MemoryStateRepository(),
    summarizer: (p) => { summarized.calls++; return `Earlier: ${p.slice(0, 200)}`; }, ...extra,
  };
}

/** Builds `n` turns a minute apart (each timed when `timed`); returns the time of the next. */
async function grow(cm, n, timed = true, from = 0) {
  for (let i = from; i < from + n; i++) {
    cm.append(turn(i));
    await cm.build(timed ? { now: START + i * MINUTE } : undefined);
  }
  return START + (from + n) * MINUTE;
}

describe('build({ now }) and pauseCompactAt', () => {
  it('a pause above the level compacts before the trigger, by masking, with no summarizer call', async () => {
    const summarized = { calls: 0 };
    const cm = new ContextManager(options({ pauseCompactAt: 0.3 }, summarized));
    cm.append({ role: 'user', content: 'the task' });
    const next = await grow(cm, 6);
    cm.append(turn(99, 400));
    const before = cm.ledger.at(-1).tokens;
    assert.ok(before > 0.3 * BUDGET && before < 0.75 * BUDGET, `${before} tokens`);
    const built = await cm.build({ now: next + 10 * MINUTE });
    assert.equal(built.ledger.compaction?.trigger, 'pause');
    assert.ok(built.ledger.compaction.masked.length > 0);
    assert.equal(built.ledger.compaction.summarized, null);
    assert.equal(summarized.calls, 0);
    assert.ok(built.tokens < before * 0.8, `${built.tokens} after ${before}`);
    // Four minutes later, the cache is warm: nothing more.
    cm.append(turn(100, 400));
    const after = await cm.build({ now: next + 14 * MINUTE });
    assert.equal(after.ledger.compaction, null);
    cm.free();
  });

  it('the time is journaled: a restored manager and a reopened session decide the same', async () => {
    const straight = new ContextManager(options({ pauseCompactAt: 0.3 }));
    straight.append({ role: 'user', content: 'the task' });
    const next = await grow(straight, 6);
    const snapshot = straight.snapshot();
    straight.append(turn(99, 400));
    const expected = await straight.build({ now: next + 10 * MINUTE });
    assert.equal(expected.ledger.compaction?.trigger, 'pause');

    const restored = ContextManager.restore(snapshot, options({ pauseCompactAt: 0.3 }));
    restored.append(turn(99, 400));
    const again = await restored.build({ now: next + 10 * MINUTE });
    assert.deepEqual(again.messages, expected.messages);
    assert.equal(again.ledger.compaction?.trigger, 'pause');
    // Going back from the restored time is refused too: the time was kept.
    restored.append(turn(100, 400));
    assertFieldError(await rejected(restored.build({ now: START })), RangeError, 'options.now');

    // A session on SQLite closed and opened again before the pause, against one run straight through.
    const session = { sessionId: 'timed', format: 'anthropic', budget: BUDGET, countTokens: o200k, pauseCompactAt: 0.3, summarizer: (p) => `Earlier: ${p.slice(0, 200)}` };
    const run = async (reopen) => {
      const file = join(mkdtempSync(join(tmpdir(), 'build-now-')), 'state.sqlite');
      let context = await ContextManager.open({ ...session, store: new SqliteStateRepository(file) });
      await context.append({ role: 'user', content: 'the task' });
      for (let i = 0; i < 6; i++) {
        await context.append(turn(i));
        await context.build({ now: START + i * MINUTE });
      }
      if (reopen) {
        await context.close();
        context = await ContextManager.open({ ...session, store: new SqliteStateRepository(file) });
      }
      await context.append(turn(99, 400));
      const built = await context.build({ now: next + 10 * MINUTE });
      await context.close();
      return built;
    };
    const [through, reopened] = [await run(false), await run(true)];
    assert.equal(through.ledger.compaction?.trigger, 'pause');
    assert.equal(reopened.ledger.compaction?.trigger, 'pause');
    assert.deepEqual(reopened.messages, through.messages);
  });

  it('without a time, the option changes no request of a real session, byte for byte', async () => {
    const file = 'claude-code-cua-docker-screenshots.jsonl';
    const [s] = parseTranscript(readFileSync(new URL(`./fixtures/sessions/${file}`, import.meta.url), 'utf8'), file);
    const run = async (extra, timed) => {
      const cm = new ContextManager(options({ system: 'You are a coding agent.', ...extra }));
      const out = [];
      for (const [i, t] of providerTurns(s, 'anthropic').entries()) {
        if (t.input.length) cm.append(t.input);
        const { system, messages, tokens, ledger } = await cm.build(timed ? { now: s.steps[i].time } : undefined);
        out.push(JSON.stringify({ system, messages, tokens, compaction: ledger.compaction }));
        if (t.response.length) cm.append(t.response);
        if (t.results.length) cm.append(t.results);
      }
      cm.free();
      return out;
    };
    const plain = await run({}, false);
    assert.ok(plain.some((r) => r.includes('"compaction":{')), 'the session compacts at this budget');
    assert.deepEqual(await run({ pauseCompactAt: 0.3 }, false), plain);
    // A time without the option changes nothing either.
    assert.deepEqual(await run({}, true), plain);
  });

  it('a bad time is a RangeError (a wrong type a TypeError) naming options.now, and changes nothing', async () => {
    const cm = new ContextManager(options({ pauseCompactAt: 0.3 }));
    cm.append({ role: 'user', content: 'the task' });
    const next = await grow(cm, 2);
    const before = cm.snapshot();
    for (const now of [Number.NaN, -1, Infinity, next - 5 * MINUTE]) {
      assertFieldError(await rejected(cm.build({ now })), RangeError, 'options.now');
    }
    assertFieldError(await rejected(cm.build({ now: '1' })), TypeError, 'options.now');
    assertFieldError(await rejected(cm.build(5)), TypeError, 'options');
    assert.deepEqual(cm.snapshot(), before);
    // The same time twice is no step back (a build retried).
    await cm.build({ now: next });
    await cm.build({ now: next });
    cm.free();
  });

  it('the options are checked, naming them', () => {
    assert.throws(() => new ContextManager(options({ pauseCompactAt: 0.8 })), (e) => e instanceof RangeError && e.field === 'options.pauseCompactAt');
    assert.throws(() => new ContextManager(options({ cacheTtlMs: 0 })), (e) => e instanceof RangeError && e.field === 'options.cacheTtlMs');
  });
});
