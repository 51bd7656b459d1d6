// Protected tools' calls and results that a summary folds away ride after it, verbatim:
// the summary text the engine holds (and a snapshot or a session keeps) is the
// summarizer's words, then these. Each is written with its length, so it is read back
// exactly, whatever it holds, when the next summary carries it on.

/** One protected text carried after the summary. */
export interface Carried {
  /** The tool's name. */
  tool: string;
  part: 'call' | 'result';
  text: string;
}

const HEAD = 'Kept verbatim from the turns summarized (protected tools, newest first):';
const OPEN = /^\n<kept tool=("(?:[^"\\]|\\.)*") part="(call|result)" chars="(\d+)">\n/;
const CLOSE = '\n</kept>';

/** The summary as its summarizer wrote it, and the protected texts after it. */
export function splitSummary(summary: string): { body: string; carried: Carried[] } {
  const at = summary.lastIndexOf(HEAD);
  if (at < 0) return { body: summary, carried: [] };
  const carried: Carried[] = [];
  let rest = summary.slice(at + HEAD.length);
  while (rest !== '') {
    const m = OPEN.exec(rest);
    if (!m) return { body: summary, carried: [] };
    const start = m[0].length;
    const end = start + Number(m[3]);
    if (rest.slice(end, end + CLOSE.length) !== CLOSE) return { body: summary, carried: [] };
    carried.push({ tool: JSON.parse(m[1]) as string, part: m[2] as Carried['part'], text: rest.slice(start, end) });
    rest = rest.slice(end + CLOSE.length);
  }
  return { body: summary.slice(0, at).replace(/\n\n$/, ''), carried };
}

/** One carried text as the request shows it. */
export function carriedText(c: Carried): string {
  return `\n<kept tool=${JSON.stringify(c.tool)} part="${c.part}" chars="${c.text.length}">\n${c.text}${CLOSE}`;
}

/** The summary's words, then the protected texts it carries. */
export function joinSummary(body: string, carried: readonly Carried[]): string {
  if (carried.length === 0) return body;
  const kept = HEAD + carried.map(carriedText).join('');
  return body === '' ? kept : `${body}\n\n${kept}`;
}
