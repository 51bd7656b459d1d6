// The fleet test's own work queue, beside the sessions in the same database: a session is
// claimed by one worker at a time for a lease that its heartbeats renew; a worker killed or
// stopped lets the lease run out, and another takes the session over. The queue is the
// test's host, not the package: the package's part is that the session itself is never
// interleaved, whoever holds the lease.
import Database from 'better-sqlite3';
import pg from 'pg';

const CREATE = 'CREATE TABLE IF NOT EXISTS fleet_jobs (session_id TEXT PRIMARY KEY, owner TEXT, heartbeat BIGINT NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0)';

/** The queue in `target` (`{ kind: 'postgres', connectionString }` or `{ kind: 'sqlite', file }`), for worker `owner`. */
export async function fleetJobs(target, owner, leaseMs) {
  if (target.kind === 'sqlite') {
    const db = new Database(target.file, { timeout: 30_000 });
    db.pragma('journal_mode = WAL');
    db.exec(CREATE);
    const pick = db.prepare('SELECT session_id FROM fleet_jobs WHERE done = 0 AND (owner IS NULL OR heartbeat < ?) ORDER BY session_id LIMIT 1').pluck();
    const take = db.prepare('UPDATE fleet_jobs SET owner = ?, heartbeat = ? WHERE session_id = ?');
    const claim = db.transaction(() => {
      const id = pick.get(Date.now() - leaseMs);
      if (id !== undefined) take.run(owner, Date.now(), id);
      return id;
    });
    const beat = db.prepare('UPDATE fleet_jobs SET heartbeat = ? WHERE session_id = ? AND owner = ?');
    const finish = db.prepare('UPDATE fleet_jobs SET done = 1 WHERE session_id = ?');
    const drop = db.prepare('UPDATE fleet_jobs SET owner = NULL, heartbeat = 0 WHERE session_id = ? AND owner = ?');
    const left = db.prepare('SELECT count(*) FROM fleet_jobs WHERE done = 0').pluck();
    const add = db.prepare('INSERT INTO fleet_jobs (session_id) VALUES (?)');
    return {
      add: async (ids) => db.transaction(() => ids.forEach((id) => add.run(id)))(),
      claim: async () => claim.immediate(),
      beat: async (id) => beat.run(Date.now(), id, owner).changes === 1,
      finish: async (id) => void finish.run(id),
      drop: async (id) => void drop.run(id, owner),
      remaining: async () => left.get(),
      close: async () => db.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: target.connectionString, max: 1 });
  pool.on('error', () => {});
  await pool.query(CREATE);
  const now = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
  return {
    add: async (ids) => void (await pool.query('INSERT INTO fleet_jobs (session_id) SELECT unnest($1::text[])', [ids])),
    claim: async () => (await pool.query(`UPDATE fleet_jobs SET owner = $1, heartbeat = ${now} WHERE session_id = (
        SELECT session_id FROM fleet_jobs WHERE done = 0 AND (owner IS NULL OR heartbeat < ${now} - $2)
        ORDER BY session_id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING session_id`, [owner, leaseMs])).rows[0]?.session_id,
    beat: async (id) => (await pool.query(`UPDATE fleet_jobs SET heartbeat = ${now} WHERE session_id = $1 AND owner = $2`, [id, owner])).rowCount === 1,
    finish: async (id) => void (await pool.query('UPDATE fleet_jobs SET done = 1 WHERE session_id = $1', [id])),
    drop: async (id) => void (await pool.query('UPDATE fleet_jobs SET owner = NULL, heartbeat = 0 WHERE session_id = $1 AND owner = $2', [id, owner])),
    remaining: async () => Number((await pool.query('SELECT count(*) AS n FROM fleet_jobs WHERE done = 0')).rows[0].n),
    close: () => pool.end(),
  };
}
