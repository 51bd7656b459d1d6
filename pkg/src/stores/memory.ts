// The default store: raw outputs kept in memory, so masking works with no setup and in
// every runtime (a VS Code extension need not rebuild a native addon for Electron).
import { argumentError } from '../errors/index.js';
import { live } from '../core/lifetime.js';
import { validateToolOutputEntry } from './entry.js';
import { number, object, optionalString } from '../core/read.js';
import { isoTime } from './rows.js';
import { utf8Length } from '../core/runtime.js';
import type { RawToolOutputRow, StateRepository, ToolOutputEntry } from './types.js';

/**
 * A `StateRepository` that keeps raw tool outputs in memory, for as long as the object
 * lives. It is the default store of a bounded `AgentRunner`, so old outputs are masked
 * (and can be read back by their id) with no setup. A process that must keep them across
 * restarts uses `SqliteStateRepository` from `@devs/context/sqlite`.
 * @example
 * import { MemoryStateRepository } from '@devs/context';
 *
 * const store = new MemoryStateRepository();
 * const id = await store.insertRawToolOutput({
 *   toolName: 'run_tests', rawContent: 'ok', byteSize: 2, turnAge: 0, capturedAt: Date.now(),
 * });
 * store.getRawToolOutput(id)?.rawContent; // 'ok'
 */
export class MemoryStateRepository implements StateRepository {
  #rows: RawToolOutputRow[] | null = [];

  /** @throws {TypeError} when `options` is given and is not an object. */
  constructor(options?: Record<string, never>) {
    if (options !== undefined) object('options', options);
  }

  /** Stored outputs. */
  get size(): number {
    return live(this.#rows, 'MemoryStateRepository').length;
  }

  /**
   * Stores `entry` and resolves its id (1, 2, 3, …). The entry is checked by the same
   * rules as everywhere else (`validateToolOutputEntry`); a bad one rejects, storing nothing.
   */
  async insertRawToolOutput(entry: ToolOutputEntry): Promise<number> {
    const rows = live(this.#rows, 'MemoryStateRepository');
    validateToolOutputEntry(entry);
    const size = utf8Length(entry.rawContent);
    if (entry.byteSize !== size) throw argumentError(RangeError, 'entry.byteSize', `must be rawContent's UTF-8 size, ${size}, got ${entry.byteSize}`);
    const row: RawToolOutputRow = {
      id: rows.length + 1,
      toolName: entry.toolName,
      rawContent: entry.rawContent,
      byteSize: entry.byteSize,
      turnAge: entry.turnAge,
      capturedAt: isoTime(entry.capturedAt),
      storedAt: new Date().toISOString(),
    };
    rows.push(row);
    return row.id;
  }

  /** The stored output with id `id` (as `insertRawToolOutput` resolved it), or `undefined`. */
  getRawToolOutput(id: string | number): RawToolOutputRow | undefined {
    const rows = live(this.#rows, 'MemoryStateRepository');
    const n = typeof id === 'string' ? Number(id) : number('id', id);
    return Number.isInteger(n) && n >= 1 ? rows[n - 1] : undefined;
  }

  /** Stored outputs, oldest first; only `toolName`'s when given. */
  getRawToolOutputs(toolName?: string): RawToolOutputRow[] {
    const rows = live(this.#rows, 'MemoryStateRepository');
    const name = optionalString('toolName', toolName);
    return name === undefined ? rows.slice() : rows.filter((r) => r.toolName === name);
  }

  /** Drops every stored output now. */
  free(): void {
    this.#rows = null;
  }
}
