#!/usr/bin/env node
// Reads every fixture of pkg/test/fixtures/past/ (written by scripts/past-fixtures.mjs with
// past commits' own builds; every case of every format-<F>-decisions-<D>/cases.br) with ANOTHER build of the package, by default this checkout's
// pkg/dist, and reports per fixture whether it restores or opens (or the error it throws)
// and whether the next request is, byte for byte, the one the old version built. A probe,
// not a test: it changes nothing and exits 0 whatever it finds.
//
//   node scripts/past-fixtures-probe.mjs [--pkg <dir with package.json, dist/, node_modules/>]
//                                        [--json <file>] [--only <case>,...]
//
// The build under test is copied first (dist/ and package.json into a temporary folder,
// node_modules linked), so a rebuild of it while the probe runs changes nothing.
// PostgreSQL fixtures are read two ways: `dump` restores the old version's pg_dump (its
// own tables and schema version) into a new database and lets the store under test
// migrate it; `rows` lets the store under test make its tables and inserts the old rows
// (as pkg/test/format-compat.test.mjs does).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PAST = join(ROOT, 'pkg/test/fixtures/past');
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const pkgDir = resolve(flag('--pkg') ?? join(ROOT, 'pkg'));
const jsonOut = flag('--json');
const only = flag('--only')?.split(',');

// The same options the fixtures were written with (scripts/past-fixtures.mjs); the budget is each manifest's.
const SYSTEM = 'You are a coding agent.';
const summarizer = (prompt) => `Summary: ${prompt.slice(0, 600)} … ${prompt.slice(-600)}`;

