// LangChain.js v1's own loop, `createAgent(...).invoke`, one invocation per user input of a
// recorded session, the state's messages carried from one to the next. The model is a chat
// model answering each call with the recorded turn (it counts messages exactly, for
// `contextEditingMiddleware`'s `tokenCountMethod: 'model'`); each tool returns the
// recorded result of its call. A last middleware of the bench's ends an invocation after
// the recorded turns (`jumpTo: 'end'`), where the recording went back to the user.
import { createRequire } from 'node:module';
import { chunks, tokens } from '../cache/measure.mjs';
import { toOpenAI } from '../cache/strategies.mjs';
import { SYSTEM, o200k, outputsById, providerTurns, summarize, timed, userTurns, version } from './common.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const { ClearToolUsesEdit, contextEditingMiddleware, createAgent, createMiddleware, summarizationMiddleware, tool } = require('langchain');
const { BaseChatModel } = require('@langchain/core/language_models/chat_models');
const { AIMessage } = require('@langchain/core/messages');
const { contextMiddleware } = require('@devs/context/langchain');

export const framework = `LangChain (langchain ${version('langchain')}, @langchain/core ${version('@langchain/core')})`;

const counted = new WeakMap();
/** A message's exact o200k tokens, as the measure counts it. */
function count(m) {
  let n = counted.get(m);
  if (n === undefined) counted.set(m, (n = tokens(chunks({ messages: [toOpenAI(m)] })[0])));
  return n;
}

/** A chat model whose every answer is `respond(messages)`, with tools bound as they come and an exact count. */
class Scripted extends BaseChatModel {
  constructor(respond) {
    super({});
    this.respond = respond;
  }

  _llmType() {
    return 'scripted';
  }

  bindTools() {
    return this;
  }

  async _generate(messages) {
    const message = this.respond(messages);
    return { generations: [{ text: message.text, message }] };
  }

  async getNumTokensFromMessages(messages) {
    const countPerMessage = messages.map(count);
    return { totalCount: countPerMessage.reduce((a, b) => a + b, 0), countPerMessage };
  }
}

/** The stand-in summarizer of every strategy (bench/cache/strategies.mjs's `summarize`), as a chat model. */
const summarizer = () => new Scripted((messages) => new AIMessage(summarize(messages.map((m) => m.text).join('\n'))));

/** A middleware's hooks timed into `ms`, less the model call a `wrapModelCall` hands on. */
function timedHooks(mw, ms) {
  const out = { ...mw };
  if (mw.wrapModelCall) out.wrapModelCall = (request, handler) => timed(ms, (inner) => mw.wrapModelCall(request, inner(handler)));
  if (mw.beforeModel) {
    const hook = typeof mw.beforeModel === 'function' ? mw.beforeModel : mw.beforeModel.hook;
    const wrapped = (state, runtime) => timed(ms, () => hook(state, runtime));
    out.beforeModel = typeof mw.beforeModel === 'function' ? wrapped : { ...mw.beforeModel, hook: wrapped };
  }
  return out;
}

/** `[name, budgeted, setup(budget, ms)]`: ours first, LangChain's own means after. */
export const strategies = [
  ['ours: contextMiddleware (createAgent middleware)', true, (budget, ms) => [timedHooks(contextMiddleware({ budget, countTokens: o200k, summarizer: summarize }), ms)]],
  ['contextEditingMiddleware (ClearToolUsesEdit at 85%, keep 3)', true, (budget, ms) => [timedHooks(contextEditingMiddleware({
    edits: [new ClearToolUsesEdit({ trigger: { tokens: 0.85 * budget }, keep: { messages: 3 } })],
    tokenCountMethod: 'model',
  }), ms)]],
  ['summarizationMiddleware (at 85%, keep 25%)', true, (budget, ms) => [timedHooks(summarizationMiddleware({
    model: summarizer(),
    trigger: { tokens: 0.85 * budget },
    keep: { tokens: 0.25 * budget },
    tokenCounter: (messages) => messages.reduce((n, m) => n + count(m), 0),
  }), ms)]],
  ['nothing (every message sent)', false, () => []],
];

/** One session through `createAgent`, with `middleware`; `see` measures each input. */
export async function run(session, middleware, see) {
  const turns = providerTurns(session, 'openai-chat');
  const outputs = outputsById(session, 'openai-chat');
  const names = new Set(turns.flatMap((t) => (t.response[0].tool_calls ?? []).map((c) => c.function.name)));
  const tools = [...names].map((name) => tool(async (_, config) => outputs.get(config.toolCall?.id) ?? '', {
    name,
    description: name,
    schema: { type: 'object', properties: {}, additionalProperties: true },
  }));
  let t = 0;
  let left = 0;
  const model = new Scripted((messages) => {
    const { tokens: total, prefix } = see({ messages: messages.map(toOpenAI) });
    const { content, tool_calls: calls = [] } = turns[t++].response[0];
    left--;
    return new AIMessage({
      content: content ?? '',
      tool_calls: calls.map((c) => ({ id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments), type: 'tool_call' })),
      usage_metadata: { input_tokens: total, output_tokens: 20, total_tokens: total + 20, input_token_details: { cache_read: prefix, cache_creation: total - prefix } },
    });
  });
  const recorded = createMiddleware({ name: 'RecordedTurns', beforeModel: { canJumpTo: ['end'], hook: () => (left === 0 ? { jumpTo: 'end' } : undefined) } });
  const agent = createAgent({ model, tools, systemPrompt: SYSTEM, middleware: [recorded, ...middleware] });
  let messages = [];
  for (const { input, turns: steps } of userTurns(session)) {
    left = steps.length;
    const result = await agent.invoke({ messages: [...messages, { role: 'user', content: input }] }, { recursionLimit: 100_000, configurable: { thread_id: session.name } });
    messages = result.messages;
  }
  return t;
}
