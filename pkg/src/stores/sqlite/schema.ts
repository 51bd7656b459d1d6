// The SQLite store's schema, versioned with `PRAGMA user_version` and migrated forward in
// one transaction on open. A file written by a newer version is refused, not guessed at.
import type Database from 'better-sqlite3';
import { migrations } from '../schema.js';

const MIGRATIONS = migrations('sqlite');

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
    if (from >= 3) completeSessions(db);
    if (from !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/**
 * Schema 3 as it was first released (e98c739) had no shared session's queue
 * (`context_inbox`) and no summary claims (`claimed_by`, `claimed_until`, a summary that
 * may be null while claimed): a file written then is made what 3 became, its rows kept.
 */
function completeSessions(db: Database.Database): void {
  const has = (table: string) => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined;
  const steps = MIGRATIONS[2];
  if (!has('context_inbox')) {
    const inbox = steps.slice(steps.indexOf('CREATE TABLE context_inbox'), steps.indexOf('ALTER TABLE raw_tool_outputs ADD COLUMN session_id'));
    db.exec(inbox);
  }
  const columns = (db.prepare('PRAGMA table_info(context_summaries)').all() as Array<{ name: string }>).map((c) => c.name);
  if (!columns.includes('claimed_by')) {
    const summaries = steps.slice(steps.indexOf('CREATE TABLE context_summaries'), steps.indexOf('CREATE TABLE context_inbox'));
    db.exec(`ALTER TABLE context_summaries RENAME TO context_summaries_3;
      ${summaries}
      INSERT INTO context_summaries (session_id, key, summary) SELECT session_id, key, summary FROM context_summaries_3;
      DROP TABLE context_summaries_3;`);
  }
}

/** For a read-only store: a newer file is refused; an older one is read as it is. */
export function checkReadable(db: Database.Database, file: string): number {
  const v = schemaVersion(db);
  if (v > SCHEMA_VERSION) throw newerError(file, v);
  return v;
}

function newerError(file: string, version: number): Error {
  return Object.assign(new Error(`${file}: schema version ${version} is newer than this package's ${SCHEMA_VERSION}; upgrade @devs/context to open it`), { code: 'ERR_SCHEMA_VERSION' });
}
