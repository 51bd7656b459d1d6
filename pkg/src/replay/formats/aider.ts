// Aider `.aider.chat.history.md`: `#### ` lines are the user's, `> ` lines aider's own
// notes, the rest the model's replies. Aider calls no tools: a reply that edits files or
// runs commands is one `apply_reply` call, its result aider's notes after it (applied
// edits, commits, command output); other replies are turns with text only.
import type { ReplaySession } from './session.js';
import { Builder, timeOf } from './shared.js';

export const AIDER_START = '# aider chat started at';

export function isAider(text: string): boolean {
  return text.startsWith(AIDER_START) || text.includes(`\n${AIDER_START}`);
}

type Kind = 'start' | 'user' | 'note' | 'reply';

export function aider(text: string, name: string): ReplaySession {
  // Blocks of consecutive lines of one kind; a blank line belongs to the block it is in.
  const blocks: { kind: Kind; lines: string[] }[] = [];
  for (const line of text.split('\n')) {
    const last = blocks[blocks.length - 1];
    if (line.trim() === '') {
      last?.lines.push('');
      continue;
    }
    const kind: Kind = line.startsWith(AIDER_START) ? 'start' : /^####( |$)/.test(line) ? 'user' : /^>( |$)/.test(line) ? 'note' : 'reply';
    const body = (kind === 'user' ? line.replace(/^####\s?/, '') : kind === 'note' ? line.replace(/^>\s?/, '') : line).replace(/ {2}$/, '');
    if (last && last.kind === kind && kind !== 'start') last.lines.push(body);
    else blocks.push({ kind, lines: [body] });
  }
  const b = new Builder();
  let started: number | undefined; // the time of the last `aider chat started`, until its first turn
  blocks.forEach((block, i) => {
    const content = block.lines.join('\n').trim();
    if (block.kind === 'start') started = timeOf(content.slice(AIDER_START.length).trim());
    if (block.kind === 'user') b.input(content);
    if (block.kind !== 'reply') return;
    const next = blocks[i + 1];
    const notes = next?.kind === 'note' ? next.lines.join('\n').trim() : '';
    // The files a reply edits: named above its SEARCH/REPLACE blocks, or in aider's notes.
    const files = [...content.matchAll(/^(\S[^\n]*)\n```[^\n]*\n<<<<<<< SEARCH/gm), ...notes.matchAll(/^Applied edit to (.+)$/gm)].map((m) => (m[1] ?? '').trim());
    const step = b.step();
    step.time = started;
    started = undefined;
    step.text.push(content);
    if (files.length > 0 || /^(Applied edit to|Running |Commit |Failed to apply|The LLM did not conform)/m.test(notes)) {
      const failed = /Failed to apply|did not conform|SearchReplaceNoExactMatch/.test(notes);
      b.call(step, 'apply_reply', { files: [...new Set(files)] }).result = { status: failed ? 'error' : 'success', output: notes };
    }
  });
  return b.finish(name, 'aider', 'aider');
}
