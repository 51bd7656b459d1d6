// Issue 34: every adapter takes the options of images (`keepImages`, `imageTokens`), as its
// types declare them, and checks them as ContextManager does, naming the field; a bad one
// fails when the adapter is made, before the agent runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextMiddleware as aiSdk } from '@devs/context/ai-sdk';
import { contextMiddleware as langchain } from '@devs/context/langchain';
import { contextProcessor as mastra } from '@devs/context/mastra';
import { contextFilter as openaiAgents } from '@devs/context/openai-agents';
import { contextMiddleware as tanstack } from '@devs/context/tanstack-ai';

const ADAPTERS = { 'ai-sdk': aiSdk, langchain, mastra, 'openai-agents': openaiAgents, 'tanstack-ai': tanstack };
const BUDGET = 20_000;

function fails(make, options, kind, field) {
  assert.throws(() => make(options), (error) => {
    assert.ok(error instanceof kind, `${JSON.stringify(options)}: a ${kind.name}, got ${error}`);
    assert.equal(error.field, field, error.message);
    assert.ok(error.message.includes(field), error.message);
    return true;
  });
}

describe("every adapter takes the options of images, and checks them", () => {
  for (const [name, make] of Object.entries(ADAPTERS)) {
    it(`${name}: keepImages and imageTokens (a provider, a model, a function) are taken; bad ones name their field`, () => {
      for (const imageTokens of ['anthropic', { model: 'gpt-5' }, ({ width, height }) => Math.ceil((width * height) / 750)]) {
        assert.doesNotThrow(() => make({ budget: BUDGET, keepImages: 2, imageTokens }), `${name}: ${String(imageTokens)}`);
      }
      fails(make, { budget: BUDGET, keepImages: 0 }, RangeError, 'options.keepImages');
      fails(make, { budget: BUDGET, keepImages: '3' }, TypeError, 'options.keepImages');
      fails(make, { budget: BUDGET, imageTokens: 'claude' }, TypeError, 'options.imageTokens');
      fails(make, { budget: BUDGET, imageTokens: { provider: 'claude' } }, TypeError, 'options.imageTokens.provider');
      fails(make, { budget: BUDGET, imageTokens: 42 }, TypeError, 'options.imageTokens');
    });
  }
});
