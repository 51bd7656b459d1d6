/**
 * `@devs/context/sqlite`: a `StateRepository` that keeps raw tool outputs in SQLite, as
 * the orchestrator does (`state.sqlite`, table `raw_tool_outputs`). Node only; needs the
 * optional peer dependency `better-sqlite3`.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  SessionConflictError, validateToolOutputEntry, type RawToolOutputRow, type SessionCommit, type SessionRows, type SessionStore, type StateRepository, type ToolOutputEntry,
} from '@devs/context';

export type { RawToolOutputRow } from '@devs/context';
import { argumentError as invalid, hasCode } from '../../errors/index.js';
import { fitsText, readableText, utf16Bytes } from '../../core/exact-text.js';
import { isoTime, sessionOutputId, toRow } from '../rows.js';
import { checkReadable, migrate } from './schema.js';
import { sqliteSessions } from './sessions.js';

/** Options of `SqliteStateRepository`. */
export interface SqliteStateRepositoryOptions {
  /** Open an existing store for reading only: nothing is written, not even a `-wal` file, so a read-only file or folder will do. Default false. */
  readonly?: boolean;
}

type Row = {
  id: number;
  tool_name: string;
  raw_content: string;
  byte_size: number;
  turn_age: number;
  captured_at: string;
  stored_at: string;
  raw_content_exact?: Uint8Array | null;
  tool_name_exact?: Uint8Array | null;
};

/** The UTF-8 size of `text` as stored: a lone surrogate counts as U+FFFD's 3 bytes. */
const utf8Size = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * A SQLite error as the host sees it: the message names the file, `code` and `cause` keep
 * SQLite's (`SQLITE_FULL`, `SQLITE_CORRUPT`, …).
 */
function storeError(file: string, error: unknown): Error {
  const e = error as { message?: unknown; code?: unknown };
  // SQLite says "disk I/O error" for a write the file system refused: say what that usually is.
  const hint = e?.code === 'SQLITE_FULL' || e?.code === 'SQLITE_IOERR_WRITE' ? ' (the disk is full, or the file is over a size limit); nothing of the call was written' : '';
  const wrapped = new Error(`${file}: ${String(e?.message ?? error)}${hint}`, { cause: error });
  Object.assign(wrapped, { code: typeof e?.code === 'string' ? e.code : 'ERR_STORE' });
  return wrapped;
}

/**
 * Raw tool outputs in a SQLite file (default `state.sqlite`). The schema is created (or
 * migrated) on open, the database runs in WAL mode, and each insert is its own
 * transaction. What it is given reads back identical: every JS string, lone surrogates and
 * NUL included. A write after the file was deleted or replaced under it rejects, naming
 * the file, and every error names the file and keeps SQLite's code.
 * @example
 * import { SqliteStateRepository } from '@devs/context/sqlite';
 *
 * const repo = new SqliteStateRepository('state.sqlite');
 * const id = await repo.insertRawToolOutput({
 *   toolName: 'run_tests', rawContent: 'ok', byteSize: 2, turnAge: 0, capturedAt: Date.now(),
 * });
 * repo.getRawToolOutput(id)?.rawContent; // 'ok'
 * repo.close();
 */
export class SqliteStateRepository implements StateRepository, SessionStore {
  /** The database file. */
  readonly filename: string;
  /** Opened with `readonly: true`. */
  readonly readonly: boolean;
  private readonly db: Database.Database;
  /** The file's identity when opened: a write checks it is still that file. */
  private readonly identity: { dev: number; ino: number } | null;
  private readonly exactColumns: boolean;
  /** The folder of a copy read instead of the file, where the file's folder is read-only. */
  private readonly copy: string | null = null;
  private readonly insertRow: ((row: Omit<Row, 'id'>) => number) | null;
  private readonly sessions: ReturnType<typeof sqliteSessions> | null;

