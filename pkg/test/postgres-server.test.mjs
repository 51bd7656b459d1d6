// The PostgreSQL server the store's tests run against (./postgres.mjs): real, stopped and
// killed under a live pg.Pool, and started again with its data.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import pg from 'pg';
import { startPostgres } from './postgres.mjs';

let server;
let pool;
// A pool re-emits its idle clients' errors, and an 'error' nobody listens to ends the process.
const poolErrors = [];

before(async () => {
  server = await startPostgres({ own: true });
  pool = new pg.Pool({ connectionString: server.connectionString, max: 2 });
  pool.on('error', (error) => poolErrors.push(error));
  await pool.query('CREATE TABLE sessions (id text PRIMARY KEY, state jsonb NOT NULL)');
});

after(async () => {
  await pool?.end();
  await server?.destroy();
});

const stateOf = async (id) => (await pool.query('SELECT state FROM sessions WHERE id = $1', [id])).rows;
const rejection = (promise) => promise.then(() => assert.fail('expected a rejection'), (error) => error);

it('stop: the idle connection ends with 57P01, a query is refused while down, the row is there after start', async () => {
  await pool.query('INSERT INTO sessions VALUES ($1, $2)', ['s1', { turn: 7 }]);
  assert.deepEqual(await stateOf('s1'), [{ state: { turn: 7 } }]);

  const idleDropped = once(pool, 'error');
  await server.stop();
  assert.equal((await idleDropped)[0].code, '57P01');
  assert.equal((await rejection(pool.query('SELECT 1'))).code, 'ECONNREFUSED');

  await server.start();
  assert.deepEqual(await stateOf('s1'), [{ state: { turn: 7 } }]);
});

it('kill mid-call: the query in flight rejects, and a committed row survives the crash', async () => {
  await pool.query('INSERT INTO sessions VALUES ($1, $2)', ['s2', { turn: 8 }]);
  const inFlight = rejection(pool.query('SELECT pg_sleep(30)'));
  // The sleep has reached the server once it shows in pg_stat_activity.
  while (!(await pool.query("SELECT 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'")).rowCount);
  await server.kill();
  assert.match((await inFlight).message, /Connection terminated unexpectedly/);

  await server.start();
  assert.deepEqual(await stateOf('s2'), [{ state: { turn: 8 } }]);
});
