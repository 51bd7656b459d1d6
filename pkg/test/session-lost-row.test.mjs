// Issue 47, item 5: a durable session that lost a call's row is refused. The session's own
// row still counts the call, and the rows before it replay as a session one call short, so
// nothing else notices the newest one gone. Deleted with SQL, from today's SQLite and
// PostgreSQL stores, from files and dumps past versions wrote (fixtures/past/, copied, never
// changed), the newest row, one in the middle and the newest checkpoint's: opening it is an
// ERR_STORE_CORRUPT naming the session and the version; the session as written opens. A
// session whose own row is gone is refused too, not opened as a new one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ContextManager } from '@devs/context';
import { PostgresStateRepository } from '@devs/context/postgres';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { createTokenCounter } from '@devs/context/tokenizers';
import { rejected } from './helpers.mjs';
import { pastCases } from './past-bundle.mjs';
import { postgresDatabases } from './postgres.mjs';

const databases = postgresDatabases('lost');
// The past fixtures' cases (fixtures/past/: past-bundle.mjs), by name.
const past = new Map(pastCases().map((c) => [c.name, c]));
const tmpFile = () => join(mkdtempSync(join(tmpdir(), 'lost-row-')), 'state.sqlite');

const options = (store, sessionId, extra = {}) => ({ sessionId, store, format: 'openai-chat', budget: 6_000, system: 'You are a coding agent.', ...extra });
// The options the past fixtures were written with (their manifest.json).
const pastOptions = (store, format) => ({
  sessionId: 'fixture', store, format, budget: 8_000, countTokens: createTokenCounter('o200k_base'), system: 'You are a coding agent.',
  summarizer: (prompt) => `Summary: ${prompt.slice(0, 600)} … ${prompt.slice(-600)}`,
});

/** Writes `calls` calls of a coding agent's session (appends, builds, usage) and closes it. */
async function write(store, sessionId, calls) {
  const s = await ContextManager.open(options(store, sessionId));
  await s.append({ role: 'user', content: 'Make the parser tests pass.' });
  for (let k = 1; s.version < calls; k++) {
    const step = [
      () => s.build(),
      () => s.recordUsage({ prompt_tokens: 500 + k }),
      () => s.append([{ role: 'assistant', content: `step ${k}: ${'reading the parser. '.repeat(20)}` }, { role: 'user', content: `go on ${k}` }]),
    ][k % 3];
    await step();
  }
  await s.close();
}

/** Opening the session is refused: an `ERR_STORE_CORRUPT` naming it and the version lost. */
function assertLost(error, sessionId, version) {
  assert.ok(error instanceof Error, String(error));
  assert.equal(error.code, 'ERR_STORE_CORRUPT', `${error.code}: ${error.message}`);
  assert.ok(error.message.startsWith(`store: session ${sessionId}, version ${version} is missing: `), error.message);
}

/** Opens the session and builds: it opens at `version`, and its next call is written after it. */
async function assertOpens(store, opts, version) {
  const s = await ContextManager.open(opts);
  assert.equal(s.version, version);
  await s.append({ role: 'user', content: 'one more' });
  await s.build();
  assert.equal(s.version, version + 2);
  await s.close();
}

