// Issue 49 item 1: a parallel fan-out never stops the loop. A newest turn of many parallel
// outputs, each under its share (`partShare`) but too many together for the budget, is
// built in every format: each output cut to its share of the room left (head and tail,
// stored whole and named by its id), not the largest to a stub one at a time; the build
// is refused only for one item that cannot be cut.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { FORMATS } from './formats.mjs';
import { fakeVscode } from './provider-sessions.mjs';
import { PROBLEMS } from './validity.mjs';
import { FAN_OUTS, fanMarker, fanOut, fanOutput } from './fan-out.mjs';

const countTokens = createTokenCounter('o200k_base');
const TASK = 'Read every module and report what each exports.';

function task(format) {
  if (format === 'vscode') return fakeVscode.LanguageModelChatMessage.User(TASK);
  if (format === 'gemini') return { role: 'user', parts: [{ text: TASK }] };
  return { role: 'user', content: TASK };
}

/** Every string `value` holds (the request as the adapter wrote it; class instances too). */
function strings(value, out = []) {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/** A manager of `format` at `budget` that has the task and the fan-out of turn 0. */
function fannedOut(format, { n, kb, budget }, shape = {}, options = {}) {
  const store = new MemoryStateRepository();
  const cm = new ContextManager({ format, budget, countTokens, store, vscode: fakeVscode, ...options });
  cm.append(task(format));
  cm.append(fanOut(format, 0, n, kb, fakeVscode, shape));
  return { cm, store };
}

describe('a parallel fan-out is built in every format, each output cut to its share', () => {
  for (const format of FORMATS) {
    for (const case_ of FAN_OUTS) {
      const { n, kb, budget } = case_;
      it(`${format}: ${n} parallel outputs of ${kb} KB at ${budget.toLocaleString('en')}`, async () => {
        const { cm, store } = fannedOut(format, case_);
        const request = await cm.build();
        const record = cm.ledger.at(-1);
        assert.ok(record.tokens <= budget, `${record.tokens} tokens`);
        assert.deepEqual(PROBLEMS[format](request), []);
        const texts = strings(request);
        const rows = store.getRawToolOutputs();
        const shown = [];
        for (let k = 0; k < n; k++) {
          const whole = fanOutput(0, k, kb);
          // Its first lines, in the request.
          const text = texts.find((s) => s.startsWith(`${fanMarker(0, k)}\n`));
          assert.ok(text, `output ${k} is in the request by its first lines`);
          shown.push(text.length);
          if (text === whole) continue;
          // Cut: stored whole, and named by its id.
          const row = rows.find((r) => r.rawContent === whole);
          assert.ok(row, `output ${k} is stored whole`);
          assert.ok(text.includes(String(row.id)), `output ${k} names its store id ${row.id}`);
        }
        // Each to its share: none whole while another is a stub.
        const [least, most] = [Math.min(...shown), Math.max(...shown)];
        assert.ok(least * 2 >= most, `outputs shown from ${least} to ${most} characters`);
      });
    }
  }
});

describe("a fan-out of calls whose inputs are large: the inputs are cut too", () => {
  for (const format of FORMATS) {
    it(`${format}: 30 parallel writes of 8 KB at 20,000`, async () => {
      const { cm } = fannedOut(format, { n: 30, kb: 8, budget: 20_000 }, { writes: true });
      const request = await cm.build();
      assert.ok(cm.ledger.at(-1).tokens <= 20_000);
      assert.deepEqual(PROBLEMS[format](request), []);
      const text = JSON.stringify(request);
      for (let k = 0; k < 30; k++) assert.ok(text.includes(fanMarker(0, k)), `the input of call ${k} is in the request by its first lines`);
    });
  }
});
