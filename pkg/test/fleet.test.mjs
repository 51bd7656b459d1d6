// Issue 21, item 5: the fleet. Four worker processes share one database (a real PostgreSQL
// server; then one SQLite file) and drive 200 sessions made from the real transcripts.
// Workers are killed with SIGKILL at random, or stopped past their lease so that another
// takes their session while they live; new ones replace the dead. In the end every
// session's state and next request are those of one uninterrupted run, each text it stored
// is there once, and no summary was asked for twice, but where a worker was killed after
// its summarizer answered and before the answer was written.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import Database from 'better-sqlite3';
import { ContextManager } from '@devs/context';
import { PostgresStateRepository } from '@devs/context/postgres';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { SESSIONS, SUMMARIZER_TIMEOUT_MS, runFleet } from './fleet-run.mjs';
import { startPostgres } from './postgres.mjs';
import { drive, sessionOptions, sessionSpecs, timeless } from './session-driver.mjs';

const specs = sessionSpecs(SESSIONS, 'fleet');

let server;
before(async () => {
  server = await startPostgres();
});
after(async () => {
  await server?.destroy();
});

/** Every session run straight through in this process, in a store of its own. */
async function reference() {
  const store = new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'fleet-ref-')), 'state.sqlite'));
  const out = new Map();
  for (const spec of specs) {
    const paid = [];
    const context = await ContextManager.open({ ...sessionOptions(spec, store, (key) => paid.push(key)), summarizerTimeoutMs: SUMMARIZER_TIMEOUT_MS });
    await drive(context, spec);
    const whole = { paid: [...paid], snapshot: timeless(context.snapshot()), outputs: await outputsOf(store, spec.id, context) };
    const next = await context.build();
    whole.next = JSON.stringify([next.system, next.messages]);
    out.set(spec.id, whole);
    await context.close();
  }
  return { sessions: out };
}

/** The texts a session stored, by number, and how many rows the store has for it. */
async function outputsOf(store, id, context) {
  // A session's texts are numbered from 1, in the order it stored them.
  const texts = [];
  for (let seq = 1; ; seq++) {
    const row = await store.getRawToolOutput(`${id}:${seq}`);
    if (!row) break;
    texts.push([`${id}:${seq}`, row.rawContent]);
  }
  return texts;
}

/** Checks every session of the fleet's store against the reference; the figures. */
async function verify(fleetStore, ref, run) {
  const unexpected = run.lines.filter((l) => l[0] === 'error');
  assert.deepEqual(unexpected, [], `no worker failed but by the test's own hand:\n${run.stderr}`);
  const badExits = run.exits.filter((e) => e.signal !== 'SIGKILL' && e.code !== 0);
  assert.deepEqual(badExits, [], run.stderr);
  const paidBy = new Map();
  for (const [word, id, key, pid] of run.lines) {
    if (word !== 'paid') continue;
    if (!paidBy.has(id)) paidBy.set(id, []);
    paidBy.get(id).push({ key, pid: Number(pid) });
  }
  let repeats = 0;
  for (const spec of specs) {
    const whole = ref.sessions.get(spec.id);
    const context = await ContextManager.open({ ...sessionOptions(spec, fleetStore), summarizerTimeoutMs: SUMMARIZER_TIMEOUT_MS });
    assert.ok(timeless(context.snapshot()) === whole.snapshot, `${spec.id}: the fleet's state is the uninterrupted run's (build times aside)`);
    assert.deepEqual(await outputsOf(fleetStore, spec.id, context), whole.outputs, `${spec.id}: every stored text is there`);
    // And the request each would build next is the same.
    const next = await context.build();
    assert.ok(JSON.stringify([next.system, next.messages]) === whole.next, `${spec.id}: the next request`);
    await context.close();
    // Each summary was asked for once; a second time only after a worker was killed holding its answer.
    const asked = paidBy.get(spec.id) ?? [];
    assert.deepEqual([...new Set(asked.map((p) => p.key))].sort(), [...new Set(whole.paid)].sort(), `${spec.id}: the summaries asked for`);
    const first = new Map();
    for (const p of asked) {
      if (!first.has(p.key)) {
        first.set(p.key, p.pid);
        continue;
      }
      repeats++;
      assert.ok(run.killed.has(first.get(p.key)), `${spec.id}: summary ${p.key} asked for again though worker ${first.get(p.key)}, which had it, was not killed`);
    }
  }
  return repeats;
}

