// Strings a database's UTF-8 text column cannot hold as they are: a lone surrogate becomes
// U+FFFD there (and PostgreSQL refuses NUL). A store keeps such a string's UTF-16 code
// units beside a readable copy, so it reads back `===` identical.

// `String.prototype.isWellFormed` is Node 20+; the package runs on 18.
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_ALL = new RegExp(LONE.source, 'g');

/** Whether `text` survives a UTF-8 text column unchanged (`nul`: and the column takes NUL). */
export function fitsText(text: string, nul = true): boolean {
  return !LONE.test(text) && (nul || !text.includes('\0'));
}

/** The readable copy: lone surrogates as U+FFFD (NUL as U+FFFD too, for a column that refuses it). */
export function readableText(text: string, nul = true): string {
  const formed = text.replace(LONE_ALL, '\uFFFD');
  return nul ? formed : formed.replaceAll('\0', '\uFFFD');
}

/** The code units of `text`, little-endian. */
export function utf16Bytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    out[2 * i] = u & 0xff;
    out[2 * i + 1] = u >> 8;
  }
  return out;
}

/** The string whose code units `bytes` holds (see `utf16Bytes`). */
export function fromUtf16Bytes(bytes: Uint8Array): string {
  let out = '';
  const CHUNK = 8192;
  for (let i = 0; i < bytes.length; i += 2 * CHUNK) {
    const units: number[] = [];
    for (let j = i; j < Math.min(bytes.length, i + 2 * CHUNK); j += 2) units.push(bytes[j] | (bytes[j + 1] << 8));
    out += String.fromCharCode(...units);
  }
  return out;
}
