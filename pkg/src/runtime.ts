// Host services the wasm imports (see `raw_module` in src/bindings). Kept in JS because
// they read host globals that differ between Node, browsers and VSCode's extension host.

declare const process: { hrtime?: { bigint?: () => bigint } } | undefined;

const NS_PER_MS = 1_000_000n;

/** Raw nanosecond clock; the rules make it strictly increasing. */
export function clockNs(): bigint {
  if (typeof process !== 'undefined' && typeof process.hrtime?.bigint === 'function') {
    return process.hrtime.bigint();
  }
  // Split into whole and fractional milliseconds: their sum in ns exceeds 2^53.
  const origin = performance.timeOrigin;
  const now = performance.now();
  const wholeMs = Math.floor(origin) + Math.floor(now);
  const fracMs = (origin - Math.floor(origin)) + (now - Math.floor(now));
  return BigInt(wholeMs) * NS_PER_MS + BigInt(Math.floor(fracMs * 1e6));
}
