// The preview of each replayed turn: the prompt's sections by their headings (a line that
// starts `# `), each cut to its first characters. Read from the pieces the prompt was
// joined from when the runner hands them out: a prompt is the whole context, a turn, and
// reading the joined string by index would copy it whole (V8 flattens it) on every turn,
// a third of a long replay's time.
import { AgentRunner } from '@devs/context';
import { WRITTEN_PIECES } from '../seeds/written.js';

export const PREVIEW_CHARS = 400;

/**
 * A copy of a short piece of a long string: a slice would keep the whole prompt it came
 * from alive, one prompt a turn.
 */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** A text as the pieces it is joined from (none empty), read by position. */
class Pieces {
  readonly starts: number[] = [];
  readonly pieces: string[] = [];
  readonly length: number;

  constructor(pieces: readonly string[]) {
    let at = 0;
    for (const piece of pieces) {
      if (piece.length === 0) continue;
      this.pieces.push(piece);
      this.starts.push(at);
      at += piece.length;
    }
    this.length = at;
  }

  /** The piece that holds position `at` (0 <= at < length). */
  find(at: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Where `'\n# '` starts, in order: in a piece, or across the ends of two or three. */
  headings(): number[] {
    const found: number[] = [];
    const { pieces, starts } = this;
    // The last two characters before the piece (-1 for none yet).
    let before2 = -1;
    let before1 = -1;
    for (let k = 0; k < pieces.length; k++) {
      const piece = pieces[k];
      const base = starts[k];
      const c0 = piece.charCodeAt(0);
      // One that starts in the text before this piece and ends in it.
      if (before2 === 10 && before1 === 35 && c0 === 32) found.push(base - 2);
      if (before1 === 10 && c0 === 35 && piece.length > 1 && piece.charCodeAt(1) === 32) found.push(base - 1);
      if (piece.length >= 3) for (let i = piece.indexOf('\n# '); i >= 0; i = piece.indexOf('\n# ', i + 1)) found.push(base + i);
      before2 = piece.length > 1 ? piece.charCodeAt(piece.length - 2) : before1;
      before1 = piece.charCodeAt(piece.length - 1);
    }
    return found;
  }

  /** The first `'\n'` at or after `from` and before `to`, or -1. */
  newline(from: number, to: number): number {
    for (let k = from < this.length ? this.find(from) : this.pieces.length; k < this.pieces.length && this.starts[k] < to; k++) {
      const base = this.starts[k];
      const i = this.pieces[k].indexOf('\n', Math.max(0, from - base));
      if (i >= 0) return base + i < to ? base + i : -1;
    }
    return -1;
  }

  slice(from: number, to: number): string {
    let out = '';
    for (let k = from < to ? this.find(from) : this.pieces.length; k < this.pieces.length && this.starts[k] < to; k++) {
      const base = this.starts[k];
      out += this.pieces[k].slice(Math.max(0, from - base), to - base);
    }
    return out;
  }
}

/** The pieces of `prompt` when the runner wrote it last, else the prompt as one piece. */
function piecesOf(prompt: string): Pieces {
  const hook = (AgentRunner as unknown as Record<typeof WRITTEN_PIECES, ((prompt: string) => readonly unknown[] | undefined) | undefined>)[WRITTEN_PIECES];
  const pieces = hook?.(prompt);
  if (pieces && pieces.every((p) => typeof p === 'string')) {
    const read = new Pieces(pieces as string[]);
    if (read.length === prompt.length) return read;
  }
  return new Pieces([prompt]);
}

/**
 * The sections of a bounded prompt, by their headings, each cut to a preview. Found by
 * position, not by splitting: the prompt is the whole context, a turn.
 */
export function previewOf(prompt: string): { section: string; text: string }[] {
  const text = piecesOf(prompt);
  const headings = text.headings();
  const sections: { section: string; text: string }[] = [];
  for (let start = 0, h = 0; ; h++) {
    const next = h < headings.length ? headings[h] : -1;
    const end = next < 0 ? text.length : next;
    const heading = text.newline(start, end);
    const section = detached(text.slice(start, heading < 0 ? end : heading).replace(/^#\s*/, ''));
    // A section of one line is its own text too.
    const from = heading < 0 ? start : heading + 1;
    const length = end - from;
    const shown = length > PREVIEW_CHARS ? `${text.slice(from, from + PREVIEW_CHARS)}… (${length} characters)` : text.slice(from, end);
    sections.push({ section, text: detached(shown) });
    if (next < 0) return sections;
    start = next + 1;
  }
}
