/**
 * `@devs/context/postgres`: the SQLite store's tables in PostgreSQL, for a fleet of
 * workers sharing sessions. Node only; the host passes its own `pg` pool (`pg` is an
 * optional peer, like `better-sqlite3`).
 */
import {
  SessionConflictError, validateToolOutputEntry, type RawToolOutputRow, type SessionCommit, type SessionRows, type SessionStore, type StateRepository, type ToolOutputEntry,
} from '@devs/context';
import { argumentError as invalid, hasCode } from '../../errors/index.js';
import { fitsText, readableText, utf16Bytes } from '../../core/exact-text.js';
import { MIGRATION_LOCK, PG_MIGRATIONS, PG_SCHEMA_TABLE, PG_SCHEMA_VERSION } from './schema.js';
import { isoTime, sessionOutputId, toRow } from '../rows.js';

export type { RawToolOutputRow } from '@devs/context';

/** What the store uses of a `pg` `Pool` (or `Client`): `query`, and `connect` for the migration. */
export interface PgQueryable {
  query(query: string | { name: string; text: string; values?: unknown[] }, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>>; rowCount: number | null }>;
  connect?(): Promise<PgClient>;
}

/** A client checked out of the pool. */
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>>; rowCount: number | null }>;
  release(error?: Error | boolean): void;
}

/** Options of `PostgresStateRepository`. */
export interface PostgresStateRepositoryOptions {
  /** A name for the database in error messages. Default `'PostgreSQL'`. */
  label?: string;
}

// A call of a session is one statement, so one round trip: the session row moves on only
// from the version the caller read, and the changes and texts are written only with it.
const COMMIT = `
WITH created AS (
  INSERT INTO context_sessions (session_id, version, format, config, outputs, updated_at)
  SELECT $1, 1, $3, $4, $5, now() WHERE $2::bigint = 0
  ON CONFLICT (session_id) DO NOTHING
  RETURNING version
), advanced AS (
  -- Under READ COMMITTED a second worker waits for the first's row, then finds it moved on.
  UPDATE context_sessions SET version = version + 1, outputs = outputs + $5, updated_at = now()
  WHERE session_id = $1 AND version = $2::bigint AND $2::bigint > 0
  RETURNING version
), moved AS (
  SELECT version FROM created UNION ALL SELECT version FROM advanced
), changed AS (
  INSERT INTO context_changes (session_id, version, changes, checkpoint) SELECT $1, version, $6, $17 FROM moved
), drained AS (
  UPDATE context_inbox SET taken_in = (SELECT version FROM moved) WHERE session_id = $1 AND seq = ANY($16::bigint[]) AND taken_in IS NULL AND EXISTS (SELECT 1 FROM moved)
), stored AS (
  INSERT INTO raw_tool_outputs (tool_name, raw_content, byte_size, turn_age, captured_at, stored_at, raw_content_exact, tool_name_exact, session_id, session_seq)
  SELECT o.tool_name, o.raw_content, o.byte_size, o.turn_age, o.captured_at, $7, o.raw_content_exact, o.tool_name_exact, $1, o.seq
  FROM moved, unnest($8::text[], $9::text[], $10::bigint[], $11::int[], $12::text[], $13::bytea[], $14::bytea[], $15::bigint[])
    AS o(tool_name, raw_content, byte_size, turn_age, captured_at, raw_content_exact, tool_name_exact, seq)
)
SELECT version FROM moved`;

// One statement, so one snapshot of the session and its queue.
const LOAD = `
WITH cp AS (
  -- The newest checkpoint after the version asked for: the calls before it are not read.
  SELECT version, checkpoint FROM context_changes WHERE session_id = $1 AND version > $2::bigint AND checkpoint IS NOT NULL ORDER BY version DESC LIMIT 1
), calls AS (
  SELECT version, changes FROM context_changes WHERE session_id = $1 AND version > GREATEST($2::bigint, COALESCE((SELECT version FROM cp) - 1, 0))
)
SELECT s.version, s.format, s.config, s.outputs, (SELECT version FROM cp) AS cp_version, (SELECT checkpoint FROM cp) AS cp_state,
  COALESCE((SELECT array_agg(changes ORDER BY version) FROM calls), '{}') AS changes,
  -- Each row's version with it: a session that lost one is refused naming it.
  COALESCE((SELECT array_agg(version ORDER BY version) FROM calls), '{}') AS versions,
  COALESCE((SELECT array_agg(i.seq ORDER BY i.seq) FROM context_inbox i WHERE i.session_id = $1 AND i.taken_in IS NULL), '{}') AS inbox_seqs,
  COALESCE((SELECT array_agg(i.messages ORDER BY i.seq) FROM context_inbox i WHERE i.session_id = $1 AND i.taken_in IS NULL), '{}') AS inbox
FROM (SELECT 1) AS one LEFT JOIN context_sessions s ON s.session_id = $1`;

