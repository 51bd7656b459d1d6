#!/usr/bin/env node
// What writing a session ahead adds to each call: the same sessions driven call by call
// through an in-memory ContextManager, a session on SQLite (a file, WAL) and a session on
// PostgreSQL (a throwaway local server, over its Unix socket), each call timed; the
// persisted call's p50 and p99, and what it adds to the in-memory one. A benchmark, not a
// test: nothing is asserted. Needs PostgreSQL's server binaries (scripts/setup.sh).
// Run: node bench/persistence.mjs [sessions]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ContextManager, MemoryStateRepository } from '../pkg/dist/index.mjs';
import { PostgresStateRepository } from '../pkg/dist/postgres.mjs';
import { SqliteStateRepository } from '../pkg/dist/sqlite.mjs';
import { startPostgres } from '../pkg/test/postgres.mjs';
import { realSessions } from '../pkg/test/provider-sessions.mjs';
import { sessionCalls, sessionOptions, sessionSpecs } from '../pkg/test/session-driver.mjs';

const pg = createRequire(new URL('../pkg/package.json', import.meta.url))('pg');
const count = Number(process.argv[2] ?? 40);
const specs = sessionSpecs(count, 'bench');

/** A ContextManager with the session's calls' shape: what the host had before sessions. */
function inMemory(spec) {
  const { sessionId, store, ...options } = sessionOptions(spec, null);
  const manager = new ContextManager({ ...options, store: new MemoryStateRepository() });
  return {
    get ledger() {
      return manager.ledger;
    },
    append: async (m) => manager.append(m),
    build: () => manager.build(),
    recordUsage: async (u) => manager.recordUsage(u),
  };
}

/** Each call's time in ms, by kind (`append`, `build`, `recordUsage`). */
async function timeCalls(open) {
  const times = { append: [], build: [], recordUsage: [], all: [] };
  for (const spec of specs) {
    const context = await open(spec);
    const calls = sessionCalls(spec);
    for (const call of calls) {
      const started = performance.now();
      await call(context);
      const ms = performance.now() - started;
      times[call.kind].push(ms);
      times.all.push(ms);
    }
    await context.close?.();
  }
  return times;
}

const pct = (xs, p) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const server = await startPostgres();
const pool = new pg.Pool({ host: server.socketDir, port: server.port, user: 'postgres', database: 'postgres', max: 1 });
try {
  const sqliteStore = new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'bench-persist-')), 'state.sqlite'));
  const pgStore = new PostgresStateRepository(pool);
  await pgStore.ready();
  // A round trip on the same socket, for scale.
  const rtt = [];
  for (let i = 0; i < 500; i++) {
    const s = performance.now();
    await pool.query('SELECT 1');
    rtt.push(performance.now() - s);
  }
  // Warm each path once, then measure.
  await timeCalls(inMemory);
  const memory = await timeCalls(inMemory);
  const sqlite = await timeCalls((spec) => ContextManager.open({ ...sessionOptions(spec, sqliteStore), sessionId: `sqlite-${spec.id}` }));
  // Round trips: every query the store sends, opening each session aside.
  let queries = 0;
  const query = pool.query.bind(pool);
  pool.query = (...args) => {
    queries++;
    return query(...args);
  };
  const postgres = await timeCalls(async (spec) => {
    const context = await ContextManager.open({ ...sessionOptions(spec, pgStore), sessionId: `pg-${spec.id}` });
    queries -= 1;
    return context;
  });
  const trips = queries / postgres.all.length;

  console.log(`Persistence per call: ${count} sessions from the real transcripts, ${memory.all.length} calls each way, Node ${process.version}`);
  console.log(`PostgreSQL ${(await pool.query('SHOW server_version')).rows[0].server_version}, local Unix socket (fsync off, a test server): SELECT 1 round trip p50 ${pct(rtt, 50).toFixed(3)} ms\n`);
  console.log('| call | in memory p50 / p99 ms | SQLite p50 / p99 ms | adds p50 | PostgreSQL p50 / p99 ms | adds p50 |');
  console.log('|---|--:|--:|--:|--:|--:|');
  for (const kind of ['append', 'build', 'recordUsage', 'all']) {
    const [m, s, p] = [memory[kind], sqlite[kind], postgres[kind]];
    const f = (xs) => `${pct(xs, 50).toFixed(3)} / ${pct(xs, 99).toFixed(3)}`;
    console.log(`| ${kind} (${m.length}) | ${f(m)} | ${f(s)} | +${(pct(s, 50) - pct(m, 50)).toFixed(3)} | ${f(p)} | +${(pct(p, 50) - pct(m, 50)).toFixed(3)} |`);
  }
  console.log(`\nPostgreSQL round trips per call: ${trips.toFixed(3)} (one statement per call; a build that summarizes adds its summary's read, claim and write)`);

  // Opening a session reads its newest checkpoint and the calls from it on: its cost as the
  // session grows, to 10,000 calls (the Claude Code session sixteen times over).
  const long = { id: 'long', fixture: realSessions().findIndex((x) => x.name.startsWith('claude-code')), format: 'anthropic', turns: 217 * 16, repeat: 16, budget: 50_000 };
  const calls = sessionCalls(long);
  const stores = { SQLite: new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'bench-open-')), 'state.sqlite')), PostgreSQL: pgStore };
  console.log(`\nOpening a session again (the Claude Code session sixteen times over, ${calls.length} calls, budget 50k), median of 5:\n`);
  console.log('| calls written | SQLite open ms | PostgreSQL open ms |');
  console.log('|--:|--:|--:|');
  const contexts = {};
  for (const [name, store] of Object.entries(stores)) contexts[name] = await ContextManager.open({ ...sessionOptions(long, store), sessionId: `open-${name}` });
  for (const upTo of [100, 1_000, 3_000, 10_000].filter((n) => n <= calls.length)) {
    const row = [];
    for (const [name, store] of Object.entries(stores)) {
      const context = contexts[name];
      for (let k = context.version; k < upTo; k++) await calls[k](context);
      await context.close();
      const times = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        contexts[name] = await ContextManager.open({ ...sessionOptions(long, store), sessionId: `open-${name}` });
        times.push(performance.now() - started);
        if (i < 4) await contexts[name].close();
      }
      row.push(pct(times, 50).toFixed(1));
    }
    console.log(`| ${upTo} | ${row.join(' | ')} |`);
  }
  for (const context of Object.values(contexts)) await context.close();
} finally {
  await pool.end();
  await server.destroy();
}
