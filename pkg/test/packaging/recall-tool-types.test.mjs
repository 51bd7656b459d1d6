// Issue 36: `recallTool`, and the answer of `recall(call)`, are typed per format, so each goes
// into the SDK's own call without a cast: Anthropic's `messages.create({ tools })`, OpenAI's Chat Completions and Responses,
// `vscode.lm`'s tools. Checked strictly against the SDKs of the lockfile and the newest
// releases (installed beside them under other names). The check can fail: a Chat
// Completions tool given as a vscode tool is refused (the last test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkScratch, pkgDir } from '../type-check.mjs';

const SETS = {
  lockfile: { '@anthropic-ai/sdk': 'node_modules/@anthropic-ai/sdk', openai: 'node_modules/openai' },
  newest: { '@anthropic-ai/sdk': 'node_modules/anthropic-sdk-newest', openai: 'node_modules/openai-newest' },
};

const HOST = `
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type * as vscode from 'vscode';
import { ContextManager } from '@devs/context';

export async function send(anthropic: Anthropic, openai: OpenAI, api: ConstructorParameters<typeof ContextManager>[0]['vscode']) {
  const a = new ContextManager({ format: 'anthropic', budget: 100_000, recall: true });
  await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [], tools: [a.recallTool] });
  const chat = new ContextManager({ format: 'openai-chat', budget: 100_000, recall: true });
  await openai.chat.completions.create({ model: 'gpt-5', messages: [], tools: [chat.recallTool] });
  const responses = new ContextManager({ format: 'openai-responses', budget: 100_000, recall: true });
  await openai.responses.create({ model: 'gpt-5', input: [], tools: [responses.recallTool] });
  const v = new ContextManager({ format: 'vscode', budget: 100_000, recall: true, vscode: api });
  const tools: vscode.LanguageModelChatTool[] = [v.recallTool];
  // recall(call)'s answer goes into each SDK's own message list, as its own type.
  const history: Anthropic.MessageParam[] = [await a.recall({})];
  const block: Anthropic.ToolResultBlockParam = (await a.recall({})).content[0];
  const chatHistory: OpenAI.Chat.ChatCompletionMessageParam[] = [await chat.recall({})];
  const items: OpenAI.Responses.ResponseInputItem[] = [await responses.recall({})];
  return { tools, history, block, chatHistory, items };
}
`;

const check = (label, modules, text) => checkScratch(`recall-${label}`, {
  modules: { ...modules, '@types/node': 'node_modules/@types/node', vscode: 'node_modules/@types/vscode' },
  files: { 'host.ts': text },
});

describe("recallTool and recall(call) compile into each SDK's own call, without a cast", () => {
  for (const [label, modules] of Object.entries(SETS)) {
    it(`${label}: @anthropic-ai/sdk, openai, vscode`, () => {
      const versions = Object.values(modules).map((m) => JSON.parse(readFileSync(join(pkgDir, m, 'package.json'), 'utf8')).version);
      assert.equal(check(label, modules, HOST), null, `against ${versions.join(', ')}`);
    });
  }

  it("a Chat Completions manager's recall answer given as a Responses item is refused", () => {
    const wrong = HOST.replace('[await responses.recall({})]', '[await chat.recall({})]');
    assert.notEqual(wrong, HOST);
    assert.match(check('wrong-answer', SETS.lockfile, wrong) ?? '', /error TS2(322|739|741)/);
  });

  it("a Chat Completions manager's tool given as vscode's is refused", () => {
    const wrong = HOST.replace('= [v.recallTool]', '= [chat.recallTool]');
    assert.notEqual(wrong, HOST);
    assert.match(check('wrong', SETS.lockfile, wrong) ?? '', /error TS2(322|739|741)/);
  });
});
