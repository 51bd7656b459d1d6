// Issue 49, item 4 ("what must survive"): the provider reads nothing before its own
// compaction (Anthropic's `compaction` block, OpenAI Responses' `compaction` item), so the
// newest result of each protected tool is restated after it, in every later request, and
// the request stays valid and within the budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { PROBLEMS } from './validity.mjs';

const o200k = createTokenCounter('o200k_base');
const BUDGET = 30_000;
const TODO = (t) => `TODO v${t}\n${Array.from({ length: 20 }, (_, i) => `- [${i < 5 ? 'x' : ' '}] step ${i}: fix the parser at line ${t + i}`).join('\n')}`;
const page = (t) => Array.from({ length: 60 }, (_, i) => `line ${i} of output ${t}: the parser reads section ${i % 17}.`).join('\n');

const anthropicStep = (t, name, output) => [
  { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name, input: { step: t } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: output }] },
];
const responsesStep = (t, name, output) => [
  { type: 'function_call', call_id: `c${t}`, name, arguments: JSON.stringify({ step: t }) },
  { type: 'function_call_output', call_id: `c${t}`, output },
];

const FORMATS = {
  'anthropic (threshold block)': {
    format: 'anthropic', step: anthropicStep,
    compaction: () => [{ role: 'assistant', content: [{ type: 'compaction', content: 'Summary: the parser fails on empty headers.', encrypted_content: `Ez${'k'.repeat(400)}` }, { type: 'text', text: 'Continuing.' }] }, { role: 'user', content: 'go on' }],
    after: (r) => r.messages.findIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'compaction')),
  },
  'anthropic (on-demand block)': {
    format: 'anthropic', step: anthropicStep,
    compaction: () => [{ role: 'assistant', content: [{ type: 'compaction', content: 'Summary of the work so far.', signature: 'EuYBCkQYAiJA9dXD' }] }, { role: 'user', content: 'go on' }],
    after: (r) => r.messages.findIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'compaction')),
  },
  'openai-responses (compaction item)': {
    format: 'openai-responses', step: responsesStep,
    compaction: () => [{ type: 'compaction', id: 'cmp_1', encrypted_content: `gAAAA${'x'.repeat(600)}` }, { role: 'user', content: 'go on' }],
    after: (r) => r.messages.findIndex((m) => m.type === 'compaction'),
  },
};

/** A 40-step loop: a todo update every 6th step, a provider's compaction at steps 14 and 29. */
async function loop({ format, step, compaction, after }) {
  const cm = new ContextManager({ format, budget: BUDGET, countTokens: o200k, store: new MemoryStateRepository(), protectedTools: ['todo'] });
  cm.append({ role: 'user', content: 'Fix the failing parser test.' });
  let latest;
  let missing = 0;
  let checked = 0;
  for (let t = 0; t < 40; t++) {
    if (t === 14 || t === 29) cm.append(compaction());
    else if (t % 6 === 0) {
      latest = TODO(t);
      cm.append(step(t, 'todo', latest));
    } else cm.append(step(t, 'bash', page(t)));
    const r = await cm.build();
    assert.ok(r.tokens <= BUDGET, `request ${t}: ${r.tokens}`);
    assert.deepEqual(PROBLEMS[format](r), [], `request ${t}`);
    const at = after(r);
    if (t < 14 || at < 0) continue;
    checked++;
    // What the provider reads: from its compaction on.
    if (!JSON.stringify(r.messages.slice(at)).includes(JSON.stringify(latest).slice(1, -1))) missing++;
  }
  cm.free();
  return { missing, checked };
}

describe("protected results after the provider's own compaction", () => {
  for (const [name, f] of Object.entries(FORMATS)) {
    it(`${name}: the newest todo result is in every later request, after the compaction`, async () => {
      const { missing, checked } = await loop(f);
      assert.equal(checked, 26);
      assert.equal(missing, 0, `${missing} of ${checked} requests after the compaction without the newest todo result`);
    });
  }
});
