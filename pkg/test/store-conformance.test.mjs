// `@devs/context/testing`: the conformance suite a host runs against its own store, run
// here against both of ours (SQLite, in memory and on disk, and a real PostgreSQL server),
// and against stores broken one way each, which the suite must catch.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionStoreConformance } from '@devs/context/testing';
import { PostgresStateRepository } from '@devs/context/postgres';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { postgresDatabases } from './postgres.mjs';

const databases = postgresDatabases('conformance');
/** A new database on the server for each case, and a store over a pool on it. */
const pools = new WeakMap();
const postgresStore = async () => {
  const pool = await databases.pool();
  const store = new PostgresStateRepository(pool);
  pools.set(store, pool);
  return store;
};
// A call's row deleted with SQL, as damage would.
const sqliteDrop = (s, sessionId, version) => void s.db.prepare('DELETE FROM context_changes WHERE session_id = ? AND version = ?').run(sessionId, version);
const postgresDrop = (s, sessionId, version) => pools.get(s).query('DELETE FROM context_changes WHERE session_id = $1 AND version = $2', [sessionId, version]).then(() => undefined);

const STORES = {
  'SQLite in memory': { make: () => new SqliteStateRepository(':memory:'), dispose: (s) => s.close(), dropCall: sqliteDrop },
  'SQLite on disk': { make: () => new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'conformance-')), 'state.sqlite')), dispose: (s) => s.close(), dropCall: sqliteDrop },
  PostgreSQL: { make: postgresStore, dropCall: postgresDrop },
  // Without dropCall: the rows are left out of what loadSession gives.
  'SQLite, no dropCall': { make: () => new SqliteStateRepository(':memory:'), dispose: (s) => s.close() },
};

for (const [name, { make, dispose, dropCall }] of Object.entries(STORES)) {
  describe(`the store conformance suite on ${name}`, () => {
    const cases = sessionStoreConformance(make, { dispose, dropCall });
    it('has the cases of the whole contract', () => assert.ok(cases.length >= 10, `${cases.length} cases`));
    for (const c of cases) it(c.name, c.run);
  });
}

/** An SQLite store in memory with one method replaced by `broken(store, original)`. */
function brokenStore(method, broken) {
  return () => {
    const store = new SqliteStateRepository(':memory:');
    const original = store[method].bind(store);
    store[method] = (...args) => broken(original, ...args);
    return store;
  };
}

describe('the store conformance suite catches a store that does not conform', () => {
  const BROKEN = [
    ['one that ignores the version it is asked to commit on', 'commitSession', (commit, c) => (c.version > 0 ? undefined : commit(c)),
      'a commit on a version the store has moved past'],
    ['one whose claims are always granted', 'claim', () => true, 'a key is claimed by one owner at a time'],
    ['one that loses the newest call', 'loadSession', async (load, id, after) => {
      const rows = await load(id, after);
      return rows && { ...rows, changes: rows.changes.slice(0, -1) };
    }, 'commits are versions, in order'],
    ['one that queues a retried append twice', 'enqueue', (enqueue, id, messages, appendId) => enqueue(id, messages, `${appendId}-${Math.random()}`), 'appends are queued in order'],
    ['one whose version is counted from the rows it has', 'loadSession', async (load, id, after = 0) => {
      const rows = await load(id, after);
      const start = rows?.checkpoint ? rows.checkpoint.version - 1 : after;
      return rows && { ...rows, version: start + rows.changes.length, versions: undefined };
    }, 'a session that lost the row of its newest call'],
  ];
  for (const [what, method, broken, failing] of BROKEN) {
    it(what, async () => {
      const cases = sessionStoreConformance(brokenStore(method, broken), { dispose: (s) => s.close(), dropCall: sqliteDrop });
      const failed = [];
      for (const c of cases) {
        try {
          await c.run();
        } catch (error) {
          assert.ok(error.message.startsWith(`[${c.name}]`), `the failure names its case: ${error.message}`);
          failed.push(c.name);
        }
      }
      assert.ok(failed.some((n) => n.startsWith(failing)), `the case "${failing}…" did not fail; failed: ${failed.join('; ') || 'none'}`);
    });
  }

  it('refuses a makeStore that is not a function and bad options, naming them', () => {
    assert.throws(() => sessionStoreConformance(new SqliteStateRepository(':memory:')), (e) => e instanceof TypeError && /makeStore/.test(e.message));
    const make = () => new SqliteStateRepository(':memory:');
    assert.throws(() => sessionStoreConformance(make, null), (e) => e instanceof TypeError && /^options/.test(e.message));
    assert.throws(() => sessionStoreConformance(make, { dispose: 'close' }), (e) => e instanceof TypeError && /options\.dispose/.test(e.message));
    assert.throws(() => sessionStoreConformance(make, { dropCall: true }), (e) => e instanceof TypeError && /options\.dropCall/.test(e.message));
    assert.throws(() => sessionStoreConformance(make, { claimTtlMs: -1 }), (e) => e instanceof RangeError && /options\.claimTtlMs/.test(e.message));
  });
});