/** Rows a store holds for sessions, by session: no text stored twice, none missing. */
function assertRowCounts(counts, ref) {
  for (const spec of specs) {
    const expected = ref.sessions.get(spec.id).outputs.length;
    assert.equal(counts.get(spec.id) ?? 0, expected, `${spec.id}: ${expected} texts stored, each once`);
  }
}

describe('a fleet of 4 workers, 200 sessions, SIGKILL at random', () => {
  let ref;
  before(async () => {
    ref = await reference();
  });

  it('PostgreSQL: every session ends as one uninterrupted run; no text missing or stored twice; no summary asked for twice', async (t) => {
    const admin = new pg.Pool({ connectionString: server.connectionString, max: 1 });
    await admin.query('CREATE DATABASE fleet');
    await admin.end();
    const target = { kind: 'postgres', connectionString: server.connectionString.replace(/\/postgres$/, '/fleet') };
    const run = await runFleet(target, { seed: 21 });
    const pool = new pg.Pool({ connectionString: target.connectionString, max: 2 });
    try {
      const { rows } = await pool.query('SELECT session_id, count(*)::int AS n FROM raw_tool_outputs GROUP BY session_id');
      assertRowCounts(new Map(rows.map((r) => [r.session_id, r.n])), ref);
      const repeats = await verify(new PostgresStateRepository(pool), ref, run);
      const conflicts = run.lines.filter((l) => l[0] === 'conflict').length;
      const takeovers = run.lines.filter((l) => l[0] === 'open' && l[2] !== '0').length;
      t.diagnostic(`postgres: ${SESSIONS} sessions, ${run.kills} SIGKILLs, ${run.stops} stops, ${takeovers} sessions taken over, ${conflicts} conflicts, ${repeats} summaries asked again, ${run.seconds.toFixed(1)} s, ${(SESSIONS / run.seconds).toFixed(1)} sessions/s`);
      assert.ok(run.kills >= 5, `the chaos killed workers (${run.kills})`);
      assert.ok(takeovers > 0, 'sessions were taken over');
    } finally {
      await pool.end();
    }
  });

  it('SQLite: the same, with the processes on one file', async (t) => {
    const file = join(mkdtempSync(join(tmpdir(), 'fleet-sqlite-')), 'state.sqlite');
    new SqliteStateRepository(file).close();
    const run = await runFleet({ kind: 'sqlite', file }, { seed: 29 });
    const store = new SqliteStateRepository(file);
    try {
      const db = new Database(file, { readonly: true });
      const rows = db.prepare('SELECT session_id, count(*) AS n FROM raw_tool_outputs GROUP BY session_id').all();
      db.close();
      assertRowCounts(new Map(rows.map((r) => [r.session_id, r.n])), ref);
      const repeats = await verify(store, ref, run);
      const conflicts = run.lines.filter((l) => l[0] === 'conflict').length;
      const takeovers = run.lines.filter((l) => l[0] === 'open' && l[2] !== '0').length;
      t.diagnostic(`sqlite: ${SESSIONS} sessions, ${run.kills} SIGKILLs, ${run.stops} stops, ${takeovers} sessions taken over, ${conflicts} conflicts, ${repeats} summaries asked again, ${run.seconds.toFixed(1)} s, ${(SESSIONS / run.seconds).toFixed(1)} sessions/s`);
      assert.ok(run.kills >= 5, `the chaos killed workers (${run.kills})`);
    } finally {
      store.close();
    }
  });
});
