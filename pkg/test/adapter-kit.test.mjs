// Issue 37: the adapters read the manager's options through one kit. Every adapter takes
// every option of ContextManager it does not set itself (LangChain once refused partShare,
// summarizerShare, calibrate and callbackTimeoutMs), checks each as the manager does, naming
// the field, refuses a name that is no one's, and keeps one default of conversations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertFieldError, thrown } from './helpers.mjs';
import { contextMiddleware as aiSdk } from '@devs/context/ai-sdk';
import { contextMiddleware as langchain } from '@devs/context/langchain';
import { contextProcessor as mastra } from '@devs/context/mastra';
import { contextFilter as openaiAgents } from '@devs/context/openai-agents';
import { contextMiddleware as tanstack } from '@devs/context/tanstack-ai';

const ADAPTERS = { 'ai-sdk': aiSdk, langchain, mastra, 'openai-agents': openaiAgents, 'tanstack-ai': tanstack };
const BUDGET = 20_000;
/** Options of ContextManager that every adapter hands its managers. */
const SHARED = { partShare: 0.2, summarizerShare: 0.5, calibrate: false, callbackTimeoutMs: 5_000, highWater: 0.8, lowWater: 0.3, recentShare: 0.1, keepFirstMessage: true, protectedTools: ['todo'], protectedShare: 0.2 };

/** `make(options)` throws a `kind` naming `field` (the package's own check of field errors). */
function fails(make, options, kind, field) {
  assertFieldError(thrown(() => make(options)), kind, field);
}

describe('every adapter reads the manager options through the kit', () => {
  for (const [name, make] of Object.entries(ADAPTERS)) {
    it(`${name}: takes the manager's shared options, and checks each as the manager does`, () => {
      assert.doesNotThrow(() => make({ budget: BUDGET, ...SHARED, summarizer: false }));
      fails(make, { budget: BUDGET, partShare: 2 }, RangeError, 'options.partShare');
      fails(make, { budget: BUDGET, summarizerShare: 'half' }, TypeError, 'options.summarizerShare');
      fails(make, { budget: BUDGET, callbackTimeoutMs: -1 }, RangeError, 'options.callbackTimeoutMs');
    });
    it(`${name}: refuses a name that is no one's option, and a bad count of conversations`, () => {
      fails(make, { budget: BUDGET, hgihWater: 0.5 }, TypeError, 'options.hgihWater');
      const max = name === 'langchain' ? 'maxThreads' : 'maxConversations';
      fails(make, { budget: BUDGET, [max]: 0 }, RangeError, `options.${max}`);
      fails(make, { budget: BUDGET, [max]: '5' }, TypeError, `options.${max}`);
      fails(make, { budget: BUDGET, recall: 'yes' }, TypeError, 'options.recall');
      fails(make, null, TypeError, 'options');
    });
  }
});
