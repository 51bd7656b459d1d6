// Internal to the TS entries; not part of the public API.
/**
 * A `TypeError` or `RangeError` shaped like Node's argument errors, with `code` and the
 * `field` at fault, for the TS entries (the wasm builds the same from Rust).
 */
export function argumentError(kind: typeof TypeError | typeof RangeError, field: string, message: string): Error {
  const code = kind === RangeError ? 'ERR_OUT_OF_RANGE' : 'ERR_INVALID_ARG_TYPE';
  return Object.assign(new kind(`${field} ${message}`), { code, field });
}
