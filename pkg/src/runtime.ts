// Host services the shell reads: the clock and, for `ContextComposer.fromProject`, files.
// Kept apart because they read host globals that differ between Node, browsers and
// VSCode's extension host.

import { rules } from './wasm.js';

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
    const reason = code === 'ENOENT'
      ? 'is missing: write your project\'s summary there, or pass the texts as `specs` to new ContextComposer(), or leave out `composer` (AgentRunner then keeps a plain sliding window)'
      : `could not be read (${code})`;
    throw Object.assign(new Error(`spec file ${file} ${reason}`, { cause }), { code, path: file });
  }
  if (rules.isBlank(text)) {
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
