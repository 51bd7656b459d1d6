// The suite's assertions: plain `Error`s with what differed, so that any test runner shows
// them, and no assertion library is imported into a host's tests.

/** Throws `message` unless `ok`. */
export function check(ok: boolean, message: string): asserts ok {
  if (!ok) throw new Error(message);
}

/** Throws unless `actual` and `expected` are the same data (as JSON). */
export function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: got ${clip(a)}, expected ${clip(e)}`);
}

const clip = (text: string | undefined) => (text === undefined ? 'undefined' : text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text);
