// References: the distinctive tokens of a text, as the recall meter defines them (see
// docs/guides/eval.md). `references(text)` is what a model's output names; `occurrences(text)` is what a
// message makes known, a superset (each path also as its shorter forms, each path's words),
// so that a reference counts as "seen earlier" when an earlier message held its exact string
// as a token or as part of a path.

import type { ProviderTurn } from '@devs/context/replay';

// Recorded messages are plain JSON of the OpenAI Chat shape: read loosely, field by field.
type Loose = any;

/** A reference of a model call's output, and how many recorded messages back it was last seen. */
export interface Reference {
  ref: string;
  age: number;
}

/** A model call's references, and the recorded messages before it. */
export interface CallReferences {
  refs: Reference[];
  messages: number;
}

// Runs of these characters are the candidate tokens: letters, digits, `_`, `.`, `/`, `-`.
const TOKEN = /[A-Za-z0-9_./-]+/g;

// Extensions that make `name.ext` a file name.
const EXTENSIONS = new Set(`
  py pyi pyx js mjs cjs ts mts cts tsx jsx rs go java kt kts scala groovy c h cc cpp cxx hpp hh cs fs vb
  rb php pl pm lua r swift m mm dart ex exs eex heex leex erl hrl hs ml mli clj cljs elm pony zig nim jl
  sh bash zsh fish ps1 bat cmd md mdx rst txt adoc tex json jsonl json5 yaml yml toml ini cfg conf env
  lock xml xsd html htm css scss sass less vue svelte astro sql csv tsv log diff patch proto graphql gql
  tf hcl mk cmake gradle properties ipynb traj wasm wat svg png jpg jpeg gif pdf zip gz tgz tar whl egg
  so dll dylib a o class jar pyc pem crt key db sqlite gitignore dockerignore editorconfig
`.trim().split(/\s+/));

/** A token without the punctuation that ends a sentence or a directory, or opens a flag. */
function trim(token: string): string {
  return token.replace(/[./-]+$/, '').replace(/^-+/, '');
}

const isPath = (t: string): boolean => t.includes('/') && t.length >= 4 && /[A-Za-z]/.test(t);
const isFile = (t: string): boolean => {
  const dot = t.lastIndexOf('.');
  return dot > 0 && /[A-Za-z0-9_]/.test(t[dot - 1]) && EXTENSIONS.has(t.slice(dot + 1).toLowerCase());
};

/** Whether one word (no `.`, `/`, `-`) is a reference: an identifier, a number, an error name. */
export function isWord(w: string): boolean {
  if (/^\d{4,}$/.test(w)) return true; // numbers of 4+ digits
  if (/^\w+(?:Error|Exception)$/.test(w) || /^[A-Z]{1,2}\d{3,4}$/.test(w)) return true; // error names and codes
  return w.length >= 6 && /^[A-Za-z_]\w*$/.test(w) && /[A-Za-z]/.test(w)
    && (w.includes('_') || /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/.test(w) || /\d/.test(w));
}

/**
 * The references a text names: each path (a token with `/`) or file name (`name.ext`)
 * whole, and, in any other token, each word (split at `.`, `/`, `-`) that `isWord` accepts.
 */
export function references(text: string, out: Set<string> = new Set()): Set<string> {
  for (const [raw] of text.matchAll(TOKEN)) {
    const t = trim(raw);
    if (!t) continue;
    if (isPath(t) || isFile(t)) {
      out.add(t);
      continue;
    }
    for (const w of t.split(/[./-]/)) if (w && isWord(w)) out.add(w);
  }
  return out;
}

/**
 * What a text makes known, for "did this occur earlier": its `references`, plus, for each
 * path, every part of it between `/`s (`a/b/c.py` also gives `a/b`, `b/c.py`, `c.py`, `b`…)
 * and each of its words that `isWord` accepts, as file names and references.
 */
