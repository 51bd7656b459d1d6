// Issue 47, item 4: every part counted by what it is. A Gemini text file counted as its
// text; a signed image by its image rule, kept byte for byte; an image by URL or file id
// at a ceiling no image of its bytes passes; a PDF whose page tree is in an object stream
// read through every filter form hosts meet; a PDF that cannot be read refused, one whose
// pages can only be bounded counted at the bound with a warning; audio and video by their
// seconds, read from their headers, or at a stated bound with a warning.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { ContextManager } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { assertFieldError, thrown } from './helpers.mjs';
import { PROBLEMS } from './validity.mjs';
import { mp4, pagesPdf, pngHeader, wav } from './media-files.mjs';

const o200k = createTokenCounter('o200k_base');
const b64 = (bytes) => Buffer.from(bytes).toString('base64');

/** Tokens a Gemini user part adds to a request: a build with it, less one with a one-token text in its place. */
async function geminiTokens(part, options = {}) {
  const build = async (p) => {
    const cm = new ContextManager({ format: 'gemini', budget: 2_000_000, ...options });
    cm.append([{ role: 'user', parts: [{ text: 'x' }] }, { role: 'model', parts: [{ text: 'ok' }] }, { role: 'user', parts: [p] }]);
    return (await cm.build()).tokens;
  };
  return (await build(part)) - (await build({ text: 'y' }));
}

