// The OpenAI Agents SDK's own loop, `run(agent, items, { callModelInputFilter })`, one run
// per user input of a recorded session, the run's `history` carried to the next. The model
// is a `Model` of the bench's (the SDK's interface, no network) answering each call with
// the recorded turn; each function tool returns the recorded result of its call, and the
// agent's `toolUseBehavior` ends a run after the recorded turns, where the recording went
// back to the user. The SDK has no means of its own to bound a context by tokens: a
// `callModelInputFilter` is the host's to write, and `OpenAIResponsesCompactionSession`
// compacts on OpenAI's server (`responses.compact`), which cannot run offline.
import { createRequire } from 'node:module';
import { SYSTEM, o200k, outputsById, providerTurns, summarize, timed, userTurns, version } from './common.mjs';

process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const { Agent, Usage, run: runAgent, setTracingDisabled, tool } = require('@openai/agents');
const { contextFilter } = require('@devs/context/openai-agents');
setTracingDisabled(true);

export const framework = `OpenAI Agents SDK (@openai/agents ${version('@openai/agents')})`;

/** An Agents SDK item as the Responses API item bench/cache/measure.mjs reads. */
function item(i) {
  if (i.type === 'function_call') return { type: 'function_call', call_id: i.callId, name: i.name, arguments: i.arguments };
  if (i.type === 'function_call_result') return { type: 'function_call_output', call_id: i.callId, output: i.output?.type === 'text' ? i.output.text : i.output };
  return i;
}

/** A recorded turn's Responses API items as the model's output items. */
function output(items) {
  return items.map((i) => (i.type === 'function_call'
    ? { type: 'function_call', id: `fc_${i.call_id}`, callId: i.call_id, name: i.name, arguments: i.arguments, status: 'completed' }
    : { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: i.content }] }));
}

/** Ours: the filter, and the model wrapped to report usage (less the model's own call), timed as one step. */
function ours(budget, ms) {
  const context = contextFilter({ budget, countTokens: o200k, summarizer: summarize });
  const step = [];
  const filter = (args) => timed(step, () => context.callModelInputFilter(args));
  filter.preserveInputIdentity = context.callModelInputFilter.preserveInputIdentity;
  return {
    callModelInputFilter: filter,
    tools: [context.recallTool],
    model: (scripted) => {
      const { getResponse } = scripted;
      const watched = context.model(scripted);
      return {
        getResponse: (request) => timed(step, (inner) => {
          scripted.getResponse = inner(getResponse);
          return watched.getResponse(request);
        }).finally(() => ms.push(step.splice(0).reduce((a, b) => a + b, 0))),
        getStreamedResponse: () => watched.getStreamedResponse(),
      };
    },
  };
}

/** `[name, budgeted, setup(budget, ms)]`: ours, and the SDK with nothing. */
export const strategies = [
  ['ours: contextFilter (callModelInputFilter + model)', true, ours],
  ['nothing (the SDK has no token-based means)', false, () => ({})],
];

/** One session through `run()`, with `setup`'s filter and model wrapper; `see` measures each input. */
export async function run(session, { callModelInputFilter, tools: extra = [], model: wrap = (m) => m }, see) {
  const turns = providerTurns(session, 'openai-responses');
  const outputs = outputsById(session, 'openai-responses');
  const names = new Set(turns.flatMap((t) => t.response.filter((i) => i.type === 'function_call').map((i) => i.name)));
  const tools = [...names].map((name) => tool({
    name,
    description: name,
    parameters: { type: 'object', properties: {}, additionalProperties: true },
    strict: false,
    execute: async (_, __, details) => outputs.get(details?.toolCall?.callId) ?? '',
  }));
  let t = 0;
  let left = 0;
  const scripted = {
    getResponse: async (request) => {
      const { tokens, prefix } = see({ system: request.systemInstructions, messages: request.input.map(item) });
      left--;
      return {
        usage: new Usage({ requests: 1, inputTokens: tokens, outputTokens: 20, totalTokens: tokens + 20, inputTokensDetails: { cached_tokens: prefix } }),
        output: output(turns[t].response),
        responseId: `resp_${t++}`,
      };
    },
    getStreamedResponse: () => {
      throw new Error('not streamed');
    },
  };
  const agent = new Agent({
    name: 'agent',
    instructions: SYSTEM,
    model: wrap(scripted),
    tools: [...tools, ...extra],
    toolUseBehavior: () => (left === 0 ? { isFinalOutput: true, isInterrupted: undefined, finalOutput: '' } : { isFinalOutput: false, isInterrupted: undefined }),
  });
  let history = [];
  for (const { input, turns: steps } of userTurns(session)) {
    left = steps.length;
    const result = await runAgent(agent, [...history, { role: 'user', content: input }], { callModelInputFilter, maxTurns: steps.length + 1 });
    history = result.history;
  }
  return t;
}
