// Mastra's own loop, `Agent.generate`, one call per user input of a recorded session, the
// history carried from call to call as a host without Mastra's memory carries it (each
// call's `response.messages`). The model is the AI SDK's `MockLanguageModelV3` (Mastra runs
// AI SDK models as its own), answering each step with the recorded turn; each tool's
// `execute` returns the recorded result of its call. Mastra's means of its own to bound a
// context (its memory's `lastMessages`, the `TokenLimiter` processor) drop whole messages
// from the oldest on; the bench has ours and nothing.
import { createRequire } from 'node:module';
import { SYSTEM, o200k, summarize, timed, userTurns, version } from './common.mjs';
import { recordedAgent } from './ai-sdk.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const { Agent } = require('@mastra/core/agent');
const { contextProcessor } = require('@devs/context/mastra');

export const framework = `Mastra (@mastra/core ${version('@mastra/core')})`;

/** Our processor, its hooks (`processInputStep`, `processLLMRequest`, `processLLMResponse`) timed as one step per model call. */
function ours(budget, ms) {
  const p = contextProcessor({ budget, countTokens: o200k, summarizer: summarize });
  const step = [];
  // A step's time is complete at the next step's first hook, and at the end of the run.
  const flush = () => step.length && ms.push(step.splice(0).reduce((a, b) => a + b, 0));
  const sync = (fn) => (args) => {
    const start = performance.now();
    try {
      return fn(args);
    } finally {
      step.push(performance.now() - start);
    }
  };
  return {
    processor: {
      ...p,
      processInputStep: (args) => {
        flush();
        return sync(p.processInputStep)(args);
      },
      processLLMRequest: (args) => timed(step, () => p.processLLMRequest(args)),
      processLLMResponse: (args) => timed(step, () => p.processLLMResponse(args)),
    },
    flush,
  };
}

/** `[name, budgeted, setup(budget, ms)]`: ours, and Mastra with nothing. */
export const strategies = [
  ['ours: contextProcessor (inputProcessors)', true, ours],
  ['nothing (every message sent)', false, () => ({})],
];

/** One session through `Agent.generate`, with `setup`'s processor; `see` measures each prompt. */
export async function run(session, { processor, flush }, see) {
  const { model, tools, calls } = recordedAgent(session, see);
  const agent = new Agent({ id: 'agent', name: 'agent', instructions: SYSTEM, model, tools, inputProcessors: processor ? [processor] : [] });
  const messages = [];
  for (const { input, turns: steps } of userTurns(session)) {
    messages.push({ role: 'user', content: input });
    const result = await agent.generate(messages, { maxSteps: steps.length });
    if (result.error) throw result.error;
    messages.push(...result.response.messages);
  }
  flush?.();
  return calls();
}
