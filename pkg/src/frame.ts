// Reads a rule's answer: numbers and texts, in order (`devs_context_rules::frame`). A
// text arrives as pieces, the rule's own words and references to the host's strings,
// which are pasted back in here untouched. The frame is one string, marked with Unicode
// noncharacters that no rule's words contain.


const REF_END = '\uFDD1';
const TEXT_END = '\uFDD2';
const MARKS = /[\uFDD0\uFDD2]/g;

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

  /** The next text, with `hosts[i]` where the rule refers to host text `i`. */
  text(hosts: readonly string[]): string {
    const frame = this.frame;
    let out = '';
    for (;;) {
      MARKS.lastIndex = this.at;
      const mark = MARKS.exec(frame);
      const at = mark ? mark.index : frame.length;
      out += frame.slice(this.at, at);
      if (!mark || frame[at] === TEXT_END) {
        this.at = at + 1;
        return out;
      }
      const end = frame.indexOf(REF_END, at);
      const [index, start, stop] = frame.slice(at + 1, end).split(',').map(Number);
      const host = hosts[index];
      out += start === 0 && stop === -1 ? host : host.slice(start, stop === -1 ? undefined : stop);
      this.at = end + 1;
    }
  }
}

/** The one text of a frame that holds only a text. */
export function frameText(frame: string, hosts: readonly string[]): string {
  return new FrameReader(frame).text(hosts);
}

/** A template frame fetched from the rules once, then reused. */
export function template(get: () => string): (hosts: readonly string[]) => string {
  let frame: string | undefined;
  return (hosts) => frameText((frame ??= get()), hosts);
}
