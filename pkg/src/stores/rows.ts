// What every store writes and reads back the same way.
import type { RawToolOutputRow } from './types.js';
import { fromUtf16Bytes } from '../core/exact-text.js';

/** A checked `capturedAt` (a `Date`, epoch milliseconds or a date string) as ISO text. */
export function isoTime(value: Date | number | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** `<sessionId>:<seq>`, as a session names a text it stored, split; `undefined` for a plain row id. */
export function sessionOutputId(id: string | number): [string, number] | undefined {
  if (typeof id !== 'string') return undefined;
  const at = id.lastIndexOf(':');
  if (at <= 0 || !/^\d+$/.test(id.slice(at + 1))) return undefined;
  return [id.slice(0, at), Number(id.slice(at + 1))];
}

/** A `raw_tool_outputs` row as the host reads it: the exact columns, where set, hold the texts. */
export function toRow(r: Record<string, unknown>): RawToolOutputRow {
  return {
    id: Number(r.id),
    toolName: r.tool_name_exact ? fromUtf16Bytes(r.tool_name_exact as Uint8Array) : String(r.tool_name),
    rawContent: r.raw_content_exact ? fromUtf16Bytes(r.raw_content_exact as Uint8Array) : String(r.raw_content),
    byteSize: Number(r.byte_size),
    turnAge: Number(r.turn_age),
    capturedAt: String(r.captured_at),
    storedAt: String(r.stored_at),
  };
}
