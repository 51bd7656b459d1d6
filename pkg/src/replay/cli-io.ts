// The CLI's files and terminal: what it reads is checked before it is read, what it writes
// appears all at once or not at all, and what a transcript holds is escaped before it
// reaches a terminal.
import { closeSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** A failure the user can fix: printed as one line, exit 2. */
export class UsageError extends Error {
  readonly code = 'ERR_USAGE';
}

const MAX_FILE = 1024 ** 3;
const MAX_RECORD = 64 * 1024 ** 2;

/** Control characters (C0 but tab and newline, DEL, C1) as `\u001b`: a terminal acts on them. */
export function escapeControls(text: string, keepNewlines = true): string {
  return text.replace(keepNewlines ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g : /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A system error in one line: `EISDIR: illegal operation on a directory`. */
function reason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const message = String(e?.message ?? error).replace(/, \w+ '.*'$/, '');
  return typeof e?.code === 'string' && !message.startsWith(e.code) ? `${e.code}: ${message}` : message;
}

/** The file's text, refused before reading when it is no file, or too large to replay. */
export function readTranscript(file: string): string {
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new UsageError(`${file} is a directory, not a transcript`);
    size = stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${reason(error)}`);
  }
  if (size > MAX_FILE) throw new UsageError(`${file} is ${(size / 1024 ** 3).toFixed(2)} GB: over the 1 GB a replay reads`);
  try {
    checkRecords(file);
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${file}: ${reason(error)}`);
  }
}

/** A single record over 64 MB is refused from its length, before any JSON parse. */
function checkRecords(file: string): void {
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let run = 0;
    let line = 1;
    let bytes: number;
    let position = 0;
    while ((bytes = readSync(fd, chunk, 0, chunk.length, position)) > 0) {
      position += bytes;
      // From newline to newline (a native search), not byte by byte.
      for (let i = 0; ; ) {
        const newline = chunk.indexOf(10, i);
        const end = newline < 0 || newline >= bytes ? bytes : newline;
        run += end - i;
        if (run > MAX_RECORD) throw new UsageError(`${file}: the record on line ${line} is over 64 MB; a replay reads records of at most 64 MB`);
        if (end === bytes) break;
        run = 0;
        line++;
        i = end + 1;
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Where a path leads: its resolved name, and its file's identity when it exists. */
function place(path: string): { path: string; id?: string } {
  const full = resolve(path);
  try {
    const s = statSync(full);
    return { path: full, id: `${s.dev}:${s.ino}` };
  } catch {
    return { path: full };
  }
}

/**
 * Refuses, before anything is read, an output that is the input or another output: by
 * name, or as the same file under another name.
 */
export function checkOutputs(input: string, outputs: Array<[flag: string, path: string | undefined]>): void {
  const seen: Array<[string, { path: string; id?: string }]> = [['the input', place(input)]];
  for (const [flag, path] of outputs) {
    if (path === undefined) continue;
    if (path === '') throw new UsageError(`${flag} needs a file name`);
    const here = place(path);
    for (const [what, there] of seen) {
      if (here.path === there.path || (here.id !== undefined && here.id === there.id)) {
        throw new UsageError(`${flag} ${path} is ${what === 'the input' ? 'the input file' : `also ${what}`}: refused, nothing was read or written`);
      }
    }
    seen.push([flag, here]);
  }
}

/**
 * Writes every output to a temporary file beside it, then renames them all: a run that
 * fails leaves nothing new behind, and never half a file.
 */
export function writeOutputs(outputs: Array<[flag: string, path: string, text: string]>): void {
  for (const [flag, path] of outputs) {
    let directory = false;
    try {
      directory = statSync(path).isDirectory();
    } catch {
      // Not there yet: it will be.
    }
    if (directory) throw new UsageError(`${flag}: cannot write ${path}: it is a directory`);
  }
  const written: string[] = [];
  try {
    for (const [flag, path, text] of outputs) {
      const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
      try {
        writeFileSync(temp, text, { flag: 'wx' });
      } catch (error) {
        throw new UsageError(`${flag}: cannot write ${path}: ${reason(error)}`);
      }
      written.push(temp);
    }
    outputs.forEach(([flag, path], i) => {
      try {
        renameSync(written[i], path);
      } catch (error) {
        throw new UsageError(`${flag}: cannot write ${path}: ${reason(error)}`);
      }
    });
  } catch (error) {
    for (const temp of written) rmSync(temp, { force: true });
    throw error;
  }
}
