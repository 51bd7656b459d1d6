import { ContextManager } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { png, base64, sizeOf, anthropicImage } from './media-bytes.mjs';
import { PROBLEMS } from './validity.mjs';
const count = createTokenCounter('o200k_base');
const cm = new ContextManager({ format: 'anthropic', budget: 30_000, countTokens: count, system: 'You operate a computer.', recall: true });
cm.append({ role: 'user', content: 'Open the browser and review the pull request.' });
let max = 0, maxBilled = 0;
for (let t = 0; t < 60; t++) {
  const id = `toolu_${t}`;
  cm.append({ role: 'assistant', content: [{ type: 'text', text: `Step ${t}: taking a screenshot.` }, { type: 'tool_use', id, name: 'computer', input: { action: 'screenshot' } }] });
  const bytes = png(t % 2 ? 2560 : 1280, t % 2 ? 1600 : 800, t);
  cm.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: `screenshot ${t}` }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64(bytes) } }] }] });
  const r = await cm.build();
  let billed = 0; let images = 0;
  const texts = [];
  const walk = (v) => { if (Array.isArray(v)) v.forEach(walk); else if (v && typeof v === 'object') { if (v.type === 'image' && v.source?.data) { billed += anthropicImage(sizeOf(Buffer.from(v.source.data, 'base64'))); images++; return; } for (const [k, x] of Object.entries(v)) if (k !== 'cache_control') walk(x); } else if (typeof v === 'string') texts.push(v); };
  walk(r.messages); walk(r.system);
  billed += count(texts.join(' '));
  max = Math.max(max, r.tokens); maxBilled = Math.max(maxBilled, billed);
  const probs = PROBLEMS.anthropic(r);
  if (t % 10 === 0 || probs.length) console.log(t, r.tokens, billed, images, r.ledger.compaction?.trigger ?? '', probs.slice(0, 2));
}
console.log('max', max, 'billed', maxBilled);
