// Issue 21, items 2-4: sessions written ahead (`ContextManager.open`) on SQLite and on a
// real PostgreSQL server. Closed and opened again at any call, a session gives, build after
// build, the requests of one run straight through, and never asks for a summary twice; a
// worker behind the store's version gets a SessionConflictError and writes nothing; a store
// that fails mid-call rejects the call, keeps nothing of it, and takes it again once back.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ContextManager, SessionConflictError } from '@devs/context';
import { PostgresStateRepository } from '@devs/context/postgres';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { assertFieldError, rejected } from './helpers.mjs';
import { postgresDatabases } from './postgres.mjs';
import { drive, sessionCalls, sessionOptions, sessionSpecs, timeless } from './session-driver.mjs';

const sqliteFile = () => join(mkdtempSync(join(tmpdir(), 'session-')), 'state.sqlite');
// A new database on the server for each case, and a pool on it.
const databases = postgresDatabases('s', { own: true });
const pgPool = () => databases.pool();

const STORES = {
  sqlite: async () => {
    const file = sqliteFile();
    return { store: new SqliteStateRepository(file), another: () => new SqliteStateRepository(file) };
  },
  postgres: async () => {
    const pool = await pgPool();
    return { store: new PostgresStateRepository(pool), another: () => new PostgresStateRepository(pool), pool };
  },
};

/** One run straight through, in a store of its own: the requests every other run must give. */
async function reference(spec) {
  const store = new SqliteStateRepository(sqliteFile());
  const paid = [];
  const context = await ContextManager.open(sessionOptions(spec, store, (key) => paid.push(key)));
  const requests = await drive(context, spec);
  const snapshot = timeless(context.snapshot());
  await context.close();
  return { requests, paid, snapshot, outputs: store.getRawToolOutputs().map((r) => r.rawContent) };
}

const specs = sessionSpecs(24, 'resume').filter((s) => s.turns >= 20).slice(0, 4);
// A VS Code extension's session too: its messages come back as the vscode module's classes.
specs.push({ ...specs[0], id: 'resume-vscode', format: 'vscode' });

for (const [kind, make] of Object.entries(STORES)) {
  describe(`ContextManager.open on ${kind}`, () => {
    it('opened again at random calls, every request is the uninterrupted run\'s, and no summary is asked for twice', async () => {
      for (const spec of specs) {
        const whole = await reference(spec);
        assert.ok(whole.paid.length > 0, `${spec.id}: the budget makes the manager summarize`);
        const { store } = await make();
        const paid = [];
        const requests = new Map();
        const total = sessionCalls(spec).length;
        let context = await ContextManager.open(sessionOptions(spec, store, (key) => paid.push(key)));
        // Close after a few calls each time, as a process that ends there would.
        let stopAt = 3;
        while (context.version < total) {
          await drive(context, spec, requests, async (k) => {
            if (k + 1 === stopAt) throw Object.assign(new Error('stop'), { stop: true });
          }).catch((error) => {
            if (!error.stop) throw error;
          });
          await context.close();
          stopAt += 1 + ((stopAt * 7) % 11);
          context = await ContextManager.open(sessionOptions(spec, store, (key) => paid.push(key)));
        }
        assert.equal(requests.size, whole.requests.size);
        for (const [k, request] of whole.requests) assert.equal(requests.get(k), request, `${spec.id}: call ${k}`);
        assert.deepEqual(paid, whole.paid, `${spec.id}: each summary is asked for once, as in one run`);
        assert.ok(timeless(context.snapshot()) === whole.snapshot, `${spec.id}: the state at the end is the one run's (build times aside)`);
        const outputs = (await store.getRawToolOutputs()).map((r) => r.rawContent);
        assert.deepEqual(outputs, whole.outputs, `${spec.id}: each text stored once`);
        await context.close();
      }
    });

    it('a second open in this process, and a worker behind the store, get SessionConflictError; nothing of theirs is written', async () => {
      const { store, another } = await make();
      const spec = specs[0];
      const calls = sessionCalls(spec);
      const first = await ContextManager.open(sessionOptions(spec, store));
      const again = await rejected(ContextManager.open(sessionOptions(spec, store)));
      assert.ok(again instanceof SessionConflictError);
      assert.match(again.message, /already open in this process/);

      // Another worker (its own store object) reads the session, then the first moves it on.
      await calls[0](first);
      const other = await ContextManager.open(sessionOptions(spec, another()));
      assert.equal(other.version, 1);
      await calls[1](first);
      const before = await store.loadSession(spec.id);
      const conflict = await rejected(calls[1](other));
      assert.ok(conflict instanceof SessionConflictError, String(conflict));
      assert.equal(conflict.code, 'ERR_SESSION_CONFLICT');
      assert.deepEqual([conflict.sessionId, conflict.expectedVersion, conflict.actualVersion], [spec.id, 1, 2]);
      assert.match(conflict.message, new RegExp(`"${spec.id}".*version 1.*version 2`));
      assert.deepEqual(await store.loadSession(spec.id), before, 'nothing of the refused call was written');
      // The session is lost to it: it never writes again.
      assert.equal(await rejected(other.append({ role: 'user', content: 'more' })), conflict);
      await calls[2](first);
      assert.equal(first.version, 3);
      await first.close();
      await other.close();
      const reopened = await ContextManager.open(sessionOptions(spec, store));
      assert.equal(reopened.version, 3);
      await reopened.close();
    });

    it('refuses bad options naming the field, and options that differ from the session\'s', async () => {
      const { store } = await make();
      const spec = specs[0];
      for (const [sessionId, why] of [['', 'empty'], [42, 'a number'], ['a\u0000b', 'NUL'], ['a\uD800', 'a lone surrogate'], ['x'.repeat(1025), 'too long']]) {
        assertFieldError(await rejected(ContextManager.open({ ...sessionOptions(spec, store), sessionId })), TypeError, 'options.sessionId');
        void why;
      }
      assertFieldError(await rejected(ContextManager.open({ ...sessionOptions(spec, store), store: { insertRawToolOutput() {} } })), TypeError, 'options.store.loadSession');
      const context = await ContextManager.open(sessionOptions(spec, store));
      await sessionCalls(spec)[0](context);
      await context.close();
      assertFieldError(await rejected(ContextManager.open({ ...sessionOptions(spec, store), budget: spec.budget + 1 })), TypeError, 'options');
      const other = spec.format === 'anthropic' ? 'openai-chat' : 'anthropic';
      assertFieldError(await rejected(ContextManager.open({ ...sessionOptions(spec, store), format: other })), TypeError, 'options.format');
      // A refused open leaves the session free.
      const ok = await ContextManager.open(sessionOptions(spec, store));
      assert.equal(ok.version, 1);
      await ok.close();
    });
  });
}

