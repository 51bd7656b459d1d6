// Issue 49 item 1, through the framework adapters: an agent that issues a fan-out of
// parallel reads after a summary is due. The AI SDK middleware's `generateText` rejected
// with a RangeError after a summary had been asked for (and paid); the build now cuts each
// output to its share, and a build that cannot fit is refused before any summary is asked.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { ContextManager } from '@devs/context';
import { callOf, mockModel, promptText } from './ai-sdk-model.mjs';
import { fanMarker, fanOutput } from './fan-out.mjs';

const require = createRequire(import.meta.url);
const { contextMiddleware } = require('@devs/context/ai-sdk');
const { createTokenCounter } = require('@devs/context/tokenizers');
const o200k = createTokenCounter('o200k_base');

const VERSIONS = [
  { name: 'ai 6', ai: await import('ai'), Mock: (await import('ai/test')).MockLanguageModelV3 },
  { name: 'ai 7', ai: await import('ai-7'), Mock: (await import('ai-7/test')).MockLanguageModelV4 },
];
const FAN = 40;
const summaryCall = (prompt) => promptText(prompt.slice(-1)).includes('[Context budget] Write a summary');

for (const v of VERSIONS) {
  const { ai } = v;
  describe(`contextMiddleware (${v.name}): a fan-out after a summary`, () => {
    it(`${FAN} parallel reads of 4 KB at 20,000: generateText runs to its end, every output shown by its first lines`, async () => {
      let step = 0;
      const asked = [];
      const { model: mock, seen } = mockModel(v.Mock, (prompt) => {
        if (summaryCall(prompt)) {
          asked.push(seen.prompts.length - 1);
          return [{ type: 'text', text: '### Task\nRead every module.' }];
        }
        step += 1;
        // A chatty agent for a few steps (a summary comes due), then one turn of parallel reads.
        if (step < 8) return [{ type: 'text', text: `Module ${step} holds the lexer state. `.repeat(60) }, callOf(`call-${step}`, 'read', { path: `src/f${step}.ts` })];
        if (step === 8) return Array.from({ length: FAN }, (_, k) => callOf(`fan-${k}`, 'read', { path: `fan/${k}` }));
        return [{ type: 'text', text: 'Done.' }];
      });
      const read = ai.tool({
        inputSchema: ai.jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
        execute: async ({ path }) => (path.startsWith('fan/') ? fanOutput(0, Number(path.slice(4)), 4) : `${path}: ${'export const x = 1;\n'.repeat(80)}`),
      });
      const records = [];
      const model = ai.wrapLanguageModel({ model: mock, middleware: contextMiddleware({ budget: 20_000, countTokens: o200k, onLedger: (r) => records.push(r) }) });
      const result = await ai.generateText({ model, system: 'You are a coding agent.', prompt: 'Read every module of src/.', tools: { read }, stopWhen: ai.stepCountIs(12) });
      assert.equal(result.text, 'Done.');
      assert.ok(asked.length > 0, 'a summary was asked for');
      assert.ok(records.every((r) => r.tokens <= 20_000));
      const last = promptText(seen.prompts.at(-1));
      for (let k = 0; k < FAN; k++) assert.ok(last.includes(fanMarker(0, k)), `output ${k} is in the last prompt`);
    });
  });
}

describe('a build that cannot fit asks for no summary', () => {
  it('an item no step can cut, over the budget alone, is refused before the summarizer is called', async () => {
    let calls = 0;
    const cm = new ContextManager({ format: 'anthropic', budget: 20_000, countTokens: o200k, summarizer: async () => { calls += 1; return 'S'; } });
    cm.append({ role: 'user', content: 'Upload the build and report.' });
    for (let t = 0; t < 8; t++) {
      cm.append({ role: 'assistant', content: `Step ${t}: ${'the build log says the linker failed. '.repeat(60)}` });
      cm.append({ role: 'user', content: `Go on with step ${t + 1}.` });
    }
    // A provider's block of its own, passed through whole: no step can make it smaller.
    // Some 38,000 tokens of ids (a run of one letter would count short).
    const ids = Array.from({ length: 12_000 }, (_, i) => ((i * 7919) % 100_003).toString(36)).join('-');
    cm.append({ role: 'assistant', content: [{ type: 'container_upload', file_id: `file_${ids}` }] });
    const error = await cm.build().then(() => assert.fail('built'), (e) => e);
    assert.ok(error instanceof RangeError, String(error));
    assert.equal(error.field, 'messages[17].content[0]');
    assert.match(error.message, /cannot be cut/);
    assert.equal(calls, 0, 'no summary was asked for');
  });
});
