// Audio, video, image and PDF bytes built here, as small as their headers allow, for the
// media tests: a WAV of a given length, an MP4 whose movie header says its duration, a
// PNG header of a given size, and a PDF whose page tree is in one object stream, its data
// written through the filters a test names.

/** A PCM WAV, 16-bit mono, of `seconds` at `rate` Hz. */
export function wav(seconds, rate) {
  const data = rate * 2 * seconds;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28); // byte rate
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(data, 40);
  return b;
}

const box = (type, body) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};

/** An MP4 whose movie header says `duration` in `scale` units a second, then a little media data. */
export function mp4(scale, duration) {
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(scale, 12);
  mvhd.writeUInt32BE(duration, 16);
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1')), box('moov', box('mvhd', mvhd)), box('mdat', Buffer.alloc(4096))]);
}

/** The first bytes of a PNG of `w` × `h`: its header, all a size is read from. */
export function pngHeader(w, h) {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  b[24] = 8;
  b[25] = 6;
  return b;
}

/**
 * A PDF of `n` pages whose catalog is plain and whose page tree (its root and `n` pages,
 * `n + 1` objects) is one object stream, its data written by `encode`, its dictionary
 * ending in `filter`.
 */
export function pagesPdf(n, filter, encode) {
  const kids = Array.from({ length: n }, (_, i) => `${i + 3} 0 R`).join(' ');
  const objects = [`<< /Type /Pages /Kids [${kids}] /Count ${n} >>`, ...Array.from({ length: n }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>')];
  let offset = 0;
  const header = objects.map((o, i) => {
    const pair = `${i + 2} ${offset}`;
    offset += o.length + 1;
    return pair;
  }).join(' ');
  const data = encode(Buffer.from(`${header}\n${objects.join('\n')}`, 'latin1'));
  return Buffer.concat([
    Buffer.from(`%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n${n + 3} 0 obj\n<< /Type /ObjStm /N ${n + 1} /First ${header.length + 1} /Length ${data.length} ${filter} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from(`\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`, 'latin1'),
  ]);
}