describe('a store that fails mid-call', () => {
  for (const how of ['stop', 'kill']) it(`PostgreSQL ${how === 'stop' ? 'stopped' : 'killed'} during a build: the build rejects, nothing is half-written, the same call succeeds after the restart; the summary is not asked for again`, async () => {
    const pool = await pgPool();
    const store = new PostgresStateRepository(pool);
    const spec = specs[0];
    const whole = await reference(spec);
    const calls = sessionCalls(spec);
    const paid = [];
    let stopNext = false;
    const options = sessionOptions(spec, store, (key) => paid.push(key));
    const summarize = options.summarizer;
    // The server goes away while the summarizer runs: the build's own write meets it gone.
    options.summarizer = async (prompt) => {
      const answer = await summarize(prompt);
      if (stopNext) {
        stopNext = false;
        await databases.server[how]();
      }
      return answer;
    };
    const context = await ContextManager.open(options);
    const requests = new Map();
    let failed = 0;
    for (let k = 0; k < calls.length; k++) {
      // Before the first build that summarizes, arrange the stop.
      if (!failed && whole.paid.length && paid.length === 0) stopNext = true;
      let result;
      try {
        result = await calls[k](context);
      } catch (error) {
        failed++;
        assert.match(error.message, /^PostgreSQL: .*not acknowledged/);
        assert.ok(['57P01', 'ECONNREFUSED', '57P03'].includes(error.code) || /terminat/i.test(error.message), `${error.code}: ${error.message}`);
        assert.equal(context.version, k, 'the version stays at the last acknowledged call');
        await databases.server.start();
        const rows = await store.loadSession(spec.id);
        assert.equal(rows.version, k, 'nothing of the failed call is in the store');
        assert.equal(rows.changes.length, k);
        result = await calls[k](context);
      }
      if (typeof result === 'string') requests.set(k, result);
    }
    assert.equal(failed, 1, 'the stop met one call');
    for (const [k, request] of whole.requests) assert.equal(requests.get(k), request, `call ${k}`);
    assert.deepEqual(paid, whole.paid, 'the summary paid for before the failure is not asked for again');
    await context.close();
  });

  it('SQLite disk full (a file size limit): the call rejects naming the file; the sessions written before stay readable', async () => {
    const file = sqliteFile();
    const child = new URL('./sqlite-full-child.mjs', import.meta.url).pathname;
    // SIGXFSZ ignored, so the write fails with EFBIG instead of killing the process: as a full disk does.
    const out = execFileSync('sh', ['-c', `trap '' XFSZ; ulimit -f 2000; exec "${process.execPath}" "${child}" "${file}"`], { encoding: 'utf8' });
    const seen = JSON.parse(out);
    assert.ok(seen.message.startsWith(`${file}: `), seen.message);
    assert.match(seen.code, /^SQLITE_(FULL|IOERR)/);
    assert.match(seen.message, /disk is full/);
    assert.ok(seen.version > 5, `calls were written before (${seen.version})`);
    const store = new SqliteStateRepository(file);
    assert.equal(store.loadSession('before').version, 1);
    const filling = await ContextManager.open({ sessionId: 'filling', store, format: 'openai-chat', budget: 100_000 });
    assert.equal(filling.version, seen.version, 'every acknowledged call is there, and nothing of the refused one');
    await filling.close();
    store.close();
  });

  it('a write that landed but whose answer was lost: the same call again is not made twice; another call goes on from it', async () => {
    const spec = specs[0];
    const calls = sessionCalls(spec);
    const whole = await reference(spec);
    for (const [retry, lost] of [['the same call', [0, 3, 4, 6]], ['a later call', [2, 5]]]) {
      const real = new SqliteStateRepository(sqliteFile());
      // The store writes, then the connection drops before it answers, once for each call in `lost`.
      let next = 0;
      const store = answerLost(real, 'commitSession', (commit) => {
        if (!lost.includes(commit.version) || next > commit.version) return false;
        next = commit.version + 1;
        return true;
      });
      const context = await ContextManager.open(sessionOptions(spec, store));
      const requests = new Map();
      let failures = 0;
      for (let k = 0; k < calls.length; k++) {
        let result;
        try {
          result = await calls[k](context);
        } catch (error) {
          assert.equal(error.code, 'ECONNRESET');
          failures++;
          // The host tries the same call again, or (the second time round) goes on with the next.
          if (retry === 'the same call') result = await calls[k](context);
          else continue;
        }
        if (typeof result === 'string') requests.set(k, result);
      }
      assert.equal(failures, lost.length, retry);
      assert.equal(context.version, calls.length, `${retry}: every call written once`);
      for (const [k, request] of whole.requests) if (requests.has(k)) assert.equal(requests.get(k), request, `${retry}: call ${k}`);
      assert.ok(timeless(context.snapshot()) === whole.snapshot, `${retry}: the state is the uninterrupted run's`);
      await context.close();
      real.close();
    }
  });

  it('a shared session\'s append whose answer was lost: the same append again is queued once', async () => {
    const real = new SqliteStateRepository(sqliteFile());
    let drop = 1;
    const store = answerLost(real, 'enqueue', () => drop-- > 0);
    const context = await ContextManager.open({ sessionId: 'shared-retry', store, shared: true, format: 'openai-chat', budget: 10_000 });
    const first = { role: 'user', content: 'run the tests' };
    assert.equal((await rejected(context.append(first))).code, 'ECONNRESET');
    await context.append(first);
    await context.append({ role: 'assistant', content: 'ok' });
    await context.append({ role: 'user', content: 'run the tests' });
    const { messages } = await context.build();
    assert.deepEqual(messages.map((m) => m.content), ['run the tests', 'ok', 'run the tests'], 'the retried append once; an append of the same text made later, again');
    await context.close();
    real.close();
  });

  /** `real`, whose `method` does its work and then, when `lose(...args)` says so, loses its answer as a dropped connection does. */
  function answerLost(real, method, lose) {
    return new Proxy(real, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key !== method) return typeof value === 'function' ? value.bind(target) : value;
        return (...args) => {
          value.apply(target, args);
          if (lose(...args)) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
        };
      },
    });
  }

  /** A SQLite file holding `specs[0]`'s first `n` calls, and its store, open. */
  async function written(n) {
    const file = sqliteFile();
    const store = new SqliteStateRepository(file);
    const context = await ContextManager.open(sessionOptions(specs[0], store));
    const calls = sessionCalls(specs[0]);
    for (let k = 0; k < n; k++) await calls[k](context);
    await context.close();
    return { file, store, spec: specs[0], calls };
  }

  it('a row altered or cut short in the store: open rejects with a TypeError naming the session and version, and writes nothing', async () => {
    const { file, store, spec } = await written(4);
    const db = new Database(file);
    const row = db.prepare('SELECT changes FROM context_changes WHERE session_id = ? AND version = 3').pluck().get(spec.id);
    for (const [altered, why] of [[row.slice(0, row.length / 2), 'is not JSON'], [JSON.stringify({ ...JSON.parse(row), log: 7 }), 'log']]) {
      db.prepare('UPDATE context_changes SET changes = ? WHERE session_id = ? AND version = 3').run(altered, spec.id);
      const error = await rejected(ContextManager.open(sessionOptions(spec, store)));
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.message, new RegExp(`^store: session ${spec.id}, version 3`));
      assert.match(error.message, new RegExp(why));
      assert.equal(store.loadSession(spec.id).version, 4, 'nothing written');
    }
    db.close();
    store.close();
  });

  it('SQLite read-only: the call rejects naming the file, and the sessions before stay readable', async () => {
    const { file, store, spec, calls } = await written(6);
    store.close();

    const readonly = new SqliteStateRepository(file, { readonly: true });
    const resumed = await ContextManager.open(sessionOptions(spec, readonly));
    assert.equal(resumed.version, 6);
    const error = await rejected(calls[6](resumed));
    assert.equal(error.code, 'SQLITE_READONLY');
    assert.ok(error.message.startsWith(`${file}: `), error.message);
    assert.equal(resumed.version, 6);
    await resumed.close();
    readonly.close();
    const again = new SqliteStateRepository(file);
    assert.equal(again.loadSession(spec.id).version, 6);
    again.close();
  });
});
