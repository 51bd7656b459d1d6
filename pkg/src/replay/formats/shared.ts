// What every reader shares: plain-data helpers, the builder that collects a session's
// steps as its records stream by, the JSON Lines reader, and the check of a chat message.
import type { SaopEnvelope } from '@devs/context';
import { jsonText } from '../json-text.js';
import type { ReplayCall, ReplaySession, ReplayStep, TranscriptFormat } from './session.js';
import { TranscriptFormatError } from './session.js';

export type Bag = Record<string, unknown>;
export type Status = SaopEnvelope['observation']['status'];

export const STATUSES: readonly string[] = ['success', 'error', 'timeout', 'partial'];
/** `action.arguments` may nest this deep (the validator's limit); deeper parts become JSON text. */
const MAX_ARGUMENT_DEPTH = 64;

export function isBag(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? jsonText(value) : String(value);
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * A recorded time as ms since the epoch: a number is ms (Cline's `ts`), a string an ISO 8601
 * date-time, read as UTC when it names no zone (OpenHands writes none); else undefined.
 */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const t = value.trim();
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(t) || !t.includes('T') && !/\d\d:\d\d/.test(t);
  const ms = Date.parse(zoned ? t : `${t.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function baseName(fileName: string | undefined): string | undefined {
  if (!fileName) return undefined;
  const parts = fileName.split(/[\\/]/);
  return parts[parts.length - 1] || undefined;
}

/** The text of a message's content: a string, or blocks (text, images, nested results, however deep). */
export function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return str(content);
  const parts: string[] = [];
  // Blocks still to read, last first: a result's content is read in its place.
  const work: unknown[] = [...content].reverse();
  while (work.length) {
    const b = work.pop();
    if (typeof b === 'string') parts.push(b);
    else if (!isBag(b)) parts.push(str(b));
    else if (typeof b.text === 'string') parts.push(b.text);
    else if (b.type === 'image' || b.type === 'input_image' || b.type === 'image_url') parts.push('[image]');
    else if (b.type === 'document') parts.push('[document]');
    else if (b.type === 'tool_result') {
      if (Array.isArray(b.content) && b.content.length) for (let i = b.content.length - 1; i >= 0; i--) work.push(b.content[i]);
      else parts.push(Array.isArray(b.content) ? '' : str(b.content));
    } else parts.push(jsonText(b));
  }
  return parts.join('\n');
}

/**
 * Tool arguments as `action.arguments`: always a plain object. A JSON object in a string is
 * parsed; any other value is wrapped as `{ input: value }`; parts nested deeper than the
 * validator allows become their JSON text.
 */
function toArguments(value: unknown): Bag {
  if (value === undefined || value === null || value === '') return {};
  if (typeof value === 'string') {
    const t = value.trimStart();
    if (t.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(value);
        if (isBag(parsed)) return clampDepth(parsed, 1);
      } catch {
        // not JSON: wrapped below
      }
    }
    return { input: value };
  }
  if (isBag(value)) return clampDepth(value, 1);
  return clampDepth({ input: value }, 1);
}

/** `value` (an object or array at `depth`) with children deeper than the limit as JSON text. */
function clampDepth<T extends Bag | unknown[]>(value: T, depth: number): T {
  const items = value as Record<string, unknown>;
  for (const key of Object.keys(items)) {
    const child = items[key];
    if (typeof child === 'object' && child !== null) {
      items[key] = depth + 1 > MAX_ARGUMENT_DEPTH ? jsonText(child) : clampDepth(child as Bag, depth + 1);
    }
  }
  return value;
}

// ---------------------------------------------------------------------------------------
// Building sessions

export interface RawCall {
  name: string;
  args: Bag;
  result?: { status: Status; output: string; errorDetail?: string };
  /** SAOP input only: the recorded envelope's own fields. */
  agentId?: string;
  plan?: string;
  uncertainty?: string;
}

export interface RawStep {
  input: string[];
  text: string[];
  calls: RawCall[];
  tokens?: number;
  cache?: ReplayStep['reportedCache'];
  compaction?: { summary?: string; preTokens?: number };
  /** ms since the epoch: set by the reader once, from the turn's first record with a time. */
  time?: number;
}

/** Collects the steps of one session as its records stream by. */
export class Builder {
  readonly steps: RawStep[] = [];
  readonly warnings: string[] = [];
  private inputs: string[] = [];
  private pendingCompaction: { summary?: string; preTokens?: number } | undefined;
  private unmatched = 0;

  /** A user message (or any model input) before the next model turn. */
  input(text: string): void {
    if (text.trim() !== '') this.inputs.push(text);
  }

  /** The recorded agent compacted its context: marks the next step. */
  compact(summary?: string, preTokens?: number): void {
    const c = (this.pendingCompaction ??= {});
    if (summary !== undefined && summary.trim() !== '') c.summary = summary;
    if (preTokens !== undefined) c.preTokens = preTokens;
  }

  /** Opens the next model turn; it takes the pending inputs and compaction. */
  step(): RawStep {
    const step: RawStep = { input: this.inputs, text: [], calls: [] };
    this.inputs = [];
    if (this.pendingCompaction) step.compaction = this.pendingCompaction;
    this.pendingCompaction = undefined;
    this.steps.push(step);
    return step;
  }

  call(step: RawStep, name: unknown, args: unknown): RawCall {
    const call: RawCall = { name: str(name) || 'unknown_tool', args: toArguments(args) };
    step.calls.push(call);
    return call;
  }

  /** A tool result that matched no call: counted, reported once. */
  orphan(): void {
    this.unmatched += 1;
  }

  get last(): RawStep | undefined {
    return this.steps[this.steps.length - 1];
  }

  finish(name: string, format: TranscriptFormat, agentId: string): ReplaySession {
    if (this.inputs.length > 0 || this.pendingCompaction) {
      const what = this.pendingCompaction ? 'a compaction' : 'a user message';
      this.step();
      this.warnings.push(`the transcript ends with ${what} and no model turn after it: kept as a last step with empty text`);
    }
    if (this.unmatched > 0) {
      this.warnings.push(`${this.unmatched} tool result${this.unmatched === 1 ? '' : 's'} matched no recorded call and ${this.unmatched === 1 ? 'was' : 'were'} dropped`);
    }
    const steps = this.steps.map((s, i): ReplayStep => {
      const text = s.text.map((t) => t.trim()).filter((t) => t !== '').join('\n\n');
      const step: ReplayStep = { text, calls: s.calls.map((c, k) => replayCall(c, k === 0 ? text : '', i + 1, agentId)) };
      if (s.input.length > 0) step.input = s.input.join('\n\n');
      if (s.tokens !== undefined) step.reportedInputTokens = s.tokens;
      if (s.cache !== undefined) step.reportedCache = s.cache;
      if (s.compaction) step.compaction = s.compaction;
      if (s.time !== undefined) step.time = s.time;
      return step;
    });
    return { name, format, steps, warnings: this.warnings, unmatchedResults: this.unmatched };
  }
}

function replayCall(c: RawCall, reasoning: string, turnIndex: number, agentId: string): ReplayCall {
  const thought: SaopEnvelope['thought'] = { reasoning, plan: c.plan ?? '' };
  if (c.uncertainty !== undefined) thought.uncertainty = c.uncertainty;
  const observation: SaopEnvelope['observation'] = c.result
    ? { status: c.result.status, output: c.result.output }
    : { status: 'partial', output: '' };
  if (c.result?.errorDetail !== undefined) observation.error_detail = c.result.errorDetail;
  const envelope: SaopEnvelope = {
    schema_version: '1.0.0',
    turn_index: turnIndex,
    agent_id: c.agentId || agentId,
    phase: 'replay',
    thought,
    action: { tool_name: c.name, arguments: c.args },
    observation,
  };
  return c.result ? { envelope } : { envelope, unanswered: true };
}

// ---------------------------------------------------------------------------------------
// Reading the text: JSON documents and JSON Lines

/**
 * Calls `each` with every line's JSON value and its 1-based number. Blank lines are
 * skipped; a line that is not JSON is skipped with a warning (the last one as truncated).
 */
export function forEachJsonLine(text: string, warnings: string[], each: (value: unknown, line: number) => void): void {
  const n = text.length;
  const nonSpace = /\S/g;
  let pos = 0;
  let line = 0;
  while (pos < n) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    line += 1;
    const start = pos;
    pos = end + 1;
    nonSpace.lastIndex = start;
    const first = nonSpace.exec(text);
    if (!first || first.index >= end) continue; // blank line
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end));
    } catch (error) {
      nonSpace.lastIndex = Math.min(pos, n);
      const more = pos < n && nonSpace.exec(text) !== null;
      const why = (error as Error).message;
      if (!more) {
        warnings.push(`line ${line}: the last line is not complete JSON (truncated?) and was skipped: ${why}`);
        return;
      }
      warnings.push(`line ${line}: not JSON, skipped: ${why}`);
      continue;
    }
    each(value, line);
  }
}

export function describe(v: unknown): string {
  if (Array.isArray(v)) return `a JSON array of ${v.length}`;
  if (isBag(v)) {
    const keys = Object.keys(v);
    const shown = keys.slice(0, 8).join(', ') + (keys.length > 8 ? ', …' : '');
    return keys.length ? `a JSON object (keys: ${shown})` : 'an empty JSON object';
  }
  return v === null ? 'JSON null' : `a JSON ${typeof v}`;
}

/** A message in one of `roles`, with text or blocks as content; else the error names its index and field. */
export function checkMessage(m: unknown, i: number, roles: readonly string[], shape: string): asserts m is Bag {
  if (!isBag(m)) throw new TranscriptFormatError(`messages[${i}] is ${describe(m)}, not a message of ${shape}`);
  if (typeof m.role !== 'string' || !roles.includes(m.role)) {
    const role = typeof m.role === 'string' ? JSON.stringify(m.role.slice(0, 40)) : describe(m.role);
    throw new TranscriptFormatError(`messages[${i}].role is ${role}, not a role of ${shape} (${roles.join(', ')})`);
  }
  const c = m.content;
  if (c !== undefined && c !== null && typeof c !== 'string' && !Array.isArray(c)) {
    throw new TranscriptFormatError(`messages[${i}].content is ${describe(c)}, not text or an array of blocks`);
  }
}
