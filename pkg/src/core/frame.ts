// Reads a rule's answer: numbers and texts, in order (`devs_context_rules::frame`). A
// text arrives as pieces, the rule's own words and references to the host's strings,
// which are pasted back in here untouched. The frame is one string, marked with Unicode
// noncharacters that no rule's words contain.


const REF_END = '\uFDD1';
const TEXT_END = '\uFDD2';
const HOST = '\uFDD0';

export class FrameReader {
  private at = 0;

  constructor(private readonly frame: string) {}

  num(): number {
    const end = this.frame.indexOf(REF_END, this.at);
    const value = Number(this.frame.slice(this.at + 1, end));
    this.at = end + 1;
    return value;
  }

  flag(): boolean {
    return this.num() === 1;
  }

  /** Whether every number and text has been read. */
  done(): boolean {
    return this.at >= this.frame.length;
  }

  /** The next text, with `hosts[i]` where the rule refers to host text `i`. */
  text(hosts: readonly string[]): string {
    const frame = this.frame;
    let out = '';
    let at = this.at;
    const end = frame.indexOf(TEXT_END, at);
    for (;;) {
      const host = frame.indexOf(HOST, at);
      if (host < 0 || end < host) {
        out += frame.slice(at, end);
        this.at = end + 1;
        return out;
      }
      if (host > at) out += frame.slice(at, host);
      // The index's digits, read in place; then the end of a whole text's reference, or
      // the range of a part.
      let index = 0;
      let k = host + 1;
      for (let c = frame.charCodeAt(k); c >= 48 && c <= 57; c = frame.charCodeAt(++k)) index = index * 10 + c - 48;
      const text = hosts[index];
      if (frame.charCodeAt(k) !== 44) {
        out += text;
        at = k + 1;
        continue;
      }
      const comma2 = frame.indexOf(',', k + 1);
      const close = frame.indexOf(REF_END, comma2);
      const start = +frame.slice(k + 1, comma2);
      const stop = +frame.slice(comma2 + 1, close);
      out += start === 0 && stop === -1 ? text : text.slice(start, stop === -1 ? undefined : stop);
      at = close + 1;
    }
  }
}

/** The one text of a frame that holds only a text. */
export function frameText(frame: string, hosts: readonly string[]): string {
  return new FrameReader(frame).text(hosts);
}

/** Every text of a frame that holds only texts of the rule's own words. */
export function frameTexts(frame: string): string[] {
  const reader = new FrameReader(frame);
  const out: string[] = [];
  while (!reader.done()) out.push(reader.text([]));
  return out;
}

/** A frame of texts only, as one template per text: each fills in its own host texts later. */
export function frameTemplates(frame: string): Array<(hosts: readonly string[]) => string> {
  const out: Array<(hosts: readonly string[]) => string> = [];
  for (let at = 0; at < frame.length;) {
    const end = frame.indexOf(TEXT_END, at) + 1;
    const one = frame.slice(at, end);
    out.push((hosts) => frameText(one, hosts));
    at = end;
  }
  return out;
}

/** A template frame fetched from the rules once, then reused. */
export function template(get: () => string): (hosts: readonly string[]) => string {
  let frame: string | undefined;
  return (hosts) => frameText((frame ??= get()), hosts);
}
