// An AI SDK language model prompt, measured as a provider reads it, and a mock model that
// answers as an agent would: shared by the adapter tests whose framework runs AI SDK models
// (adapter-ai-sdk, adapter-mastra). Prompts are counted exactly (o200k), as bench/cache does.
import assert from 'node:assert/strict';
import { measureBy, TOOL_SPACE } from './tool-loop.mjs';
import { aiSdkProblems } from './validity.mjs';

export { output, TOOL_SPACE } from './tool-loop.mjs';

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
/** `{ tokens, prefix, extends }`: the prompt's tokens, those of the whole messages it begins with that `previous` began with too, and whether it begins with all of `previous`. */
export const measure = measureBy(chunks);
/** What a provider would refuse in a provider-level prompt: a call without its result, a user or assistant message whose content is not a list of parts. */
export function problems(prompt) {
  const out = aiSdkProblems({ messages: prompt });
  prompt.forEach((m, i) => {
    if (m.role === 'system' ? typeof m.content !== 'string' : !Array.isArray(m.content)) out.push(`prompt[${i}]: ${m.role} content of the wrong shape`);
  });
  return out;
}
export const promptText = (prompt) => chunks(prompt).join('\n');

// ---- The agent's side: the mock model, its responses as results or streams (its tool's outputs are tool-loop.mjs's).

export const usageOf = ({ tokens: n, prefix }) => ({
  inputTokens: { total: n + TOOL_SPACE, noCache: n + TOOL_SPACE - prefix, cacheRead: prefix, cacheWrite: n - prefix },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
});
export const finishOf = (content) => ({ unified: content.some((c) => c.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined });
export const callOf = (toolCallId, toolName, input) => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) });
/** A step of the tool loop's script (tool-loop.mjs) as the model's content; the recall is asked for beside a read of `src/again.ts`. */
export function loopContent(step) {
  if (step.recall) return [{ type: 'text', text: step.text }, callOf('mixed-read', 'read', { path: 'src/again.ts' }), callOf('recall-1', 'recall', { id: step.recall })];
  if (step.done) return [{ type: 'text', text: step.done }];
  return [callOf(step.read.id, 'read', { path: step.read.path })];
}

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

/** The model's answer in each of several conversations run at once: a read a step (a call id never used before), and after four results, `Done.` */
export function conversationContent(prompt) {
  const results = prompt.filter((m) => m.role === 'tool').length;
  return results >= 4 ? [{ type: 'text', text: 'Done.' }] : [callOf(`id-${Math.random().toString(36).slice(2)}`, 'read', { path: `src/f${results}.ts` })];
}

/** A prompt of one of several conversations run at once (each tool answering `<who> read …`): valid, and holding one conversation's outputs only. */
export function assertOneConversation(prompt) {
  const whose = new Set(prompt.flatMap((m) => (m.role === 'tool' ? m.content.map((p) => p.output.value.split(' ')[0]) : [])));
  assert.ok(whose.size <= 1, `a prompt holds the outputs of ${[...whose].join(' and ')}`);
  assert.deepEqual(problems(prompt), []);
}

/** Three conversations run at once through one model (`seen`, its record), answered by `conversationContent`: each done, none holding another's outputs, none rebuilt by another. */
export function assertConversationsApart(results, seen, warnings) {
  assert.deepEqual(results.map((r) => r.text), ['Done.', 'Done.', 'Done.']);
  assert.equal(seen.prompts.length, 15);
  for (const prompt of seen.prompts) assertOneConversation(prompt);
  assert.equal(warnings.length, 0, 'no conversation was rebuilt by another');
}