export function occurrences(text: string, out: Set<string> = new Set()): Set<string> {
  for (const [raw] of text.matchAll(TOKEN)) {
    const t = trim(raw);
    if (!t) continue;
    if (isPath(t) || isFile(t)) out.add(t);
    if (t.includes('/')) {
      const segments = t.split('/');
      for (let i = 0; i < segments.length; i++) {
        for (let j = i + 1; j <= segments.length; j++) {
          const part = trim(segments.slice(i, j).join('/'));
          if (part && (isPath(part) || isFile(part))) out.add(part);
        }
      }
    }
    for (const w of t.split(/[./-]/)) if (w && isWord(w)) out.add(w);
  }
  return out;
}

/**
 * The texts of one recorded OpenAI Chat message, as the model and the tools wrote them:
 * its content, and each call's argument values (strings, numbers, parsed from the JSON).
 * Call ids, tool names and argument keys are not in it: they are the host's framing.
 */
export function messageTexts(message: unknown): string[] {
  const m = message as Loose;
  const out: string[] = [];
  if (typeof m.content === 'string') out.push(m.content);
  else if (Array.isArray(m.content)) for (const p of m.content as Loose[]) if (typeof p?.text === 'string') out.push(p.text);
  for (const c of (m.tool_calls ?? []) as Loose[]) {
    let args: unknown;
    try {
      args = JSON.parse(c.function.arguments);
    } catch {
      args = c.function.arguments;
    }
    leaves(args, out);
  }
  return out;
}

function leaves(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
  else if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) leaves(x, out);
}

/**
 * Each model call of a session with the references its recorded output makes to what came
 * before: `[{ refs: [{ ref, age }] }]`, one entry per turn of `turns` (OpenAI Chat turns of
 * `providerTurns`). `age` is the number of recorded messages between the reference's last
 * occurrence and the call (1: the message just before it). Messages are counted as OpenAI
 * Chat has them: a user input, the assistant's message, one message per tool result.
 * References found in `system` are left out. The index of last occurrences is built as the
 * session goes, each message read once.
 */
export function sessionReferences(turns: readonly ProviderTurn[], system: string): CallReferences[] {
  const last = new Map<string, number>();
  let n = 0;
  const see = (messages: readonly unknown[]): void => {
    for (const m of messages) {
      const seen = new Set<string>();
      for (const text of messageTexts(m)) occurrences(text, seen);
      for (const r of seen) last.set(r, n);
      n++;
    }
  };
  return turns.map((turn) => {
    see(turn.input);
    const named = new Set<string>();
    for (const m of turn.response) for (const text of messageTexts(m)) references(text, named);
    const refs: Reference[] = [];
    for (const ref of named) {
      const at = last.get(ref);
      if (at !== undefined && !system.includes(ref)) refs.push({ ref, age: n - at });
    }
    see(turn.response);
    see(turn.results);
    return { refs, messages: n };
  });
}

/**
 * The store ids a request names, in the forms ContextManager writes them: `stored as 17`,
 * `stored text 17`, `recall id 17`, `"id": 17` (ids may be words too: `stored as abc-1`).
 * Extend here when a strategy names its stored texts some other way.
 */
export function namedIds(text: string): string[] {
  const ids = new Set<string>();
  for (const m of text.matchAll(/\b(?:stored as|stored text|recall id)\s+([A-Za-z0-9_:-]+(?:\.[A-Za-z0-9_:-]+)*)/g)) ids.add(m[1]);
  for (const m of text.matchAll(/\\?"id\\?":\s*\\?"?([A-Za-z0-9_:-]+(?:\.[A-Za-z0-9_:-]+)*)/g)) ids.add(m[1]);
  // The index of stored texts: one line per text, `- <id>: …`.
  for (const m of text.matchAll(/^- ([A-Za-z0-9_:-]+(?:\.[A-Za-z0-9_:-]+)*): /gm)) ids.add(m[1]);
  return [...ids];
}
