// One of the processes of shared-session.test.mjs: it appends its own numbered turns to a
// shared session and builds now and then, as a host that appends from several processes
// would; each summary it pays for is logged.
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import pg from 'pg';
import { ContextManager } from '@devs/context';
import { PostgresStateRepository } from '@devs/context/postgres';
import { SqliteStateRepository } from '@devs/context/sqlite';

const config = JSON.parse(process.argv[2]);
let pool;
let store;
if (config.target.kind === 'postgres') {
  pool = new pg.Pool({ connectionString: config.target.connectionString, max: 2 });
  store = new PostgresStateRepository(pool);
} else {
  store = new SqliteStateRepository(config.target.file);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// eslint-disable-next-line prefer-const
let context;
context = await ContextManager.open({
  sessionId: config.sessionId, store, shared: true, format: 'openai-chat', budget: 3_000,
  summarizer: async (prompt) => {
    if (config.hang) {
      // A summarizer that never answers: the test kills this process while it waits.
      appendFileSync(config.log, `${JSON.stringify({ hanging: process.pid })}\n`);
      return new Promise(() => {});
    }
    // Long enough for the others to want the same compaction meanwhile.
    await sleep(30);
    const answer = `Earlier: ${prompt.length} characters (${createHash('sha256').update(prompt).digest('hex').slice(0, 16)}).`;
    // The version the build is made on: the compaction's epoch.
    appendFileSync(config.log, `${JSON.stringify({ answer, epoch: context.version, pid: process.pid })}\n`);
    return answer;
  },
});
const filler = 'the build output was long and said little of use; '.repeat(12);
for (let i = 0; i < config.appends; i++) {
  await context.append([
    { role: 'user', content: `p${config.worker} m${i}: ${filler}` },
    { role: 'assistant', content: `ok p${config.worker} m${i}` },
  ]);
  if (i % 3 === 2) await context.build();
  await sleep(Math.floor(Math.random() * 8));
}
await context.build();
await context.close();
await pool?.end();
