// A real PostgreSQL server for the tests: a throwaway cluster per call, in a temp dir, on a
// free port, that a test can stop, kill and start again under a live pool. In a run of
// scripts/test.sh (DEVS_TEST_POSTGRES set to the run's one cluster), a call that does not
// ask for a cluster of its own gets a role and a schema of its own in that one instead. The binaries are
// the system's (scripts/setup.sh installs Debian's), not a download: CI has no network but
// apt's and npm's.
import { spawn, execFile } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';

const live = new Set();
// A failed test may never reach destroy(): no server outlives the test process.
process.on('exit', () => {
  for (const server of live) server.abandon();
});

/**
 * Starts a fresh cluster (trust auth, superuser `postgres`) and resolves once it accepts
 * connections. `own: true` for a test that stops, kills or starts it.
 */
export async function startPostgres({ own = false } = {}) {
  if (!own && process.env.DEVS_TEST_POSTGRES) return sharedPostgres(process.env.DEVS_TEST_POSTGRES);
  const bin = serverBinaries();
  // PostgreSQL refuses to run as root, so root runs it as an unprivileged user that owns the dir.
  const owner = process.getuid?.() === 0 ? unprivilegedUser() : null;
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const dir = mkdtempSync(join(tmpdir(), 'devs-pg-'));
  const dataDir = join(dir, 'data');
  const socketDir = join(dir, 'sock');
  const logFile = join(dir, 'postgres.log');
  mkdirSync(socketDir);
  if (owner) for (const path of [dir, socketDir]) chownSync(path, owner.uid, owner.gid);
  // The C locale and no LC_* from the caller: the same cluster on every machine.
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };

  await new Promise((resolve, reject) => {
    execFile(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '-N'], { env, ...as },
      (error, _stdout, stderr) => (error ? reject(new Error(`initdb failed: ${reason(stderr) || error.message}`)) : resolve()));
  }).catch((error) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });

  const port = await freePort();
  let child = null;
  let exited = null;

  const server = {
    host: '127.0.0.1',
    port,
    socketDir,
    dataDir,
    connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      if (child) return;
      const log = openSync(logFile, 'a');
      // The same port and socket dir on every start, so a pool made before a stop reconnects.
      const proc = spawn(join(bin, 'postgres'), ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', socketDir, '-c', 'fsync=off'],
        { stdio: ['ignore', log, log], env, ...as });
      closeSync(log);
      child = proc;
      exited = new Promise((resolve) => {
        proc.once('error', resolve);
        proc.once('exit', (code, signal) => resolve(signal ?? code));
      }).then((how) => {
        if (child === proc) child = null;
        return how;
      });
      // Unreferenced, so a test that forgets destroy() still ends (the exit hook kills it).
      proc.unref();
      const ended = exited;
      const deadline = Date.now() + 30_000;
      while (!ready(dataDir, proc.pid)) {
        const how = await Promise.race([ended, sleep(20).then(() => undefined)]);
        if (how !== undefined) throw new Error(`postgres exited while starting (${how?.message ?? how}): ${reason(tail(logFile))}`);
        if (Date.now() > deadline) {
          await server.kill();
          throw new Error(`postgres was not ready within 30 s: ${reason(tail(logFile))}`);
        }
      }
    },
    // Fast shutdown: open sessions end with 57P01 (admin_shutdown), as on a planned restart.
    async stop() {
      if (!child) return;
      child.kill('SIGINT');
      await waitExit(exited);
    },
    // A crash: the postmaster and every backend die at once, with nothing said to the clients.
    async kill() {
      if (!child) return;
      killTree(child.pid);
      await waitExit(exited);
    },
    async destroy() {
      live.delete(server);
      try {
        await server.stop();
      } finally {
        server.abandon();
      }
    },
    abandon() {
      if (child) killTree(child.pid);
      rmSync(dir, { recursive: true, force: true });
    },
    // The server's side of a failure, for a test's message.
    log: () => tail(logFile),
    // Where its binaries are (psql beside them, in Debian's packages).
    bin,
  };
  live.add(server);
  try {
    await server.start();
  } catch (error) {
    live.delete(server);
    server.abandon();
    throw error;
  }
  return server;
}

