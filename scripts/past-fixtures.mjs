#!/usr/bin/env node
// Fixtures from the real past: the durable data (snapshots, sessions written ahead on SQLite
// and PostgreSQL) as a PAST commit's own build wrote it, with the request that build made
// next, so that today's code can be checked against what was really written, not against
// today's rules writing an old encoding.
//
//   node scripts/past-fixtures.mjs [options] <commit> [<commit> ...]
//
// For each commit it:
//   1. makes a detached worktree of it at $PAST_WORKTREES/<short-hash> (default: a folder
//      `old` beside this checkout, e.g. /work/old/<short-hash>), or reuses one at that commit;
//   2. gives it node_modules: a symlink to this checkout's pkg/node_modules when every
//      package of the old pkg/package-lock.json is installed there at the same version,
//      else `npm ci` in the old pkg/;
//   3. checks the wasm-bindgen its Cargo.lock pins against the one on PATH; if they differ,
//      installs that version (`cargo install wasm-bindgen-cli --version X --root
//      $PAST_WORKTREES/bin-X`) and puts it first on PATH for the build;
//   4. builds it with its own `bash scripts/build.sh` (log: $PAST_WORKTREES/build-<hash>.log;
//      skipped when its pkg/dist was built by this script before, unless --rebuild);
//   5. in a child process that loads only THAT build (require of the old pkg by name, its
//      own tokenizers, replay parser and providerTurns, its own test/postgres.mjs), drives
//      the vendored real sessions (pkg/test/fixtures/sessions) in the formats 'anthropic'
//      and 'openai-chat', each cut at about one third and two thirds of its turns, and
//      writes the case <case> (the short hash, or --folder) as <case>/<session>/<point>/:
//        snapshot-<format>.json        manager.snapshot() (if the commit has snapshots)
//        snapshot-<format>.store.json  the MemoryStateRepository's rows at that point
//        snapshot-<format>.next.json   {system, messages} of the build() that came next
//        session-<format>.sqlite[-wal|-shm]   a session written ahead on SQLite, closed
//        session-<format>.sqlite.next.json    the next request, built by a reopened copy
//        session-<format>.postgres.rows.json  every table of the PostgreSQL database, as rows
//        session-<format>.postgres.sql        the same database, pg_dump --no-owner (schema too)
//        session-<format>.postgres.next.json  the next request, built by the reopened session
//      and <case>/manifest.json: the commit, its date and subject, the package version,
//      node, cargo, rustc, wasm-bindgen and PostgreSQL versions, how it was built, the
//      options, the cut points, what each artifact's own version fields say, and every file;
//   6. adds the case to the folder of its durable format and decisions number,
//      pkg/test/fixtures/past/format-<F>-decisions-<D>/cases.br (pkg/test/past-bundle.mjs:
//      one brotli stream per folder, every file as written, none gzipped). F is the
//      version of the snapshots the commit wrote (`snapshot.version`: 1 the rules' calls by
//      name, 2 the journal; its session rows are of the same format), D the `decisions`
//      they are stamped with (`DECISIONS` of crates/rules/src/context/migrate.rs; none: 1).
//      The folder is made if it is new; the cases already in it are kept byte for byte,
//      and a case of the same name is refused. It prints what the folder weighs and grew by.
//
// Options:
//   --rebuild           build again even if this script built the worktree before
//   --sessions a,b,c    session files of pkg/test/fixtures/sessions (default: the Claude
//                       Code, SWE-agent and mini-SWE-agent ones)
//   --formats a,b       default anthropic,openai-chat
//   --remove-worktree   remove the worktree when done (`git worktree remove --force`)
//   --budget n          the budget every fixture is written with (default 8000)
//   --cut a,b           cut after exactly these steps of the driver instead of at about
//                       1/3 and 2/3 of the turns: a step is one append or one build (with
//                       its recordUsage), as the driver makes them (turn 0 of the
//                       mini-SWE-agent session in openai-chat: append, build, append, append;
//                       346 steps in all). Points are named step-<n>-of-<steps>.
//   --folder name       the case's name (default: the short hash): a case of its own for
//                       fixtures of other options than a committed case's
//   --no-usage          no recordUsage after a build (no calibration)
//   --no-postgres       no PostgreSQL session (snapshots and SQLite sessions only)
//
// A future format change (a new durable format, or a change of what the rules decide that
// bumps DECISIONS): commit it, then run this script on the LAST commit before the change and
// on the FIRST commit with it, and commit what changed under pkg/test/fixtures/past/
// (a new format-<F>-decisions-<D>/ folder, or a case more in one). The
// options (counter, summarizer, system prompt; the budget unless --budget) are fixed below;
// a reader restores with the same ones (manifest.json says them, the budget included).
// Issue 47's item 7, for instance: `--budget 50000 --sessions
// mini-swe-agent-django-11138.traj.json --formats openai-chat --cut 229,247 --no-postgres
// --folder a6221f5-50k a6221f5`. Never regenerate a committed case: it is
// what that version wrote. Commits known not to build from a clean checkout: b4e0c5a,
// 4558e79, a231f98.
//
// Internal: `node scripts/past-fixtures.mjs --drive <worktree> <out-dir> <meta.json>` is the
// child process of step 5.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUNDLE, folderOf, pack, unpack } from '../pkg/test/past-bundle.mjs';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = resolve(dirname(SCRIPT), '..');
const PAST = join(ROOT, 'pkg/test/fixtures/past');
const OLD = resolve(process.env.PAST_WORKTREES ?? join(dirname(ROOT), 'old'));

