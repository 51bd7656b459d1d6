// What every store writes the same way. Imports nothing: the SQLite entry compiles it
// on its own.

/** A checked `capturedAt` (a `Date`, epoch milliseconds or a date string) as ISO text. */
export function isoTime(value: Date | number | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
