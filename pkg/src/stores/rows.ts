// What every store writes the same way. Imports nothing: the SQLite entry compiles it
// on its own.

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
