// One worker of the fleet test (fleet.test.mjs): it claims sessions from the queue and
// drives each from the call its store says it reached, until none is left. It is killed
// with SIGKILL, or stopped past its lease, at random; what it writes to its log (each
// summary paid for, each conflict) is what the test checks against one uninterrupted run.
import { appendFileSync } from 'node:fs';
import pg from 'pg';
import { ContextManager, SessionConflictError } from '@devs/context';
import { PostgresStateRepository } from '@devs/context/postgres';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { fleetJobs } from './fleet-jobs.mjs';
import { drive, sessionOptions, sessionSpecs } from './session-driver.mjs';

const config = JSON.parse(process.argv[2]);
const owner = `worker-${process.pid}`;
const log = (line) => appendFileSync(config.log, `${line} ${process.pid}\n`);
const specs = new Map(sessionSpecs(config.count, config.prefix).map((s) => [s.id, s]));
const LOST = new Error('lease lost');

let pool;
let store;
if (config.target.kind === 'postgres') {
  pool = new pg.Pool({ connectionString: config.target.connectionString, max: 2 });
  pool.on('error', () => {});
  store = new PostgresStateRepository(pool);
} else {
  store = new SqliteStateRepository(config.target.file);
}
const jobs = await fleetJobs(config.target, owner, config.leaseMs);
log('start');

for (;;) {
  const id = await jobs.claim();
  if (id === undefined) {
    if ((await jobs.remaining()) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
    continue;
  }
  const spec = specs.get(id);
  let context;
  let beat = Date.now();
  try {
    context = await ContextManager.open({ ...sessionOptions(spec, store, (key) => log(`paid ${id} ${key}`)), summarizerTimeoutMs: config.summarizerTimeoutMs });
    log(`open ${id} ${context.version}`);
    await drive(context, spec, new Map(), async () => {
      if (Date.now() - beat < config.leaseMs / 4) return;
      beat = Date.now();
      if (!(await jobs.beat(id))) throw LOST;
    });
    await jobs.finish(id);
    log(`done ${id} ${context.version}`);
  } catch (error) {
    if (error instanceof SessionConflictError) log(`conflict ${id} ${error.expectedVersion} ${error.actualVersion}`);
    else if (error === LOST) log(`lost ${id}`);
    else {
      log(`error ${id} ${JSON.stringify(String(error?.stack ?? error))}`);
      process.exitCode = 1;
    }
    await jobs.drop(id);
  } finally {
    await context?.close().catch(() => undefined);
  }
}
log('exit');
await jobs.close();
await pool?.end();
