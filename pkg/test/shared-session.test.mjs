// Issue 21, item 4: single-flight compaction. Three processes append to one shared session
// and build at will, on a real PostgreSQL server and on one SQLite file. The summarizer is
// asked once per compaction (every summary paid for is the one a written build holds), and
// every append is kept, once, each process's in the order it made them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import Database from 'better-sqlite3';
import { ContextManager } from '@devs/context';
import { PostgresStateRepository } from '@devs/context/postgres';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { startPostgres } from './postgres.mjs';

const PROCESSES = 3;
const APPENDS = 30;
const worker = new URL('./shared-worker.mjs', import.meta.url).pathname;

let server;
before(async () => {
  server = await startPostgres();
});
after(async () => {
  await server?.destroy();
});

async function runProcesses(target) {
  const log = join(mkdtempSync(join(tmpdir(), 'shared-')), 'paid.log');
  const exits = await Promise.all(Array.from({ length: PROCESSES }, (_, w) => new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, JSON.stringify({ target, log, worker: w, appends: APPENDS, sessionId: 'shared-1' })], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stderr }));
  })));
  for (const e of exits) assert.equal(e.code, 0, e.stderr);
  return readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

/** Checks the session's written calls: summaries against those paid for, appends in order. */
function check(rows, paid, queue) {
  assert.equal(rows.inbox.length, 0, 'every queued append was taken in');
  const changes = rows.changes.map((c) => JSON.parse(c));
  // What the summarizer wrote: the working state the rules write after it is not paid for.
  const written = (summary) => summary.replace(/(^|\n\n)<working-state>[^]*<\/working-state>$/, '');
  const summaries = new Set(changes.filter((c) => c.summary !== undefined).map((c) => written(c.summary)));
  const epochs = new Map();
  for (const p of paid) epochs.set(p.epoch, [...(epochs.get(p.epoch) ?? []), p]);
  assert.ok(summaries.size >= 3, `the budget makes the session compact several times (${summaries.size})`);
  assert.equal(new Set(paid.map((p) => p.answer)).size, paid.length, 'no summary asked for twice');
  for (const [epoch, calls] of epochs) {
    assert.equal(new Set(calls.map((c) => c.pid)).size, 1, `the compaction on version ${epoch} was run by one process: ${JSON.stringify(calls)}`);
  }
  for (const summary of summaries) assert.ok(paid.some((p) => p.answer === summary), 'every summary held was paid for once');
  // Every append was taken in once, by a written build, each process's in its order.
  const order = Array.from({ length: PROCESSES }, () => []);
  for (const { messages } of queue.slice().sort((a, b) => a.taken_in - b.taken_in || a.seq - b.seq)) {
    const [, w, i] = /^p(\d+) m(\d+):/.exec(JSON.parse(messages)[0].content);
    order[Number(w)].push(Number(i));
  }
  assert.ok(queue.every((q) => q.taken_in !== null && q.taken_in <= rows.version), 'every queued append was taken in by a written call');
  for (const [w, list] of order.entries()) assert.deepEqual(list, Array.from({ length: APPENDS }, (_, i) => i), `process ${w}'s appends, each once, in its order`);
}

describe('a session shared by 3 processes', () => {
  it('PostgreSQL: one summarizer call per compaction, every append kept in order', async () => {
    const admin = new pg.Pool({ connectionString: server.connectionString, max: 1 });
    await admin.query('CREATE DATABASE shared');
    await admin.end();
    const target = { kind: 'postgres', connectionString: server.connectionString.replace(/\/postgres$/, '/shared') };
    const paid = await runProcesses(target);
    const pool = new pg.Pool({ connectionString: target.connectionString, max: 1 });
    try {
      const queue = (await pool.query("SELECT seq::int, messages, taken_in::int FROM context_inbox WHERE session_id = 'shared-1'")).rows;
      check(await new PostgresStateRepository(pool).loadSession('shared-1'), paid, queue);
    } finally {
      await pool.end();
    }
  });

  it('a worker killed while it builds (its summarizer never answers): its claim lapses, and another builds the session', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'shared-kill-')), 'state.sqlite');
    new SqliteStateRepository(file).close();
    const log = join(mkdtempSync(join(tmpdir(), 'shared-kill-log-')), 'paid.log');
    const child = spawn(process.execPath, [worker, JSON.stringify({ target: { kind: 'sqlite', file }, log, worker: 0, appends: 30, sessionId: 'shared-kill', hang: true })], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    while (!(existsSync(log) && readFileSync(log, 'utf8').includes('hanging'))) await new Promise((resolve) => setTimeout(resolve, 20));
    // While it waits on its summarizer the worker holds the build claim, renewed, for a few seconds at a time.
    const db = new Database(file, { readonly: true });
    const claim = db.prepare("SELECT claimed_by, claimed_until FROM context_summaries WHERE session_id = 'shared-kill' AND key = 'build'").get();
    db.close();
    assert.ok(claim?.claimed_by, 'the build is claimed');
    assert.ok(claim.claimed_until - Date.now() <= 5_000, `the claim runs ${claim.claimed_until - Date.now()} ms ahead, not the summarizer's 120 s`);
    child.kill('SIGKILL');
    await exited;
    const store = new SqliteStateRepository(file);
    const asked = [];
    const context = await ContextManager.open({ sessionId: 'shared-kill', store, shared: true, format: 'openai-chat', budget: 3_000, summarizer: async (p) => { asked.push(p); return 'Earlier work.'; } });
    const { ledger } = await context.build();
    assert.ok(asked.length > 0, 'the compaction the dead worker began is made by this one');
    assert.ok(ledger.tokens <= 3_000, 'within the budget');
    assert.equal(store.loadSession('shared-kill').inbox.length, 0, 'every queued append taken in');
    await context.close();
    store.close();
  });

  it('SQLite: the same, on one file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'shared-sqlite-')), 'state.sqlite');
    new SqliteStateRepository(file).close();
    const paid = await runProcesses({ kind: 'sqlite', file });
    const store = new SqliteStateRepository(file);
    try {
      const db = new Database(file, { readonly: true });
      const queue = db.prepare("SELECT seq, messages, taken_in FROM context_inbox WHERE session_id = 'shared-1'").all();
      db.close();
      check(store.loadSession('shared-1'), paid, queue);
    } finally {
      store.close();
    }
  });
});