describe('SQLite, today\'s format', () => {
  /** A copy of `file` with the rows of `versions` of `sessionId` deleted. */
  const without = (file, sessionId, versions) => {
    const copy = tmpFile();
    writeFileSync(copy, readFileSync(file));
    const db = new Database(copy);
    for (const v of versions) assert.equal(db.prepare('DELETE FROM context_changes WHERE session_id = ? AND version = ?').run(sessionId, v).changes, 1);
    db.close();
    return copy;
  };
  /** What opening `file`'s session gives: the error it is refused with. */
  const refusal = async (file, sessionId) => {
    const store = new SqliteStateRepository(file);
    try {
      return await rejected(ContextManager.open(options(store, sessionId)));
    } finally {
      store.close();
    }
  };

  it('the newest row, one in the middle, the first: refused naming the session and the version; as written, it opens', async () => {
    const file = tmpFile();
    const store = new SqliteStateRepository(file);
    await write(store, 's1', 12);
    store.close();
    for (const [lost, named] of [[[12], 12], [[6], 6], [[1], 1], [[11, 12], 11], [[3, 9], 3]]) {
      assertLost(await refusal(without(file, 's1', lost), 's1'), 's1', named);
    }
    const whole = new SqliteStateRepository(without(file, 's1', []));
    await assertOpens(whole, options(whole, 's1'), 12);
    whole.close();
  });

  it('the session\'s own row: refused, not opened as a new session', async () => {
    const file = tmpFile();
    const store = new SqliteStateRepository(file);
    await write(store, 's1', 6);
    store.close();
    const db = new Database(file);
    db.prepare('DELETE FROM context_sessions WHERE session_id = ?').run('s1');
    db.close();
    const error = await refusal(file, 's1');
    assert.equal(error.code, 'ERR_STORE_CORRUPT', String(error));
    assert.match(error.message, /^store: session s1: the session's own row is missing/);
  });

  it('past a checkpoint: the newest row, the checkpoint\'s own, one after it; the newest row holding the newest checkpoint', async () => {
    const file = tmpFile();
    const store = new SqliteStateRepository(file);
    await write(store, 'long', 70);
    await write(store, 'at-64', 64);
    const cp = store.loadSession('long');
    assert.equal(cp.checkpoint?.version, 64, 'the call on version 63 wrote a checkpoint');
    store.close();
    for (const [id, lost] of [['long', 70], ['long', 64], ['long', 66], ['at-64', 64]]) {
      assertLost(await refusal(without(file, id, [lost]), id), id, lost);
    }
    const whole = new SqliteStateRepository(without(file, 'long', []));
    await assertOpens(whole, options(whole, 'long'), 70);
    whole.close();
    // A row before the newest checkpoint is not read: the checkpoint holds the state it made.
    const before = new SqliteStateRepository(without(file, 'long', [10]));
    await assertOpens(before, options(before, 'long'), 70);
    before.close();
  });

  it('a shared session catching up with what another worker wrote refuses a row lost since', async () => {
    const file = tmpFile();
    const [a, b] = [new SqliteStateRepository(file), new SqliteStateRepository(file)];
    const first = await ContextManager.open(options(a, 'shared', { shared: true }));
    await first.append({ role: 'user', content: 'Make the parser tests pass.' });
    await first.build();
    const second = await ContextManager.open(options(b, 'shared', { shared: true }));
    await second.append({ role: 'user', content: 'and the lexer' });
    await second.build();
    await second.build();
    await second.close();
    const db = new Database(file);
    const newest = db.prepare('SELECT version FROM context_sessions WHERE session_id = ?').pluck().get('shared');
    db.prepare('DELETE FROM context_changes WHERE session_id = ? AND version = ?').run('shared', newest);
    db.close();
    assertLost(await rejected(first.build()), 'shared', newest);
    await first.close().catch(() => undefined);
    a.close();
    b.close();
  });
});

/** A call between the newest checkpoint (a session opens from it) and the newest call. */
const middle = (newest, checkpoint) => Math.floor(((checkpoint ?? 0) + newest) / 2);
/** The newest checkpoint's version in a SQLite file, if its schema keeps them. */
const checkpointOf = (db) => (db.prepare('PRAGMA table_info(context_changes)').all().some((c) => c.name === 'checkpoint')
  ? db.prepare('SELECT MAX(version) FROM context_changes WHERE checkpoint IS NOT NULL').pluck().get() : null);

describe('SQLite files past versions wrote', () => {
  for (const [commit, format] of [['e98c739', 'anthropic'], ['fd0688b', 'openai-chat']]) {
    it(`${commit} (${format}): the newest row, one in the middle: refused naming the version; as written, it opens`, async () => {
      const dir = 'claude-code-session/turn-072-of-217';
      const copy = (lost) => {
        const file = tmpFile();
        writeFileSync(file, past.get(commit).bytes(`${dir}/session-${format}.sqlite`));
        const db = new Database(file);
        const newest = db.prepare('SELECT version FROM context_sessions WHERE session_id = ?').pluck().get('fixture');
        const version = lost === 'newest' ? newest : lost === 'middle' ? middle(newest, checkpointOf(db)) : null;
        if (version !== null) assert.equal(db.prepare('DELETE FROM context_changes WHERE session_id = ? AND version = ?').run('fixture', version).changes, 1);
        db.close();
        return { store: new SqliteStateRepository(file), newest, version };
      };
      for (const lost of ['newest', 'middle']) {
        const { store, version } = copy(lost);
        assertLost(await rejected(ContextManager.open(pastOptions(store, format))), 'fixture', version);
        store.close();
      }
      const { store, newest } = copy(null);
      const s = await ContextManager.open(pastOptions(store, format));
      assert.equal(s.version, newest);
      await s.build();
      await s.close();
      store.close();
    });
  }
});

describe('PostgreSQL', () => {
  const lose = (pool, sessionId, version) => pool.query('DELETE FROM context_changes WHERE session_id = $1 AND version = $2', [sessionId, version])
    .then((r) => assert.equal(r.rowCount, 1));

  it('the newest row, one in the middle, past a checkpoint: refused naming the session and the version; as written, it opens', async () => {
    const pool = await databases.pool();
    const store = new PostgresStateRepository(pool);
    const cases = [['newest', 12, 12], ['middle', 12, 6], ['past-cp', 70, 70], ['cp-row', 70, 64], ['whole', 70, null]];
    for (const [id, calls] of cases) await write(store, id, calls);
    for (const [id, , lost] of cases) if (lost !== null) await lose(pool, id, lost);
    for (const [id, , lost] of cases) if (lost !== null) assertLost(await rejected(ContextManager.open(options(store, id))), id, lost);
    await assertOpens(store, options(store, 'whole'), 70);
    await pool.query('DELETE FROM context_sessions WHERE session_id = $1', ['whole']);
    const error = await rejected(ContextManager.open(options(store, 'whole')));
    assert.equal(error.code, 'ERR_STORE_CORRUPT', String(error));
    assert.match(error.message, /^store: session whole: the session's own row is missing/);
  });

  it('a session fd0688b wrote (its pg_dump): the newest row, one in the middle: refused; as written, it opens', async () => {
    const dir = 'claude-code-session/turn-072-of-217';
    const format = 'openai-chat';
    const restore = async () => {
      const pool = await databases.pool();
      const psql = existsSync(join(databases.server.bin, 'psql')) ? join(databases.server.bin, 'psql') : 'psql';
      execFileSync(psql, ['-q', '-v', 'ON_ERROR_STOP=1', '-d', pool.options.connectionString, '-f', '-'], { input: past.get('fd0688b').bytes(`${dir}/session-${format}.postgres.sql`), stdio: ['pipe', 'ignore', 'pipe'] });
      const { rows } = await pool.query('SELECT version FROM context_sessions WHERE session_id = $1', ['fixture']);
      const store = new PostgresStateRepository(pool);
      await store.ready();
      const cp = await pool.query('SELECT MAX(version) AS v FROM context_changes WHERE checkpoint IS NOT NULL');
      return { pool, store, newest: Number(rows[0].version), checkpoint: cp.rows[0].v === null ? null : Number(cp.rows[0].v) };
    };
    for (const lost of ['newest', 'middle']) {
      const { pool, store, newest, checkpoint } = await restore();
      const version = lost === 'newest' ? newest : middle(newest, checkpoint);
      await lose(pool, 'fixture', version);
      assertLost(await rejected(ContextManager.open(pastOptions(store, format))), 'fixture', version);
    }
    const { store, newest } = await restore();
    const s = await ContextManager.open(pastOptions(store, format));
    assert.equal(s.version, newest);
    await s.build();
    await s.close();
  });
});
