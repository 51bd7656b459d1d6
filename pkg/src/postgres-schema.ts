// The PostgreSQL store's schema: the SQLite store's tables and steps (sqlite-schema.ts), in
// PostgreSQL's words. The version is a row of `devs_context_schema`; workers that start
// together migrate one at a time, under an advisory lock.

/** Each step takes the schema from version `i` to `i + 1`, as in sqlite-schema.ts. */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS raw_tool_outputs (
     id          BIGSERIAL PRIMARY KEY,
     tool_name   TEXT    NOT NULL,
     raw_content TEXT    NOT NULL,
     byte_size   BIGINT  NOT NULL,
     turn_age    INTEGER NOT NULL,
     captured_at TEXT    NOT NULL,
     stored_at   TEXT    NOT NULL
   );
   CREATE INDEX IF NOT EXISTS raw_tool_outputs_by_tool ON raw_tool_outputs (tool_name);`,
  // PostgreSQL's text holds neither NUL nor a lone surrogate: the code units go here.
  `ALTER TABLE raw_tool_outputs ADD COLUMN raw_content_exact BYTEA;
   ALTER TABLE raw_tool_outputs ADD COLUMN tool_name_exact BYTEA;`,
  `CREATE TABLE context_sessions (
     session_id TEXT    PRIMARY KEY,
     version    BIGINT  NOT NULL,
     format     TEXT    NOT NULL,
     config     TEXT    NOT NULL,
     outputs    BIGINT  NOT NULL,
     updated_at TIMESTAMPTZ NOT NULL
   );
   CREATE TABLE context_changes (
     session_id TEXT   NOT NULL,
     version    BIGINT NOT NULL,
     changes    TEXT   NOT NULL,
     PRIMARY KEY (session_id, version)
   );
   CREATE TABLE context_summaries (
     session_id TEXT NOT NULL,
     key        TEXT NOT NULL,
     summary    TEXT,
     claimed_by TEXT,
     claimed_until BIGINT,
     PRIMARY KEY (session_id, key)
   );
   CREATE TABLE context_inbox (
     seq        BIGSERIAL PRIMARY KEY,
     session_id TEXT NOT NULL,
     messages   TEXT NOT NULL,
     taken_in   BIGINT
   );
   CREATE INDEX context_inbox_by_session ON context_inbox (session_id, seq);
   ALTER TABLE raw_tool_outputs ADD COLUMN session_id TEXT;
   ALTER TABLE raw_tool_outputs ADD COLUMN session_seq BIGINT;
   CREATE UNIQUE INDEX raw_tool_outputs_by_session ON raw_tool_outputs (session_id, session_seq) WHERE session_id IS NOT NULL;`,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** Taken for the migration's transaction: `hashtext('devs-context-schema')`, fixed. */
export const MIGRATION_LOCK = 0x64657673;

export const PG_SCHEMA_TABLE = `CREATE TABLE IF NOT EXISTS devs_context_schema (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), version INTEGER NOT NULL)`;
