/**
 * `@devs/context/sqlite`: a `StateRepository` that keeps raw tool outputs in SQLite, as
 * the orchestrator does (`state.sqlite`, table `raw_tool_outputs`). Node only; needs the
 * optional peer dependency `better-sqlite3`.
 */
import Database from 'better-sqlite3';
import type { StateRepository, ToolOutputEntry } from '@devs/context';
import { argumentError as invalid } from './argument-error.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS raw_tool_outputs (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  tool_name   TEXT    NOT NULL,
  raw_content TEXT    NOT NULL,
  byte_size   INTEGER NOT NULL,
  turn_age    INTEGER NOT NULL,
  captured_at TEXT    NOT NULL,
  stored_at   TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS raw_tool_outputs_by_tool ON raw_tool_outputs (tool_name);
`;

/** One stored row, as read back. */
export interface RawToolOutputRow {
  id: number;
  toolName: string;
  rawContent: string;
  byteSize: number;
  turnAge: number;
  /** ISO time the output was captured. */
  capturedAt: string;
  /** ISO time the row was written. */
  storedAt: string;
}

interface Row {
  id: number;
  tool_name: string;
  raw_content: string;
  byte_size: number;
  turn_age: number;
  captured_at: string;
  stored_at: string;
}

function isoTime(value: unknown): string {
  const date = value instanceof Date ? value : typeof value === 'number' || typeof value === 'string' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) {
    throw invalid(TypeError, 'entry.capturedAt', 'must be a Date, epoch milliseconds or a date string');
  }
  return date.toISOString();
}

function count(field: string, value: unknown): number {
  if (typeof value !== 'number') throw invalid(TypeError, field, `must be a number, got ${typeof value}`);
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(RangeError, field, `must be a whole number >= 0, got ${value}`);
  return value;
}

/**
 * Raw tool outputs in a SQLite file (default `state.sqlite`). The schema is created on
 * open, the database runs in WAL mode, and each insert is its own transaction.
 */
export class SqliteStateRepository implements StateRepository {
  readonly filename: string;
  private readonly db: Database.Database;
  private readonly insertRow: (row: Omit<Row, 'id'>) => void;

  constructor(filename = 'state.sqlite') {
    if (typeof filename !== 'string' || filename === '') throw invalid(TypeError, 'filename', 'must be a non-empty string');
    this.filename = filename;
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
    const insert = this.db.prepare(
      `INSERT INTO raw_tool_outputs (tool_name, raw_content, byte_size, turn_age, captured_at, stored_at)
       VALUES (@tool_name, @raw_content, @byte_size, @turn_age, @captured_at, @stored_at)`,
    );
    this.insertRow = this.db.transaction((row: Omit<Row, 'id'>) => {
      insert.run(row);
    });
  }

  /** Stores `entry` in one transaction; rejects, storing nothing, if it fails. */
  async insertRawToolOutput(entry: ToolOutputEntry): Promise<void> {
    if (typeof entry !== 'object' || entry === null) throw invalid(TypeError, 'entry', 'must be an object');
    if (typeof entry.toolName !== 'string') throw invalid(TypeError, 'entry.toolName', 'must be a string');
    if (typeof entry.rawContent !== 'string') throw invalid(TypeError, 'entry.rawContent', 'must be a string');
    this.insertRow({
      tool_name: entry.toolName,
      raw_content: entry.rawContent,
      byte_size: count('entry.byteSize', entry.byteSize),
      turn_age: count('entry.turnAge', entry.turnAge),
      captured_at: isoTime(entry.capturedAt),
      stored_at: new Date().toISOString(),
    });
  }

  /** Stored outputs, oldest first; only `toolName`'s when given. */
  getRawToolOutputs(toolName?: string): RawToolOutputRow[] {
    const rows = (toolName === undefined
      ? this.db.prepare('SELECT * FROM raw_tool_outputs ORDER BY id').all()
      : this.db.prepare('SELECT * FROM raw_tool_outputs WHERE tool_name = ? ORDER BY id').all(toolName)) as Row[];
    return rows.map((r) => ({
      id: r.id,
      toolName: r.tool_name,
      rawContent: r.raw_content,
      byteSize: r.byte_size,
      turnAge: r.turn_age,
      capturedAt: r.captured_at,
      storedAt: r.stored_at,
    }));
  }

  close(): void {
    this.db.close();
  }
}
