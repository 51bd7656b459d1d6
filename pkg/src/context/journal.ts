// A manager's state as its journal (`devs_context_rules::context::journal`): the events
// that changed it, encoded by the rules, which the engine takes after each call
// (`ManagerCore.take_journal`) and keeps as base64 chunks, in order. Restoring applies them
// again (`ManagerCore.apply_journal`), checked whole by the rules first. No method name is
// stored: the encoding is the rules' own, versioned, and read by every later version.
//
// Format 1 (before the journal) kept the rules' calls by name, `[method, ...args]`. It is
// read here, once, call by call through a fixed table (nothing else is called: `free` is
// refused like any unknown name), and what it makes is journaled as events from then on.
import { argumentError, checked, ruleError } from '../errors/index.js';
import { decodeBase64, encodeBase64 } from '../core/base64.js';
import { rules } from '../core/wasm.js';
import { encodeAnswer } from '../core/protocol.js';

/** The code of a journal's event (or a log's call) the rules did not ask for (`context_events::OUT_OF_PLACE`). */
export const OUT_OF_PLACE = 'ERR_OUT_OF_PLACE';
/** The code of a replayed build that today's rules count short of what its data recorded (`context_events::OTHER_COUNTS`). */
export const OTHER_COUNTS = 'ERR_OTHER_COUNTS';
/** The code of old data whose next build takes something out, by marks its version may have placed elsewhere (`context_events::OTHER_MARKS`). */
export const OTHER_MARKS = 'ERR_OTHER_MARKS';

type Core = InstanceType<typeof rules.ManagerCore>;

/** A build's ledger record, as old data holds it: read for its counts only, whatever else it has. */
type RecordedCounts = { tokens?: unknown; rawTokens?: unknown } | null | undefined;

/**
 * Holds the builds `replay` makes to what data of rules `decisions` recorded of them
 * (`Manager::expect`): `records[i]` is request `from + i + 1`'s. The rules compare: a build
 * that came to another request is out of place, as an answer the rules did not ask for,
 * and so is old data whose next build may not be its version's (`Manager::replayed`).
 * `field` names the data.
 */
export function replayRecorded(core: Core, records: readonly RecordedCounts[], from: number, decisions: number | undefined, field: string, replay: () => void): void {
  const n = records.length;
  const requests = new Float64Array(n);
  const tokens = new Float64Array(n);
  const raw = new Float64Array(n);
  records.forEach((r, i) => {
    requests[i] = from + i + 1;
    tokens[i] = typeof r?.tokens === 'number' ? r.tokens : NaN;
    raw[i] = typeof r?.rawTokens === 'number' ? r.rawTokens : NaN;
  });
  core.expect_records(decisions ?? NaN, requests, tokens, raw);
  try {
    replay();
  } catch (error) {
    // The records are let go; the replay's own error is the one that counts.
    try {
      core.replayed(field);
    } catch {}
    throw error;
  }
  checked(() => core.replayed(field));
}

/** One call of format 1: the method's name, then its arguments as JSON data. */
export type LoggedCall = [string, ...unknown[]];

/** The events applied since the last take, as a base64 chunk; `undefined` when there are none. */
export function takeJournal(core: Core): string | undefined {
  return journalChunk(core.take_journal());
}

/** A journal taken (by `take_journal`, or with an append or a commit), as a base64 chunk; `undefined` when it holds no event. */
export function journalChunk(bytes: Uint8Array): string | undefined {
  // A version byte and a zero count (or nothing, in a build): nothing happened.
  return bytes.length === 0 || (bytes.length <= 2 && bytes[1] === 0) ? undefined : encodeBase64(bytes);
}

/** Applies journal `chunks` (base64) in order; `field` names them in errors. */
export function applyJournal(core: Core, chunks: readonly string[], field: string): void {
  chunks.forEach((chunk, i) => {
    let bytes: Uint8Array;
    try {
      bytes = decodeBase64(chunk);
    } catch {
      throw argumentError(TypeError, `${field}.events[${i}]`, 'is not base64: it was altered');
    }
    core.apply_journal(bytes, `${field}.events[${i}]`);
  });
}

const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => typeof n === 'number');
const num = (v: unknown): v is number => typeof v === 'number';
const idOrNull = (v: unknown): v is string | null | undefined => v === null || v === undefined || typeof v === 'string';
const lineOrNull = (v: unknown): v is number | null | undefined => v === null || v === undefined || typeof v === 'number';

/** The event each of format 1's calls is (`journal::Event`'s tags), as `migrate::misshapen` reads a log; 0 for a call that changes nothing. */
const V1_TAGS: Record<string, number> = {
  append: 1, begin: 2, commit: 3, plan: 4, persisted: 5, span_persisted: 6, group_persisted: 7, spans_merged: 8, measured: 9,
  summarized: 10, summary_failed: 11, no_summarizer: 12, render: 13, set_tail: 14, compact: 15, observe: 16, reset_calibration: 17,
  recalled: 18, history_rebuilt: 19, ledger: 0,
};

/**
 * Old data's events as the rules read them (`rules.migratable`, `rules.heldIds`): the tags
 * of a format 1 log's calls, and the journal chunks' bytes (base64), joined with each one's
 * length.
 */
export function oldEvents(log: readonly LoggedCall[] | undefined, chunks: readonly string[]): { tags: Uint8Array; journals: { joined: Uint8Array; lens: Uint32Array } } {
  const tags = (log ?? []).map((call) => V1_TAGS[call[0]]).filter(Boolean);
  const bytes = chunks.map(orNone);
  const joined = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
  bytes.reduce((at, b) => (joined.set(b, at), at + b.length), 0);
  return { tags: Uint8Array.from(tags), journals: { joined, lens: Uint32Array.from(bytes, (b) => b.length) } };
}