  /**
   * Opens (or creates) `filename`, default `state.sqlite`.
   * @throws {TypeError} when `filename` is not a non-empty string, or an option has the wrong type.
   * @throws {Error} naming the file, with SQLite's `code`, when it cannot be opened: not a database, newer than this package, missing with `readonly`.
   */
  constructor(filename = 'state.sqlite', options: SqliteStateRepositoryOptions = {}) {
    if (typeof filename !== 'string' || filename === '') throw invalid(TypeError, 'filename', 'must be a non-empty string');
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid(TypeError, 'options', 'must be an object');
    if (options.readonly !== undefined && typeof options.readonly !== 'boolean') throw invalid(TypeError, 'options.readonly', 'must be a boolean');
    this.filename = filename;
    this.readonly = options.readonly === true;
    const memory = filename === ':memory:';
    try {
      if (this.readonly) {
        [this.db, this.copy] = openReadonly(filename);
        const version = checkReadable(this.db, filename);
        this.exactColumns = version >= 2;
        this.insertRow = null;
        this.sessions = version >= 3 ? sqliteSessions(this.db) : null;
      } else {
        this.db = new Database(filename);
        this.db.pragma('journal_mode = WAL');
        // In WAL mode a commit is in the file once written, so a killed process keeps it;
        // only the OS going down may take the last ones back (never a torn write).
        this.db.pragma('synchronous = NORMAL');
        migrate(this.db, filename);
        this.sessions = sqliteSessions(this.db);
        this.exactColumns = true;
        const insert = this.db.prepare(
          `INSERT INTO raw_tool_outputs (tool_name, raw_content, byte_size, turn_age, captured_at, stored_at, raw_content_exact, tool_name_exact)
           VALUES (@tool_name, @raw_content, @byte_size, @turn_age, @captured_at, @stored_at, @raw_content_exact, @tool_name_exact)`,
        );
        this.insertRow = this.db.transaction((row: Omit<Row, 'id'>) => Number(insert.run(row).lastInsertRowid));
      }
      this.identity = memory ? null : identityOf(filename);
    } catch (error) {
      throw error instanceof Error && error.message.startsWith(`${filename}: `) ? error : storeError(filename, error);
    }
  }

  /**
   * Stores `entry` in one transaction and resolves its id, which placeholders and the
   * ledger of a bounded `AgentRunner` name; rejects, storing nothing, if it fails. The
   * entry is checked by the same rules as everywhere else (`validateToolOutputEntry`), and
   * its `byteSize` must be `rawContent`'s UTF-8 size.
   */
  async insertRawToolOutput(entry: ToolOutputEntry): Promise<number> {
    validateToolOutputEntry(entry);
    const size = utf8Size(entry.rawContent);
    if (entry.byteSize !== size) {
      throw invalid(RangeError, 'entry.byteSize', `must be rawContent's UTF-8 size, ${size}, got ${entry.byteSize}`);
    }
    if (!this.insertRow) throw Object.assign(new Error(`${this.filename}: opened read-only; nothing was written`), { code: 'SQLITE_READONLY' });
    this.checkIdentity();
    const row = {
      tool_name: readableText(entry.toolName),
      raw_content: readableText(entry.rawContent),
      byte_size: size,
      turn_age: entry.turnAge,
      captured_at: isoTime(entry.capturedAt),
      stored_at: new Date().toISOString(),
      raw_content_exact: fitsText(entry.rawContent) ? null : utf16Bytes(entry.rawContent),
      tool_name_exact: fitsText(entry.toolName) ? null : utf16Bytes(entry.toolName),
    };
    try {
      return this.insertRow(row);
    } catch (error) {
      throw storeError(this.filename, error);
    }
  }

  /** The stored output with id `id` (as `insertRawToolOutput` resolved it, or a session's `<sessionId>:<n>`), or `undefined`. */
  getRawToolOutput(id: string | number): RawToolOutputRow | undefined {
    const session = sessionOutputId(id);
    const row = this.read(() => (session
      ? this.db.prepare('SELECT * FROM raw_tool_outputs WHERE session_id = ? AND session_seq = ?').get(session[0], session[1])
      : this.db.prepare('SELECT * FROM raw_tool_outputs WHERE id = ?').get(Number(id))) as Row | undefined);
    return row && toRow(row);
  }

  /** A session's committed calls after `after` and its queued appends (`SessionStore`), read in one transaction; `undefined` if there is none. */
  loadSession(sessionId: string, after = 0): SessionRows | undefined {
    return this.read(() => this.sessions?.load(sessionId, after));
  }

  /** Queues appends to a shared session (`SessionStore`). */
  enqueue(sessionId: string, messages: string, appendId: string): void {
    this.write(() => this.sessions?.enqueue(sessionId, messages, appendId));
  }

