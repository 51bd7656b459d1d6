// Run by session.test.mjs under a file size limit: writes a first session whole, then
// appends to a second until the disk refuses; prints what it saw as JSON.
import { ContextManager } from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';

const store = new SqliteStateRepository(process.argv[2]);
const first = await ContextManager.open({ sessionId: 'before', store, format: 'openai-chat', budget: 100_000 });
await first.append({ role: 'user', content: 'written before the disk filled' });
await first.close();
const context = await ContextManager.open({ sessionId: 'filling', store, format: 'openai-chat', budget: 100_000 });
let n = 0;
try {
  for (;;) await context.append({ role: 'user', content: `${n++} ${'x'.repeat(20_000)}` });
} catch (error) {
  // The session is as it was: the failed call left nothing in it.
  console.log(JSON.stringify({ code: error.code, message: error.message, version: context.version }));
}
