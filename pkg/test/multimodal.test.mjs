// Issue 34: every part counted, every provider artifact kept. Scripted screenshot and PDF
// loops in every format, with real PNG, JPEG and PDF bytes (fixtures/media, Chromium's),
// at a 30,000-token budget: every request within the budget as the provider bills it
// (media-loops.mjs reckons the bill apart from the package), the package's count at least
// the bill and at most 1.15× it, valid as the provider checks it, the newest screenshot
// whole in every request, older ones stored and named, and a stored image recalled as an
// image in the provider's own shape.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { base64, jpeg, pdf, png } from './media-bytes.mjs';
import { FRAMING, PROVIDER, billed, imagesIn, pdfStep, recallCall, screenshotStep, usageOf } from './media-loops.mjs';
import { fakeVscode } from './provider-sessions.mjs';
import { PROBLEMS } from './validity.mjs';
import { FORMATS } from './formats.mjs';

const o200k = createTokenCounter('o200k_base');
const BUDGET = 30_000;

/** Screenshots of the sizes computer-use agents send, PNG and JPEG in turn. */
const shot = (t) => (t % 3 === 2 ? [jpeg(t), 'image/jpeg'] : [png(t % 2 ? 2560 : 1280, t % 2 ? 1600 : 800, t), 'image/png']);
const sameBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/**
 * Runs `steps` steps of `step(format, t)` through a manager: each request checked against
 * its bill. `report`: the bill is reported back (`recordUsage`), and the count follows it
 * (by calibration, within 1% of it rather than above it).
 */
async function loop(format, steps, step, check = () => {}, report = false) {
  const store = new MemoryStateRepository();
  const cm = new ContextManager({ format, budget: BUDGET, countTokens: o200k, store, system: 'You operate a browser to review pull requests.', recall: true, vscode: fakeVscode });
  const task = 'Review the open pull request.';
  cm.append(format === 'vscode' ? fakeVscode.LanguageModelChatMessage.User(task) : format === 'gemini' ? { role: 'user', parts: [{ text: task }] } : { role: 'user', content: task });
  const seen = { largest: 0, billedLargest: 0, ratios: [], requests: 0 };
  for (let t = 0; t < steps; t++) {
    const messages = step(format, t);
    cm.append(messages);
    const r = await cm.build();
    const bill = billed(r, PROVIDER[format]);
    seen.requests++;
    seen.largest = Math.max(seen.largest, r.tokens);
    seen.billedLargest = Math.max(seen.billedLargest, bill.tokens);
    seen.ratios.push(r.tokens / bill.tokens);
    assert.ok(r.tokens <= BUDGET, `request ${t}: ${r.tokens} by the package's count`);
    assert.ok(bill.tokens <= BUDGET, `request ${t}: ${bill.tokens} as billed`);
    assert.ok(r.tokens >= (report ? 0.99 : 1) * bill.tokens, `request ${t}: counted ${r.tokens}, billed ${bill.tokens}`);
    assert.ok(r.tokens <= 1.15 * bill.tokens, `request ${t}: counted ${r.tokens}, billed ${bill.tokens}: over 1.15×`);
    assert.deepEqual(PROBLEMS[format](r), [], `request ${t}`);
    check(r, t, messages);
    if (report) cm.recordUsage(usageOf(format, bill.tokens));
  }
  return { cm, store, seen };
}

describe('a screenshot in every tool result, 60 steps at 30,000 tokens', () => {
  for (const format of FORMATS) {
    it(`${format}: within the budget as billed, counted within 1.15× of the bill, the newest screenshot whole, older ones stored and recalled as images`, async () => {
      const bytes = [];
      const { cm, store, seen } = await loop(format, 60, (f, t) => {
        const [b, type] = shot(t);
        bytes[t] = b;
        return screenshotStep(f, t, b, type, fakeVscode);
      }, (r, t) => {
        const images = imagesIn(r);
        assert.ok(images.length >= 1, `request ${t}: no image whole`);
        assert.ok(sameBytes(images.at(-1), bytes[t]), `request ${t}: the newest screenshot is the last image, whole`);
        // Older ones leave several at a time (keepImages 3, a chunk of at most 9), never
        // so many whole that they take more than 40% of the budget as billed (the chunk is
        // set from their mean size, so a few larger ones may pass it by a little).
        assert.ok(images.length <= 11, `request ${t}: ${images.length} images whole`);
        const whole = images.reduce((n, b) => n + billed({ messages: [{ content: [{ type: 'image', source: { type: 'base64', data: base64(b) } }] }] }, PROVIDER[format]).tokens - FRAMING, 0);
        assert.ok(whole <= 0.4 * BUDGET * 1.05, `request ${t}: the images whole bill ${whole}`);
        if (t >= 12) assert.ok(images.length >= 3, `request ${t}: the newest 3 whole`);
      });
      assert.equal(seen.requests, 60);
      // The older screenshots are stored as images, named by their lines.
      const stored = store.getRawToolOutputs().filter((row) => row.rawContent.startsWith('data:image/'));
      assert.ok(stored.length >= 50, `${stored.length} screenshots stored`);
      const ledger = cm.ledger;
      const removals = ledger.filter((l) => l.compaction?.trigger === 'images').length;
      // Several at a time: a removal for every 3 or more screenshots, not one for each.
      assert.ok(removals >= 1 && removals <= 60 / 3, `${removals} removals of older images`);
      // The recall tool gives one back as an image, in the provider's shape.
      const row = stored[0];
      const answer = await cm.recall(recallCall(format, row.id, fakeVscode));
      const back = imagesIn({ messages: [answer] });
      assert.equal(back.length, format === 'openai-chat' ? 0 : 1, `${format}: the recalled image`);
      if (back.length) assert.ok(sameBytes(back[0], Buffer.from(row.rawContent.slice(row.rawContent.indexOf(',') + 1), 'base64')));
      else assert.match(JSON.stringify(answer), /holds text only/);
    });
  }
});

