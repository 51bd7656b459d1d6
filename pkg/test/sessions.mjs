// The real agent sessions (./fixtures/sessions/, copies with their licence), read by the
// package's own transcript reader (`parseTranscript` of `@devs/context/replay`, built), as
// the tests and the benchmarks (bench/) replay them.
//
//   loadSession(path) → [{ name, format, steps: [{ text, envelope?, input? }] }]
//
// A step here is one scripted LLM answer, `{ text, envelope }`, for `runTurn(input)`: the
// reader's model turn with several parallel calls becomes one answer per call (the turn's
// text and input on the first), a turn with no call one answer with its text alone.
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTranscript } from '@devs/context/replay';

/** The folder of the real sessions, with their README and licence. */
export const SESSIONS = fileURLToPath(new URL('./fixtures/sessions/', import.meta.url));

/**
 * The four sessions the tests and benchmarks were written against: their counts, timings and
 * published figures are of these. Every test and benchmark that iterates the sessions
 * iterates these (`originalSessionFiles()`), so that adding sessions to the folder changes
 * neither what they check nor how long they take.
 */
export const ORIGINAL_SESSIONS = Object.freeze([
  'claude-code-session.jsonl',
  'mini-swe-agent-django-11138.traj.json',
  'openhands-multi-swe-bench-output.jsonl',
  'swe-agent-marshmallow-1867.traj',
]);

/** Paths of every session file in the folder (not its README or licence), sorted. */
export function sessionFiles() {
  return readdirSync(SESSIONS).filter((f) => /\.(jsonl|json|traj)$|\.chat\.history\.md$/.test(f)).sort().map((f) => join(SESSIONS, f));
}

/** Paths of the four original session files (`ORIGINAL_SESSIONS`). */
export function originalSessionFiles() {
  return ORIGINAL_SESSIONS.map((f) => join(SESSIONS, f));
}

/** The sessions of the file at `path`, as the package reads them (`ReplaySession`s). */
export function readSessions(path) {
  return parseTranscript(readFileSync(path, 'utf8'), basename(path));
}

/** The sessions of the file at `path`, each step one scripted LLM answer (see above). */
export function loadSession(path) {
  const renumber = (a, i) => (a.envelope ? { ...a, envelope: { ...a.envelope, turn_index: i + 1 } } : a);
  return readSessions(path).map((s) => ({ name: s.name, format: s.format, steps: s.steps.flatMap(answers).map(renumber) }));
}

/** One reader's model turn as scripted answers (their `turn_index` set by `loadSession`). */
function answers(step) {
  const first = (text) => (step.input === undefined ? { text } : { text, input: step.input });
  if (step.calls.length === 0) return [first(step.text)];
  return step.calls.map((call, k) => ({ ...(k === 0 ? first(step.text) : { text: '' }), envelope: call.envelope }));
}
