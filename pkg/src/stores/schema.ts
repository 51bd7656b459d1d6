// The stores' tables, once, for both databases: each step takes the schema from version
// `i` to `i + 1`, and its column types are words that each database spells its own way.
// Imports nothing: the store entries compile it on their own.

const STEPS: readonly string[] = [
  // 1: the orchestrator's table of raw outputs.
  `CREATE TABLE IF NOT EXISTS raw_tool_outputs (
     id          {serial},
     tool_name   TEXT    NOT NULL,
     raw_content TEXT    NOT NULL,
     byte_size   {int}   NOT NULL,
     turn_age    INTEGER NOT NULL,
     captured_at TEXT    NOT NULL,
     stored_at   TEXT    NOT NULL
   );
   CREATE INDEX IF NOT EXISTS raw_tool_outputs_by_tool ON raw_tool_outputs (tool_name);`,
  // 2: the UTF-16 code units of a string the text column cannot hold (a lone surrogate; NUL in PostgreSQL), beside its readable copy.
  `ALTER TABLE raw_tool_outputs ADD COLUMN raw_content_exact {bytes};
   ALTER TABLE raw_tool_outputs ADD COLUMN tool_name_exact {bytes};`,
  // 3: sessions written ahead (`ContextManager.open`): one row per call, the texts each stored, summaries paid for, claims, a shared session's queue.
  `CREATE TABLE context_sessions (
     session_id TEXT   PRIMARY KEY,
     version    {int}  NOT NULL,
     format     TEXT   NOT NULL,
     config     TEXT   NOT NULL,
     outputs    {int}  NOT NULL,
     updated_at {time} NOT NULL
   );
   CREATE TABLE context_changes (
     session_id TEXT  NOT NULL,
     version    {int} NOT NULL,
     changes    TEXT  NOT NULL,
     PRIMARY KEY (session_id, version)
   ){clustered};
   CREATE TABLE context_summaries (
     session_id    TEXT NOT NULL,
     key           TEXT NOT NULL,
     summary       TEXT,
     claimed_by    TEXT,
     claimed_until {int},
     PRIMARY KEY (session_id, key)
   ){clustered};
   CREATE TABLE context_inbox (
     seq        {serial},
     session_id TEXT  NOT NULL,
     messages   TEXT  NOT NULL,
     append_id  TEXT  NOT NULL UNIQUE,
     taken_in   {int}
   );
   CREATE INDEX context_inbox_by_session ON context_inbox (session_id, seq);
   ALTER TABLE raw_tool_outputs ADD COLUMN session_id TEXT;
   ALTER TABLE raw_tool_outputs ADD COLUMN session_seq {int};
   CREATE UNIQUE INDEX raw_tool_outputs_by_session ON raw_tool_outputs (session_id, session_seq) WHERE session_id IS NOT NULL;`,
  // 4: a session's checkpoint every so many calls, beside that call's changes: opening it reads the newest and the calls after it.
  `ALTER TABLE context_changes ADD COLUMN checkpoint TEXT;`,
];

const WORDS = {
  sqlite: { serial: 'INTEGER PRIMARY KEY AUTOINCREMENT', int: 'INTEGER', bytes: 'BLOB', time: 'TEXT', clustered: ' WITHOUT ROWID' },
  postgres: { serial: 'BIGSERIAL PRIMARY KEY', int: 'BIGINT', bytes: 'BYTEA', time: 'TIMESTAMPTZ', clustered: '' },
} as const;

/** The steps in `dialect`'s words. */
export function migrations(dialect: keyof typeof WORDS): string[] {
  const words: Record<string, string> = WORDS[dialect];
  return STEPS.map((step) => step.replace(/\{(\w+)\}/g, (_, word: string) => words[word]));
}
