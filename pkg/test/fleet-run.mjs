// The fleet of fleet.test.mjs and bench/fleet.mjs: worker processes (fleet-worker.mjs)
// that share one database and drive the sessions of `sessionSpecs(n, 'fleet')` until all
// are done, while this process kills them with SIGKILL at random (a new one replaces each),
// or stops one past its lease so that another takes its session while it lives.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fleetJobs } from './fleet-jobs.mjs';
import { sessionSpecs } from './session-driver.mjs';

export const SESSIONS = 200;
export const WORKERS = 4;
export const LEASE_MS = 1_000;
export const SUMMARIZER_TIMEOUT_MS = 3_000;
const worker = new URL('./fleet-worker.mjs', import.meta.url).pathname;

/** A seeded generator, so a failing run can be told apart from another. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Runs the fleet on `target` until every session is done, with chaos; what happened. */
export async function runFleet(target, { seed = 1, chaos = true, sessions = SESSIONS, workers = WORKERS, leaseMs = LEASE_MS, summarizerTimeoutMs = SUMMARIZER_TIMEOUT_MS } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-'));
  const log = join(dir, 'fleet.log');
  const jobs = await fleetJobs(target, 'test', leaseMs);
  await jobs.add(sessionSpecs(sessions, 'fleet').map((s) => s.id));
  const config = JSON.stringify({ target, log, count: sessions, prefix: 'fleet', leaseMs, summarizerTimeoutMs });
  const live = new Set();
  const exits = [];
  const stderr = [];
  const launch = () => {
    const child = spawn(process.execPath, [worker, config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (chunk) => stderr.push(String(chunk)));
    child.exitedWith = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.exitedWith.then((how) => {
      live.delete(child);
      exits.push({ pid: child.pid, ...how });
    });
    live.add(child);
    return child;
  };
  const killed = new Set();
  let kills = 0;
  let stops = 0;
  const next = random(seed);
  const started = performance.now();
  for (let i = 0; i < workers; i++) launch();
  const deadline = Date.now() + 600_000;
  // Chaos is paced by the fleet's progress, not by the clock: a strike after every 1 to 15
  // sessions finished (8 on average). Paced by the clock, a slower machine saw more kills,
  // whose restarts made it slower still (238 SIGKILLs for 200 sessions on a loaded 2-core
  // machine against 21 on an idle one).
  const finished = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\ndone ').length - 1 : 0);
  let due = 1 + Math.floor(next() * 15);
  while ((await jobs.remaining()) > 0) {
    assert.ok(Date.now() < deadline, `the fleet did not finish within 10 minutes: ${await jobs.remaining()} sessions left`);
    await new Promise((resolve) => setTimeout(resolve, chaos ? 50 + next() * 200 : 50));
    if (!chaos) continue;
    const done = finished();
    if (done < due) continue;
    due = done + 1 + Math.floor(next() * 15);
    const running = [...live].filter((c) => c.exitCode === null && !c.stopped);
    if (!running.length) continue;
    const victim = running[Math.floor(next() * running.length)];
    if (next() < 0.85) {
      killed.add(victim.pid);
      victim.kill('SIGKILL');
      kills++;
      launch();
    } else {
      // Stopped past its lease: another worker takes its session while it lives.
      victim.stopped = true;
      victim.kill('SIGSTOP');
      stops++;
      setTimeout(() => {
        victim.kill('SIGCONT');
        victim.stopped = false;
      }, leaseMs * 1.6);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, leaseMs * 2));
  for (const child of live) child.kill('SIGCONT');
  await Promise.all([...live].map((c) => c.exitedWith));
  await jobs.close();
  const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' ')) : [];
  return { lines, kills, stops, killed, seconds, exits, stderr: stderr.join('') };
}