  /**
   * Writes one call of a session (`SessionStore`) in one IMMEDIATE transaction, or nothing.
   * @throws {SessionConflictError} when the session is no longer at `commit.version`.
   * @throws {Error} naming the file, with SQLite's `code` (`SQLITE_FULL`, `SQLITE_READONLY`, …).
   */
  commitSession(commit: SessionCommit): void {
    this.write(() => this.sessions?.commit(commit));
  }

  /** The summary kept for `key` in `sessionId`, if any (`SessionStore`). */
  readSummary(sessionId: string, key: string): string | undefined {
    return this.read(() => this.sessions?.readSummary(sessionId, key));
  }

  /** Keeps a summary the moment it is paid for (`SessionStore`); the first one kept for a key stays. */
  writeSummary(sessionId: string, key: string, text: string): void {
    this.write(() => this.sessions?.writeSummary(sessionId, key, text));
  }

  /** Claims `key` of the session for `owner`, for `ttlMs` (`SessionStore`). */
  claim(sessionId: string, key: string, owner: string, ttlMs: number): boolean {
    let claimed = false;
    this.write(() => {
      claimed = this.sessions?.claim(sessionId, key, owner, ttlMs) ?? false;
    });
    return claimed;
  }

  /** Ends `owner`'s claim on `key` (`SessionStore`). */
  release(sessionId: string, key: string, owner: string): void {
    this.write(() => this.sessions?.release(sessionId, key, owner));
  }

  private write(query: () => void): void {
    if (!this.insertRow) throw Object.assign(new Error(`${this.filename}: opened read-only; nothing was written`), { code: 'SQLITE_READONLY' });
    this.checkIdentity();
    try {
      query();
    } catch (error) {
      throw hasCode(error, 'ERR_SESSION_CONFLICT') ? error : storeError(this.filename, error);
    }
  }

  /** Stored outputs, oldest first; only `toolName`'s when given. */
  getRawToolOutputs(toolName?: string): RawToolOutputRow[] {
    const rows = this.read(() => (toolName === undefined
      ? this.db.prepare('SELECT * FROM raw_tool_outputs ORDER BY id').all()
      : this.db.prepare('SELECT * FROM raw_tool_outputs WHERE tool_name = ? ORDER BY id').all(readableText(toolName))) as Row[]);
    const out = rows.map(toRow);
    // Names that differ only where UTF-8 could not hold them share a readable copy.
    return toolName === undefined || !this.exactColumns ? out : out.filter((r) => r.toolName === toolName);
  }

  /** Closes the database; the repository cannot be used afterwards. */
  close(): void {
    this.db.close();
    if (this.copy) rmSync(this.copy, { recursive: true, force: true });
  }

  private read<T>(query: () => T): T {
    try {
      return query();
    } catch (error) {
      throw storeError(this.filename, error);
    }
  }

  /** The file must still be the one opened: SQLite would go on writing to a deleted inode. */
  private checkIdentity(): void {
    if (!this.identity) return;
    let now: { dev: number; ino: number } | null;
    try {
      now = identityOf(this.filename);
    } catch {
      now = null;
    }
    if (!now) throw Object.assign(new Error(`${this.filename}: the file was deleted while open; nothing was written`), { code: 'ENOENT' });
    if (now.dev !== this.identity.dev || now.ino !== this.identity.ino) {
      throw Object.assign(new Error(`${this.filename}: the file was replaced while open; nothing was written`), { code: 'ESTALE' });
    }
  }
}

/**
 * A WAL database is read through its `-shm` file, which SQLite cannot make in a read-only
 * folder: then the file (and its `-wal`, if a writer left one) is read from a private copy.
 */
function openReadonly(file: string): [Database.Database, string | null] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('user_version', { simple: true });
    return [db, null];
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_CANTOPEN') !== true && (error as { code?: string }).code?.startsWith('SQLITE_READONLY') !== true) throw error;
  }
  const dir = mkdtempSync(join(tmpdir(), 'devs-context-readonly-'));
  const copy = join(dir, basename(file));
  copyFileSync(file, copy);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
  return [new Database(copy, { readonly: true, fileMustExist: true }), dir];
}

function identityOf(file: string): { dev: number; ino: number } {
  const s = statSync(file);
  return { dev: s.dev, ino: s.ino };
}
