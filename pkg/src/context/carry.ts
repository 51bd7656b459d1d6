// What a summary folds away that rides after it, verbatim: protected tools' calls and
// results (`protectedTools`), and what the user wrote. The summary text the engine holds
// (and a snapshot or a session keeps) is the summarizer's words, then these. Each is
// written with its length, so it is read back exactly, whatever it holds, when the next
// summary carries it on.

/** One text carried after the summary: a protected tool's call or result, or the user's words. */
export interface Carried {
  /** The tool's name; '' for the user's words. */
  tool: string;
  part: 'call' | 'result' | 'user';
  text: string;
}

const HEAD = 'Kept verbatim from the turns summarized, newest first:';
const USER = "the user's words";
const OPEN = /^\n<kept what=("(?:[^"\\]|\\.)*") chars="(\d+)">\n/;
const CLOSE = '\n</kept>';

const whatOf = (c: Carried): string => (c.part === 'user' ? USER : `${c.tool} ${c.part}`);

function fromWhat(what: string, text: string): Carried | undefined {
  if (what === USER) return { tool: '', part: 'user', text };
  const at = what.lastIndexOf(' ');
  const part = what.slice(at + 1);
  if (at < 0 || (part !== 'call' && part !== 'result')) return undefined;
  return { tool: what.slice(0, at), part, text };
}

/** The summary as its summarizer wrote it, and the texts carried after it. */
export function splitSummary(summary: string): { body: string; carried: Carried[] } {
  const at = summary.lastIndexOf(HEAD);
  if (at < 0) return { body: summary, carried: [] };
  const carried: Carried[] = [];
  let rest = summary.slice(at + HEAD.length);
  while (rest !== '') {
    const m = OPEN.exec(rest);
    if (!m) return { body: summary, carried: [] };
    const start = m[0].length;
    const end = start + Number(m[2]);
    if (rest.slice(end, end + CLOSE.length) !== CLOSE) return { body: summary, carried: [] };
    const c = fromWhat(JSON.parse(m[1]) as string, rest.slice(start, end));
    if (!c) return { body: summary, carried: [] };
    carried.push(c);
    rest = rest.slice(end + CLOSE.length);
  }
  return { body: summary.slice(0, at).replace(/\n\n$/, ''), carried };
}

/** One carried text as the request shows it. */
export function carriedText(c: Carried): string {
  return `\n<kept what=${JSON.stringify(whatOf(c))} chars="${c.text.length}">\n${c.text}${CLOSE}`;
}

/** The summary's words, then the texts it carries. */
export function joinSummary(body: string, carried: readonly Carried[]): string {
  if (carried.length === 0) return body;
  const kept = HEAD + carried.map(carriedText).join('');
  return body === '' ? kept : `${body}\n\n${kept}`;
}
