// Host services the shell reads: the clock and, for `ContextComposer.fromProject`, files.
// Kept apart because they read host globals that differ between Node, browsers and
// VSCode's extension host.

import { specFiles } from './host.js';

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
 * Reads a spec file for `ContextComposer.fromProject`, with the files of the entry that
 * loaded the shell: Node's; other hosts have none, and pass their specs in directly.
 */
export async function readSpecFile(root: string, relative: string): Promise<string> {
  if (!specFiles) {
    throw Object.assign(new Error('ContextComposer.fromProject needs Node.js file access, which this build of @devs/context '
      + '(for browsers and other hosts without it) leaves out; pass `specs` to new ContextComposer() instead'), { code: 'ERR_NO_FILE_ACCESS' });
  }
  return specFiles(root, relative);
}

declare const Buffer: { byteLength(text: string, encoding: 'utf8'): number } | undefined;
const encoder = new TextEncoder();

/** UTF-8 bytes of `text`, for `ToolOutputEntry.byteSize`. */
export function utf8Length(text: string): number {
  return typeof Buffer !== 'undefined' ? Buffer.byteLength(text, 'utf8') : encoder.encode(text).length;
}