let roles = 0;
/**
 * A superuser role of this call's own in the run's cluster at `url`, whose name is also
 * its schema in the database `postgres`: the tables it makes there are its own (the default
 * search_path is "$user", public), and the databases a test makes are named by the test.
 * Stopping it is refused, as it is every test's.
 */
async function sharedPostgres(url) {
  const role = `t${process.pid}_${++roles}`;
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await admin.query(`CREATE ROLE ${role} SUPERUSER LOGIN`);
    await admin.query(`CREATE SCHEMA ${role} AUTHORIZATION ${role}`);
  } finally {
    await admin.end();
  }
  const at = new URL(url);
  const refuse = async () => {
    throw new Error('this PostgreSQL is the test run\'s shared cluster: startPostgres({ own: true }) for one to stop, kill or start');
  };
  return {
    host: at.hostname,
    port: Number(at.port),
    connectionString: url.replace('//postgres@', `//${role}@`),
    start: async () => {},
    stop: refuse,
    kill: refuse,
    // The cluster is the run's: it ends with the run.
    async destroy() {},
    abandon() {},
    log: () => '',
    bin: serverBinaries(),
  };
}

/**
 * For a test file: a server started before its tests and destroyed after them, and a new
 * database per call of `pool()` (named `<prefix><n>`), with a pool on it (at most 4 clients,
 * an idle client's error ignored, as when a test stops the server), ended before the server.
 */
export function postgresDatabases(prefix, { own = false } = {}) {
  let server;
  const pools = [];
  let databases = 0;
  before(async () => {
    server = await startPostgres({ own });
  });
  after(async () => {
    for (const pool of pools) await pool.end();
    await server?.destroy();
  });
  return {
    get server() {
      return server;
    },
    async pool() {
      const name = `${prefix}${++databases}`;
      const admin = new pg.Pool({ connectionString: server.connectionString, max: 1 });
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const pool = new pg.Pool({ connectionString: server.connectionString.replace(/\/postgres$/, `/${name}`), max: 4 });
      pool.on('error', () => {});
      pools.push(pool);
      return pool;
    },
  };
}

function serverBinaries() {
  const fromPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  let versioned = [];
  try {
    versioned = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)).map((v) => `/usr/lib/postgresql/${v}/bin`);
  } catch {}
  const bin = [...fromPath, ...versioned].find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
  if (!bin) {
    throw new Error('PostgreSQL server binaries (initdb, postgres) not found on PATH or in /usr/lib/postgresql/*/bin: run bash scripts/setup.sh');
  }
  return bin;
}

function unprivilegedUser() {
  const fields = readFileSync('/etc/passwd', 'utf8').split('\n').map((line) => line.split(':'));
  const users = new Map(fields.map(([name, , uid, gid]) => [name, { uid: Number(uid), gid: Number(gid) }]));
  const user = users.get('postgres') ?? users.get('nobody');
  if (!user) throw new Error('running as root, and neither a postgres nor a nobody user to run PostgreSQL as: run bash scripts/setup.sh');
  return user;
}

// postmaster.pid's first line is the pid, its eighth the state pg_ctl waits for; the pid
// check skips the stale file a killed server leaves behind.
function ready(dataDir, pid) {
  try {
    const lines = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
    return Number(lines[0]) === pid && lines[7]?.trim() === 'ready';
  } catch {
    return false;
  }
}

// SIGSTOP first, so the postmaster forks no backend between the listing and the kill. Without
// /proc (not Linux) only the postmaster is killed, and its backends exit when they notice.
function killTree(pid) {
  try {
    process.kill(pid, 'SIGSTOP');
  } catch {
    return;
  }
  let entries = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {}
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) process.kill(Number(entry), 'SIGKILL');
    } catch {}
  }
  process.kill(pid, 'SIGKILL');
}

async function waitExit(exited) {
  // A referenced timer: the unreferenced child alone would let the process end mid-await.
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('postgres did not exit within 30 s')), 30_000);
  });
  try {
    await Promise.race([exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const lastLine = (text) => text.trim().split('\n').at(-1) ?? '';
// A failure's log ends with the cleanup after it: the reason is the last error line before.
const reason = (log) => lastLine(log.split('\n').filter((line) => /\b(FATAL|PANIC|error):/.test(line)).join('\n')) || lastLine(log);
function tail(file) {
  try {
    return readFileSync(file, 'utf8').slice(-4000);
  } catch {
    return '';
  }
}
