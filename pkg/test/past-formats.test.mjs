// What every earlier version wrote opens (issue 35): the snapshots, SQLite sessions and
// PostgreSQL sessions that past commits' own builds wrote (fixtures/past/, a folder per
// durable format and decisions number holding its cases: past-bundle.mjs; made by
// scripts/past-fixtures.mjs), read with today's code. Each opens, and its next request is
// the one that version built, byte for byte; or, where today's rules decide otherwise, it
// is rebuilt once: that request says so (`format-migrated`), every id the old request named
// is still recallable, and every request after it is valid and within the budget. None
// throws. Data that was really altered is still refused, naming where. Folders of other
// options than the usual (a budget of 50,000: issue 47, item 7) say so in their manifest.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE, PAST, folderOf, pastCases } from './past-bundle.mjs';
import { startPostgres } from './postgres.mjs';
import { PROBLEMS } from './validity.mjs';

const require = createRequire(import.meta.url);
const { ContextManager, MemoryStateRepository } = require('@devs/context');
const { SqliteStateRepository } = require('@devs/context/sqlite');
const { PostgresStateRepository } = require('@devs/context/postgres');
const { createTokenCounter } = require('@devs/context/tokenizers');
const pg = require('pg');

const o200k = createTokenCounter('o200k_base');
// The options the fixtures were written with (their manifest.json): the budget is each folder's.
const BUDGET = 8_000;
const options = (format, store, budget = BUDGET) => ({
  format, budget, countTokens: o200k, store, system: 'You are a coding agent.',
  summarizer: (prompt) => `Summary: ${prompt.slice(0, 600)} … ${prompt.slice(-600)}`,
});
const request = (r) => JSON.stringify({ system: r.system, messages: r.messages });

// Each case, oldest first: its manifest, `folder` (its durable format and decisions number),
// `name` (the short hash, or `<hash>-<what differs>` for other options than the usual), and
// `bytes(path)`/`text(path)` of its files.
const commits = pastCases();
const outcomes = {};

