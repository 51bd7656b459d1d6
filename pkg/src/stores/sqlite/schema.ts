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
  return Object.assign(new Error(`${file}: schema version ${version} is newer than this package's ${SCHEMA_VERSION}; upgrade @devs/context to open it`), { code: 'ERR_SCHEMA_VERSION' });
}
