// Issue 36, then issue 49 item 4: what the user wrote in the turns a summary folds rides
// after it verbatim, newest first, in the working state's own share (`userWordsShare`);
// the summarizer is given the summary so far without it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ContextManager } from '@devs/context';

const HEAD = '<working-state>';

async function session(summarizer, turns = 40) {
  const requests = [];
  const manager = new ContextManager({ format: 'openai-chat', budget: 8_000, summarizer });
  await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
  for (let t = 0; t < turns; t++) {
    await manager.append([
      { role: 'user', content: `Constraint ${t}: keep the public API of module ${t} unchanged.` },
      { role: 'assistant', content: `Working on module ${t}. ${'I read the lexer and the parser again. '.repeat(25)}` },
    ]);
    requests.push(JSON.stringify((await manager.build()).messages));
  }
  manager.free();
  return requests;
}

describe("the user's words, carried after the summary", () => {
  it('keeps the newest constraints the user wrote verbatim in the request once their turns are summarized', async () => {
    const prompts = [];
    const requests = await session(async (prompt) => { prompts.push(prompt); return 'The agent works through the modules.'; });
    assert.ok(prompts.length >= 2, `${prompts.length} summaries`);
    const last = requests.at(-1);
    assert.ok(last.includes(HEAD), 'the words ride after the summary');
    // The newest folded constraint is there, word for word; and every constraint is either live or carried, newest first.
    const carried = [...last.matchAll(/Constraint (\d+): keep the public API/g)].map((m) => Number(m[1]));
    assert.ok(carried.length >= 10, `${carried.length} constraints in the request`);
    const section = last.slice(last.indexOf(HEAD), last.indexOf('"}', last.indexOf(HEAD)));
    const inSection = [...section.matchAll(/Constraint (\d+):/g)].map((m) => Number(m[1]));
    assert.ok(inSection.length > 0);
    for (let i = 1; i < inSection.length; i++) assert.ok(inSection[i] < inSection[i - 1], 'newest first');
    for (const p of prompts) assert.ok(!p.includes(HEAD), 'the summarizer is given its own words only');
  });

  it("keeps as many beside a longer summary: the user's words have a share of their own", async () => {
    const carriedIn = (request) => {
      const at = request.indexOf(HEAD);
      return at < 0 ? 0 : [...request.slice(at).matchAll(/<said message=/g)].length;
    };
    const short = await session(async () => 'The agent works through the modules.');
    const long = await session(async () => `The agent works through the modules. ${'y '.repeat(1_340)}`); // 670 of the summary's 800 tokens
    const most = (rs) => Math.max(...rs.map(carriedIn));
    assert.ok(long.some((r) => r.includes('y y y y')), 'the long summary came');
    assert.ok(most(long) >= 10, `${most(long)} beside the long summary`);
    assert.ok(most(long) >= most(short) - 1, `${most(short)} beside the short summary, ${most(long)} beside the long`);
  });
});
