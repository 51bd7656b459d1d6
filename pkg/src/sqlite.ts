/**
 * `@devs/context/sqlite`: a `StateRepository` that keeps raw tool outputs in SQLite, as
 * the orchestrator does (`state.sqlite`, table `raw_tool_outputs`). Node only; needs the
 * optional peer dependency `better-sqlite3`.
 */
import Database from 'better-sqlite3';
import { validateToolOutputEntry, type RawToolOutputRow, type StateRepository, type ToolOutputEntry } from '@devs/context';

export type { RawToolOutputRow } from '@devs/context';
import { argumentError as invalid } from './errors.js';
import { isoTime } from './rows.js';

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

interface Row {
  id: number;
  tool_name: string;
  raw_content: string;
  byte_size: number;
  turn_age: number;
  captured_at: string;
  stored_at: string;
}

function toRow(r: Row): RawToolOutputRow {
  return {
    id: r.id,
    toolName: r.tool_name,
    rawContent: r.raw_content,
    byteSize: r.byte_size,
    turnAge: r.turn_age,
    capturedAt: r.captured_at,
    storedAt: r.stored_at,
  };
}

/**
 * Raw tool outputs in a SQLite file (default `state.sqlite`). The schema is created on
 * open, the database runs in WAL mode, and each insert is its own transaction.
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
export class SqliteStateRepository implements StateRepository {
  /** The database file. */
  readonly filename: string;
  private readonly db: Database.Database;
  private readonly insertRow: (row: Omit<Row, 'id'>) => number;

  /**
   * Opens (or creates) `filename`, default `state.sqlite`.
   * @throws {TypeError} when `filename` is not a non-empty string.
   */
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
    this.insertRow = this.db.transaction((row: Omit<Row, 'id'>) => Number(insert.run(row).lastInsertRowid));
  }

  /**
   * Stores `entry` in one transaction and resolves its id, which placeholders and the
   * ledger of a bounded `AgentRunner` name; rejects, storing nothing, if it fails. The
   * entry is checked by the same rules as everywhere else (`validateToolOutputEntry`).
   */
  async insertRawToolOutput(entry: ToolOutputEntry): Promise<number> {
    validateToolOutputEntry(entry);
    return this.insertRow({
      tool_name: entry.toolName,
      raw_content: entry.rawContent,
      byte_size: entry.byteSize,
      turn_age: entry.turnAge,
      captured_at: isoTime(entry.capturedAt),
      stored_at: new Date().toISOString(),
    });
  }

  /** The stored output with id `id` (as `insertRawToolOutput` resolved it), or `undefined`. */
  getRawToolOutput(id: string | number): RawToolOutputRow | undefined {
    const row = this.db.prepare('SELECT * FROM raw_tool_outputs WHERE id = ?').get(Number(id)) as Row | undefined;
    return row && toRow(row);
  }

  /** Stored outputs, oldest first; only `toolName`'s when given. */
  getRawToolOutputs(toolName?: string): RawToolOutputRow[] {
    const rows = (toolName === undefined
      ? this.db.prepare('SELECT * FROM raw_tool_outputs ORDER BY id').all()
      : this.db.prepare('SELECT * FROM raw_tool_outputs WHERE tool_name = ? ORDER BY id').all(toolName)) as Row[];
    return rows.map(toRow);
  }

  /** Closes the database; the repository cannot be used afterwards. */
  close(): void {
    this.db.close();
  }
}