const COLUMNS = 'id, tool_name, raw_content, byte_size, turn_age, captured_at, stored_at, raw_content_exact, tool_name_exact';

/**
 * Raw tool outputs and sessions written ahead (`ContextManager.open`) in PostgreSQL, over
 * the host's `pg` pool. The tables are the SQLite store's, created or migrated on first use
 * (one worker at a time). Each call of a session is one statement: one round trip, all or
 * nothing. A worker that calls on a session another one moved on gets a
 * `SessionConflictError`, and nothing of its call is written, so two workers never
 * interleave one session. Every string reads back `===` identical, NUL and lone surrogates
 * included.
 * @example
 * import pg from 'pg';
 * import { ContextManager } from '@devs/context';
 * import { PostgresStateRepository } from '@devs/context/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = new PostgresStateRepository(pool);
 * const context = await ContextManager.open({ sessionId: 'task-42', store, format: 'openai-chat', budget: 100_000 });
 * await context.append({ role: 'user', content: 'Make the parser tests pass' });
 * await context.close();
 * await pool.end();
 */
export class PostgresStateRepository implements StateRepository, SessionStore {
  readonly #db: PgQueryable;
  readonly #label: string;
  #ready: Promise<void> | null = null;

  /**
   * @param pool a `pg` `Pool` (or anything with its `query`; `connect` too, for the first migration).
   * @throws {TypeError} when `pool` has no `query` function, or an option has the wrong type.
   */
  constructor(pool: PgQueryable, options: PostgresStateRepositoryOptions = {}) {
    if (typeof pool !== 'object' || pool === null || typeof pool.query !== 'function') throw invalid(TypeError, 'pool', "must be a pg Pool: an object with query()");
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid(TypeError, 'options', 'must be an object');
    if (options.label !== undefined && typeof options.label !== 'string') throw invalid(TypeError, 'options.label', 'must be a string');
    this.#db = pool;
    this.#label = options.label ?? 'PostgreSQL';
  }