/** The next request of `context` against the old one, then three more turns: 'identical' or 'migrated'. */
async function nextRequest(context, old, format, budget = BUDGET, store = undefined) {
  // The ids the old request named that the data held: those its version stored while
  // building that request itself (a compaction's masks) were never the data's, and a
  // rebuild under today's rules stores what it takes out under ids of its own.
  const named = new Set([...old.matchAll(/stored as ([^\s;,\]\\"]+)/g)].map((m) => m[1]));
  const held = [];
  for (const id of named) if (!store || (await store.getRawToolOutput(id))) held.push(id);
  const built = await context.build();
  const migrated = built.ledger.warnings.find((w) => w.code === 'format-migrated');
  let outcome = 'identical';
  if (!migrated) assert.equal(request(built), old);
  else {
    outcome = 'migrated';
    assert.match(migrated.message, /rebuilt once/);
    for (const id of held) {
      const back = await context.recall(id);
      assert.ok(!back.startsWith('[recall:'), `id ${id}, named by the old request, is recallable: ${back.slice(0, 120)}`);
    }
  }
  for (const r of [built]) {
    assert.ok(r.tokens <= budget, `${r.tokens} tokens`);
    assert.deepEqual(PROBLEMS[format](r), []);
  }
  // The requests after it: append-only again (all of the one before read from the cache,
  // but after a compaction), valid and bounded.
  let previous = built;
  for (let t = 0; t < 3; t++) {
    await context.append({ role: 'user', content: `go on ${t}` });
    const r = await context.build();
    assert.ok(r.tokens <= budget && PROBLEMS[format](r).length === 0, `turn ${t}: ${r.tokens} tokens, ${PROBLEMS[format](r)}`);
    assert.ok(r.ledger.compaction || r.ledger.cache.read >= previous.tokens - 1, `turn ${t}: append-only (${r.ledger.cache.read} of ${previous.tokens} read)`);
    previous = r;
    await context.append({ role: 'assistant', content: `done ${t}` });
  }
  return outcome;
}

function tally(commit, artifact, outcome) {
  const k = `${commit} ${artifact}`;
  outcomes[k] ??= { identical: 0, migrated: 0 };
  outcomes[k][outcome]++;
}

describe('what every earlier version wrote opens', () => {
  let server;
  let admin;
  let n = 0;
  const database = async () => {
    const name = `past_${++n}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const pool = new pg.Pool({ connectionString: server.connectionString.replace(/\/postgres$/, `/${name}`), max: 2 });
    pool.on('error', () => {});
    return pool;
  };
  before(async () => {
    server = await startPostgres();
    admin = new pg.Pool({ connectionString: server.connectionString, max: 2 });
    admin.on('error', () => {});
  });
  after(async () => {
    await admin?.end();
    await server?.destroy();
    console.log(JSON.stringify(outcomes));
  });

  it('has fixtures of at least four commits, on at least three sessions', () => {
    assert.ok(new Set(commits.map((c) => c.short)).size >= 4, commits.map((c) => c.name).join(', '));
    assert.ok(new Set(commits.flatMap((c) => c.sessions)).size >= 3);
  });

  it('keeps a folder per durable format and decisions number, one stream of at most 1 MB, its cases of that format and number', () => {
    const folders = readdirSync(PAST, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    assert.ok(folders.length >= 3, folders.join(', '));
    for (const folder of folders) {
      assert.match(folder, /^format-\d+-decisions-\d+$/);
      assert.deepEqual(readdirSync(join(PAST, folder)), [BUNDLE], folder);
      const size = statSync(join(PAST, folder, BUNDLE)).size;
      assert.ok(size <= 1 << 20, `${folder}/${BUNDLE}: ${size} bytes`);
    }
    for (const c of commits) {
      for (const p of c.points.filter((x) => x.wrote.snapshot)) {
        const s = JSON.parse(c.text(`${p.session.replace(/\.(jsonl|json|traj)$/, '').replace(/\.traj$/, '')}/${p.point}/snapshot-${p.format}.json`));
        assert.equal(folderOf(s.version, s.decisions ?? 1), c.folder, `${c.name} ${p.session} ${p.point} ${p.format}`);
      }
    }
  });

  it("has the cut of issue 47, item 7: a6221f5's mini-SWE-agent session at budget 50,000, after 229 of its 346 steps, and the cuts near it that today's marks and counts decide otherwise", () => {
    const cuts = commits.filter((c) => c.short === 'a6221f5' && c.options.budget === 50_000)
      .flatMap((c) => c.points.map((p) => `${String(c.usage).startsWith('none') ? 'no usage, ' : ''}${p.point} ${p.format} ${Object.keys(p.wrote).join('+')}`));
    assert.deepEqual(cuts.sort(), [
      'no usage, step-253-of-346 openai-chat snapshot+sqlite',
      'step-229-of-346 openai-chat snapshot+sqlite',
      'step-247-of-346 openai-chat snapshot+sqlite',
    ]);
  });

  for (const manifest of commits) {
    const budget = manifest.options.budget;
    describe(`${manifest.name}: ${manifest.subject.slice(0, 80)}${budget === BUDGET ? '' : ` (budget ${budget})`}`, () => {
      for (const p of manifest.points) {
        const name = p.session.replace(/\.(jsonl|json|traj)$/, '').replace(/\.traj$/, '');
        const dir = `${name}/${p.point}`;
        const bytes = (file) => manifest.bytes(`${dir}/${file}`);
        const text = (file) => manifest.text(`${dir}/${file}`);
        const label = `${name} ${p.point} ${p.format}`;
        if (p.wrote.snapshot) {
          it(`${label}: the snapshot`, async () => {
            const rows = JSON.parse(text(`snapshot-${p.format}.store.json`));
            const store = new MemoryStateRepository();
            for (const r of rows) assert.equal(String(await store.insertRawToolOutput({ toolName: r.toolName, rawContent: r.rawContent, byteSize: r.byteSize, turnAge: r.turnAge, capturedAt: r.capturedAt })), String(r.id));
            const cm = ContextManager.restore(JSON.parse(text(`snapshot-${p.format}.json`)), options(p.format, store, budget));
            tally(manifest.name, 'snapshot', await nextRequest(cm, text(`snapshot-${p.format}.next.json`), p.format, budget, store));
          });
        }
        if (p.wrote.sqlite) {
          it(`${label}: the SQLite session`, async () => {
            const tmp = mkdtempSync(join(tmpdir(), 'past-'));
            for (const suffix of ['', '-wal', '-shm']) {
              const b = bytes(`session-${p.format}.sqlite${suffix}`);
              if (b) writeFileSync(join(tmp, `state.sqlite${suffix}`), b);
            }
            const store = new SqliteStateRepository(join(tmp, 'state.sqlite'));
            const s = await ContextManager.open({ ...options(p.format, store, budget), sessionId: 'fixture' });
            tally(manifest.name, 'sqlite', await nextRequest(s, text(`session-${p.format}.sqlite.next.json`), p.format, budget, store));
            await s.close();
            store.close();
          });
        }
        if (p.wrote.postgres) {
          it(`${label}: the PostgreSQL session, as that version's pg_dump left it`, async () => {
            const pool = await database();
            try {
              const url = server.connectionString.replace(/\/postgres$/, `/past_${n}`);
              const psql = existsSync(join(server.bin, 'psql')) ? join(server.bin, 'psql') : 'psql';
              execFileSync(psql, ['-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-f', '-'], { input: bytes(`session-${p.format}.postgres.sql`), stdio: ['pipe', 'ignore', 'pipe'] });
              const store = new PostgresStateRepository(pool);
              await store.ready();
              const s = await ContextManager.open({ ...options(p.format, store, budget), sessionId: 'fixture' });
              tally(manifest.name, 'postgres', await nextRequest(s, text(`session-${p.format}.postgres.next.json`), p.format, budget, store));
              await s.close();
            } finally {
              await pool.end();
            }
          });
        }
      }
    });
  }

  describe('data really altered is still refused, naming where', () => {
    // The last commit of format 1 (its rows hold the rules' calls by name, plans among them).
    const v1 = commits.find((c) => c.name === '06c6037');
    const p = v1.points.find((x) => x.wrote.sqlite && x.session.startsWith('claude-code'));
    const bytes = (file) => v1.bytes(`${p.session.replace(/\.jsonl$/, '')}/${p.point}/${file}`);
    const Database = require('better-sqlite3');
    /** A copy of a session file, altered by `alter(db)`, then opened: the error it is refused with. */
    const open = async (file, format, alter) => {
      const tmp = join(mkdtempSync(join(tmpdir(), 'altered-')), 'state.sqlite');
      writeFileSync(tmp, file);
      const db = new Database(tmp);
      alter(db);
      db.close();
      const store = new SqliteStateRepository(tmp);
      try {
        return await ContextManager.open({ ...options(format, store), sessionId: 'fixture' }).then((s) => s.close(), (e) => e);
      } finally {
        store.close();
      }
    };
    const rowsOf = (db) => db.prepare('SELECT version, changes FROM context_changes ORDER BY version').all();

    it("old rows not shaped as a build's (a plan taken out) are refused, naming the row: not rebuilt", async () => {
      const error = await open(bytes(`session-${p.format}.sqlite`), p.format, (db) => {
        const row = rowsOf(db).find((r) => JSON.parse(r.changes).log?.some((c) => c[0] === 'plan'));
        const c = JSON.parse(row.changes);
        c.log = c.log.filter((call) => call[0] !== 'plan');
        db.prepare('UPDATE context_changes SET changes = ? WHERE version = ?').run(JSON.stringify(c), row.version);
      });
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.message, /^store: session fixture.*\.log\[\d+\]/);
      assert.doesNotMatch(error.message, /[\uFDD0-\uFDEF]/);
    });

    it("today's rows out of place (a build's row taken out) are refused, naming the row: not rebuilt", async () => {
      const tmp = join(mkdtempSync(join(tmpdir(), 'today-')), 'state.sqlite');
      const store = new SqliteStateRepository(tmp);
      const s = await ContextManager.open({ ...options('openai-chat', store), sessionId: 'fixture' });
      await s.append({ role: 'user', content: 'go' });
      for (let t = 0; t < 24; t++) {
        await s.append({ role: 'assistant', content: `step ${t} `.repeat(200) });
        await s.append({ role: 'user', content: 'on' });
        await s.build();
      }
      await s.close();
      store.close();
      const error = await open(readFileSync(tmp), 'openai-chat', (db) => {
        // The row of a build that compacted: the rows after it answer needs it made.
        const rows = rowsOf(db);
        const row = rows.slice(0, -6).reverse().find((r) => JSON.parse(r.changes).ledger.some((l) => l.compaction));
        const c = JSON.parse(row.changes);
        assert.ok(c.decisions > 1, 'rows of today say their decisions');
        db.prepare('UPDATE context_changes SET changes = ? WHERE version = ?').run(JSON.stringify({ ...c, events: [] }), row.version);
        db.prepare('UPDATE context_changes SET checkpoint = NULL').run();
      });
      assert.ok(error instanceof TypeError, String(error));
      assert.match(error.message, /^store: session fixture/);
      assert.doesNotMatch(error.message, /[\uFDD0-\uFDEF]/);
    });
  });
});