describe('gemini inlineData is counted by what it is', () => {
  it('a 400 KB text file is counted as its text, and refused from a 20k request it cannot fit', async () => {
    const text = Array.from({ length: 12_000 }, (_, i) => `row ${i},value ${i * 7919},label-${(i * 31) % 97}\n`).join('');
    assert.ok(text.length > 300_000);
    const part = { inlineData: { mimeType: 'text/csv', data: Buffer.from(text).toString('base64') } };
    const asText = o200k(text);
    const counted = await geminiTokens(part, { countTokens: o200k });
    assert.ok(Math.abs(counted - asText) <= 10, `counted ${counted}, its text ${asText}`);
    const cm = new ContextManager({ format: 'gemini', budget: 20_000, countTokens: o200k });
    cm.append({ role: 'user', parts: [{ text: 'Summarize this file.' }, part] });
    const error = await cm.build().then(() => undefined, (e) => e);
    assertFieldError(error, RangeError, 'messages[0].parts[1]');
    // JSON too; bytes that are not UTF-8 are no text.
    const json = JSON.stringify({ rows: Array.from({ length: 500 }, (_, i) => ({ i, name: `n${i}` })) });
    const jsonTokens = await geminiTokens({ inlineData: { mimeType: 'application/json', data: b64(Buffer.from(json)) } }, { countTokens: o200k });
    assert.ok(Math.abs(jsonTokens - o200k(json)) <= 10, `${jsonTokens} for ${o200k(json)}`);
  });

  it('a signed image counts by its image rule and its signature, and is sent byte for byte', async () => {
    const signature = Buffer.from('an image model signs its images '.repeat(6)).toString('base64');
    const image = { inlineData: { mimeType: 'image/png', data: b64(pngHeader(2560, 1600)) } };
    // 2,560 × 1,600 in 768-px tiles: 4 × 3 of 258.
    const rule = 12 * 258;
    const signed = await geminiTokens({ ...image, thoughtSignature: signature });
    const unsigned = await geminiTokens(image);
    assert.ok(Math.abs(unsigned - rule) <= 4, `unsigned ${unsigned}`);
    assert.ok(Math.abs(signed - (rule + Math.ceil(signature.length / 4))) <= 4, `signed ${signed}`);
    // A loop of model turns that each return a signed image, compacted at 12,000: every
    // signed image in a request is one the model gave, its bytes and signature as given.
    const cm = new ContextManager({ format: 'gemini', budget: 12_000 });
    cm.append({ role: 'user', parts: [{ text: 'Draw the sequence.' }] });
    const given = [];
    for (let t = 0; t < 12; t++) {
      const part = { inlineData: { mimeType: 'image/png', data: b64(pngHeader(1280, 800 + t)) }, thoughtSignature: `${signature}${t}` };
      given.push(part);
      cm.append({ role: 'model', parts: [{ text: `Frame ${t}.` }, part] });
      cm.append({ role: 'user', parts: [{ text: `Next, ${t}.` }] });
      const r = await cm.build();
      assert.ok(r.tokens <= 12_000, `turn ${t}: ${r.tokens}`);
      assert.deepEqual(PROBLEMS.gemini(r), [], `turn ${t}`);
      const sent = r.messages.flatMap((m) => m.parts).filter((p) => p.thoughtSignature !== undefined);
      for (const p of sent) assert.ok(given.some((g) => g.thoughtSignature === p.thoughtSignature && g.inlineData.data === p.inlineData?.data), `turn ${t}: a signature not on its image`);
      // The newest is whole, the very object given.
      assert.equal(r.messages.at(-2).parts[1], part);
    }
  });

  it('an image by fileData counts at least what any image of its bytes counts', async () => {
    const away = await geminiTokens({ fileData: { mimeType: 'image/png', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc' } });
    let largest = 0;
    for (const [w, h] of [[8000, 300], [3072, 300], [300, 8000], [1280, 800], [4000, 4000], [20_000, 500], [384, 384]]) {
      const inline = await geminiTokens({ inlineData: { mimeType: 'image/png', data: b64(pngHeader(w, h)) } });
      largest = Math.max(largest, inline);
      assert.ok(away >= inline, `fileData ${away} under ${w}×${h}'s ${inline}`);
    }
    // 24 tiles of 258: a short side past 256 px on a long side of 3,072, at the smallest tile.
    assert.ok(Math.abs(away - 24 * 258) <= 4, `fileData ${away}`);
    assert.ok(largest >= 23 * 258, `largest inline ${largest}`);
  });

  it('audio and video count their seconds from their headers; one held elsewhere counts the longest, with a warning', async () => {
    const audio = await geminiTokens({ inlineData: { mimeType: 'audio/wav', data: b64(wav(30, 8_000)) } });
    assert.ok(Math.abs(audio - 30 * 32) <= 4, `30 s of audio: ${audio}`);
    const video = await geminiTokens({ inlineData: { mimeType: 'video/mp4', data: b64(mp4(600, 60 * 600)) } });
    assert.ok(Math.abs(video - 60 * 263) <= 4, `60 s of video: ${video}`);
    const warnings = [];
    const cm = new ContextManager({ format: 'gemini', budget: 1_000_000, onWarning: (w) => warnings.push(w) });
    cm.append({ role: 'user', parts: [{ text: 'What happens here?' }, { fileData: { mimeType: 'video/mp4', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/v1' } }] });
    const r = await cm.build();
    assert.ok(r.tokens >= 3600 * 263, `${r.tokens}`);
    assert.deepEqual(warnings.map((w) => [w.request, w.code]), [[1, 'media-duration-bounded']]);
    assert.match(warnings[0].message, /^message\.parts\[1\]: video by URL or file id.* 3600 s, 946800 tokens/);
    assert.deepEqual(r.ledger.warnings, [{ code: 'media-duration-bounded', message: warnings[0].message }]);
    // Said once: the next build has nothing to say.
    cm.append({ role: 'model', parts: [{ text: 'A cat.' }] });
    assert.deepEqual((await cm.build()).ledger.warnings, []);
  });
});

describe("OpenAI's input_audio counts its seconds", () => {
  it('10 tokens a second of WAV, in Chat Completions and Responses', async () => {
    for (const [format, part] of [
      ['openai-chat', { type: 'input_audio', input_audio: { data: b64(wav(30, 16_000)), format: 'wav' } }],
      ['openai-responses', { type: 'input_audio', input_audio: { data: b64(wav(30, 16_000)), format: 'wav' } }],
    ]) {
      const build = async (content) => {
        const cm = new ContextManager({ format, budget: 50_000 });
        cm.append({ role: 'user', content });
        return (await cm.build()).tokens;
      };
      const audio = (await build([part])) - (await build([{ type: format === 'openai-chat' ? 'text' : 'input_text', text: 'y' }]));
      assert.ok(Math.abs(audio - 300) <= 4, `${format}: ${audio}`);
    }
  });
});

describe('a PDF is counted by its pages, read through every filter form, or refused', () => {
  const forms = {
    '/Filter [/FlateDecode]': (d) => deflateSync(d),
    '/Filter /Fl': (d) => deflateSync(d),
    '/Filter [/ASCIIHexDecode /FlateDecode]': (d) => Buffer.from(`${deflateSync(d).toString('hex')}>`),
  };
  for (const [filter, encode] of Object.entries(forms)) {
    it(`500 pages in an object stream with ${filter}: 500 pages in every format's rule`, async () => {
      const data = b64(pagesPdf(500, filter, encode));
      const anthropic = new ContextManager({ format: 'anthropic', budget: 1_000_000 });
      anthropic.append({ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } }] });
      assert.ok((await anthropic.build()).tokens >= 500 * 1_500);
      const gemini = new ContextManager({ format: 'gemini', budget: 1_000_000 });
      gemini.append({ role: 'user', parts: [{ inlineData: { mimeType: 'application/pdf', data } }] });
      const g = (await gemini.build()).tokens;
      assert.ok(g >= 500 * 258 && g <= 500 * 258 + 20, `gemini ${g}`);
    });
  }

  it('a PDF that cannot be read is refused at append, naming the part, and nothing is appended', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 50_000 });
    const document = (data) => ({ role: 'user', content: [{ type: 'text', text: 'Read it.' }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } }] });
    for (const bytes of [Buffer.from('%PDF-1.7\n% cut short before any object'), Buffer.from('GIF89a not a pdf')]) {
      const error = thrown(() => cm.append(document(b64(bytes))));
      assertFieldError(error, TypeError, 'message.content[1]');
      assert.match(error.message, /is not a PDF whose pages can be read or bounded/);
    }
    // Nothing was appended: the first message is the one after.
    cm.append({ role: 'user', content: 'Hello.' });
    const r = await cm.build();
    assert.equal(r.messages.length, 1);
    assert.match(JSON.stringify(r.messages[0]), /Hello\./);
  });

  it('one whose page tree is in a stream it cannot decode counts its bound at the most a page bills, with a warning', async () => {
    // JBIG2 is an image filter: the 12 objects the stream holds bound its pages.
    const data = b64(pagesPdf(11, '/Filter /JBIG2Decode', (d) => d));
    const seen = [];
    const cm = new ContextManager({ format: 'anthropic', budget: 100_000, onWarning: (w) => seen.push(w.code) });
    cm.append({ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } }] });
    const r = await cm.build();
    assert.ok(r.tokens >= 12 * 3_000, `${r.tokens}`);
    assert.deepEqual(seen, ['document-pages-bounded']);
  });

  it('a warning an onWarning that throws did not take is given again by the next build', async () => {
    let fail = true;
    const seen = [];
    const cm = new ContextManager({ format: 'anthropic', budget: 100_000, onWarning: (w) => { if (fail) throw new Error('down'); seen.push(w.code); } });
    cm.append({ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://example.com/spec.pdf' } }] });
    await assert.rejects(cm.build(), /down/);
    fail = false;
    await cm.build();
    assert.deepEqual(seen, ['document-pages-unknown']);
  });
});
