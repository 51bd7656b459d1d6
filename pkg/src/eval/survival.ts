// What a request keeps of the user's own words and of the agent's file trail: the meters of
// the eval's (and bench/recall.mjs's) `user words` and `file trail` columns (issue 49). They
// read the sessions as the package's transcript reader gives them (`parseTranscript`: steps
// with the user's `input` and the model's `calls`), with lists of tool names and harness
// markers of their own: never the engine's working-state extractor (src/context/working.ts,
// crates/rules/src/context/working/), whose output they judge. Nothing here imports it.
//
//   userWords(session)  → [{ turn, pieces, firstLine }]   what the user typed, per step
//   fileTrail(session)  → [{ turn, path, action }]        each path written, first write
//   survival(...)       → per request, the pairs it keeps
//
// A step's input may hold text a harness wrote around or beside the user's: it is cut out,
// and what is left is the message as `pieces` (the runs between the cuts), each of which the
// request must hold verbatim.

import type { ReplayCall, ReplaySession } from '@devs/context/replay';

// A call's arguments are whatever the agent sent: read loosely, field by field.
type Loose = any;

/** A file one call writes. */
export interface Write {
  path: string;
  action: string;
}

/** A path the agent wrote, at the step of its first write. */
export interface TrailPath extends Write {
  turn: number;
}

/** What the user typed in one step: the pieces a request must hold, and its first line. */
export interface UserWords {
  turn: number;
  pieces: string[];
  firstLine: string;
}

/** One request's survival input: the session's words and trail, the request's turn and text, its stored texts. */
export interface SurvivalInput {
  words: readonly UserWords[];
  trail: readonly TrailPath[];
  turn: number;
  text: string;
  /** The stored texts of the ids the request names; undefined for a strategy that stores nothing. */
  stored?: () => string[];
}

/** One request's pairs kept, of the user's words and of the file trail. */
export interface Survived {
  words: number;
  wordsKept: number;
  paths: number;
  pathsKept: number;
}

/** Elements a harness injects, cut out whole (Claude Code, Codex, Cline, Gemini CLI, OpenHands…). */
const INJECTED_TAGS = [
  'system-reminder', 'local-command-caveat', 'local-command-stdout', 'local-command-stderr', 'command-name',
  'command-message', 'environment_context', 'user_instructions', 'INSTRUCTIONS', 'turn_aborted', 'user_shell_command',
  'environment_details', 'hook_context', 'task_progress', 'session_context', 'ide_opened_file', 'ide_selection',
  'runtime_information', 'workspace_context', 'REPOSITORY_INFO', 'RUNTIME_INFORMATION', 'EXTRA_INFO',
];
const TAGGED = new RegExp(`<(${INJECTED_TAGS.join('|')})(?:\\s[^>]*)?>[\\s\\S]*?</\\1>`, 'g');
/** Elements whose inner text is the user's, their tags the harness's (`<task>` of Cline, `<command-args>` of Claude Code). */
const WRAPPING_TAGS = /<\/?(?:task|feedback|user_message|answer|command-args|user_query)>/g;

/** Whole messages a harness writes in the user's turn: matched at the start of a step's input. */
const INJECTED_MESSAGES = [
  /^# AGENTS\.md instructions for /, // Codex: the repository's AGENTS.md
  /^Base directory for this skill: /, // Claude Code: a skill's text, loaded when invoked
  /^This session is being continued from a previous conversation/, // Claude Code: its compaction's summary
  /^\[Request interrupted by user/, // Claude Code
  /^Please always provide EXACTLY ONE action/, // mini-SWE-agent: a format error
  /^(?:Your last command ran successfully and did not produce any output|Observation: )/, // SWE-agent, mini-SWE
  /^\[TASK RESUMPTION\]/, // Cline
  /^#\s*(?:task_progress|TODO LIST)/, // Cline
  /^\[(?:image|document)\]$/, // the reader's stand-in for an attachment
];
/** Lines a harness writes into the user's turn: aider's confirmations, with the user's answer. */
const INJECTED_LINES = /^.*\(Y\)es\/\(N\)o[^\n]*\]: *\w*$/gm;

/**
 * What the user typed in one step's input, as the runs left after cutting what a harness
 * injected: `[]` when nothing is left. Codex Desktop's "## My request for Codex:" header
 * keeps only what follows it (the files it lists above are the harness's).
 */
