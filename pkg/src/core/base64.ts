// Decodes the inlined wasm. Node's Buffer does it natively (about 0.7 ms for 200 KB);
// esbuild's own decoder for its `binary` loader is a JS loop, about 15 times slower.

declare const Buffer: { from(text: string, encoding: 'base64'): Uint8Array } | undefined;

export function decodeBase64(text: string): Uint8Array {
  if (typeof Buffer !== 'undefined') return Buffer.from(text, 'base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Bytes as base64, in Node and browsers alike. */
export function encodeBase64(bytes: Uint8Array): string {
  const B = (globalThis as { Buffer?: { from(b: Uint8Array): { toString(e: 'base64'): string } } }).Buffer;
  if (B) return B.from(bytes).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