/** The options every fixture is written with (the budget: `--budget`); a reader restores with the same (plus its store). */
const BUDGET = 8_000;
const SYSTEM = 'You are a coding agent.';
const summarizer = (prompt) => `Summary: ${prompt.slice(0, 600)} … ${prompt.slice(-600)}`;
const optionsDescribed = (budget) => ({
  budget,
  countTokens: "createTokenCounter('o200k_base') of the same build",
  summarizer: "(prompt) => `Summary: ${prompt.slice(0, 600)} … ${prompt.slice(-600)}`",
  system: SYSTEM,
  store: 'snapshots: a MemoryStateRepository (its rows in snapshot-<format>.store.json); sessions: SqliteStateRepository(file) / PostgresStateRepository(pool)',
  sessionId: 'fixture',
  other: 'none: every other option at the default of that version',
});
/** A provider's usage report for a request the manager counted `n` tokens: a little more, as providers count. */
const USAGE = {
  anthropic: (n) => ({ input_tokens: 10, cache_read_input_tokens: Math.round(n * 1.07) + 30 }),
  'openai-chat': (n) => ({ prompt_tokens: Math.round(n * 1.07) + 40 }),
  'openai-responses': (n) => ({ input_tokens: Math.round(n * 1.07) + 40 }),
  'ai-sdk': (n) => ({ inputTokens: Math.round(n * 1.07) + 40 }),
};
const USAGE_DESCRIBED = "after each build: recordUsage of the format's usage shape for round(ledger.rawTokens * 1.07) + 40 input tokens (the manager's own count, before calibration; anthropic: input_tokens 10, cache_read_input_tokens round(rawTokens * 1.07) + 30)";
const DEFAULT_SESSIONS = ['claude-code-session.jsonl', 'swe-agent-marshmallow-1867.traj', 'mini-swe-agent-django-11138.traj.json'];
const DEFAULT_FORMATS = ['anthropic', 'openai-chat'];

