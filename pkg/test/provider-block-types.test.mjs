// Issue 47: the block, part and item types each format takes are pinned from the newest SDKs'
// type definitions (test/fixtures/provider-block-types.json). A type an SDK adds fails here
// until the list has it, the fuzz draws it (test/provider-items-gen.mjs) and the format's
// adapter reads it: appended in a conversation and built, it is never an error.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ContextManager } from '@devs/context';
import { sdkTypes } from './sdk-types.mjs';
import { fakeVscode } from './provider-sessions.mjs';
import {
  AI_SDK, AI_SDK_TOOL, ANTHROPIC, ANTHROPIC_RESULT, CHAT_PARTS, CHAT_ROLES, GEMINI, GEMINI_RESPONSE, Model, RESPONSES_TYPES, Rng, VSCODE_PARTS, itemsOfType,
} from './provider-items-gen.mjs';

const pinned = JSON.parse(readFileSync(new URL('./fixtures/provider-block-types.json', import.meta.url), 'utf8')).types;

describe('the pinned list of block, part and item types', () => {
  it('is what the installed SDKs define, no more and no fewer', () => {
    const installed = sdkTypes();
    const problems = [];
    for (const [format, lists] of Object.entries(installed)) {
      for (const [name, types] of Object.entries(lists)) {
        const listed = new Set(pinned[format]?.[name] ?? []);
        const added = types.filter((t) => !listed.has(t));
        const gone = [...listed].filter((t) => !types.includes(t));
        if (added.length) problems.push(`${format} ${name}: the SDK defines ${added.join(', ')}, which the list lacks: add it to test/fixtures/provider-block-types.json, a maker to test/provider-items-gen.mjs, and read it in the adapter`);
        if (gone.length) problems.push(`${format} ${name}: the SDK no longer defines ${gone.join(', ')}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('each type has its maker in the fuzz', () => {
    const has = {
      anthropic: new Set([...Object.keys(ANTHROPIC.user), ...Object.keys(ANTHROPIC.assistant), ANTHROPIC_RESULT]),
      'openai-chat': new Set([...CHAT_ROLES, ...Object.keys(CHAT_PARTS)]),
      'openai-responses': RESPONSES_TYPES,
      gemini: new Set([...Object.keys(GEMINI.user), ...Object.keys(GEMINI.model), GEMINI_RESPONSE]),
      'ai-sdk': new Set([...Object.keys(AI_SDK.user), ...Object.keys(AI_SDK.assistant), ...AI_SDK_TOOL]),
      vscode: new Set(VSCODE_PARTS),
    };
    const missing = Object.entries(pinned).flatMap(([format, lists]) => Object.values(lists).flat().filter((t) => !has[format].has(t)).map((t) => `${format} ${t}`));
    assert.deepEqual(missing, []);
  });

  for (const format of Object.keys(pinned)) {
    it(`${format}: each type, appended in a conversation and built, is read by the adapter`, async () => {
      const types = [...new Set(Object.values(pinned[format]).flat())];
      for (const type of types) {
        for (let seed = 1; seed <= 3; seed++) {
          // A budget that holds a video or an audio file named by URL, counted at the provider's longest (an hour of video: 946,801 tokens in Gemini).
          const cm = new ContextManager({ format, budget: 2_000_000, ...(format === 'vscode' ? { vscode: fakeVscode } : {}) });
          const model = new Model();
          const turns = itemsOfType(format, type, new Rng(seed), model);
          assert.ok(turns.length > 0, `${format} ${type}: made`);
          for (const items of turns) cm.append(items);
          const built = await cm.build();
          assert.ok(built.messages.length > 0, `${format} ${type}`);
        }
      }
    });
  }
});