describe('a 6-page PDF read by a tool, 20 steps at 30,000 tokens', () => {
  for (const format of FORMATS) {
    it(`${format}: each PDF counted by its pages, within the budget as billed, the newest whole`, async () => {
      const { cm, seen } = await loop(format, 20, (f, t) => pdfStep(f, t, pdf(t, t % 2 === 1), fakeVscode));
      // 6 pages at 1,500: 9,000 tokens a PDF, two fit, with room; at Gemini's 258, 1,548.
      const onePdf = 6 * (PROVIDER[format] === 'gemini' ? 258 : 1_500);
      assert.ok(seen.largest >= onePdf && seen.largest <= BUDGET, `largest ${seen.largest}`);
      const last = cm.ledger.at(-1);
      assert.ok(last.tokens >= onePdf, `the newest PDF is in the last request: ${last.tokens}`);
    });
  }
});

describe('calibration by kind: the provider bills screenshots three times their rule', () => {
  it('the media ratio learns it, the text ratio stays, and no request goes over the budget as billed', async () => {
    const bytes = [];
    // A high-resolution model's bill: each image 3× what the common rule says.
    const { cm } = await loop('anthropic', 40, (f, t) => {
      const [b, type] = shot(t);
      bytes[t] = b;
      return screenshotStep(f, t, b, type, fakeVscode);
    }, () => {}, false);
    assert.equal(cm.calibration.mediaRatio, 1);
    const store = new MemoryStateRepository();
    const hi = new ContextManager({ format: 'anthropic', budget: BUDGET, countTokens: o200k, store });
    hi.append({ role: 'user', content: 'Review the open pull request.' });
    for (let t = 0; t < 40; t++) {
      const [b, type] = shot(t);
      hi.append(screenshotStep('anthropic', t, b, type));
      const r = await hi.build();
      const bill = billed(r, 'anthropic');
      const hiBill = bill.tokens + 2 * (bill.tokens - billed({ messages: JSON.parse(JSON.stringify(r.messages, (k, v) => (k === 'data' ? '' : v))) }, 'anthropic').tokens);
      if (t > 12) assert.ok(hiBill <= BUDGET, `request ${t}: ${hiBill} as billed`);
      hi.recordUsage({ input_tokens: hiBill });
    }
    const c = hi.calibration;
    assert.ok(c.mediaRatio > 2.5 && c.mediaRatio <= 3.2, `media ratio ${c.mediaRatio}`);
    assert.ok(c.ratio < 1.2, `text ratio ${c.ratio}`);
  });
});

describe('a request that cannot fit is refused, naming what is too large, and nothing changes', () => {
  it('twenty screenshots in one user message at 20,000 tokens: all but the newest replaced, then fits', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 20_000, countTokens: o200k });
    const content = Array.from({ length: 20 }, (_, t) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png(2560, 1600, t).toString('base64') } }));
    cm.append({ role: 'user', content: [{ type: 'text', text: 'What changed between these?' }, ...content] });
    const r = await cm.build();
    assert.ok(r.tokens <= 20_000, `${r.tokens}`);
    assert.ok(billed(r, 'anthropic').tokens <= 20_000);
  });

  it('a budget too small for the one image the request must hold: a RangeError naming it, and the next build is the same', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 1_000, countTokens: o200k });
    cm.append({ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png(1280, 800, 1).toString('base64') } }] });
    const first = await cm.build().then(() => undefined, (e) => e);
    assert.ok(first instanceof RangeError, String(first));
    assert.equal(first.field, 'messages[0].content[0]');
    assert.match(first.message, /^messages\[0\]\.content\[0\] leaves the request over the budget: .*an image of \d+ tokens/);
    assert.equal(cm.ledger.length, 0, 'nothing was sent, nothing changed');
    const again = await cm.build().then(() => undefined, (e) => e);
    assert.equal(again.message, first.message);
  });
});
