// A `ToolOutputEntry` read and checked, once: what every store takes (`insertRawToolOutput`)
// and the seeds' pruners read. The ranges are the rules' (`checkToolOutput`).
import { checked } from '../errors/index.js';
import { number, object, string } from '../core/read.js';
import { rules } from '../core/wasm.js';
import { SeedFn } from '../core/protocol.js';
import type { ToolOutputEntry } from './types.js';

/** A `ToolOutputEntry`'s fields, read and checked: the one reader of that shape. */
export interface ReadEntry {
  toolName: string;
  rawContent: string;
  byteSize: number;
  turnAge: number;
  capturedAtMs: number;
}

/** `capturedAt` as epoch milliseconds: NaN for a value of no date type (the rules refuse it, naming the field). */
export function epochMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number' || typeof value === 'string') return new Date(value).getTime();
  return NaN;
}

/** `value` read as a `ToolOutputEntry` at `field`: its JS types here, its ranges by the rules. */
export function readToolOutputEntry(field: string, value: unknown): ReadEntry {
  const e = object(field, value);
  const entry: ReadEntry = {
    toolName: string(`${field}.toolName`, e.toolName),
    rawContent: string(`${field}.rawContent`, e.rawContent),
    byteSize: number(`${field}.byteSize`, e.byteSize),
    turnAge: number(`${field}.turnAge`, e.turnAge),
    capturedAtMs: epochMs(e.capturedAt),
  };
  if (rules.seed(SeedFn.ToolOutputOk, entry.byteSize, entry.turnAge, entry.capturedAtMs) !== 1) {
    checked(() => rules.checkToolOutput(field, entry.byteSize, entry.turnAge, entry.capturedAtMs));
  }
  return entry;
}

/**
 * Returns `entry` unchanged when it is a `ToolOutputEntry`: `toolName` and `rawContent`
 * strings, `byteSize` and `turnAge` whole numbers >= 0, and `capturedAt` a Date, epoch
 * milliseconds or a date string.
 * @throws {TypeError|RangeError} naming the field, e.g. `entry.byteSize`.
 * @example
 * import { validateToolOutputEntry } from '@devs/context';
 *
 * const rawContent = 'test result: ok. 12 passed';
 * const byteSize = new TextEncoder().encode(rawContent).length;
 * validateToolOutputEntry({ toolName: 'run_tests', rawContent, byteSize, turnAge: 0, capturedAt: Date.now() });
 */
export function validateToolOutputEntry(entry: ToolOutputEntry): ToolOutputEntry {
  readToolOutputEntry('entry', entry);
  return entry;
}
