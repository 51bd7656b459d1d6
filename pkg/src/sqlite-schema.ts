// The SQLite store's schema, versioned with `PRAGMA user_version` and migrated forward in
// one transaction on open. A file written by a newer version is refused, not guessed at.
import type Database from 'better-sqlite3';

/** Each step takes the schema from version `i` to `i + 1`. */
const MIGRATIONS: readonly string[] = [
  // 1: the orchestrator's table of raw outputs.
  `CREATE TABLE IF NOT EXISTS raw_tool_outputs (
     id          INTEGER PRIMARY KEY AUTOINCREMENT,
     tool_name   TEXT    NOT NULL,
     raw_content TEXT    NOT NULL,
     byte_size   INTEGER NOT NULL,
     turn_age    INTEGER NOT NULL,
     captured_at TEXT    NOT NULL,
     stored_at   TEXT    NOT NULL
   );
   CREATE INDEX IF NOT EXISTS raw_tool_outputs_by_tool ON raw_tool_outputs (tool_name);`,
  // 2: the UTF-16 code units of a string UTF-8 cannot hold (a lone surrogate), beside its readable copy.
  `ALTER TABLE raw_tool_outputs ADD COLUMN raw_content_exact BLOB;
   ALTER TABLE raw_tool_outputs ADD COLUMN tool_name_exact BLOB;`,
  // 3: sessions written ahead (\`ContextManager.open\`): one row per call, the texts each stored, and summaries paid for.
  `CREATE TABLE context_sessions (
     session_id TEXT    PRIMARY KEY,
     version    INTEGER NOT NULL,
     format     TEXT    NOT NULL,
     config     TEXT    NOT NULL,
     outputs    INTEGER NOT NULL,
     updated_at TEXT    NOT NULL
   );
   CREATE TABLE context_changes (
     session_id TEXT    NOT NULL,
     version    INTEGER NOT NULL,
     changes    TEXT    NOT NULL,
     PRIMARY KEY (session_id, version)
   ) WITHOUT ROWID;
   CREATE TABLE context_summaries (
     session_id TEXT NOT NULL,
     key        TEXT NOT NULL,
     summary    TEXT,
     claimed_by TEXT,
     claimed_until BIGINT,
     PRIMARY KEY (session_id, key)
   ) WITHOUT ROWID;
   CREATE TABLE context_inbox (
     seq        INTEGER PRIMARY KEY AUTOINCREMENT,
     session_id TEXT    NOT NULL,
     messages   TEXT    NOT NULL,
     taken_in   INTEGER
   );
   CREATE INDEX context_inbox_by_session ON context_inbox (session_id, seq);
   ALTER TABLE raw_tool_outputs ADD COLUMN session_id TEXT;
   ALTER TABLE raw_tool_outputs ADD COLUMN session_seq INTEGER;
   CREATE UNIQUE INDEX raw_tool_outputs_by_session ON raw_tool_outputs (session_id, session_seq) WHERE session_id IS NOT NULL;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The file's schema version (0: a new file). */
export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Brings the file to `SCHEMA_VERSION`; throws naming both versions for a newer file. */
export function migrate(db: Database.Database, file: string): void {
  db.transaction(() => {
    const from = schemaVersion(db);
    if (from > SCHEMA_VERSION) throw newerError(file, from);
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]);
    if (from !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** For a read-only store: a newer file is refused; an older one is read as it is. */
export function checkReadable(db: Database.Database, file: string): number {
  const v = schemaVersion(db);
  if (v > SCHEMA_VERSION) throw newerError(file, v);
  return v;
}

function newerError(file: string, version: number): Error {
  return new Error(`${file}: schema version ${version} is newer than this package's ${SCHEMA_VERSION}; upgrade @devs/context to open it`);
}
