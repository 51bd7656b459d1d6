// Issue 36: `recallTool`, and the answer of `recall(call)`, are typed per format, so each goes
// into the SDK's own call without a cast: Anthropic's `messages.create({ tools })`, OpenAI's Chat Completions and Responses,
// `vscode.lm`'s tools. Checked strictly against the SDKs of the lockfile and the newest
// releases (installed beside them under other names). The check can fail: a Chat
// Completions tool given as a vscode tool is refused (the last test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkEach, pkgDir } from '../type-check.mjs';

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

// Issue 47: a manager written as the README writes it names the message type alone, and
// the format is read from `options.format`: `recallTool`, `recall(call)` and `build().system`
// are that SDK's own, with the format named once.
const README_WAY = `
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type * as vscode from 'vscode';
import { ContextManager, type SessionStore } from '@devs/context';

export async function send(anthropic: Anthropic, openai: OpenAI, api: ConstructorParameters<typeof ContextManager>[0]['vscode'], store: SessionStore) {
  const a = new ContextManager<Anthropic.MessageParam>({ format: 'anthropic', budget: 100_000, recall: true });
  const { system, messages } = await a.build();
  await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, system, messages, tools: [a.recallTool] });
  const history: Anthropic.MessageParam[] = [...messages, await a.recall({})];
  const chat = new ContextManager<ChatCompletionMessageParam>({ format: 'openai-chat', budget: 100_000, recall: true });
  const built = await chat.build();
  // The other formats carry the system prompt in their messages: \`system\` is never set.
  const none: undefined = built.system;
  await openai.chat.completions.create({ model: 'gpt-5', messages: built.messages, tools: [chat.recallTool] });
  const responses = new ContextManager<ResponseInputItem>({ format: 'openai-responses', budget: 100_000, recall: true });
  await openai.responses.create({ model: 'gpt-5', input: (await responses.build()).messages, tools: [responses.recallTool] });
  const items: ResponseInputItem[] = [await responses.recall({})];
  const v = new ContextManager<vscode.LanguageModelChatMessage>({ format: 'vscode', budget: 100_000, recall: true, vscode: api });
  const tools: vscode.LanguageModelChatTool[] = [v.recallTool];
  // A durable session, opened the same way.
  const session = await ContextManager.open<Anthropic.MessageParam>({ sessionId: 'task-42', store, format: 'anthropic', budget: 100_000, recall: true });
  const request = await session.build();
  await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, system: request.system, messages: request.messages, tools: [session.recallTool] });
  return { history, none, items, tools };
}
`;

// Every way of writing a manager that compiled before still does, with the type it had, and
// the message type alone now gives the format's manager (`known`).
const FORMS = `
import { ContextManager, type ContextFormat, type ContextManagerOptions, type ContextSession, type SessionStore } from '@devs/context';

type Message = { role: string };
declare const store: SessionStore;
declare const options: ContextManagerOptions;
declare const format: ContextFormat;
const inferred: ContextManager<unknown, 'anthropic'> = new ContextManager({ format: 'anthropic', budget: 100_000 });
const both: ContextManager<Message, 'gemini'> = new ContextManager<Message, 'gemini'>({ format: 'gemini', budget: 100_000 });
const known: ContextManager<Message, 'ai-sdk'> = new ContextManager<Message>({ format: 'ai-sdk', budget: 100_000 });
// A manager of one format is a manager of any: typed as every format's, as it was before.
const widened: ContextManager<Message> = new ContextManager<Message>({ format: 'anthropic', budget: 100_000 });
const anyOf: ContextManager = inferred;
const session: ContextSession<Message> = await ContextManager.open<Message>({ sessionId: 's', store, format: 'openai-chat', budget: 100_000 });
const atRunTime: ContextManager<Message> = new ContextManager<Message>(options);
const anyFormat: ContextManager = new ContextManager({ format, budget: 100_000 });
const restored: ContextManager<Message> = ContextManager.restore<Message>(known.snapshot(), options);
const instance: InstanceType<typeof ContextManager> = anyFormat;
const tool: unknown = atRunTime.recallTool;
const system: string | Array<{ type: 'text'; text: string }> | undefined = (await anyFormat.build()).system;
class Named extends ContextManager {}
class Typed extends ContextManager<Message, 'openai-chat'> {}
const named: ContextManager = new Named(options);
const typed: { type: 'function' } = new Typed({ format: 'openai-chat', budget: 100_000 }).recallTool;
declare const value: unknown;
const isOne: boolean = value instanceof ContextManager && value.ledger.length === 0;
export { inferred, both, known, widened, anyOf, session, atRunTime, anyFormat, restored, instance, tool, system, named, typed, isOne };
`;

const WRONG_TOOLS = README_WAY.replace('tools: [chat.recallTool]', 'tools: [a.recallTool]');
const WRONG_ANSWER = HOST.replace('[await responses.recall({})]', '[await chat.recall({})]');
const WRONG_VSCODE = HOST.replace('= [v.recallTool]', '= [chat.recallTool]');

// Every host of a set of SDK releases in one tsc run, each its own module.
const HOSTS = {
  lockfile: { 'host.ts': HOST, 'readme.ts': README_WAY, 'forms.ts': FORMS, 'wrong-answer.ts': WRONG_ANSWER, 'wrong.ts': WRONG_VSCODE },
  newest: { 'host.ts': HOST, 'readme.ts': README_WAY, 'readme-wrong.ts': WRONG_TOOLS },
};
const checked = {};
const check = (label, name) => {
  checked[label] ??= checkEach(`recall-${label}`, {
    modules: { ...SETS[label], '@types/node': 'node_modules/@types/node', vscode: 'node_modules/@types/vscode' },
    files: HOSTS[label],
  });
  return checked[label][name];
};

describe("recallTool and recall(call) compile into each SDK's own call, without a cast", () => {
  for (const [label, modules] of Object.entries(SETS)) {
    it(`${label}: @anthropic-ai/sdk, openai, vscode`, () => {
      const versions = Object.values(modules).map((m) => JSON.parse(readFileSync(join(pkgDir, m, 'package.json'), 'utf8')).version);
      assert.equal(check(label, 'host.ts'), null, `against ${versions.join(', ')}`);
    });
  }

  for (const [label, modules] of Object.entries(SETS)) {
    it(`${label}: written as the README writes it, the message type alone (issue 47)`, () => {
      const versions = Object.values(modules).map((m) => JSON.parse(readFileSync(join(pkgDir, m, 'package.json'), 'utf8')).version);
      assert.equal(check(label, 'readme.ts'), null, `against ${versions.join(', ')}`);
    });
  }

  it('every way of writing a manager compiles, typed as its type arguments and format say: none, both, one, a format known at run time, restore, a subclass', () => {
    assert.equal(check('lockfile', 'forms.ts'), null);
  });

  it("a manager of the message type alone is of its format: an Anthropic manager's tool in Chat Completions' tools is refused", () => {
    assert.notEqual(WRONG_TOOLS, README_WAY);
    assert.match(check('newest', 'readme-wrong.ts') ?? '', /error TS2(322|739|741|769)/);
  });

  it("a Chat Completions manager's recall answer given as a Responses item is refused", () => {
    assert.notEqual(WRONG_ANSWER, HOST);
    assert.match(check('lockfile', 'wrong-answer.ts') ?? '', /error TS2(322|739|741)/);
  });

  it("a Chat Completions manager's tool given as vscode's is refused", () => {
    assert.notEqual(WRONG_VSCODE, HOST);
    assert.match(check('lockfile', 'wrong.ts') ?? '', /error TS2(322|739|741)/);
  });
});
