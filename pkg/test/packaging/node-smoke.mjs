// The packed package's smoke, run by npm-pack.test.mjs in one host project under each Node
// `engines` names: every entry by require and by import, one ContextManager build, the
// tokenizers, and the SQLite store (its native module, better-sqlite3, is built for one
// Node's ABI). It prints one JSON object, the same on every Node but for `node` and `sqlite`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ENTRIES = ['', '/slim', '/tokenizers', '/sqlite', '/postgres', '/testing', '/replay', '/eval', '/ai-sdk', '/langchain', '/openai-agents', '/tanstack-ai', '/mastra']
  .map((e) => `@devs/context${e}`);

const out = { node: process.versions.node, entries: {} };
for (const name of ENTRIES) {
  const both = [];
  for (const load of [() => require(name), () => import(name)]) {
    try {
      both.push(Object.keys(await load()).filter((k) => k !== 'default' && k !== 'module.exports').sort().join(' '));
    } catch (error) {
      both.push(`failed: ${error.code ?? ''} ${error.message.split('\n')[0]}`);
    }
  }
  out.entries[name] = both[0] === both[1] ? both[0] : { require: both[0], import: both[1] };
}

const { ContextManager } = await import('@devs/context');
const { createTokenCounter } = await import('@devs/context/tokenizers');
const o200k = createTokenCounter('o200k_base');
out.tokens = [o200k('hello world'), createTokenCounter('cl100k_base')('hello world'), o200k('<|endoftext|>')];
const context = new ContextManager({ format: 'anthropic', budget: 10_000, countTokens: o200k, system: 'You are a coding agent.', recall: true });
context.append({ role: 'user', content: 'Make the parser tests pass' });
context.append({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'cargo test' } }] });
context.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'test parser::last_token ... FAILED\n'.repeat(400) }] });
const { system, messages, tokens, ledger } = await context.build();
out.build = { system, messages: messages.length, tokens, cut: ledger.cut, tool: context.recallTool.name };

try {
  const { SqliteStateRepository } = await import('@devs/context/sqlite');
  const store = new SqliteStateRepository(':memory:');
  const id = await store.insertRawToolOutput({ toolName: 'run_tests', rawContent: 'ok', byteSize: 2, turnAge: 0, capturedAt: 0 });
  out.sqlite = store.getRawToolOutput(id)?.rawContent;
  store.close();
} catch (error) {
  out.sqlite = `failed: ${error.code ?? ''} ${error.message.replace(/\s+/g, ' ')}`;
}
console.log(JSON.stringify(out));