export function typedPieces(input: unknown): string[] {
  if (typeof input !== 'string') return [];
  let text = input;
  const request = text.match(/^\s*# Files mentioned by the user:[\s\S]*?\n## My request for Codex:\n/);
  if (request) text = text.slice(request[0].length);
  if (INJECTED_MESSAGES.some((re) => re.test(text.trimStart()))) return [];
  return text.replace(TAGGED, '\u0000').replace(WRAPPING_TAGS, '\u0000').replace(INJECTED_LINES, '\u0000')
    .split('\u0000').map((s) => s.trim()).filter((s) => s !== '' && !INJECTED_MESSAGES.some((re) => re.test(s)));
}

/** How much of a first line must show beside a store id: enough to name it, short enough for any index. */
export const FIRST_LINE = 40;

/** Each step's typed message: `{ turn, pieces, firstLine }` (turn: the step's index). */
export function userWords(session: ReplaySession): UserWords[] {
  const out: UserWords[] = [];
  session.steps.forEach((step, turn) => {
    const pieces = typedPieces(step.input);
    if (pieces.length === 0) return;
    const line = (pieces[0].split('\n').find((l) => l.trim() !== '') ?? '').trim();
    out.push({ turn, pieces, firstLine: line.slice(0, FIRST_LINE).trimEnd() });
  });
  return out;
}

// The file trail.

/** Tools whose input names the file they write, and the argument keys that name it. */
const PATH_KEYS = ['file_path', 'path', 'filePath', 'notebook_path', 'filename', 'absolute_path', 'target_file', 'TargetFile', 'target'];
const WRITE_TOOLS = new Set([
  'Edit', 'Write', 'MultiEdit', 'NotebookEdit', // Claude Code
  'write_to_file', 'replace_in_file', 'new_file', 'apply_diff', 'insert_content', 'search_and_replace', 'editor', // Cline, Roo, Cline SDK
  'write_file', 'replace', 'edit_file', 'edit', 'create', 'insert', 'write', // Gemini CLI, SWE-agent tools, generic
]);
/** Editor tools with a `command`: only these commands write. */
const EDITOR_TOOLS = new Set(['str_replace_editor', 'str_replace_based_edit_tool', 'file_editor', 'text_editor']);
const EDITOR_WRITES = new Set(['create', 'str_replace', 'insert', 'undo_edit', 'write', 'append']);
/** Tools that run a shell command, read by `shellWrites`. */
const SHELL_TOOLS = new Set(['Bash', 'bash', 'execute_bash', 'run', 'terminal', 'exec_command', 'shell', 'local_shell',
  'run_shell_command', 'run_commands', 'execute_command', 'container.exec', 'cmd']);

const unquote = (s: string): string => s.replace(/^(['"])(.*)\1$/, '$2');
const isFileArg = (s: string): boolean => s !== '' && !s.startsWith('-') && !/^\/dev\//.test(s) && !/[*?$`(){}]/.test(s);

/** The paths an `apply_patch` envelope adds, updates, deletes or moves to. */
export function patchWrites(text: string): Write[] {
  const out: Write[] = [];
  for (const m of text.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)) out.push({ path: m[2].trim(), action: m[1].toLowerCase() });
  for (const m of text.matchAll(/^\*\*\* Move to: (.+)$/gm)) out.push({ path: m[1].trim(), action: 'move' });
  return out;
}

/** The files one shell command obviously writes: heredoc and echo redirects, `tee`, `sed -i`, `mv`, `cp`, `rm`, `touch`. */
export function shellWrites(command: string): Write[] {
  const out = [...patchWrites(command)];
  const add = (path: string, action: string): void => {
    const p = unquote(path.trim());
    if (isFileArg(p)) out.push({ path: p, action });
  };
  // Heredoc bodies are text, not commands: read the line that opens each, skip the body.
  const lines: string[] = [];
  const all = command.split('\n');
  for (let i = 0; i < all.length; i++) {
    lines.push(all[i]);
    const doc = all[i].match(/<<-?\s*['"]?(\w+)['"]?/);
    if (doc) while (i + 1 < all.length && all[i + 1].trim() !== doc[1]) i++;
  }
  for (const line of lines) {
    for (const segment of line.split(/&&|\|\||;|\|/)) {
      const words = segment.trim().match(/'[^']*'|"[^"]*"|\S+/g) ?? [];
      const at = words.findIndex((w) => !/^(?:sudo|git|\w+=\S*)$/.test(w));
      const [verb, ...rest] = words.slice(at < 0 ? words.length : at);
      const plain = rest.filter((w) => !w.startsWith('-'));
      if (verb === 'mv' && plain.length >= 2) for (const w of plain) add(w, 'move');
      else if (verb === 'cp' && plain.length >= 2) add(plain[plain.length - 1], 'create');
      else if (verb === 'rm') for (const w of plain) add(w, 'delete');
      else if (verb === 'touch') for (const w of plain) add(w, 'create');
      else if (verb === 'tee') for (const w of plain) add(w, 'write');
      else if (verb === 'sed' && rest.some((w) => /^-i/.test(w) || w === '--in-place') && plain.length >= 2) add(plain[plain.length - 1], 'edit');
      else if (verb === 'cat' || verb === 'echo' || verb === 'printf') {
        const to = segment.match(/(?:^|[^\d&>])>>?\s*('[^']*'|"[^"]*"|[^\s;&|<>]+)/);
        if (to) add(to[1], 'write');
      }
    }
  }
  return out;
}

/** The files Python code in a notebook cell writes: OpenHands' file helpers, `open(…, 'w')`. */
function pythonWrites(code: string): Write[] {
  const out: Write[] = [];
  for (const m of code.matchAll(/\b(create_file|edit_file_by_replace|append_file|insert_content_at_line|edit_file)\(\s*(?:file_name\s*=\s*)?['"]([^'"]+)['"]/g)) out.push({ path: m[2], action: m[1] === 'create_file' ? 'create' : 'edit' });
  for (const m of code.matchAll(/\bopen\(\s*['"]([^'"]+)['"]\s*,\s*['"][wax]/g)) out.push({ path: m[1], action: 'write' });
  return out;
}

const strings = (v: unknown, out: string[] = []): string[] => {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) strings(x, out);
  return out;
};

/**
 * The files one call writes, read from its input (`envelope.action`): `[{ path, action }]`.
 * Two agents name the file only in the result: aider (`Applied edit to X`: its replies are
 * no tool call) and Moatless (`EditCode`, after a `PlanToCode` that names it); SWE-agent's
 * `edit` edits the open file, which its result names (`[File: X …]`).
 */
export function callWrites(call: ReplayCall): Write[] {
  const { tool_name: name = '', arguments: args = {} } = (call.envelope?.action ?? {}) as Loose;
  const output = String(call.envelope?.observation?.output ?? '');
  const a: Loose = args && typeof args === 'object' ? args : {};
  const out: Write[] = [];
  for (const s of strings(a)) if (s.includes('*** Begin Patch')) out.push(...patchWrites(s));
  const named: string | undefined = PATH_KEYS.map((k) => a[k]).find((v) => typeof v === 'string' && v !== '');
  const command: string | undefined = typeof a.command === 'string' ? a.command : typeof a.cmd === 'string' ? a.cmd : Array.isArray(a.command) ? a.command.join(' ') : Array.isArray(a.commands) ? a.commands.join('\n') : undefined;
  if (EDITOR_TOOLS.has(name)) {
    if (named && EDITOR_WRITES.has(a.command)) out.push({ path: named, action: a.command === 'create' ? 'create' : 'edit' });
  } else if (WRITE_TOOLS.has(name) || (/write/i.test(name) && named && typeof (a.content ?? a.text) === 'string')) {
    if (named && a.command !== 'view') out.push({ path: named, action: /write|create|new/i.test(name) ? 'write' : 'edit' });
    else if (name === 'edit' || name === 'insert') {
      const open = output.match(/\[File: ([^\s(]+)/);
      if (open) out.push({ path: open[1], action: 'edit' });
    }
  } else if (name === 'apply_reply') {
    // A line of the reply's own text may start the same way: a path is one word.
    for (const m of output.matchAll(/^Applied edit to (\S+)$/gm)) out.push({ path: m[1], action: 'edit' });
  } else if (name === 'EditCode') {
    for (const m of output.matchAll(/Applied the change to ([^\s"\\]+)/g)) out.push({ path: m[1].replace(/\.$/, ''), action: 'edit' });
  } else if (name === 'run_ipython' && typeof a.code === 'string') {
    out.push(...pythonWrites(a.code));
  } else if (SHELL_TOOLS.has(name) && command !== undefined) {
    // SWE-agent's own commands, sent through its shell.
    const own = command.trim().match(/^(create|edit|insert)\b\s*(\S*)/);
    if (own?.[1] === 'create' && own[2]) out.push({ path: own[2], action: 'create' });
    else if (own) {
      const open = output.match(/\[File: ([^\s(]+)/);
      if (open) out.push({ path: open[1], action: 'edit' });
    } else out.push(...shellWrites(command));
  }
  return out;
}

/** Each path the agent wrote, at its first write: `[{ turn, path, action }]` (turn: the step whose calls wrote it). */
export function fileTrail(session: ReplaySession): TrailPath[] {
  const first = new Map<string, TrailPath>();
  session.steps.forEach((step, turn) => {
    for (const call of step.calls ?? []) {
      for (const w of callWrites(call)) {
        const path = w.path.replace(/^\.\//, ''); // `./a.md` is `a.md` wherever the request names it
        if (!first.has(path)) first.set(path, { turn, path, action: w.action });
      }
    }
  });
  return [...first.values()];
}

/**
 * One request's pairs: of the user's messages typed at or before its turn, how many it keeps
 * (every piece verbatim, or its first line beside a store id whose stored text holds it);
 * of the paths written before its turn (by the calls of an earlier step), how many its
 * text holds. `stored(ids)` gives the stored texts of the ids the request names, or is
 * undefined for a strategy that stores nothing.
 */
export function survival({ words, trail, turn, text, stored }: SurvivalInput): Survived {
  const r = { words: 0, wordsKept: 0, paths: 0, pathsKept: 0 };
  let texts: string[] | undefined;
  for (const w of words) {
    if (w.turn > turn) break;
    r.words++;
    let kept = w.pieces.every((p) => text.includes(p));
    if (!kept && stored && text.includes(w.firstLine)) {
      texts ??= stored();
      kept = texts.some((s) => w.pieces.every((p) => s.includes(p)));
    }
    r.wordsKept += Number(kept);
  }
  for (const p of trail) {
    if (p.turn >= turn) continue;
    r.paths++;
    r.pathsKept += Number(text.includes(p.path));
  }
  return r;
}
