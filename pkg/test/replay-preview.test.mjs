// The replay's preview of each turn's prompt by its sections (issue 48: a replay at most
// 5 s per 5 MB): read from the pieces the bounded runner joined the prompt from, which it
// hands out for the prompt it wrote last, instead of copying the whole prompt every turn.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AgentRunner } from '@devs/context';
import { DEFAULT_SETTINGS, replay } from '@devs/context/replay';

const PIECES = Symbol.for('@devs/context: written pieces');

const envelope = (i, output) => ({
  schema_version: '1.0.0', turn_index: i, agent_id: 'replay', phase: 'replay',
  thought: { reasoning: 'r', plan: 'p' }, action: { tool_name: 'read', arguments: { path: 'a' } }, observation: { status: 'success', output },
});

describe('replay preview, read from the prompt\'s pieces', () => {
  it('a bounded runner hands out the pieces of the prompt it wrote last, and only of that one', async () => {
    const prompts = [];
    const runner = new AgentRunner({ agentId: 'a', taskGoal: 'goal', bounded: { budget: 50_000 }, llm: { complete: ({ prompt }) => { prompts.push(prompt); return { text: 'ok' }; } } });
    await runner.runTurn('first');
    await runner.runTurn('second');
    const pieces = AgentRunner[PIECES](prompts[1]);
    assert.ok(Array.isArray(pieces) && pieces.length > 3);
    assert.equal(pieces.join(''), prompts[1]);
    assert.equal(AgentRunner[PIECES](prompts[0]), undefined);
  });

  it('finds a heading wherever it starts: at a piece\'s start, inside one, in a tool output', async () => {
    const session = {
      name: 'headings', format: 'saop', warnings: [], unmatchedResults: 0,
      steps: [
        { input: '# Alpha\nalpha body', text: 'thinking\n# Beta\nbeta body', calls: [{ envelope: envelope(1, '# Gamma\ngamma body\n# Delta') }] },
        { input: 'x'.repeat(1000), text: 'done', calls: [] },
      ],
    };
    const result = await replay(session, { ...DEFAULT_SETTINGS, budget: 200_000, format: 'runner' }, undefined);
    const sections = result.turns[1].preview.map((s) => s.section);
    for (const name of ['Goal', 'Conversation', 'Alpha', 'Beta', 'Gamma', 'Delta', 'Plan']) assert.ok(sections.includes(name), `${name} in ${sections.join(' | ')}`);
    const alpha = result.turns[1].preview.find((s) => s.section === 'Alpha');
    assert.match(alpha.text, /^alpha body\n/);
    const long = result.turns[1].preview.find((s) => s.text.includes('xxxx'));
    assert.match(long.text, /… \(\d+ characters\)$/);
  });
});
