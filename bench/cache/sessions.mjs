// The real sessions under pkg/test/fixtures/sessions/, read by the package's own parser,
// and the system prompt every strategy sends with them.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTranscript } from '../../pkg/dist/replay.mjs';
import { toAnthropic } from './messages.mjs';

const DIR = fileURLToPath(new URL('../../pkg/test/fixtures/sessions/', import.meta.url));

// A coding agent's system prompt of about 1,000 tokens, the same for every strategy, so the
// cache share counts the part of a request that never changes as agents send it.
export const SYSTEM = [
  'You are a coding agent working in a git repository through the tools you are given.',
  ...Array.from({ length: 24 }, (_, i) => `Rule ${i + 1}: work in small verified steps; read a file before you edit it, run the relevant tests after each change, and say in one short paragraph what you changed and why.`),
].join('\n');

/**
 * `[{ name, messages, ends }]`: each session as Anthropic messages and its requests' ends.
 * `repeat` > 1 adds the Claude Code session that many times over, for a history long
 * enough to pass the larger budget (no recorded one is).
 */
export function loadSessions({ repeat = 1 } = {}) {
  const files = readdirSync(DIR).filter((f) => /\.(jsonl|traj|json)$/.test(f)).sort();
  const sessions = files.flatMap((f) => parseTranscript(readFileSync(DIR + f, 'utf8'), f));
  if (repeat > 1) {
    const claude = sessions.find((s) => s.format === 'claude-code');
    sessions.push({ ...claude, name: `${claude.name} ×${repeat}`, steps: Array.from({ length: repeat }, () => claude.steps).flat() });
  }
  return sessions.map((s) => ({ name: s.name, ...toAnthropic(s) }));
}
