#!/usr/bin/env node
// A tool call whose input is one object of many short keys, in a request it leaves over
// the budget: how long `build()` takes, and how it ends. Each cut of such an input runs
// over its whole text and cannot make it smaller, so the time must grow with the input's
// size, not with its size times the number of cuts (issue 47: 2,500 keys once took
// 38 to 57 s). Build first. Prints a line per size: keys, input size, ms, and the end.
//
//   node bench/wide-arguments.mjs [2500,10000,100000]
import { createRequire } from 'node:module';

const { ContextManager } = createRequire(import.meta.url)('../pkg');
const sizes = (process.argv[2] ?? '2500,10000,100000').split(',').map(Number);

console.log('keys      input      build      end');
for (const n of sizes) {
  const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [`key_${i}`, `value ${i}`]));
  const m = new ContextManager({ format: 'anthropic', budget: 20_000 });
  m.append({ role: 'user', content: 'Write the config.' });
  m.append({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'write', input }] });
  m.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] });
  const t = performance.now();
  let end;
  try {
    end = `built, ${(await m.build()).tokens} tokens`;
  } catch (e) {
    end = `refused (${e.constructor.name} ${e.code ?? ''})`;
  }
  const ms = performance.now() - t;
  console.log(`${String(n).padEnd(9)} ${`${(JSON.stringify(input).length / 1024).toFixed(0)} KB`.padEnd(10)} ${`${ms.toFixed(0)} ms`.padEnd(10)} ${end}`);
}