// ---- the build under test, copied
const scratch = mkdtempSync(join(tmpdir(), 'past-probe-'));
const copy = join(scratch, 'pkg');
mkdirSync(copy);
cpSync(join(pkgDir, 'dist'), join(copy, 'dist'), { recursive: true });
cpSync(join(pkgDir, 'package.json'), join(copy, 'package.json'));
symlinkSync(execFileSync('realpath', [join(pkgDir, 'node_modules')], { encoding: 'utf8' }).trim(), join(copy, 'node_modules'));
const distHash = createHash('sha256');
for (const f of readdirSync(join(copy, 'dist')).sort()) if (f.endsWith('.cjs') || f.endsWith('.js')) distHash.update(readFileSync(join(copy, 'dist', f)));
const req = createRequire(join(copy, 'package.json'));
const { ContextManager, MemoryStateRepository } = req('@devs/context');
const optional = (id) => {
  try {
    return req(id);
  } catch (error) {
    if (error.code === 'MODULE_NOT_FOUND' || error.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return {};
    throw error;
  }
};
// Optional, so that a past build can read its own fixtures too (a check of the fixtures).
const { SqliteStateRepository } = optional('@devs/context/sqlite');
const { PostgresStateRepository } = optional('@devs/context/postgres');
const { createTokenCounter } = req('@devs/context/tokenizers');
const pg = req('pg');
const o200k = createTokenCounter('o200k_base');
const options = (format, store, budget) => ({ format, budget, countTokens: o200k, summarizer, system: SYSTEM, store });
const request = (r) => JSON.stringify({ system: r.system, messages: r.messages });

const gitOf = (dir) => {
  try {
    return execFileSync('git', ['-C', dir, 'log', '-1', '--format=%h %cI'], { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
};
const underTest = { pkg: pkgDir, head: gitOf(pkgDir), distSha256: distHash.digest('hex').slice(0, 16) };

const { pastCases } = await import(pathToFileURL(join(ROOT, 'pkg/test/past-bundle.mjs')).href);
const message = (error) => `${error?.name ?? 'Error'}${error?.code ? ` [${error.code}]` : ''}: ${String(error?.message ?? error).replace(/\s+/g, ' ').slice(0, 400)}`;

/** equal, or where the two requests part. */
function compare(got, want) {
  if (got === want) return { next: 'equal' };
  let i = 0;
  while (i < got.length && i < want.length && got[i] === want[i]) i++;
  return { next: 'differs', at: i, lengths: [got.length, want.length], old: want.slice(Math.max(0, i - 60), i + 80), now: got.slice(Math.max(0, i - 60), i + 80) };
}

/** restore/open, then build: { restore: 'ok' | 'throws', error?, next?, ... } */
async function attempt(open, want) {
  let context;
  try {
    context = await open();
  } catch (error) {
    return { restore: 'throws', error: message(error) };
  }
  try {
    const r = await context.build();
    const migrated = r.ledger.warnings.some((w) => w.code === 'format-migrated');
    return { restore: 'ok', ...compare(request(r), want), migrated };
  } catch (error) {
    return { restore: 'ok', next: 'build throws', error: message(error) };
  } finally {
    try {
      await context.close?.();
    } catch {}
  }
}

async function memoryStore(rows) {
  const store = new MemoryStateRepository();
  for (const r of rows) {
    const id = await store.insertRawToolOutput({ toolName: r.toolName, rawContent: r.rawContent, byteSize: r.byteSize, turnAge: r.turnAge, capturedAt: r.capturedAt });
    if (String(id) !== String(r.id)) throw new Error(`the memory store gave id ${id} for row ${r.id}`);
  }
  return store;
}

const results = [];
let server = null;
let admin = null;
let db = 0;
const { startPostgres } = await import(pathToFileURL(join(ROOT, 'pkg/test/postgres.mjs')).href);
const psqlBin = (() => {
  for (const d of ['/usr/local/bin', ...(existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse().map((v) => `/usr/lib/postgresql/${v}/bin`) : [])]) {
    if (existsSync(join(d, 'psql'))) return join(d, 'psql');
  }
  return 'psql';
})();

async function database() {
  if (!server) {
    server = await startPostgres();
    admin = new pg.Pool({ connectionString: server.connectionString, max: 2 });
    admin.on('error', () => {});
  }
  const name = `probe_${++db}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = server.connectionString.replace(/\/postgres$/, `/${name}`);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  return { name, url, pool };
}

try {
  // Oldest first.
  const commits = pastCases(PAST).map((c) => [c.name, c]);
  for (const [commit, manifest] of commits) {
    if (only && !only.includes(commit)) continue;
    const budget = manifest.options.budget;
    if (manifest.options.system !== SYSTEM) throw new Error(`${commit}: written with other options than this probe's`);
    for (const p of manifest.points) {
      const name = p.session.replace(/\.(jsonl|json|traj)$/, '').replace(/\.traj$/, '');
      const dir = `${name}/${p.point}`;
      const bytes = (at, file) => manifest.bytes(`${at}/${file}`);
      const text = (at, file) => manifest.text(`${at}/${file}`);
      const row = (artifact, outcome) => {
        results.push({ commit, session: name, point: p.point, format: p.format, artifact, ...outcome });
        const o = results[results.length - 1];
        process.stderr.write(`${commit} ${name} ${p.point} ${p.format} ${artifact}: ${o.restore}${o.next ? ` / next ${o.next}${o.migrated ? ' (format-migrated)' : ''}` : ''}${o.error ? ` — ${o.error.slice(0, 160)}` : ''}\n`);
      };

      if (p.wrote.snapshot) {
        const snapshot = JSON.parse(text(dir, `snapshot-${p.format}.json`));
        const rows = JSON.parse(text(dir, `snapshot-${p.format}.store.json`));
        const want = text(dir, `snapshot-${p.format}.next.json`);
        row('snapshot', await attempt(async () => ContextManager.restore(snapshot, options(p.format, await memoryStore(rows), budget)), want));
      }

      if (p.wrote.sqlite) {
        const tmp = mkdtempSync(join(scratch, 'sqlite-'));
        for (const suffix of ['', '-wal', '-shm']) {
          const b = bytes(dir, `session-${p.format}.sqlite${suffix}`);
          if (b) writeFileSync(join(tmp, `state.sqlite${suffix}`), b);
        }
        const want = text(dir, `session-${p.format}.sqlite.next.json`);
        let store;
        row('sqlite', await attempt(async () => {
          store = new SqliteStateRepository(join(tmp, 'state.sqlite'));
          return ContextManager.open({ ...options(p.format, store, budget), sessionId: 'fixture' });
        }, want));
        try {
          store?.close();
        } catch {}
      }

      if (p.wrote.postgres) {
        const want = text(dir, `session-${p.format}.postgres.next.json`);
        // 1. The old database as pg_dump wrote it, migrated by the store under test.
        {
          const { url, pool } = await database();
          try {
            execFileSync(psqlBin, ['-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-f', '-'], { input: bytes(dir, `session-${p.format}.postgres.sql`), stdio: ['pipe', 'ignore', 'pipe'] });
            row('postgres (dump)', await attempt(async () => {
              const store = new PostgresStateRepository(pool);
              await store.ready();
              return ContextManager.open({ ...options(p.format, store, budget), sessionId: 'fixture' });
            }, want));
          } finally {
            await pool.end();
          }
        }
        // 2. The old rows inserted into the tables the store under test makes.
        {
          const { pool } = await database();
          try {
            row('postgres (rows)', await attempt(async () => {
              const store = new PostgresStateRepository(pool);
              await store.ready();
              const rows = JSON.parse(text(dir, `session-${p.format}.postgres.rows.json`));
              for (const [table, list] of Object.entries(rows)) {
                if (table === 'devs_context_schema') continue;
                for (const r of list) {
                  const keys = Object.keys(r);
                  const values = keys.map((k) => (r[k] && r[k].type === 'Buffer' ? Buffer.from(r[k].data) : r[k] !== null && typeof r[k] === 'object' ? JSON.stringify(r[k]) : r[k]));
                  await pool.query(`INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')})`, values);
                }
              }
              if (rows.raw_tool_outputs?.length) await pool.query(`SELECT setval(pg_get_serial_sequence('raw_tool_outputs', 'id'), (SELECT max(id) FROM raw_tool_outputs))`);
              return ContextManager.open({ ...options(p.format, store, budget), sessionId: 'fixture' });
            }, want));
          } finally {
            await pool.end();
          }
        }
      }
    }
  }
} finally {
  await admin?.end();
  await server?.destroy();
  rmSync(scratch, { recursive: true, force: true });
}

// ---- the table
const short = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
console.log(`build under test: ${underTest.pkg} (checkout at ${underTest.head}; dist sha256 ${underTest.distSha256})`);
console.log('| commit | session | point | format | artifact | restore/open | next request |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  const restore = r.restore === 'ok' ? 'ok' : `throws: ${r.error}`;
  const said = r.migrated ? ', format-migrated' : r.next === 'differs' ? ', SILENTLY' : '';
  const next = r.restore !== 'ok' ? '—' : r.next === 'equal' ? `equal${said}` : r.next === 'build throws' ? `build throws: ${r.error}` : `differs at char ${r.at} (now ${r.lengths[0]} vs old ${r.lengths[1]} chars${said})`;
  console.log(`| ${r.commit} | ${r.session} | ${r.point} | ${r.format} | ${r.artifact} | ${short(restore, 300)} | ${short(next, 300)} |`);
}
const tally = {};
for (const r of results) {
  const k = `${r.commit} ${r.artifact}: ${r.restore === 'ok' ? `ok, next ${r.next}${r.migrated ? ' (format-migrated)' : r.next === 'differs' ? ' (silently)' : ''}` : 'throws'}`;
  tally[k] = (tally[k] ?? 0) + 1;
}
console.log('\nsummary:');
for (const [k, n] of Object.entries(tally)) console.log(`  ${k}: ${n}`);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ underTest, results }, null, 2)}\n`);