const sh = (cmd, args, opts = {}) => String(execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30, ...opts }) ?? '').trim();
const tryVersion = (cmd, args = ['--version']) => {
  try {
    return sh(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
};

if (process.argv[2] === '--drive') {
  await drive(process.argv[3], process.argv[4], JSON.parse(readFileSync(process.argv[5], 'utf8')));
} else {
  await main(process.argv.slice(2));
}

// ---------------------------------------------------------------- the parent: per commit

async function main(argv) {
  const opts = { rebuild: false, remove: false, sessions: DEFAULT_SESSIONS, formats: DEFAULT_FORMATS, budget: BUDGET, cut: null, folder: null, usage: true, postgres: true };
  const whole = (a, v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${a} takes a whole number above 0, not ${v}`);
    return n;
  };
  const commits = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rebuild') opts.rebuild = true;
    else if (a === '--remove-worktree') opts.remove = true;
    else if (a === '--sessions') opts.sessions = argv[++i].split(',');
    else if (a === '--formats') opts.formats = argv[++i].split(',');
    else if (a === '--budget') opts.budget = whole(a, argv[++i]);
    else if (a === '--no-usage') opts.usage = false;
    else if (a === '--no-postgres') opts.postgres = false;
    else if (a === '--cut') opts.cut = argv[++i].split(',').map((v) => whole(a, v));
    else if (a === '--folder') {
      opts.folder = argv[++i];
      if (!/^[\w.-]+$/.test(opts.folder)) throw new Error(`--folder ${opts.folder}: one folder name`);
    }
    else if (a === '-h' || a === '--help') {
      console.log(readFileSync(SCRIPT, 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
      return;
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else commits.push(a);
  }
  if (!commits.length) throw new Error('usage: node scripts/past-fixtures.mjs [--rebuild] [--sessions a,b] [--formats a,b] [--budget n] [--cut a,b] [--folder name] <commit> ...');
  if (opts.folder && commits.length > 1) throw new Error('--folder names the folder of one commit');
  mkdirSync(OLD, { recursive: true });
  for (const c of commits) await one(c, opts);
}

async function one(commit, opts) {
  const full = sh('git', ['-C', ROOT, 'rev-parse', '--verify', `${commit}^{commit}`]);
  const short = full.slice(0, 7);
  const [date, subject] = sh('git', ['-C', ROOT, 'show', '-s', '--format=%cI%x00%s', full]).split('\0');
  const wt = join(OLD, short);
  log(`${short} ${date} ${subject.slice(0, 100)}`);

  // 1. The worktree.
  let fresh = false;
  if (existsSync(wt)) {
    const head = sh('git', ['-C', wt, 'rev-parse', 'HEAD']);
    if (head !== full) throw new Error(`${wt} is at ${head}, not ${full}: remove it (git worktree remove) or set PAST_WORKTREES`);
  } else {
    sh('git', ['-C', ROOT, 'worktree', 'add', '--detach', wt, full], { stdio: 'inherit' });
    fresh = true;
  }

  // 2. node_modules.
  const nodeModules = linkNodeModules(wt);

  // 3. wasm-bindgen.
  const env = { ...process.env };
  const pinned = cargoLockVersion(join(wt, 'Cargo.lock'), 'wasm-bindgen');
  const onPath = (tryVersion('wasm-bindgen') ?? '').split(' ')[1] ?? null;
  let wasmBindgen = { pinned, onPath, used: onPath };
  if (pinned && pinned !== onPath) {
    const root = join(OLD, `bin-${pinned}`);
    if (!existsSync(join(root, 'bin/wasm-bindgen'))) {
      log(`  the old Cargo.lock pins wasm-bindgen ${pinned}, PATH has ${onPath}: installing ${pinned} into ${root}`);
      sh('cargo', ['install', 'wasm-bindgen-cli', '--version', pinned, '--locked', '--root', root], { stdio: 'inherit' });
    }
    env.PATH = `${join(root, 'bin')}:${env.PATH}`;
    wasmBindgen = { pinned, onPath, used: pinned, root };
  }

  // 4. The build.
  const stamp = join(wt, 'pkg/dist/.past-fixtures-built');
  let build;
  if (!opts.rebuild && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === full) {
    build = JSON.parse(readFileSync(`${stamp}.json`, 'utf8'));
    build.reused = true;
    log(`  built before (${build.seconds}s, from a clean worktree: ${build.fromCleanWorktree})`);
  } else {
    const logFile = join(OLD, `build-${short}.log`);
    const fromClean = !existsSync(join(wt, 'target'));
    log(`  building (${fromClean ? 'clean worktree, no target/' : 'target/ kept from before'}), log in ${logFile}`);
    const t0 = Date.now();
    const r = spawnSync('bash', ['scripts/build.sh'], { cwd: wt, env, encoding: 'utf8', maxBuffer: 1 << 30 });
    writeFileSync(logFile, `${r.stdout}\n${r.stderr}`);
    if (r.status !== 0) throw new Error(`${short}: bash scripts/build.sh failed (exit ${r.status}); see ${logFile}:\n${r.stderr.slice(-2000)}`);
    build = { command: 'bash scripts/build.sh', seconds: Math.round((Date.now() - t0) / 1000), fromCleanWorktree: fromClean, worktreeMadeNow: fresh, nodeModules, wasmBindgen, lastLine: r.stdout.trim().split('\n').pop() };
    writeFileSync(`${stamp}.json`, JSON.stringify(build));
    writeFileSync(stamp, `${full}\n`);
  }

  // 5. The fixtures, by a child process that loads only that build.
  const name = opts.folder ?? short;
  const out = mkdtempSync(join(tmpdir(), `past-${name}-`));
  const pgBin = postgresBin();
  const meta = {
    commit: full, short, date, subject,
    packageVersion: JSON.parse(readFileSync(join(wt, 'pkg/package.json'), 'utf8')).version,
    versions: {
      node: process.version,
      npm: tryVersion('npm'),
      cargo: tryVersion('cargo'),
      rustc: tryVersion('rustc'),
      wasmBindgen,
      postgres: pgBin ? tryVersion(join(pgBin, 'postgres')) : null,
      betterSqlite3: moduleVersion(wt, 'better-sqlite3'),
      pg: moduleVersion(wt, 'pg'),
    },
    build: { nodeModules, ...build },
    sessions: opts.sessions,
    formats: opts.formats,
    budget: opts.budget,
    usage: opts.usage,
    postgres: opts.postgres,
    ...(opts.cut ? { cut: opts.cut } : {}),
    ...(opts.folder ? { folder: opts.folder } : {}),
    madeBy: `scripts/past-fixtures.mjs at ${tryVersion('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'])} (${relative(ROOT, SCRIPT)})`,
  };
  const metaFile = join(mkdtempSync(join(tmpdir(), 'past-')), 'meta.json');
  writeFileSync(metaFile, JSON.stringify(meta));
  const r = spawnSync(process.execPath, [SCRIPT, '--drive', wt, out, metaFile], { stdio: 'inherit', env });
  rmSync(dirname(metaFile), { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`${short}: the fixtures' child process failed (exit ${r.status ?? r.signal})`);
  addCase(name, out);
  rmSync(out, { recursive: true, force: true });
  if (opts.remove) {
    // The link first, so that nothing can reach through it into this checkout's node_modules.
    if (lstatSync(join(wt, 'pkg/node_modules')).isSymbolicLink()) rmSync(join(wt, 'pkg/node_modules'));
    sh('git', ['-C', ROOT, 'worktree', 'remove', '--force', wt], { stdio: 'inherit' });
  }
}

/** Adds the case written under `out` to the folder of its durable format and decisions number. */
function addCase(name, out) {
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  const keys = new Set(manifest.points.filter((p) => p.wrote.snapshot).map((p) => folderOf(p.wrote.snapshot.version, p.wrote.snapshot.decisions ?? 1)));
  if (keys.size !== 1) throw new Error(`${name}: its snapshots say ${keys.size ? [...keys].join(' and ') : 'nothing'}; a case is of one durable format and decisions number`);
  const folder = join(PAST, [...keys][0]);
  const file = join(folder, BUNDLE);
  const before = existsSync(file) ? readFileSync(file) : null;
  const files = before ? unpack(before) : new Map();
  if (files.has(`${name}/manifest.json`)) throw new Error(`${relative(ROOT, folder)} has a case ${name} already: never regenerate one (--folder names another)`);
  for (const path of ['manifest.json', ...manifest.files]) files.set(`${name}/${path}`, readFileSync(join(out, path)));
  const after = pack(files);
  mkdirSync(folder, { recursive: true });
  writeFileSync(file, after);
  const grew = after.length - (before?.length ?? 0);
  log(`  ${relative(ROOT, file)}: ${after.length} bytes, ${grew} more with ${name}${grew > 1 << 20 ? ' (over the 1 MB a case may add: see pkg/test/fixtures/past/README.md)' : ''}`);
}

function log(line) {
  process.stderr.write(`${line}\n`);
}

/** `version` of the `[[package]] name = …` of a Cargo.lock. */
function cargoLockVersion(file, name) {
  if (!existsSync(file)) return null;
  const m = readFileSync(file, 'utf8').match(new RegExp(`\\[\\[package\\]\\]\\nname = "${name}"\\nversion = "([^"]+)"`));
  return m ? m[1] : null;
}

function moduleVersion(wt, name) {
  try {
    return JSON.parse(readFileSync(createRequire(join(wt, 'pkg/package.json')).resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    return null;
  }
}

/** A symlink to this checkout's node_modules when it holds every package of the old lockfile at its version; else npm ci. */
function linkNodeModules(wt) {
  const target = join(wt, 'pkg/node_modules');
  const ours = join(ROOT, 'pkg/node_modules');
  let exists = false;
  try {
    lstatSync(target);
    exists = true;
  } catch {}
  if (exists) return lstatSync(target).isSymbolicLink() ? `symlink (kept) to ${readlinkSafe(target)}` : 'installed before (kept)';
  const oldLock = JSON.parse(readFileSync(join(wt, 'pkg/package-lock.json'), 'utf8')).packages ?? {};
  const installed = existsSync(join(ours, '.package-lock.json')) ? JSON.parse(readFileSync(join(ours, '.package-lock.json'), 'utf8')).packages : {};
  const differ = Object.entries(oldLock).filter(([k, v]) => k && k.startsWith('node_modules/') && !v.optional && installed[k]?.version !== v.version).map(([k]) => k);
  if (existsSync(ours) && differ.length === 0) {
    symlinkSync(resolveLink(ours), target);
    return `symlink to ${resolveLink(ours)} (every package of the old lockfile is installed there at the same version)`;
  }
  log(`  ${differ.length} packages of the old lockfile differ from ${ours} (${differ.slice(0, 5).join(', ')}…): npm ci`);
  sh('npm', ['ci', '--no-audit', '--no-fund'], { cwd: join(wt, 'pkg'), stdio: 'inherit' });
  return `npm ci (${differ.length} packages differed from ${ours})`;
}

function readlinkSafe(p) {
  try {
    return resolveLink(p);
  } catch {
    return '?';
  }
}

function resolveLink(p) {
  return sh('realpath', [p]);
}

function postgresBin() {
  const candidates = [];
  const initdb = tryVersion('sh', ['-c', 'command -v initdb']);
  if (initdb) candidates.push(dirname(initdb));
  if (existsSync('/usr/lib/postgresql')) for (const v of readdirSync('/usr/lib/postgresql').sort().reverse()) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  return candidates.find((d) => existsSync(join(d, 'postgres'))) ?? null;
}

// ---------------------------------------------------------------- the child: one build

async function drive(wt, out, meta) {
  const req = createRequire(join(wt, 'pkg/package.json'));
  const optional = (id) => {
    try {
      return req(id);
    } catch (error) {
      if (error.code === 'MODULE_NOT_FOUND' || error.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return null;
      throw error;
    }
  };
  const pkg = req('@devs/context');
  const { createTokenCounter } = req('@devs/context/tokenizers');
  const replay = req('@devs/context/replay');
  const sqlite = optional('@devs/context/sqlite');
  const postgres = optional('@devs/context/postgres');
  const { ContextManager, MemoryStateRepository } = pkg;
  const o200k = createTokenCounter('o200k_base');
  const has = {
    snapshot: typeof ContextManager?.prototype?.snapshot === 'function' && typeof ContextManager.restore === 'function',
    sessions: typeof ContextManager?.open === 'function',
  };
  has.sqliteSessions = has.sessions && !!sqlite?.SqliteStateRepository;
  has.postgresSessions = meta.postgres && has.sessions && !!postgres?.PostgresStateRepository;
  if (typeof replay.parseTranscript !== 'function' || typeof replay.providerTurns !== 'function') {
    throw new Error(`${wt}: its @devs/context/replay has no parseTranscript/providerTurns; give this script a converter of its own for it`);
  }
  const options = (format, store) => ({ format, budget: meta.budget, countTokens: o200k, summarizer, system: SYSTEM, ...(store ? { store } : {}) });
  const request = (r) => JSON.stringify({ system: r.system, messages: r.messages });
  const files = [];
  /** Writes `text` (a string or bytes) and lists it: the folder's brotli stream compresses it. */
  const write = (path, text) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    files.push(relative(out, path));
  };

  /** The driver's steps of `turns`, each an append or a build (with its usage): append input, build, append the response, append the results. */
  const stepsOf = (turns, format) => turns.flatMap((turn) => [
    ...(turn.input.length ? [(c) => c.append(turn.input)] : []),
    async (c) => {
      const r = await c.build();
      if (meta.usage) await c.recordUsage(USAGE[format](r.ledger?.rawTokens ?? r.tokens));
    },
    ...(turn.response.length ? [(c) => c.append(turn.response)] : []),
    ...(turn.results.length ? [(c) => c.append(turn.results)] : []),
  ]);
  /** Drives the first `n` steps through `context`. */
  async function run(context, steps, n) {
    for (const step of steps.slice(0, n)) await step(context);
  }

  // The sessions, read by that build's own parser and converted by its own providerTurns.
  const sessionsDir = existsSync(join(wt, 'pkg/test/fixtures/sessions')) ? join(wt, 'pkg/test/fixtures/sessions') : join(ROOT, 'pkg/test/fixtures/sessions');
  const sessions = meta.sessions.map((file) => {
    const parsed = replay.parseTranscript(readFileSync(join(sessionsDir, file), 'utf8'), file);
    return { file, name: file.replace(/\.(jsonl|json|traj)$/, '').replace(/\.traj$/, ''), session: parsed[0] };
  });

  let server = null;
  let pg = null;
  let pgPool = null;
  let db = 0;
  if (has.postgresSessions) {
    pg = req('pg');
    const helper = existsSync(join(wt, 'pkg/test/postgres.mjs')) ? join(wt, 'pkg/test/postgres.mjs') : join(ROOT, 'pkg/test/postgres.mjs');
    const { startPostgres } = await import(pathToFileURL(helper).href);
    server = await startPostgres();
    pgPool = new pg.Pool({ connectionString: server.connectionString, max: 2 });
    pgPool.on('error', () => {});
  }

  const written = [];
  try {
    for (const { file, name, session } of sessions) {
      for (const format of meta.formats) {
        const turns = replay.providerTurns(session, format);
        const steps = stepsOf(turns, format);
        // A point: [its name, the steps driven, the turns begun].
        const points = meta.cut
          ? meta.cut.map((n) => {
            if (n > steps.length) throw new Error(`--cut ${n}: ${file} has ${steps.length} steps in ${format}`);
            return [`step-${String(n).padStart(3, '0')}-of-${steps.length}`, n, turns.findIndex((_, t) => stepsOf(turns.slice(0, t + 1), format).length >= n) + 1];
          })
          : [Math.floor(turns.length / 3), Math.floor((2 * turns.length) / 3)].map((t) => [`turn-${String(t).padStart(3, '0')}-of-${turns.length}`, stepsOf(turns.slice(0, t), format).length, t]);
        for (const [point, n, t] of points) {
          const dir = join(out, name, point);
          const entry = { session: file, format, point, turnsDriven: t, turnsInSession: turns.length, stepsDriven: n, stepsInSession: steps.length, wrote: {} };

          if (has.snapshot) {
            const store = new MemoryStateRepository();
            const cm = new ContextManager(options(format, store));
            await run(cm, steps, n);
            const snapshot = JSON.stringify(cm.snapshot());
            const rows = JSON.stringify(store.getRawToolOutputs());
            const next = request(await cm.build());
            write(join(dir, `snapshot-${format}.json`), snapshot);
            write(join(dir, `snapshot-${format}.store.json`), rows);
            write(join(dir, `snapshot-${format}.next.json`), next);
            const s = JSON.parse(snapshot);
            entry.wrote.snapshot = { version: s.version, decisions: s.decisions ?? 1, keys: Object.keys(s), bytes: Buffer.byteLength(snapshot), storeRows: store.getRawToolOutputs().length };
          }

          if (has.sqliteSessions) {
            const scratch = mkdtempSync(join(tmpdir(), 'past-sqlite-'));
            const dbFile = join(scratch, 'state.sqlite');
            const store = new sqlite.SqliteStateRepository(dbFile);
            const s = await ContextManager.open({ ...options(format, store), sessionId: 'fixture' });
            await run(s, steps, n);
            await s.close();
            store.close();
            const base = join(dir, `session-${format}.sqlite`);
            const parts = [];
            for (const suffix of ['', '-wal', '-shm']) {
              if (existsSync(dbFile + suffix)) {
                write(base + suffix, readFileSync(dbFile + suffix));
                parts.push(files[files.length - 1].split('/').pop());
              }
            }
            // The next request, from the file as stored, read by a copy (the fixture stays as written).
            const copyDir = mkdtempSync(join(tmpdir(), 'past-sqlite-copy-'));
            for (const suffix of ['', '-wal', '-shm']) if (existsSync(dbFile + suffix)) copyFileSync(dbFile + suffix, join(copyDir, `state.sqlite${suffix}`));
            const copyStore = new sqlite.SqliteStateRepository(join(copyDir, 'state.sqlite'));
            const reopened = await ContextManager.open({ ...options(format, copyStore), sessionId: 'fixture' });
            const next = request(await reopened.build());
            await reopened.close();
            copyStore.close();
            write(`${base}.next.json`, next);
            // What the file holds, read from yet another copy: opening a WAL file, even read-only, writes beside it.
            const lookDir = mkdtempSync(join(tmpdir(), 'past-sqlite-look-'));
            for (const suffix of ['', '-wal', '-shm']) if (existsSync(dbFile + suffix)) copyFileSync(dbFile + suffix, join(lookDir, `state.sqlite${suffix}`));
            const Database = req('better-sqlite3');
            const look = new Database(join(lookDir, 'state.sqlite'), { readonly: true, fileMustExist: true });
            const tables = look.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name);
            const counts = Object.fromEntries(tables.map((tb) => [tb, look.prepare(`SELECT count(*) AS n FROM "${tb}"`).get().n]));
            const userVersion = look.pragma('user_version', { simple: true });
            look.close();
            rmSync(lookDir, { recursive: true, force: true });
            entry.wrote.sqlite = { files: parts, bytes: statSync(dbFile).size, userVersion, tables: counts };
            rmSync(scratch, { recursive: true, force: true });
            rmSync(copyDir, { recursive: true, force: true });
          }

          if (has.postgresSessions) {
            const dbName = `past_${++db}`;
            await pgPool.query(`CREATE DATABASE ${dbName}`);
            const url = server.connectionString.replace(/\/postgres$/, `/${dbName}`);
            const own = new pg.Pool({ connectionString: url, max: 2 });
            own.on('error', () => {});
            try {
              const store = new postgres.PostgresStateRepository(own);
              if (typeof store.ready === 'function') await store.ready();
              const s = await ContextManager.open({ ...options(format, store), sessionId: 'fixture' });
              await run(s, steps, n);
              await s.close();
              // Every table, every row, in column order.
              const tables = (await own.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name")).rows.map((r) => r.table_name);
              const rows = {};
              for (const tb of tables) {
                // Ordered by every column that has an order (json and xml have none).
                const cols = (await own.query('SELECT ordinal_position AS n, data_type AS type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY 1', ['public', tb])).rows;
                const order = cols.filter((c) => c.type !== 'json' && c.type !== 'xml').map((c) => c.n).join(', ');
                rows[tb] = (await own.query(`SELECT * FROM ${tb}${order ? ` ORDER BY ${order}` : ''}`)).rows;
              }
              const base = join(dir, `session-${format}.postgres`);
              write(`${base}.rows.json`, JSON.stringify(rows));
              write(`${base}.sql`, pgDump(server, dbName));
              // The next request, by the session opened again (as another worker would).
              const again = await ContextManager.open({ ...options(format, new postgres.PostgresStateRepository(own)), sessionId: 'fixture' });
              const next = request(await again.build());
              await again.close();
              write(`${base}.next.json`, next);
              let schema = null;
              if (tables.includes('devs_context_schema')) schema = rows.devs_context_schema;
              entry.wrote.postgres = { tables: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v.length])), schema };
            } finally {
              await own.end();
            }
          }
          written.push(entry);
          log(`  ${name} ${format} ${point}: ${Object.keys(entry.wrote).join(', ') || 'nothing'}`);
        }
      }
    }
  } finally {
    await pgPool?.end();
    await server?.destroy();
  }

  const manifest = {
    ...meta,
    has,
    options: optionsDescribed(meta.budget),
    usage: meta.usage ? USAGE_DESCRIBED : 'none: no recordUsage (--no-usage)',
    drive: `per turn of the build's own providerTurns(session, format): append(input) if any, build(), recordUsage(...), append(response), append(results); a fresh manager/session per cut point; the snapshot is taken after the cut point's last ${meta.cut ? 'step (an append, or a build with its recordUsage)' : 'turn'}, then build() gives the next request`,
    request: 'JSON.stringify({ system, messages }) of the build() result',
    points: written,
    files: files.sort(),
  };
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`  wrote ${files.length} files under ${relative(ROOT, out)}`);
}

function pgDump(server, dbName) {
  const bin = postgresBin();
  const pgDumpBin = bin && existsSync(join(bin, 'pg_dump')) ? join(bin, 'pg_dump') : 'pg_dump';
  return execFileSync(pgDumpBin, ['--no-owner', '--no-privileges', '-h', server.host ?? '127.0.0.1', '-p', String(server.port), '-U', 'postgres', dbName], { maxBuffer: 1 << 30, env: { ...process.env, LC_ALL: 'C' } });
}
