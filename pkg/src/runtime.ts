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

/**
 * Reads a spec file for `ContextComposer.fromProject`. Node's fs is imported lazily so
 * that browser and bundler hosts, which pass specs in directly, never load it.
 */
export async function readSpecFile(root: string, relative: string): Promise<string> {
  let fs: typeof import('node:fs/promises');
  let path: typeof import('node:path');
  try {
    fs = await import('node:fs/promises');
    path = await import('node:path');
  } catch (cause) {
    throw new Error('ContextComposer.fromProject needs Node.js file access; pass `specs` to new ContextComposer() instead', { cause });
  }
  const file = path.resolve(root, relative);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as { code?: string }).code ?? 'ERR_SPEC_READ';
    const reason = code === 'ENOENT' ? 'is missing' : `could not be read (${code})`;
    throw Object.assign(new Error(`spec file ${file} ${reason}`, { cause }), { code, path: file });
  }
  if (text.trim() === '') {
    throw Object.assign(new Error(`spec file ${file} is empty`), { code: 'ERR_SPEC_EMPTY', path: file });
  }
  return text;
}

declare const Buffer: { byteLength(text: string, encoding: 'utf8'): number } | undefined;
const encoder = new TextEncoder();

/** UTF-8 bytes of `text`, for `ToolOutputEntry.byteSize`. */
export function utf8Length(text: string): number {
  return typeof Buffer !== 'undefined' ? Buffer.byteLength(text, 'utf8') : encoder.encode(text).length;
}

/** Marks in `measureTexts`' result for items that cannot be measured. */
export const NOT_AN_OBJECT = -1;
export const NOT_A_STRING = -2;

type Counter = (text: string) => number;

/**
 * Counts per item, per counter: a history is only tokenized where it changed. Keyed by
 * the item object and checked against its text, so an edited turn is counted again.
 * Counters must be deterministic, as BPE counters are.
 */
const counted = new WeakMap<Counter, WeakMap<object, { text: string; count: unknown }>>();

/**
 * For each item, `counter(item[key])` when a counter is given, else the UTF-16 length of
 * `item[key]`; `NOT_AN_OBJECT` or `NOT_A_STRING` where there is nothing to measure. One
 * call for a whole history, where reading each turn from wasm would cross into JS three
 * times per turn. The rules turn lengths into tokens. A counter's results are cached per
 * item, so appending a turn costs one count of the new turn, not a re-tokenized history.
 */
export function measureTexts(items: unknown[], key: string, counter?: Counter): Float64Array {
  const out = new Float64Array(items.length);
  let cache = counter && counted.get(counter);
  if (counter && !cache) counted.set(counter, (cache = new WeakMap()));
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== 'object' || item === null) {
      out[i] = NOT_AN_OBJECT;
      continue;
    }
    const text = (item as Record<string, unknown>)[key];
    if (typeof text !== 'string') {
      out[i] = NOT_A_STRING;
    } else if (!counter || !cache) {
      out[i] = text.length;
    } else {
      const hit = cache.get(item);
      if (hit && hit.text === text) {
        out[i] = hit.count as number;
      } else {
        const count = counter(text);
        cache.set(item, { text, count });
        out[i] = count;
      }
    }
  }
  return out;
}

/** `item[key]` for each item when it is a number, else NaN: one call for a whole array. */
export function readNumbers(items: unknown[], key: string): Float64Array {
  const out = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[key] : undefined;
    out[i] = typeof value === 'number' ? value : NaN;
  }
  return out;
}
