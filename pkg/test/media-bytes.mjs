// Real image and document bytes for the media tests: PNGs encoded here (a valid PNG of
// any size, distinct per seed), and the JPEG and PDF that Chromium wrote
// (`fixtures/media`), each made distinct per seed by a segment or comment their formats
// allow. And what each provider bills for them, by its published rule, written here
// apart from the package's own, so the two can disagree.
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const fixtures = new URL('./fixtures/media/', import.meta.url);
export const fixture = (name) => readFileSync(new URL(name, fixtures));

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid grayscale PNG of `width` × `height`, its pixels a pattern of `seed`'s. */
export function png(width, height, seed = 0) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  const row = Buffer.alloc(width + 1);
  const rows = [];
  for (let y = 0; y < height; y++) {
    row[0] = 0;
    for (let x = 0; x < width; x++) row[x + 1] = ((x >> 4) + (y >> 4) + seed) & 1 ? 230 : 40 + (seed % 150);
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}

/** Chromium's 1,280 × 800 JPEG with a comment segment of its own after its start: valid, and distinct per seed. */
export function jpeg(seed = 0) {
  const base = fixture('screenshot-1280x800.jpg');
  const text = Buffer.from(`step ${seed}`);
  const com = Buffer.alloc(4);
  com[0] = 0xff;
  com[1] = 0xfe;
  com.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([base.subarray(0, 2), com, text, base.subarray(2)]);
}

/** Chromium's 6-page PDF (`objectStreams`: qpdf's, its objects compressed) with a trailing comment of its own. */
export function pdf(seed = 0, objectStreams = false) {
  return Buffer.concat([fixture(objectStreams ? 'review-6-pages-object-streams.pdf' : 'review-6-pages.pdf'), Buffer.from(`\n%step ${seed}\n`)]);
}

export const base64 = (bytes) => Buffer.from(bytes).toString('base64');

/** An image's size from its bytes, read here apart from the package: PNG and JPEG. */
export function sizeOf(bytes) {
  const b = Buffer.from(bytes);
  if (b[0] === 0x89) return [b.readUInt32BE(16), b.readUInt32BE(20)];
  let at = 2;
  while (at < b.length) {
    const marker = b[at + 1];
    const len = b.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return [b.readUInt16BE(at + 7), b.readUInt16BE(at + 5)];
    at += 2 + len;
  }
  throw new Error('no size');
}

/** Anthropic's bill for an image (its current rule: fit 1,568 px and 1,568 patches, a token per 28-px patch). */
export function anthropicImage([w, h]) {
  const fits = (a, b) => Math.ceil(a / 28) * 28 <= 1568 && Math.ceil(b / 28) * 28 <= 1568 && Math.ceil(a / 28) * Math.ceil(b / 28) <= 1568;
  let [x, y] = [w, h];
  if (!fits(x, y)) {
    const long = Math.max(w, h);
    let edge = Math.min(long, 1568);
    while (edge > 1 && !fits(Math.floor((w * edge) / long), Math.floor((h * edge) / long))) edge--;
    [x, y] = [Math.floor((w * edge) / long), Math.floor((h * edge) / long)];
  }
  return Math.ceil(x / 28) * Math.ceil(y / 28);
}

/** OpenAI's bill for a high-detail image on a tile model (GPT-4o's 85 + 170 a tile). */
export function openaiImage([w, h]) {
  let [x, y] = [w, h];
  if (Math.max(x, y) > 2048) [x, y] = [Math.floor((x * 2048) / Math.max(w, h)), Math.floor((y * 2048) / Math.max(w, h))];
  if (Math.min(x, y) > 768) {
    const s = 768 / Math.min(x, y);
    [x, y] = [Math.floor(x * s), Math.floor(y * s)];
  }
  return 85 + 170 * Math.ceil(x / 512) * Math.ceil(y / 512);
}

/** A PDF page, billed at the low end of what Anthropic states (1,500 a page). */
export const PAGE = 1_500;
