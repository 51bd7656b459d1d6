// The Recent Past of WindowComposer, with this package's exact counter: its tokens are added
// up from the envelopes' own counts, which the counter's memo keeps from turn to turn, instead
// of counting the whole slot again on every compose (the replay's largest cost, issue 48).
// The sum must be the count of the whole text, on every real session's windows (corpus tier:
// it reads the vendored sessions).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WindowComposer, createDefaultWindowBudget } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { loadSession, sessionFiles } from './sessions.mjs';

const JOINS = Symbol.for('@devs/context: counts add at JSON lines');
const envelopesOf = (file) => loadSession(file).map((s) => s.steps.filter((x) => x.envelope).map((x) => x.envelope));

describe('WindowComposer, Recent Past counted by its envelopes with an exact counter', () => {
  for (const encoding of ['o200k_base', 'cl100k_base']) {
    it(`${encoding}: every window of every vendored session has the tokens of its whole text`, () => {
      const exact = createTokenCounter(encoding);
      assert.equal(exact[JOINS], true, 'the package\'s counters carry the mark');
      // Unmarked, the composer counts the whole slot: the reference.
      const whole = (text) => exact(text);
      let windows = 0;
      for (const file of sessionFiles()) {
        for (const list of envelopesOf(file)) {
          // A small budget too, so that the newest envelope is cut to fit.
          for (const total of [800_000, 6_000]) {
            const marked = new WindowComposer(createDefaultWindowBudget(total), { countTokens: exact });
            const plain = new WindowComposer(createDefaultWindowBudget(total), { countTokens: whole });
            // The first 60 windows of each: a window holds at most the newest 10 envelopes.
            for (let n = 1; n <= Math.min(list.length, 60); n++) {
              const a = marked.compose('goal', 'map', list.slice(0, n));
              const b = plain.compose('goal', 'map', list.slice(0, n));
              assert.equal(a.slots[2].content, b.slots[2].content);
              assert.equal(a.slots[2].tokenCount, exact(a.slots[2].content), `${file} at ${n} envelopes, budget ${total}`);
              assert.deepEqual(a, { ...b, slots: a.slots.map((s, i) => ({ ...b.slots[i], timestampMs: s.timestampMs })) });
              windows++;
            }
          }
        }
      }
      assert.ok(windows > 1000, `${windows} windows`);
    });
  }

  it('never hands the counter the joined Recent Past, only texts it has counted before or one envelope', () => {
    const exact = createTokenCounter('o200k_base');
    const seen = [];
    const spy = (text) => { seen.push(text); return exact(text); };
    spy[JOINS] = true;
    const composer = new WindowComposer(createDefaultWindowBudget(800_000), { countTokens: spy });
    const list = envelopesOf(sessionFiles().find((f) => f.includes('claude-code-session')))[0].slice(0, 40);
    for (let n = 1; n <= list.length; n++) composer.compose('goal', 'map', list.slice(0, n));
    const joined = seen.filter((t) => t.includes('}\n{'));
    assert.deepEqual(joined.map((t) => t.length), []);
  });

});