  /** Creates or migrates the tables, if this store has not yet; a failed attempt is tried again on the next call. */
  ready(): Promise<void> {
    this.#ready ??= this.#migrate().catch((error) => {
      this.#ready = null;
      throw error;
    });
    return this.#ready;
  }

  /** Stores `entry` and resolves its row id; rejects, storing nothing, if it fails. */
  async insertRawToolOutput(entry: ToolOutputEntry): Promise<number> {
    validateToolOutputEntry(entry);
    const size = Buffer.byteLength(entry.rawContent, 'utf8');
    if (entry.byteSize !== size) throw invalid(RangeError, 'entry.byteSize', `must be rawContent's UTF-8 size, ${size}, got ${entry.byteSize}`);
    const { rows } = await this.#query(
      `INSERT INTO raw_tool_outputs (tool_name, raw_content, byte_size, turn_age, captured_at, stored_at, raw_content_exact, tool_name_exact)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [readableText(entry.toolName, false), readableText(entry.rawContent, false), size, entry.turnAge, isoTime(entry.capturedAt), new Date().toISOString(),
        exact(entry.rawContent), exact(entry.toolName)],
    );
    return Number(rows[0].id);
  }

  /** The stored output with id `id` (a row id, or a session's `<sessionId>:<n>`), or `undefined`. */
  async getRawToolOutput(id: string | number): Promise<RawToolOutputRow | undefined> {
    const session = sessionOutputId(id);
    const { rows } = session
      ? await this.#query(`SELECT ${COLUMNS} FROM raw_tool_outputs WHERE session_id = $1 AND session_seq = $2`, [session[0], session[1]])
      : await this.#query(`SELECT ${COLUMNS} FROM raw_tool_outputs WHERE id = $1`, [Number(id)]);
    return rows[0] && toRow(rows[0]);
  }

  /** Stored outputs, oldest first; only `toolName`'s when given. */
  async getRawToolOutputs(toolName?: string): Promise<RawToolOutputRow[]> {
    const { rows } = toolName === undefined
      ? await this.#query(`SELECT ${COLUMNS} FROM raw_tool_outputs ORDER BY id`)
      : await this.#query(`SELECT ${COLUMNS} FROM raw_tool_outputs WHERE tool_name = $1 ORDER BY id`, [readableText(toolName, false)]);
    const out = rows.map(toRow);
    return toolName === undefined ? out : out.filter((r) => r.toolName === toolName);
  }

  /** A session's committed calls after `after` and its queued appends (`SessionStore`), read in one statement; `undefined` if there is none. */
  async loadSession(sessionId: string, after = 0): Promise<SessionRows | undefined> {
    const { rows } = await this.#query(LOAD, [sessionId, after]);
    const r = rows[0];
    const seqs = (r.inbox_seqs as Array<string | number>).map(Number);
    const changes = r.changes as string[];
    if (r.version === null && !seqs.length && !changes.length) return undefined;
    const inbox = seqs.map((seq, i): [number, string] => [seq, (r.inbox as string[])[i]]);
    const versions = (r.versions as Array<string | number>).map(Number);
    // Calls whose session row was lost are given too: refused, not taken for a new session.
    if (r.version === null) return { version: 0, format: '', config: '', outputs: 0, changes, versions, inbox };
    const loaded: SessionRows = { version: Number(r.version), format: String(r.format), config: String(r.config), outputs: Number(r.outputs), changes, versions, inbox };
    return r.cp_version === null ? loaded : { ...loaded, checkpoint: { version: Number(r.cp_version), state: String(r.cp_state) } };
  }

  /** Queues appends to a shared session (`SessionStore`). */
  async enqueue(sessionId: string, messages: string, appendId: string): Promise<void> {
    await this.#query('INSERT INTO context_inbox (session_id, messages, append_id) VALUES ($1, $2, $3) ON CONFLICT (append_id) DO NOTHING', [sessionId, messages, appendId]);
  }

  /**
   * Writes one call of a session (`SessionStore`) in one statement, or nothing.
   * @throws {SessionConflictError} when the session is no longer at `commit.version`.
   * @throws {Error} naming the database, with PostgreSQL's `code`, when the statement fails (the server went away: nothing was written).
   */
  async commitSession(commit: SessionCommit): Promise<void> {
    const o = commit.outputs;
    const { rows } = await this.#query(COMMIT, [
      commit.sessionId, commit.version, commit.format, commit.config, o.length, commit.changes, new Date().toISOString(),
      o.map((e) => readableText(e.toolName, false)), o.map((e) => readableText(e.rawContent, false)), o.map((e) => e.byteSize), o.map((e) => e.turnAge),
      o.map((e) => isoTime(e.capturedAt)), o.map((e) => exact(e.rawContent)), o.map((e) => exact(e.toolName)), o.map((e) => e.seq),
      commit.inbox ?? [], commit.checkpoint ?? null,
    ]);
    if (rows.length === 1) return;
    const now = await this.#query('SELECT version FROM context_sessions WHERE session_id = $1', [commit.sessionId]);
    throw new SessionConflictError(commit.sessionId, commit.version, Number(now.rows[0]?.version ?? 0));
  }

  /** The summary kept for `key` in `sessionId`, if any (`SessionStore`). */
  async readSummary(sessionId: string, key: string): Promise<string | undefined> {
    const { rows } = await this.#query('SELECT summary FROM context_summaries WHERE session_id = $1 AND key = $2 AND summary IS NOT NULL', [sessionId, key]);
    return rows[0] ? (JSON.parse(String(rows[0].summary)) as string) : undefined;
  }

  /** Keeps a summary the moment it is paid for (`SessionStore`); the first one kept for a key stays. */
  async writeSummary(sessionId: string, key: string, text: string): Promise<void> {
    // JSON: PostgreSQL's text holds neither NUL nor a lone surrogate; their escapes it does.
    await this.#query(`INSERT INTO context_summaries AS s (session_id, key, summary) VALUES ($1, $2, $3)
      ON CONFLICT (session_id, key) DO UPDATE SET summary = EXCLUDED.summary, claimed_by = NULL, claimed_until = NULL WHERE s.summary IS NULL`, [sessionId, key, JSON.stringify(text)]);
  }

  /** Claims `key` of the session for `owner`, for `ttlMs` by the server's clock (`SessionStore`). */
  async claim(sessionId: string, key: string, owner: string, ttlMs: number): Promise<boolean> {
    const { rows } = await this.#query(`WITH now AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms)
      INSERT INTO context_summaries AS s (session_id, key, claimed_by, claimed_until) SELECT $1, $2, $3, ms + $4 FROM now
      ON CONFLICT (session_id, key) DO UPDATE SET claimed_by = $3, claimed_until = EXCLUDED.claimed_until
        WHERE s.summary IS NULL AND (s.claimed_until < EXCLUDED.claimed_until - $4 OR s.claimed_by = $3)
      RETURNING 1`, [sessionId, key, owner, Math.ceil(ttlMs)]);
    return rows.length === 1;
  }

  /** Ends `owner`'s claim on `key` (`SessionStore`). */
  async release(sessionId: string, key: string, owner: string): Promise<void> {
    await this.#query('DELETE FROM context_summaries WHERE session_id = $1 AND key = $2 AND summary IS NULL AND claimed_by = $3', [sessionId, key, owner]);
  }

  /** A statement made ready once per connection (pg's named statements): the call's statement is planned once, not per call. */
  async #query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }> {
    await this.ready();
    try {
      return await this.#db.query({ name: statementName(text), text, values });
    } catch (error) {
      throw storeError(this.#label, error);
    }
  }

  async #migrate(): Promise<void> {
    const client = this.#db.connect ? await this.#db.connect().catch((error: unknown) => { throw storeError(this.#label, error); }) : null;
    const db = client ?? this.#db;
    let failed: unknown;
    try {
      await db.query('BEGIN');
      await db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await db.query(PG_SCHEMA_TABLE);
      const { rows } = await db.query('SELECT version FROM devs_context_schema');
      const from = rows.length ? Number(rows[0].version) : 0;
      if (from > PG_SCHEMA_VERSION) throw Object.assign(new Error(`${this.#label}: schema version ${from} is newer than this package's ${PG_SCHEMA_VERSION}; upgrade @devs/context to use it`), { code: 'ERR_SCHEMA_VERSION' });
      for (let v = from; v < PG_SCHEMA_VERSION; v++) await db.query(PG_MIGRATIONS[v]);
      await db.query('INSERT INTO devs_context_schema (version) VALUES ($1) ON CONFLICT (one) DO UPDATE SET version = $1', [PG_SCHEMA_VERSION]);
      await db.query('COMMIT');
    } catch (error) {
      failed = error;
      await db.query('ROLLBACK').catch(() => undefined);
      throw error instanceof Error && error.message.startsWith(`${this.#label}: `) ? error : storeError(this.#label, error);
    } finally {
      client?.release(failed instanceof Error ? failed : undefined);
    }
  }
}

const names = new Map<string, string>();
/** A statement's name: one per text, the same in every store of this process. */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) names.set(text, (name = `devs-context-${names.size + 1}`));
  return name;
}

/** The code units of a string PostgreSQL's text cannot hold; `null` for one it can. */
function exact(text: string): Buffer | null {
  return fitsText(text, false) ? null : Buffer.from(utf16Bytes(text));
}

/** A `pg` error as the host sees it: the message names the database, `code` and `cause` keep PostgreSQL's. */
function storeError(label: string, error: unknown): Error {
  if (hasCode(error, 'ERR_SESSION_CONFLICT')) return error as Error;
  const e = error as { message?: unknown; code?: unknown };
  const wrapped = new Error(`${label}: ${String(e?.message ?? error)}; the call was not acknowledged`, { cause: error });
  // The database's own code where it gives one (`53100`, `57P01`…), else the package's.
  Object.assign(wrapped, { code: typeof e?.code === 'string' ? e.code : 'ERR_STORE' });
  return wrapped;
}
