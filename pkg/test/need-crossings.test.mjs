// Issue 48: one crossing per answered need. A build talks to the rules through `advance`
// alone (then `render`, `ledger` and `commit`): a need that takes a text only the shell
// holds is described in an answer of its own (`Described`, `Carried`), whose reply is a
// need too (`Measure`, `Fit`), so the shell never asks back. Counted by wrapping the
// exports of the instance the package makes as it loads.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadCounting } from './wasm-calls.mjs';

const { counter, loaded } = await loadCounting(() => import('@devs/context'));
const { ContextManager, MemoryStateRepository } = loaded;
const calls = counter.names;

/** The manager's calls into the rules during `run`, by name (`managercore_*`, the prefix dropped). */
async function coreCalls(run) {
  calls.clear();
  await run();
  return new Map([...calls].filter(([k]) => k.startsWith('managercore_')).map(([k, v]) => [k.slice('managercore_'.length), v]));
}

describe('a build crosses into the rules once per need', () => {
  it('stores, masks, summarizes and carries protected and user texts through advance alone', async () => {
    const manager = new ContextManager({
      format: 'anthropic', budget: 6_000, recall: true, store: new MemoryStateRepository(), protectedTools: ['plan'],
      summarizer: { summarize: async () => 'The agent read the files one by one.' },
    });
    await manager.append({ role: 'user', content: 'Read every file and keep the plan.' });
    const seen = new Map();
    for (let t = 0; t < 30; t++) {
      const tool = t % 5 === 0 ? 'plan' : 'read_file';
      await manager.append([
        { role: 'user', content: `Constraint ${t}: keep module ${t} as it is.` },
        { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: tool, input: { path: `src/f${t}.rs` } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `fn f${t}() {}\n`.repeat(60) }] },
      ]);
      for (const [k, v] of await coreCalls(() => manager.build())) seen.set(k, (seen.get(k) ?? 0) + v);
    }
    const records = manager.ledger;
    manager.free();
    assert.ok(records.some((r) => r.compaction?.summarized), 'the session summarized');
    assert.ok(records.some((r) => r.compaction?.masked.length), 'the session masked');
    assert.deepEqual([...seen.keys()].sort(), ['advance', 'commit', 'ledger', 'render'], `calls: ${[...seen].join(' ')}`);
    // More than begin and plan per build: the needs' answers crossed through advance too.
    assert.ok(seen.get('advance') > 2 * seen.get('render'), `${seen.get('advance')} advances for ${seen.get('render')} builds`);
  });
});
