// Issue 20: memory bounded by what the next request needs. An output the rules stored and
// masked is in the store, not in memory: a heap snapshot taken after a long session holds
// the recent outputs, sent whole, and none of the masked ones.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapSnapshot, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setImmediate as turn } from 'node:timers/promises';
import { AgentRunner, ContextManager } from '@devs/context';
import { envelope } from './helpers.mjs';

const TURNS = 60;
const mark = (t) => `MARK-${String(t).padStart(4, '0')}-`;
/** A fresh output for turn `t`, made when asked for: the test keeps none of them. */
const output = (t) => `${mark(t)}${'log line of a long test run\n'.repeat(160)}`;

/** A store that keeps nothing but a count, so only the context can keep an output alive. */
function forgetfulStore() {
  let n = 0;
  return { insertRawToolOutput: async () => String(++n), stored: () => n };
}

// A full collection on demand, without a flag on the command line. The snapshot collects
// too, but a collection only runs the finalizers (wasm-bindgen's handles) and the promise
// jobs after it returns: on a loaded machine one of them can still hold the last string
// that crossed, so collect, let them run, and collect again.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

/** Which turns' outputs any string of the heap still holds. */
async function turnsInHeap() {
  for (let i = 0; i < 3; i++) {
    gc();
    await turn();
  }
  let text = '';
  for await (const chunk of getHeapSnapshot()) text += chunk;
  const found = new Set();
  for (const m of text.matchAll(/MARK-(\d{4})-/g)) found.add(Number(m[1]));
  return [...found].sort((a, b) => a - b);
}

describe('a stored and masked output leaves memory', () => {
  it('AgentRunner with bounded: only the outputs the next request sends whole stay in the heap', async () => {
    const store = forgetfulStore();
    let t = 0;
    const runner = new AgentRunner({
      agentId: 'mem', taskGoal: 'g',
      llm: async () => {
        t++;
        return { text: `turn ${t}`, envelope: envelope({ observation: { status: 'success', output: output(t) } }) };
      },
      bounded: { budget: 8_000, store, summarizer: async () => 'earlier work' },
    });
    for (let i = 1; i <= TURNS; i++) await runner.runTurn(`go on ${i}`);
    const kept = await turnsInHeap();
    assert.ok(store.stored() >= TURNS / 2, `the rules stored ${store.stored()} outputs`);
    assert.ok(kept.length > 0, 'the newest outputs are sent whole, so they are in memory');
    assert.ok(kept.length <= 8, `outputs of turns ${kept.join(', ')} are still in memory`);
    assert.ok(kept[0] > TURNS - 10, `the output of turn ${kept[0]} is still in memory`);
  });

  it('ContextManager: the same for a host whose messages it was given', async () => {
    const store = forgetfulStore();
    const manager = new ContextManager({ format: 'openai-chat', budget: 8_000, store, summarizer: async () => 'earlier work' });
    for (let t = 1; t <= TURNS; t++) {
      await manager.append([
        { role: 'user', content: `go on ${t}` },
        { role: 'assistant', content: null, tool_calls: [{ id: `c${t}`, type: 'function', function: { name: 'run_tests', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: `c${t}`, content: output(t) },
      ]);
      await manager.build();
    }
    const kept = await turnsInHeap();
    assert.ok(store.stored() >= TURNS / 2, `the rules stored ${store.stored()} outputs`);
    assert.ok(kept.length > 0 && kept.length <= 8, `outputs of turns ${kept.join(', ')} are still in memory`);
    assert.ok(kept[0] > TURNS - 10, `the output of turn ${kept[0]} is still in memory`);
  });
});
