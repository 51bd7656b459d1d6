// Issue 36: summaries steered by the host. The built-in instruction asks for fixed
// sections and a later summary to update the one before; `summaryPrompt` replaces that
// instruction in both layouts a summarizer receives (docs/guides/summaries.md).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager, defaultSummaryPrompt } from '@devs/context';
import { contextMiddleware } from '@devs/context/langchain';

/** A manager whose summarizer records what it is given and answers `summary N`. */
function recorded(options = {}) {
  const calls = [];
  const manager = new ContextManager({
    format: 'openai-chat', budget: 4_000,
    summarizer: async (prompt, request) => {
      calls.push({ prompt, request });
      return `summary ${calls.length}`;
    },
    ...options,
  });
  return { manager, calls };
}

async function run(manager, turns = 40) {
  await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
  for (let t = 0; t < turns; t++) {
    await manager.append([
      { role: 'assistant', content: `step ${t}: reading the log` },
      { role: 'user', content: `log ${t}: ${'the parser failed on line 12 again. '.repeat(30)}` },
    ]);
    await manager.build();
  }
}

describe('the summarizing instruction', () => {
  it('is the built-in one by default: the five sections, then the messages', async () => {
    const text = defaultSummaryPrompt();
    for (const section of ['### Task', '### Decisions', '### Files and artifacts', '### Errors', '### Next steps']) {
      assert.ok(text.includes(section), `the built-in instruction asks for ${section}`);
    }
    assert.doesNotMatch(text, / {2}/, 'no run of spaces in the instruction');
    const { manager, calls } = recorded();
    await run(manager);
    assert.ok(calls.length >= 2, `${calls.length} summaries`);
    for (const { prompt } of calls) {
      assert.ok(prompt.startsWith(text), 'the prompt opens with the instruction');
      assert.ok(prompt.includes('\n## Messages to add to it\n'), 'then the messages');
    }
  });

  it('asks a later summary to update the sections of the summary so far, which it is given', async () => {
    const { manager, calls } = recorded();
    await run(manager);
    assert.doesNotMatch(calls[0].prompt, /## Summary so far/, 'the first has no summary so far');
    for (const [i, { prompt }] of calls.entries()) {
      if (i === 0) continue;
      assert.ok(prompt.includes(`## Summary so far\nsummary ${i}\n`), `summary ${i + 1} is given summary ${i}`);
      assert.ok(prompt.includes('update its sections'), `summary ${i + 1} is asked to update it`);
    }
  });

  it('ends the request form too: the last request, then an instruction naming where the summary ends', async () => {
    const { manager, calls } = recorded({ summaryPrompt: 'Keep only the file names.' });
    await run(manager);
    const withRequest = calls.filter((c) => c.request);
    assert.ok(withRequest.length > 0, 'the summarizer is given the last request');
    for (const { request } of withRequest) {
      const last = request.messages.at(-1);
      const text = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
      assert.ok(text.includes('Keep only the file names.'), 'the host instruction ends the request');
      assert.ok(!text.includes('### Files and artifacts'), 'in place of the built-in one');
      assert.ok(text.endsWith('Answer with the summary only.'));
    }
  });

  it('is replaced by summaryPrompt, in the prompt as in the request', async () => {
    const { manager, calls } = recorded({ summaryPrompt: 'Keep only the file names.' });
    await run(manager);
    assert.ok(calls.length > 0);
    for (const { prompt } of calls) {
      assert.ok(prompt.startsWith('Keep only the file names.\n'), prompt.slice(0, 80));
      assert.ok(!prompt.includes('### Decisions'), 'the built-in instruction is gone');
    }
  });

  it('refuses a summaryPrompt that is not a text, or is blank, naming the option', () => {
    for (const bad of [5, '   ', {}]) {
      assert.throws(() => new ContextManager({ format: 'anthropic', budget: 8_000, summaryPrompt: bad }),
        (e) => e instanceof TypeError && e.message.startsWith('options.summaryPrompt '), `summaryPrompt ${JSON.stringify(bad)}`);
    }
  });

  it('is an option of the LangChain middleware, as summarizationMiddleware has it', () => {
    assert.doesNotThrow(() => contextMiddleware({ budget: 8_000, summaryPrompt: 'Keep only the file names.' }));
    assert.throws(() => contextMiddleware({ budget: 8_000, summaryPrompt: 7 }), /options\.summaryPrompt/);
  });
});
