// A session writes its state now and then (a checkpoint, beside that call's row: first at
// call 64, then once the rows since outweigh the last one, `session/spacing.ts`): opening
// it reads the newest checkpoint and the calls from it on, not every call since the start,
// and goes on exactly as the session that wrote it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from './postgres.mjs';

const require = createRequire(import.meta.url);
const { ContextManager } = require('@devs/context');
const { SqliteStateRepository } = require('@devs/context/sqlite');
const { PostgresStateRepository } = require('@devs/context/postgres');
const { createTokenCounter } = require('@devs/context/tokenizers');
const pg = require('pg');

const o200k = createTokenCounter('o200k_base');
const OPTIONS = { format: 'openai-chat', budget: 6_000, countTokens: o200k, summarizer: (p) => `so far: ${p.slice(-300)}`, recall: true };

/** Call `n` of a session: an append, or a build with its usage. */
async function call(context, n) {
  if (n % 3 === 2) {
    const r = await context.build();
    await context.recordUsage({ prompt_tokens: r.tokens + 7 });
    return r;
  }
  await context.append(n % 3 === 0
    ? { role: 'user', content: `step ${n}: read src/mod_${n}.rs and fix ${'what it says '.repeat(20)}` }
    : { role: 'assistant', content: `src/mod_${n - 1}.rs: ${'done, the parser reads it now. '.repeat(25)}` });
  return undefined;
}

const request = (r) => JSON.stringify({ system: r.system, messages: r.messages });

describe('checkpoints', () => {
  let server;
  let pool;
  before(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
    pool.on('error', () => {});
  });
  after(async () => {
    await pool?.end();
    await server?.destroy();
  });

  const stores = {
    SQLite: () => new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'checkpoint-')), 'state.sqlite')),
    PostgreSQL: () => new PostgresStateRepository(pool),
  };
  for (const [name, make] of Object.entries(stores)) {
    it(`${name}: a session of 200 calls opens from its newest checkpoint and goes on as the one that wrote it`, async () => {
      const store = make();
      const sessionId = `long-a-${name}`;
      const written = await ContextManager.open({ ...OPTIONS, sessionId, store });
      // The reference: the same calls in a session of its own that is never closed (its
      // name as long, so its store ids, and the lines naming them, are as long).
      const reference = await ContextManager.open({ ...OPTIONS, sessionId: `long-b-${name}`, store });
      for (let n = 0; n < 200; n++) {
        await call(written, n);
        await call(reference, n);
      }
      await written.close();
      const rows = await store.loadSession(sessionId);
      // A build and its usage are a call each: 200 steps are 266 calls.
      assert.equal(rows.version, 266);
      const cp = rows.checkpoint?.version;
      assert.ok(cp >= 64 && cp < 266, `a checkpoint, at call ${cp}`);
      assert.equal(rows.changes.length, 266 - cp + 1, 'the calls from it on, not all 266');
      const opened = await ContextManager.open({ ...OPTIONS, sessionId, store });
      for (let n = 200; n < 260; n++) {
        const [a, b] = [await call(opened, n), await call(reference, n)];
        if (a) assert.ok(request(a) === request(b).replaceAll('long-b-', 'long-a-'), `call ${n}: the same request`);
      }
      await opened.close();
      await reference.close();
    });

    it(`${name}: a checkpoint altered in the store is refused naming it, and nothing is made of it`, async () => {
      const store = make();
      const sessionId = `altered-${name}`;
      const s = await ContextManager.open({ ...OPTIONS, sessionId, store });
      for (let n = 0; n < 70; n++) await call(s, n);
      await s.close();
      const alter = (state) => state.replace(/"summary":"[^"]*"/, '"summary":"edited"');
      if (name === 'SQLite') store.db.prepare('UPDATE context_changes SET checkpoint = ? WHERE session_id = ? AND checkpoint IS NOT NULL').run(alter(store.db.prepare('SELECT checkpoint FROM context_changes WHERE session_id = ? AND checkpoint IS NOT NULL').pluck().get(sessionId)), sessionId);
      else {
        const { rows } = await pool.query('SELECT checkpoint FROM context_changes WHERE session_id = $1 AND checkpoint IS NOT NULL', [sessionId]);
        await pool.query('UPDATE context_changes SET checkpoint = $1 WHERE session_id = $2 AND checkpoint IS NOT NULL', [alter(rows[0].checkpoint), sessionId]);
      }
      const error = await ContextManager.open({ ...OPTIONS, sessionId, store }).catch((e) => e);
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.field, new RegExp(`^store: session ${sessionId}, checkpoint at version 64`));
    });
  }
});
