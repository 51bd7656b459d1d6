// An AI SDK language model prompt, measured as a provider reads it, and a mock model that
// answers as an agent would: shared by the adapter tests whose framework runs AI SDK models
// (adapter-ai-sdk, adapter-mastra). Prompts are counted exactly (o200k), as bench/cache does.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { aiSdkProblems } from './validity.mjs';

const require = createRequire(import.meta.url);
const { createTokenCounter } = require('@devs/context/tokenizers');
const o200k = createTokenCounter('o200k_base');

// ---- Measuring a prompt.

export const json = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
export function partText(p) {
  switch (p.type) {
    case 'text':
    case 'reasoning':
      return p.text;
    case 'tool-call':
      return `call ${p.toolName} ${p.toolCallId} ${json(p.input)}`;
    case 'tool-result':
      return `result ${p.toolCallId}\n${json(p.output.value ?? p.output.reason ?? '')}`;
    case 'file':
      return `[file ${p.mediaType}]`; // a provider counts a file by its own rule, not as its bytes' text
    default:
      return json(p);
  }
}
/** Each message as the text a provider reads: its role, then its parts' texts. Markers (`providerOptions`) are not text. */
export const chunks = (prompt) => prompt.map((m) => `${m.role}\n${typeof m.content === 'string' ? m.content : m.content.map(partText).join('\n')}`);
const counted = new Map();
export function tokens(text) {
  if (!counted.has(text)) counted.set(text, o200k(text));
  return counted.get(text);
}
/** `{ tokens, prefix, extends }`: the prompt's tokens, those of the whole messages it begins with that `previous` began with too, and whether it begins with all of `previous`. */
export function measure(prompt, previous = []) {
  const now = chunks(prompt);
  const before = chunks(previous);
  let prefix = 0;
  for (let i = 0; i < now.length && now[i] === before[i]; i++) prefix += tokens(now[i]);
  return { tokens: now.reduce((n, c) => n + tokens(c), 0), prefix, extends: before.length > 0 && before.every((c, i) => c === now[i]) };
}
/** What a provider would refuse in a provider-level prompt: a call without its result, a user or assistant message whose content is not a list of parts. */
export function problems(prompt) {
  const out = aiSdkProblems({ messages: prompt });
  prompt.forEach((m, i) => {
    if (m.role === 'system' ? typeof m.content !== 'string' : !Array.isArray(m.content)) out.push(`prompt[${i}]: ${m.role} content of the wrong shape`);
  });
  return out;
}
export const promptText = (prompt) => chunks(prompt).join('\n');

// ---- The agent's side: tool outputs, the mock model, its responses as results or streams.

export const TOOL_SPACE = 60; // the tokens the tool definitions add to the count the mock reports
/** A tool output of about `size` characters, different for every call: 20 KB is 6,800 o200k tokens. */
export function output(path, size) {
  const lines = [];
  for (let i = 0, length = 0; length < size; i++) {
    const line = `${path}:${i + 1}: export const value_${i} = compute(${(i * 7919) % 1009}, '${((i + 1) * 2654435761 % 2 ** 32).toString(16)}');`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}
export const usageOf = ({ tokens: n, prefix }) => ({
  inputTokens: { total: n + TOOL_SPACE, noCache: n + TOOL_SPACE - prefix, cacheRead: prefix, cacheWrite: n - prefix },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
});
export const finishOf = (content) => ({ unified: content.some((c) => c.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined });
export const callOf = (toolCallId, toolName, input) => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) });

/** The content of a response as the chunks of a stream: text and calls as a provider streams them, then `finish`. */
export function streamOf(content, usage) {
  const parts = [{ type: 'stream-start', warnings: [] }];
  content.forEach((c, i) => {
    if (c.type === 'text') parts.push({ type: 'text-start', id: `t${i}` }, { type: 'text-delta', id: `t${i}`, delta: c.text }, { type: 'text-end', id: `t${i}` });
    else {
      parts.push({ type: 'tool-input-start', id: c.toolCallId, toolName: c.toolName }, { type: 'tool-input-delta', id: c.toolCallId, delta: c.input }, { type: 'tool-input-end', id: c.toolCallId });
      parts.push(c);
    }
  });
  parts.push({ type: 'finish', usage, finishReason: finishOf(content) });
  return new ReadableStream({ start(controller) { for (const p of parts) controller.enqueue(p); controller.close(); } });
}

/** A mock model whose `respond(prompt, seen)` says what it answers; it records every call's prompt and tools, and reports usage as a provider with a prompt cache would. */
export function mockModel(Mock, respond) {
  const seen = { prompts: [], tools: [], usage: [], providerOptions: [] };
  const answer = (options) => {
    const usage = usageOf(measure(options.prompt, seen.prompts.at(-1)));
    seen.prompts.push(options.prompt);
    seen.tools.push(options.tools ?? []);
    seen.providerOptions.push(options.providerOptions);
    seen.usage.push(usage);
    return { content: respond(options.prompt, seen), usage };
  };
  const model = new Mock({
    doGenerate: async (options) => {
      const { content, usage } = answer(options);
      return { content, usage, finishReason: finishOf(content), warnings: [] };
    },
    doStream: async (options) => {
      const { content, usage } = answer(options);
      return { stream: streamOf(content, usage) };
    },
  });
  return { model, seen };
}

/** A prompt of one of several conversations run at once (each tool answering `<who> read …`): valid, and holding one conversation's outputs only. */
export function assertOneConversation(prompt) {
  const whose = new Set(prompt.flatMap((m) => (m.role === 'tool' ? m.content.map((p) => p.output.value.split(' ')[0]) : [])));
  assert.ok(whose.size <= 1, `a prompt holds the outputs of ${[...whose].join(' and ')}`);
  assert.deepEqual(problems(prompt), []);
}