/** The bytes of base64 `text`; none when it is not base64 (refused when applied). */
export function orNone(text: string | undefined): Uint8Array {
  try {
    return text === undefined ? new Uint8Array(0) : decodeBase64(text);
  } catch {
    return new Uint8Array(0);
  }
}

/** Format 1's answer that a text was stored as `a[0]` (null: it failed), its line `a[1]` tokens (null: not counted). */
const stored = (kind: 'Stored' | 'SpanStored' | 'Listed' | 'Merged') => (c: Core, a: unknown[]) =>
  c.advance(encodeAnswer({ kind, id: (a[0] as string | null) ?? undefined, line: (a[1] as number | null) ?? NaN }));

/** Format 1's calls: each name, the shapes of its arguments, and the call it makes. */
const V1: Record<string, { args: Array<(v: unknown) => boolean>; run: (core: Core, a: unknown[]) => unknown }> = {
  append: {
    args: [numbers, numbers, numbers, numbers, numbers, numbers, numbers],
    run: (c, a) => {
      const refused = c.append(Uint8Array.from(a[0] as number[]), Float64Array.from(a[1] as number[]), Uint32Array.from(a[2] as number[]),
        Uint8Array.from(a[3] as number[]), Uint32Array.from(a[4] as number[]), Float64Array.from(a[5] as number[]), Float64Array.from(a[6] as number[]), new Uint32Array(0), false);
      if (refused[0] === 1) throw new TypeError('does not fit the conversation');
    },
  },
  begin: { args: [], run: (c) => c.advance(encodeAnswer({ kind: 'Begin' })) },
  commit: { args: [], run: (c) => c.commit(new Uint32Array(0), false) },
  plan: { args: [], run: (c) => c.advance(encodeAnswer({ kind: 'Plan' })) },
  persisted: { args: [idOrNull, lineOrNull], run: stored('Stored') },
  span_persisted: { args: [idOrNull, lineOrNull], run: stored('SpanStored') },
  group_persisted: { args: [idOrNull, lineOrNull], run: stored('Listed') },
  spans_merged: { args: [idOrNull, lineOrNull], run: stored('Merged') },
  measured: { args: [num], run: (c, a) => c.advance(encodeAnswer({ kind: 'Measured', tokens: a[0] as number })) },
  summarized: { args: [num], run: (c, a) => c.advance(encodeAnswer({ kind: 'Summarized', tokens: a[0] as number })) },
  summary_failed: { args: [], run: (c) => c.advance(encodeAnswer({ kind: 'SummaryFailed' })) },
  no_summarizer: { args: [], run: (c) => c.advance(encodeAnswer({ kind: 'NoSummarizer' })) },
  set_tail: { args: [num], run: (c, a) => c.advance(encodeAnswer({ kind: 'Tail', tokens: a[0] as number })) },
  compact: { args: [], run: (c) => c.advance(encodeAnswer({ kind: 'Compact' })) },
  render: { args: [(v) => typeof v === 'boolean'], run: (c, a) => c.render(a[0] as boolean) },
  // What a build's record said of its time and counter: not the manager's state.
  ledger: { args: [num, (v) => typeof v === 'string'], run: () => undefined },
  observe: { args: [num], run: (c, a) => c.advance(encodeAnswer({ kind: 'Observed', tokens: a[0] as number })) },
  reset_calibration: { args: [], run: (c) => c.advance(encodeAnswer({ kind: 'CalibrationReset' })) },
  recalled: { args: [num, (v) => typeof v === 'string', (v) => v === null || num(v), (v) => v === null || num(v), (v) => typeof v === 'string'],
    run: (c, a) => c.recalled(a[0] as number, a[1] as string, (a[2] as number | null) ?? NaN, (a[3] as number | null) ?? NaN, a[4] as string) },
  history_rebuilt: { args: [], run: (c) => c.advance(encodeAnswer({ kind: 'HistoryRebuilt' })) },
};

/**
 * Replays a format 1 log into a fresh `core`: every call checked against the table first
 * (a name it does not know, or an argument of the wrong type, is a TypeError naming it,
 * before anything is called), then made, which journals it as events.
 */
export function replayV1(core: Core, calls: readonly unknown[], field: string): void {
  const checked = calls.map((call, i) => {
    if (!Array.isArray(call) || typeof call[0] !== 'string') throw argumentError(TypeError, `${field}.log[${i}]`, 'must be [method, ...args]');
    const entry = Object.hasOwn(V1, call[0]) ? V1[call[0]] : undefined;
    if (!entry) throw argumentError(TypeError, `${field}.log[${i}][0]`, `is ${JSON.stringify(call[0])}, not a call a manager makes: the log was altered`);
    const args = call.slice(1);
    if (args.length > entry.args.length) throw argumentError(TypeError, `${field}.log[${i}]`, `has ${args.length} arguments, more than ${call[0]} takes`);
    entry.args.forEach((ok, k) => {
      if (!ok(args[k]) && !(args[k] === undefined && k >= 1 && call[0] === 'persisted')) {
        throw argumentError(TypeError, `${field}.log[${i}][${k + 1}]`, `is not an argument ${call[0]} takes`);
      }
    });
    return { entry, args };
  });
  checked.forEach(({ entry, args }, i) => {
    try {
      entry.run(core, args);
    } catch (thrown) {
      // The rules' own error, read as one: its words, never its frame.
      const error = ruleError(thrown) as { code?: string; message?: string };
      const out = argumentError(TypeError, `${field}.log[${i}]`, `is out of place: ${error.message ?? String(error)}`);
      if (error.code === OUT_OF_PLACE || error.code === OTHER_COUNTS) Object.assign(out, { code: error.code });
      throw out;
    }
  });
}
