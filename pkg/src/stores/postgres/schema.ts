// The PostgreSQL store's schema: the tables and steps of ../schema.ts. The version is a
// row of `devs_context_schema`; workers that start together migrate one at a time, under
// an advisory lock.
import { migrations } from '../schema.js';

/** The steps of ../schema.ts, in PostgreSQL's words. */
export const PG_MIGRATIONS = migrations('postgres');

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** The advisory lock the migration's transaction takes: 'devs' in ASCII, the same in every worker. */
export const MIGRATION_LOCK = 0x64657673;

export const PG_SCHEMA_TABLE = `CREATE TABLE IF NOT EXISTS devs_context_schema (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), version INTEGER NOT NULL)`;
