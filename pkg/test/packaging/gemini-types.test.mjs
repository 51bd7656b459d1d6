// The Gemini format compiles into `@google/genai`'s own call, without a cast: a host passing
// its `Content[]` to `append`, the build's `messages` as `contents` and `system` as
// `systemInstruction`, the recall tool in `config.tools`, `recall(call)`'s answer as a
// `Content`, and `usageMetadata` to `recordUsage`. The manager is written as the README
// writes one, the message type alone (issue 47): the format comes from `options.format`, and
// `system` is Gemini's string, not Anthropic's blocks. The check can fail (the last test).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkEach } from '../type-check.mjs';

const HOST = `
import { GoogleGenAI, type Content, type Part } from '@google/genai';
import { ContextManager } from '@devs/context';

export async function turn(ai: GoogleGenAI, history: Content[]) {
  const context = new ContextManager<Content>({ format: 'gemini', budget: 100_000, recall: true, system: 'You are a coding agent.' });
  context.append(history);
  const { system, messages } = await context.build();
  const instruction: string | undefined = system;
  const contents: Content[] = messages;
  const response = await ai.models.generateContent({
    model: 'gemini-3-pro-preview',
    contents,
    config: { systemInstruction: system, tools: [context.recallTool] },
  });
  const content = response.candidates?.[0]?.content;
  if (content) context.append(content);
  if (response.usageMetadata) context.recordUsage(response.usageMetadata);
  const call: Part | undefined = content?.parts?.find((p) => p.functionCall);
  if (call) {
    const answer: Content = await context.recall(call);
    context.append(answer);
  }
}
`;

const BOTH = HOST.replace('new ContextManager<Content>(', "new ContextManager<Content, 'gemini'>(");
const WRONG = HOST.replace('tools: [context.recallTool]', "tools: [new ContextManager({ format: 'anthropic', budget: 100_000, recall: true }).recallTool]");

// The three hosts in one tsc run, each its own module.
let checked;
const check = (name) => {
  checked ??= checkEach('gemini', {
    modules: { '@google/genai': 'node_modules/@google/genai', '@types/node': 'node_modules/@types/node' },
    files: { 'host.ts': HOST, 'both.ts': BOTH, 'wrong.ts': WRONG },
  });
  return checked[name];
};

describe("the Gemini format compiles against @google/genai's own types", () => {
  it('Content[] in, contents and systemInstruction out, the recall tool and its answer, usageMetadata', () => {
    assert.equal(check('host.ts'), null);
  });

  it('and with both type arguments named, as before', () => {
    assert.notEqual(BOTH, HOST);
    assert.equal(check('both.ts'), null);
  });

  it("an Anthropic manager's recall tool in config.tools is refused", () => {
    assert.notEqual(WRONG, HOST);
    assert.match(check('wrong.ts') ?? '', /error TS\d+/);
  });
});
