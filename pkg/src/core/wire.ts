// The channel's primitives, as the rules write them (crates/rules/src/context/codec.rs):
// whole numbers as LEB128, f64 little-endian, a text as its UTF-8 length and bytes, an
// optional text as a flag then the text. `protocol.ts` (generated) reads a need and writes
// an answer with these, field by field, in the order the rules declare them.

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

export class WireReader {
  #at = 0;
  readonly #bytes: Uint8Array;
  readonly #view: DataView;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  byte(): number {
    return this.#bytes[this.#at++];
  }

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.#bytes[this.#at++];
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 128;
    }
  }

  float(): number {
    const v = this.#view.getFloat64(this.#at, true);
    this.#at += 8;
    return v;
  }

  text(): string {
    const n = this.uint();
    const s = utf8.decode(this.#bytes.subarray(this.#at, this.#at + n));
    this.#at += n;
    return s;
  }

  optionalText(): string | undefined {
    return this.byte() === 0 ? undefined : this.text();
  }

  texts(): string[] {
    return Array.from({ length: this.uint() }, () => this.text());
  }

  optionalTexts(): Array<string | undefined> {
    return Array.from({ length: this.uint() }, () => this.optionalText());
  }

  uints(): number[] {
    return Array.from({ length: this.uint() }, () => this.uint());
  }

  floats(): number[] {
    return Array.from({ length: this.uint() }, () => this.float());
  }
}

export class WireWriter {
  #out: number[] = [];
  /** What was written before the last text, then its bytes: a text is kept whole, not pushed byte by byte. */
  readonly #chunks: Uint8Array[] = [];

  byte(v: number): void {
    this.#out.push(v);
  }

  uint(v: number): void {
    let rest = v;
    while (rest >= 0x80) {
      this.#out.push((rest % 128) | 0x80);
      rest = Math.floor(rest / 128);
    }
    this.#out.push(rest);
  }

  float(v: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    this.#out.push(...b);
  }

  floats(v: readonly number[]): void {
    this.uint(v.length);
    for (const x of v) this.float(x);
  }

  text(s: string): void {
    const b = encoder.encode(s);
    this.uint(b.length);
    this.#chunks.push(Uint8Array.from(this.#out), b);
    this.#out = [];
  }

  optionalText(s: string | undefined): void {
    if (s === undefined) {
      this.#out.push(0);
    } else {
      this.#out.push(1);
      this.text(s);
    }
  }

  bytes(): Uint8Array {
    const parts = [...this.#chunks, Uint8Array.from(this.#out)];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
    return out;
  }
}
