// The working state (crates/rules/src/context/working/): a section the engine writes after
// the summary at each compaction, never the summarizer: the user's own words, the files the
// agent changed, and the calls still open. The rules read the texts and write the section;
// this gathers the texts from the kept messages, asks the host's predicate which user
// texts its harness injected, and keeps the section at the end of the summary the engine
// holds, from which the next compaction carries it on.
import { FrameReader } from '../core/frame.js';
import { joinTexts, object, optionalBoolean, optionalFunction, string, type Bag } from '../core/read.js';
import { rules } from '../core/wasm.js';
import { argumentError } from '../errors/index.js';
import { Kind, Role } from './codes.js';
import type { History } from './history.js';

/** How the working state is read, as the host's options say (`workingState`, `userWordsShare`). */
export interface WorkingOptions {
  /** The host's own edit tools, by name: the path in their input is edited. */
  editTools: string[];
  /** Read `mv` and `rm` in shell commands for the file trail. */
  shellCommands: boolean;
  /** The host's own harness text: a user text it says is injected is not the user's words. */
  injected: ((text: string) => boolean) | undefined;
  /** `userWordsShare`, NaN for the rules' default (checked by the rules with the others). */
  share: number;
}

/** The working state's options from a host's. */
export function workingOptions(field: string, opts: Bag): WorkingOptions {
  const share = typeof opts.userWordsShare === 'number' ? opts.userWordsShare : NaN;
  if (opts.workingState === undefined) return { editTools: [], shellCommands: false, injected: undefined, share };
  const at = `${field}.workingState`;
  const w = object(at, opts.workingState);
  const tools = w.editTools;
  if (tools !== undefined && !Array.isArray(tools)) throw argumentError(TypeError, `${at}.editTools`, 'must be an array of tool names');
  return {
    editTools: (tools ?? []).map((t: unknown, i: number) => string(`${at}.editTools[${i}]`, t)),
    shellCommands: optionalBoolean(`${at}.shellCommands`, w.shellCommands) === true,
    injected: optionalFunction<(text: string) => boolean>(`${at}.injected`, w.injected),
    share,
  };
}

const OPEN = '<working-state>';
const CLOSE = '</working-state>';

/** The summary the engine holds, split into the summary (with what it carries) and the working state after it ('' for none): `section::split`. */
export function splitWorking(summary: string): { summary: string; section: string } {
  if (!summary.endsWith(CLOSE)) return { summary, section: '' };
  const at = summary.lastIndexOf(`\n\n${OPEN}`);
  if (at >= 0) return { summary: summary.slice(0, at), section: summary.slice(at + 2) };
  return summary.startsWith(OPEN) ? { summary: '', section: summary } : { summary, section: '' };
}

/** The summary with the working state after it. */
export function joinWorking(summary: string, section: string): string {
  if (section === '') return summary;
  return summary === '' ? section : `${summary}\n\n${section}`;
}

/** What a compaction folding messages `from..to` knows of them. */
export interface Folding {
  from: number;
  to: number;
  /** The store id of each part of messages `from..to`, in order. */
  ids: ReadonlyArray<string | undefined | null>;
  /** The pinned opening messages, which stay whole. */
  opening: [number, number];
  /** `keepFirstMessage`: the opening user message stays whole, before the first compaction's opening is known too. */
  keepFirst: boolean;
}

/** Whether message `i` stays whole, pinned before the summary (`Manager::pins_first`, `pinned`). */
function pinned(history: History, f: Folding, i: number): boolean {
  if (i >= f.opening[0] && i < f.opening[1]) return true;
  if (i !== 0 || !f.keepFirst) return false;
  const parts = history.messages[0].parts;
  return parts.some((p) => p.kind === Kind.Text) && !parts.some((p) => p.kind === Kind.Result);
}

/**
 * The working state after a compaction that folds `f`, carrying on `previous` (the section
 * the summary held) and the user's words an older summary carried (`carried`, newest first).
 */
export function workingSection(history: History, budget: number, o: WorkingOptions, f: Folding, previous: string, carried: readonly string[]): string {
  const { messages } = history;
  // Where each message's part ids start in `f.ids`.
  const first: number[] = [];
  for (let i = f.from, n = 0; i < f.to; i++) {
    first.push(n);
    n += messages[i].parts.length;
  }
  const said: string[] = [];
  const saidAt: number[] = [];
  // Where the fold stored each whole (the rules store them first: `working/store.rs`).
  const saidIds: string[] = [];
  for (let i = f.to - 1; i >= f.from; i--) {
    const m = messages[i];
    if (m.role !== Role.User || pinned(history, f, i)) continue;
    for (let k = m.parts.length - 1; k >= 0; k--) {
      const p = m.parts[k];
      if (p.kind !== Kind.Text || rules.isBlank(p.text)) continue;
      // The host's own harness text is not the user's words (a throw fails the build, which is taken back).
      if (o.injected?.(p.text) === true) continue;
      said.push(p.text);
      saidAt.push(i);
      const id = f.ids[first[i - f.from] + k];
      saidIds.push(typeof id === 'string' ? id : '');
    }
  }
  for (const text of carried) {
    said.push(text);
    saidAt.push(f.from);
    saidIds.push('');
  }
  // The store id of each call's output, where the fold stored it.
  const outputs = new Map<string, string>();
  let n = 0;
  for (let i = f.from; i < f.to; i++) {
    for (const p of messages[i].parts) {
      const id = f.ids[n++];
      if (p.kind === Kind.Result && p.id !== undefined && typeof id === 'string') outputs.set(p.id, id);
    }
  }
  const calls: string[] = [];
  const answered = new Set<string>();
  const asked: Array<[string, string]> = [];
  for (let i = f.from; i < messages.length; i++) {
    const parts = messages[i].parts;
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k];
      if (p.kind === Kind.Result && p.id !== undefined) answered.add(p.id);
      if (p.kind !== Kind.Call) continue;
      calls.push(history.label(i, k), p.raw ?? p.text, (p.id !== undefined ? outputs.get(p.id) : undefined) ?? '');
      if (p.id !== undefined) asked.push([history.label(i, k), p.id]);
    }
  }
  const open = asked.filter(([, id]) => !answered.has(id));
  const texts = [previous, ...said, ...saidIds, ...calls, ...open.flat(), ...o.editTools];
  const shape = Float64Array.from([said.length, ...saidAt, calls.length / 3, open.length, o.editTools.length]);
  const [joined, lens] = joinTexts(texts);
  const frame = new FrameReader(rules.workingState(joined, lens, shape, budget, o.share, o.shellCommands));
  frame.num();
  return frame.text(texts);
}
