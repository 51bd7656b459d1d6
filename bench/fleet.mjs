#!/usr/bin/env node
// Sessions per second for a fleet: 4 worker processes share one database (a throwaway
// local PostgreSQL server; then one SQLite file) and drive the fleet test's 200 sessions
// (pkg/test/fleet-run.mjs), first undisturbed, then with the test's chaos (SIGKILL at
// random, a stop past the lease now and then). A benchmark, not a test: nothing is
// asserted (pkg/test/fleet.test.mjs checks the outcome). Needs scripts/setup.sh's PostgreSQL.
// Run: node bench/fleet.mjs [sessions]
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStateRepository } from '../pkg/dist/sqlite.mjs';
import { runFleet } from '../pkg/test/fleet-run.mjs';
import { startPostgres } from '../pkg/test/postgres.mjs';

const pg = createRequire(new URL('../pkg/package.json', import.meta.url))('pg');
const sessions = Number(process.argv[2] ?? 200);
const server = await startPostgres();
let databases = 0;
const targets = {
  PostgreSQL: async () => {
    const admin = new pg.Pool({ connectionString: server.connectionString, max: 1 });
    const name = `fleet${++databases}`;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return { kind: 'postgres', connectionString: server.connectionString.replace(/\/postgres$/, `/${name}`) };
  },
  SQLite: async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-fleet-')), 'state.sqlite');
    new SqliteStateRepository(file).close();
    return { kind: 'sqlite', file };
  },
};
console.log(`Fleet: 4 worker processes, ${sessions} sessions from the real transcripts, ${cpus().length} CPUs, Node ${process.version}\n`);
console.log('| store | chaos | seconds | sessions/s | calls/s | SIGKILLs | stops | taken over | conflicts | summaries asked again |');
console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|');
try {
  for (const [name, make] of Object.entries(targets)) {
    for (const chaos of [false, true]) {
      const run = await runFleet(await make(), { sessions, chaos, seed: 7 });
      const count = (word) => run.lines.filter((l) => l[0] === word).length;
      const calls = run.lines.filter((l) => l[0] === 'done').reduce((n, l) => n + Number(l[2]), 0);
      const paid = run.lines.filter((l) => l[0] === 'paid').map((l) => `${l[1]} ${l[2]}`);
      const taken = run.lines.filter((l) => l[0] === 'open' && l[2] !== '0').length;
      console.log(`| ${name} | ${chaos ? 'yes' : 'no'} | ${run.seconds.toFixed(1)} | ${(sessions / run.seconds).toFixed(1)} | ${Math.round(calls / run.seconds)} | ${run.kills} | ${run.stops} | ${taken} | ${count('conflict')} | ${paid.length - new Set(paid).size} |`);
    }
  }
} finally {
  await server.destroy();
}
