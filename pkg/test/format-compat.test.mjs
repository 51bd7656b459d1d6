// Data written by an earlier version is read by this one: every fixture ever committed
// under fixtures/format-v<N>/ (a snapshot, a SQLite session, a PostgreSQL session's rows,
// made by that version's make.mjs) restores to a manager whose next request is, byte for
// byte, the one that version built, so a fleet's rolling deploy keeps every cache warm;
// or, where today's rules decide otherwise than the ones that wrote it, is rebuilt once:
// that request says so (`format-migrated`), is valid and within the budget, and every id
// the old request named is still recallable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from './postgres.mjs';
import { PROBLEMS } from './validity.mjs';

const require = createRequire(import.meta.url);
const { ContextManager } = require('@devs/context');
const { SqliteStateRepository } = require('@devs/context/sqlite');
const { PostgresStateRepository } = require('@devs/context/postgres');
const { createTokenCounter } = require('@devs/context/tokenizers');
const pg = require('pg');

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const versions = readdirSync(fixtures).filter((d) => /^format-v\d+$/.test(d)).sort();
const o200k = createTokenCounter('o200k_base');
// The options the fixtures were made with (their make.mjs): a restore needs the same.
const OPTIONS = {
  budget: 12_000, countTokens: o200k, recall: true, system: 'You are a coding agent.',
  summarizer: (prompt) => `Summary: ${prompt.slice(0, 600)} … ${prompt.slice(-600)}`,
};
const read = (dir, file) => readFileSync(join(fixtures, dir, file), 'utf8');
const request = (r) => JSON.stringify({ system: r.system, messages: r.messages });

/** The next request `built` of a restored `context`, against `old`, the one that version built. */
async function sameOrMigrated(context, built, old, format) {
  const migrated = built.ledger.warnings.find((w) => w.code === 'format-migrated');
  if (!migrated) {
    assert.equal(request(built), old);
    return 'identical';
  }
  assert.match(migrated.message, /rebuilt once/);
  assert.ok(built.tokens <= OPTIONS.budget, `${built.tokens} tokens`);
  assert.deepEqual(PROBLEMS[format](built), []);
  const ids = [...new Set([...old.matchAll(/stored as ([^\s;,\]\\"]+)/g)].map((m) => m[1]))];
  assert.ok(ids.length > 0, 'the old request named stored ids');
  for (const id of ids) {
    const back = await context.recall(id);
    assert.ok(!back.startsWith('[recall:'), `id ${id} of the old request is recallable: ${back.slice(0, 120)}`);
  }
  return 'migrated';
}

describe('data written by earlier versions', () => {
  let server;
  let pool;
  before(async () => {
    server = await startPostgres();
    pool = new pg.Pool({ connectionString: server.connectionString, max: 2 });
    // An idle client the server drops as it stops is no failure of the test.
    pool.on('error', () => {});
  });
  after(async () => {
    await pool?.end();
    await server?.destroy();
  });

  it('there are fixtures of format 1', () => assert.ok(versions.includes('format-v1'), versions.join(', ')));

  for (const dir of versions) {
    it(`${dir}: a snapshot restores, and its next request is the one it built`, async () => {
      // The store the snapshot's texts are in, as that version left it.
      const rows = JSON.parse(read(dir, 'snapshot-anthropic.store.json'));
      const store = { insertRawToolOutput: async () => String(rows.length + 1), getRawToolOutput: async (id) => rows.find((r) => String(r.id) === String(id)) };
      const cm = ContextManager.restore(JSON.parse(read(dir, 'snapshot-anthropic.json')), { ...OPTIONS, format: 'anthropic', store });
      await sameOrMigrated(cm, await cm.build(), read(dir, 'snapshot-anthropic.next.json'), 'anthropic');
    });

    it(`${dir}: a SQLite session opens (its store migrated forward), and its next request is the one it built`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'compat-')), 'state.sqlite');
      copyFileSync(join(fixtures, dir, 'session.sqlite'), file);
      const store = new SqliteStateRepository(file);
      const s = await ContextManager.open({ ...OPTIONS, format: 'openai-chat', sessionId: 'fixture', store });
      await sameOrMigrated(s, await s.build(), read(dir, 'session.next.json'), 'openai-chat');
      await s.close();
      // Opened again: from the checkpoint the migration wrote, not rebuilt a second time.
      const again = await ContextManager.open({ ...OPTIONS, format: 'openai-chat', sessionId: 'fixture', store });
      const next = await again.build();
      assert.ok(!next.ledger.warnings.some((w) => w.code === 'format-migrated'), 'migrated once');
      await again.close();
      store.close();
    });

    it(`${dir}: a PostgreSQL session's rows open, and its next request is the one it built`, async () => {
      // A database of its own: the rows as that version's tables held them, in tables this
      // version makes (its migrations read the older schema the same way).
      const db = `compat_${dir.replace(/\W/g, '_')}`;
      await pool.query(`CREATE DATABASE ${db}`);
      const own = new pg.Pool({ connectionString: server.connectionString.replace(/\/postgres$/, `/${db}`), max: 2 });
      own.on('error', () => {});
      try {
        const store = new PostgresStateRepository(own);
        await store.ready();
        const rows = JSON.parse(read(dir, 'session-postgres.rows.json'));
        for (const [table, list] of Object.entries(rows)) {
          for (const row of list) {
            const keys = Object.keys(row);
            const values = keys.map((k) => (row[k] && row[k].type === 'Buffer' ? Buffer.from(row[k].data) : row[k]));
            await own.query(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')})`, values);
          }
        }
        // Ids inserted as they were: the next one the serial gives comes after them.
        await own.query(`SELECT setval(pg_get_serial_sequence('raw_tool_outputs', 'id'), (SELECT max(id) FROM raw_tool_outputs))`);
        const s = await ContextManager.open({ ...OPTIONS, format: 'openai-chat', sessionId: 'fixture', store });
        await sameOrMigrated(s, await s.build(), read(dir, 'session.next.json'), 'openai-chat');
        await s.close();
      } finally {
        await own.end();
      }
    });
  }
});
