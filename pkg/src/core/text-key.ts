// A short key for a long text: two stores that must not keep one output twice compare
// keys, so that neither has to hold on to the texts themselves.

/** `length:hash`, two independent 32-bit FNV-1a hashes of the UTF-16 units. */
export function textKey(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    a = Math.imul(a ^ u, 0x01000193);
    b = Math.imul(b ^ (u + i), 0x5bd1e995);
  }
  return `${text.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}
