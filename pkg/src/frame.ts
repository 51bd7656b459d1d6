// Reads a rule's answer: numbers and texts, in order (`devs_context_rules::frame`). A
// text arrives as pieces, the rule's own words and references to the host's strings,
// which are pasted back in here untouched.

const LIT = 0;
const END = 2;
const WHOLE = -1;
/** `String.fromCharCode` takes at most this many arguments at once, safely. */
const CHUNK = 8192;

export class FrameReader {
  private at = 0;

  constructor(private readonly values: Float64Array) {}

  num(): number {
    return this.values[this.at++];
  }

  flag(): boolean {
    return this.values[this.at++] === 1;
  }

  done(): boolean {
    return this.at >= this.values.length;
  }

  /** The next text, with `hosts[i]` where the rule refers to host text `i`. */
  text(hosts: readonly string[]): string {
    const v = this.values;
    let out = '';
    for (;;) {
      const tag = v[this.at++];
      if (tag === END) return out;
      if (tag === LIT) {
        const n = v[this.at++];
        for (let i = 0; i < n; i += CHUNK) {
          out += String.fromCharCode.apply(null, v.subarray(this.at + i, this.at + Math.min(n, i + CHUNK)) as unknown as number[]);
        }
        this.at += n;
      } else {
        const host = hosts[v[this.at++]];
        const start = v[this.at++];
        const end = v[this.at++];
        out += start === 0 && end === WHOLE ? host : host.slice(start, end === WHOLE ? undefined : end);
      }
    }
  }
}

/** The one text of a frame that holds only a text. */
export function frameText(values: Float64Array, hosts: readonly string[]): string {
  return new FrameReader(values).text(hosts);
}

/** A template frame fetched from the rules once, then reused. */
export function template(get: () => Float64Array): (hosts: readonly string[]) => string {
  let values: Float64Array | undefined;
  return (hosts) => frameText((values ??= get()), hosts);
}
