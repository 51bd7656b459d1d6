// Issue 49, item 3: the newest screen stays. Computer-use loops at 30,000 tokens, a
// screenshot every 4th step and large text outputs between, in every format that carries
// images, with the shapes bench/multimodal.mjs sends (bench/multimodal/shapes.mjs): every
// request holds the newest screenshot whole, and the newest `keepImages` (3) of those sent,
// through every compaction (before the fix, a compaction's masking plan took every
// screenshot with the outputs around it: the newest was missing from 6 to 14 of 59
// requests a format), within the budget as billed and valid as the provider checks it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { render } from '../../bench/multimodal/shapes.mjs';
import { png } from './media-bytes.mjs';
import { PROVIDER, billed, imagesIn, usageOf } from './media-loops.mjs';
import { fakeVscode } from './provider-sessions.mjs';
import { PROBLEMS } from './validity.mjs';
import { FORMATS } from './formats.mjs';

const o200k = createTokenCounter('o200k_base');
const BUDGET = 30_000;
const KEEP = 3;
const sameBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** A build log of `kb` kilobytes, distinct per step. */
const page = (t, kb) => Array.from({ length: Math.ceil((kb * 1024) / 70) }, (_, i) => `${i}: step ${t} reads section ${i % 23} of the review, line ${(i * 7) % 101}.`).join('\n');

/** Step `t`: every 4th a click and its screenshot (WXGA), else a 6 to 14 KB text output. */
const step = (t) => (t % 4 === 0
  ? { t, kind: 'computer', say: `Step ${t}: click.`, name: 'computer', input: { action: 'left_click', x: 10 + t, y: 20 }, text: `result of step ${t}: clicked`, image: { bytes: png(1366, 768, 700 + t), type: 'image/png' } }
  : { t, kind: 'call', say: `Step ${t}: read the log.`, name: 'read_log', input: { path: `log-${t}.txt` }, text: `result of step ${t}\n${page(t, 6 + (t % 3) * 4)}` });

const task = (format) => (format === 'vscode' ? fakeVscode.LanguageModelChatMessage.User('Review the pull request.')
  : format === 'gemini' ? { role: 'user', parts: [{ text: 'Review the pull request.' }] } : { role: 'user', content: 'Review the pull request.' });

/** A summarizer that keeps nothing, as the bench's stand-in does at worst. */
const summarizer = () => 'The agent clicked through the review and read its logs.';

describe('the newest screenshots stay whole through every compaction: 60 computer-use steps at 30,000 tokens', () => {
  for (const format of FORMATS) {
    for (const summarize of [summarizer, false]) {
      it(`${format}, ${summarize ? 'summarized' : 'no summarizer'}: the newest screenshot (and up to ${KEEP}) in every request, within the budget, valid`, async () => {
        const cm = new ContextManager({ format, budget: BUDGET, countTokens: o200k, store: new MemoryStateRepository(), recall: true, vscode: fakeVscode, summarizer: summarize, ...(format === 'ai-sdk' || format === 'vscode' ? { imageTokens: 'anthropic' } : {}) });
        cm.append(task(format));
        const shots = [];
        let compactions = 0;
        const missing = [];
        for (let t = 0; t < 60; t++) {
          const s = step(t);
          if (s.image) shots.push(s.image.bytes);
          cm.append(render(format, s, fakeVscode));
          const r = await cm.build();
          const bill = billed(r, PROVIDER[format]);
          cm.recordUsage(usageOf(format, bill.tokens));
          if (r.ledger.compaction) compactions++;
          assert.ok(bill.tokens <= BUDGET, `step ${t}: ${bill.tokens} as billed`);
          assert.deepEqual(PROBLEMS[format](r), [], `step ${t}`);
          const images = imagesIn(r);
          const gone = shots.slice(-KEEP).filter((b) => !images.some((x) => sameBytes(x, b))).length;
          if (gone) missing.push(`step ${t}: ${gone} of the newest ${Math.min(KEEP, shots.length)}`);
        }
        assert.ok(compactions >= 3, `${compactions} compactions`);
        assert.deepEqual(missing, []);
        cm.free();
      });
    }
  }
});
