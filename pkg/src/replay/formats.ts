// Transcripts of real agent sessions, read into replayable steps: the input side of
// `devs-context replay <file>`. Pure: text in, plain data out, no I/O.
//
//   detectFormat(text, fileName?)     → the format, from the content
//   parseTranscript(text, fileName?)  → [{ name, format, steps, warnings }]
//
// A step is one model turn: the user's message before it (`input`), what the model wrote
// (`text`), and its tool calls, each with its result as one SAOP envelope. Parallel calls
// of one model message are one step with several calls. A call with no recorded result
// (interrupted, or the final submit) is kept, marked `unanswered`, with status 'partial'
// and output ''. Where the file holds them: the provider's reported input tokens of each
// model call, and the compactions the recorded agent made (on the step after them).
//
// Formats (see TRANSCRIPT_FORMATS):
//   - claude-code: Claude Code session JSONL. One API message may span several lines that
//     share `message.id`; `tool_use` / `tool_result` blocks; sidechains (subagents) are
//     skipped; a `compact_boundary` system record and the `isCompactSummary` user message
//     mark a compaction; `message.usage` gives the input tokens (input + cache read +
//     cache creation).
//   - codex: Codex CLI rollout JSONL (`session_meta`, `response_item`, `event_msg`,
//     `compacted`, `turn_context` lines; also the older form without `payload`). Calls and
//     outputs are matched by `call_id`; `event_msg` `token_count` gives the input tokens.
//   - cline: Cline's `api_conversation_history.json`: Anthropic messages whose tool uses
//     are XML-like tags in assistant text and whose results are text blocks headed
//     `[tool for 'x'] Result:` (or `<function_results>`), or native tool_use blocks;
//     `summarize_task` / `condense` mark a compaction; `metrics.tokens.prompt` the tokens.
//   - openhands: OpenHands event streams: the evaluation `output.jsonl` (one instance with
//     its `history` per line, one session each), a JSON array of events, or `{ history }`.
//     Actions of one model response (same `model_response.id`) are one step; observations
//     are matched by `cause`; a `condensation` action marks a compaction.
//   - swe-agent: SWE-agent `.traj` (`history` of OpenAI-style messages; or `trajectory`).
//   - mini-swe-agent: mini-SWE-agent `.traj.json` (`messages`; the action is the one fenced
//     bash block of each assistant message, its result the next user message).
//   - openai-messages: an OpenAI Chat Completions `messages` array, bare or `{ messages }`.
//   - anthropic-messages: an Anthropic Messages array, bare or `{ messages }`.
//   - saop-jsonl: SAOP envelopes, one per line (a JSON array of them is read too).
//
// Linear in the file's size: each line or document is parsed once (a JSONL file's first
// line up to three times, to detect the format), and JSONL records are dropped as soon as
// they are read. A JSONL line that is not JSON is skipped with a warning in the session's
// `warnings` (a truncated last line, typically); everything around it is kept.
import type { SaopEnvelope } from '@devs/context';
import { jsonText } from './json-text.js';

/** The transcript formats `parseTranscript` reads: agent session logs, chat message arrays, SAOP JSONL. */
export type TranscriptFormat =
  | 'claude-code'
  | 'codex'
  | 'cline'
  | 'openhands'
  | 'swe-agent'
  | 'mini-swe-agent'
  | 'openai-messages'
  | 'anthropic-messages'
  | 'saop-jsonl';

/** Every format `parseTranscript` reads, in the order the errors name them. */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = Object.freeze([
  'claude-code',
  'codex',
  'cline',
  'openhands',
  'swe-agent',
  'mini-swe-agent',
  'openai-messages',
  'anthropic-messages',
  'saop-jsonl',
]);

/** One recorded tool call with its result. */
export interface ReplayCall {
  /** The call and its result, as a SAOP envelope. */
  envelope: SaopEnvelope;
  /** No result was recorded (interrupted, or the final submit): status 'partial', output ''. */
  unanswered?: boolean;
}

/** One recorded model turn. */
export interface ReplayStep {
  /** The user's message before this model turn, if any (passed to runTurn(input)). */
  input?: string;
  /** What the model wrote this turn (reasoning/thinking/message text). */
  text: string;
  /** Tool calls of this model turn, each with its result: several for parallel calls in one message (they do NOT invent extra model turns). */
  calls: ReplayCall[];
  /**
   * The provider's reported input tokens for this model call, when the file has them
   * (Claude Code `message.usage` input + cache read/creation tokens; Codex `token_count`
   * events; Cline `metrics.tokens.prompt`; OpenHands and mini-SWE-agent `usage.prompt_tokens`).
   */
  reportedInputTokens?: number;
  /**
   * What the recorded agent's provider read from its prompt cache and wrote to it for this
   * call, where the file says (Claude Code `cache_read_input_tokens` and
   * `cache_creation_input_tokens`; Codex `cached_input_tokens`), and whose prices apply: a
   * write costs 1.25× on Anthropic, nothing extra on OpenAI.
   */
  reportedCache?: { read: number; write: number; pricing: 'anthropic' | 'openai' };
  /**
   * The recorded agent compacted its context before this step (Claude Code
   * `isCompactSummary` / compact boundary; Codex `compacted` / `context_compacted`; Cline
   * `summarize_task` / `condense`; OpenHands `condensation`), with its summary text if
   * known and the context's size before it (`preTokens`: Claude Code's own figure, Codex's
   * last `token_count` total).
   */
  compaction?: { summary?: string; preTokens?: number };
}

/** One recorded session, ready to `replay`. */
export interface ReplaySession {
  /** The file's base name (else the format), `#instance_id` for each OpenHands instance. */
  name: string;
  /** The format it was read from. */
  format: TranscriptFormat;
  /** Its model turns, in order. */
  steps: ReplayStep[];
  /** What was skipped while reading, e.g. a truncated last line. */
  warnings: string[];
  /** Tool results that matched no recorded call, and so are not in `steps`. */
  unmatchedResults: number;
}

/**
 * The text is none of the formats: `tried` lists them, `line` (1-based) is the first line
 * that failed, when the failure is a line's.
 * @example
 * import { parseTranscript, TranscriptFormatError } from '@devs/context/replay';
 *
 * try {
 *   parseTranscript('not a transcript', 'notes.txt');
 * } catch (error) {
 *   if (error instanceof TranscriptFormatError) console.log(error.code, error.tried.length); // ERR_TRANSCRIPT_FORMAT 9
 * }
 */
export class TranscriptFormatError extends Error {
  /** By the brand (`errors.ts` of the package): an error of either copy (CommonJS, ES module) is an instance. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[Symbol.for('@devs/context/error-class')] === 'TranscriptFormatError';
  }

  /** Always `ERR_TRANSCRIPT_FORMAT`. */
  readonly code: 'ERR_TRANSCRIPT_FORMAT' = 'ERR_TRANSCRIPT_FORMAT';
  /** Every format tried (`TRANSCRIPT_FORMATS`). */
  readonly tried: TranscriptFormat[];
  /** The 1-based line that failed, when the failure is a line's. */
  declare readonly line?: number;

  /** `detail` says what failed; `line` is the line it failed on, if any. */
  constructor(detail: string, line?: number) {
    super(`not a known transcript format (tried ${TRANSCRIPT_FORMATS.join(', ')}): ${detail}`);
    this.name = 'TranscriptFormatError';
    Object.defineProperty(this, Symbol.for('@devs/context/error-class'), { value: 'TranscriptFormatError' });
    this.tried = [...TRANSCRIPT_FORMATS];
    if (line !== undefined) this.line = line;
  }
}

/**
 * The format of `text`, from its content; `fileName` only breaks ties (a plain chat with
 * no tool calls could be any of the message formats).
 * @throws {TranscriptFormatError} when it is none of them.
 */
export function detectFormat(text: string, fileName?: string): TranscriptFormat {
  return sniff(text, fileName).format;
}

/**
 * The sessions of a transcript file's text (one, except an OpenHands `output.jsonl`: one
 * per line). A truncated last line of a JSONL file is skipped with a warning.
 * @throws {TranscriptFormatError} when the text is none of the formats.
 */
export function parseTranscript(text: string, fileName?: string): ReplaySession[] {
  const sniffed = sniff(text, fileName);
  const name = baseName(fileName) ?? sniffed.format;
  const body = stripBom(text);
  switch (sniffed.format) {
    case 'claude-code':
      return [claudeCode(body, name)];
    case 'codex':
      return [codex(body, name)];
    case 'saop-jsonl':
      return [saop(sniffed.doc, body, name)];
    case 'openhands':
      return openHands(sniffed.doc, body, name);
    case 'swe-agent':
      return [sweAgent(sniffed.doc as Bag, name)];
    case 'mini-swe-agent':
      return [miniSweAgent(sniffed.doc as Bag, name)];
    case 'cline':
    case 'anthropic-messages':
      return [anthropic(messagesOf(sniffed.doc), name, sniffed.format)];
    case 'openai-messages':
      return [openAi(messagesOf(sniffed.doc), name, 'openai-messages')];
  }
}

// ---------------------------------------------------------------------------------------
// Plain-data helpers

type Bag = Record<string, unknown>;
type Status = SaopEnvelope['observation']['status'];

const STATUSES: readonly string[] = ['success', 'error', 'timeout', 'partial'];
/** `action.arguments` may nest this deep (the validator's limit); deeper parts become JSON text. */
const MAX_ARGUMENT_DEPTH = 64;

function isBag(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? jsonText(value) : String(value);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function baseName(fileName: string | undefined): string | undefined {
  if (!fileName) return undefined;
  const parts = fileName.split(/[\\/]/);
  return parts[parts.length - 1] || undefined;
}

/** The text of a message's content: a string, or blocks (text, images, nested results, however deep). */
function blockText(content: unknown): string {
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

interface RawCall {
  name: string;
  args: Bag;
  result?: { status: Status; output: string; errorDetail?: string };
  /** SAOP input only: the recorded envelope's own fields. */
  agentId?: string;
  plan?: string;
  uncertainty?: string;
}

interface RawStep {
  input: string[];
  text: string[];
  calls: RawCall[];
  tokens?: number;
  cache?: ReplayStep['reportedCache'];
  compaction?: { summary?: string; preTokens?: number };
}

/** Collects the steps of one session as its records stream by. */
class Builder {
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
function forEachJsonLine(text: string, warnings: string[], each: (value: unknown, line: number) => void): void {
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

/** The first non-blank line: its number and text. */
function firstLine(text: string): { line: number; text: string } | undefined {
  let pos = 0;
  let line = 0;
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    line += 1;
    const t = text.slice(pos, end);
    if (t.trim() !== '') return { line, text: t };
    pos = end + 1;
  }
  return undefined;
}

interface Sniffed {
  format: TranscriptFormat;
  /** The parsed document, for the formats that are one JSON document. */
  doc?: unknown;
}

const CODEX_LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const CODEX_ITEM_TYPES = new Set([
  'message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call',
  'custom_tool_call_output', 'local_shell_call', 'web_search_call',
]);
const CLAUDE_LINE_TYPES = new Set([
  'user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'progress', 'queue-operation', 'result',
]);

function isSaopEnvelope(v: unknown): boolean {
  return isBag(v) && typeof v.schema_version === 'string' && isBag(v.action) && isBag(v.observation) && isBag(v.thought);
}

function isOpenHandsEvent(v: unknown): boolean {
  return isBag(v) && (typeof v.action === 'string' || typeof v.observation === 'string') && ('id' in v || 'source' in v || 'cause' in v);
}

function isOpenHandsInstance(v: unknown): boolean {
  return isBag(v) && Array.isArray(v.history) && v.history.some(isOpenHandsEvent);
}

/** The format of one JSONL record, if it is one of a JSONL format's. */
function classifyRecord(r: unknown): TranscriptFormat | undefined {
  if (!isBag(r)) return undefined;
  if (isSaopEnvelope(r)) return 'saop-jsonl';
  if (typeof r.type === 'string' && CODEX_LINE_TYPES.has(r.type) && 'payload' in r) return 'codex';
  if (r.record_type === 'state') return 'codex'; // the older rollout form
  if (typeof r.type === 'string' && CODEX_ITEM_TYPES.has(r.type) && !('message' in r) && !('uuid' in r)) return 'codex';
  if (typeof r.type === 'string' && CLAUDE_LINE_TYPES.has(r.type)
    && ('uuid' in r || 'sessionId' in r || 'leafUuid' in r || 'messageId' in r || isBag(r.message))) return 'claude-code';
  if (isOpenHandsInstance(r) || isOpenHandsEvent(r)) return 'openhands';
  return undefined;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return `a JSON array of ${v.length}`;
  if (isBag(v)) {
    const keys = Object.keys(v);
    const shown = keys.slice(0, 8).join(', ') + (keys.length > 8 ? ', …' : '');
    return keys.length ? `a JSON object (keys: ${shown})` : 'an empty JSON object';
  }
  return v === null ? 'JSON null' : `a JSON ${typeof v}`;
}

function sniff(raw: string, fileName?: string): Sniffed {
  const text = stripBom(raw);
  const head = firstLine(text);
  if (!head) throw new TranscriptFormatError('the file is empty');
  const lead = head.text.trimStart()[0];
  let docError: string | undefined;
  if (lead === '[' || lead === '{') {
    try {
      const doc: unknown = JSON.parse(text);
      const format = classifyDocument(doc, fileName);
      if (format) return { format, doc };
      const record = classifyRecord(doc);
      if (record) return { format: record, doc: record === 'saop-jsonl' ? undefined : doc };
      throw new TranscriptFormatError(`the file is ${describe(doc)} that no format matches`, Array.isArray(doc) ? undefined : head.line);
    } catch (error) {
      if (error instanceof TranscriptFormatError) throw error;
      docError = (error as Error).message; // JSONL, or a broken document
    }
  }
  // JSON Lines: the first records that a format claims decide.
  let first: unknown;
  try {
    first = JSON.parse(head.text);
  } catch (error) {
    const doc = docError && head.text.trim().length <= 1 ? `the file is not a complete JSON document (${docError}) and ` : '';
    throw new TranscriptFormatError(`${doc}line ${head.line} is not JSON: ${(error as Error).message}`, head.line);
  }
  const format = classifyRecord(first) ?? lookAhead(text, head.line);
  if (format) return { format };
  throw new TranscriptFormatError(`line ${head.line} is ${describe(first)} that no format matches`, head.line);
}

/** The format of the first of the next few records a format claims (a file may open with a header). */
function lookAhead(text: string, skipThrough: number): TranscriptFormat | undefined {
  let pos = 0;
  let line = 0;
  let seen = 0;
  while (pos < text.length && seen < 8) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    line += 1;
    const t = text.slice(pos, end);
    pos = end + 1;
    if (line <= skipThrough || t.trim() === '') continue;
    seen += 1;
    try {
      const format = classifyRecord(JSON.parse(t));
      if (format) return format;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function classifyDocument(doc: unknown, fileName?: string): TranscriptFormat | undefined {
  const file = (fileName ?? '').toLowerCase();
  if (Array.isArray(doc)) {
    const firstObject = doc.find(isBag);
    if (firstObject === undefined) return undefined;
    if (doc.some(isOpenHandsEvent)) return 'openhands';
    if (isSaopEnvelope(firstObject)) return 'saop-jsonl';
    if (doc.some((m) => isBag(m) && typeof m.role === 'string')) return classifyMessages(doc, file);
    return undefined;
  }
  if (!isBag(doc)) return undefined;
  if (isOpenHandsInstance(doc)) return 'openhands';
  if ((typeof doc.trajectory_format === 'string' && doc.trajectory_format.startsWith('mini-swe-agent'))
    || (isBag(doc.info) && 'mini_version' in doc.info)) return 'mini-swe-agent';
  if (Array.isArray(doc.history) && doc.history.some((m) => isBag(m) && typeof m.role === 'string')) return 'swe-agent';
  if (Array.isArray(doc.trajectory) && doc.trajectory.some((t) => isBag(t) && 'action' in t && 'observation' in t)) return 'swe-agent';
  if (Array.isArray(doc.messages) && doc.messages.some((m) => isBag(m) && typeof m.role === 'string')) {
    if (looksMini(doc.messages) || (file.endsWith('.traj.json') && !hasOpenAiTools(doc.messages))) return 'mini-swe-agent';
    return classifyMessages(doc.messages, file);
  }
  return undefined;
}

function hasOpenAiTools(messages: unknown[]): boolean {
  return messages.some((m) => isBag(m) && (Array.isArray(m.tool_calls) || m.role === 'tool' || m.role === 'function' || isBag(m.function_call)));
}

/** mini-SWE-agent: fenced bash blocks in assistant text answered by `<returncode>` messages. */
function looksMini(messages: unknown[]): boolean {
  let bash = false;
  let code = false;
  for (const m of messages.slice(0, 12)) {
    if (!isBag(m) || typeof m.content !== 'string') continue;
    if (m.role === 'assistant' && m.content.includes('```bash')) bash = true;
    if (m.role === 'user' && m.content.includes('<returncode>')) code = true;
  }
  return bash && code && !hasOpenAiTools(messages);
}

/** Cline, Anthropic or OpenAI messages. */
function classifyMessages(messages: unknown[], file: string): TranscriptFormat {
  let anthropicBlocks = false;
  let typedContent = false;
  let cline = false;
  let seen = 0;
  for (const m of messages) {
    if (!isBag(m)) continue;
    if (Array.isArray(m.tool_calls) || m.role === 'tool' || m.role === 'function' || isBag(m.function_call)) return 'openai-messages';
    if (typeof m.tool_call_id === 'string') return 'openai-messages';
    const content = m.content;
    if (Array.isArray(content)) {
      typedContent = true;
      for (const b of content) {
        if (!isBag(b)) continue;
        if (b.type === 'tool_use' || b.type === 'tool_result') anthropicBlocks = true;
        else if (b.type === 'image_url' || b.type === 'input_audio') return 'openai-messages';
      }
    }
    if (seen < 12 && !cline) {
      seen += 1;
      cline = looksCline(m.role, content);
    }
  }
  if (cline) return 'cline';
  if (anthropicBlocks) return 'anthropic-messages';
  if (file.includes('api_conversation_history')) return 'cline';
  if (messages.some((m) => isBag(m) && m.role === 'system')) return 'openai-messages';
  return typedContent ? 'anthropic-messages' : 'openai-messages';
}

function looksCline(role: unknown, content: unknown): boolean {
  const texts: string[] = typeof content === 'string' ? [content]
    : Array.isArray(content) ? content.filter((b) => isBag(b) && b.type === 'text' && typeof b.text === 'string').map((b) => (b as Bag).text as string)
      : [];
  for (const t of texts) {
    if (role === 'user') {
      if (t.startsWith('<task>') || t.includes('<environment_details>') || clineHeader(t) !== undefined) return true;
    } else if (role === 'assistant' && parseClineText(t).tools.length > 0) {
      return true;
    }
  }
  return false;
}

function messagesOf(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  if (isBag(doc) && Array.isArray(doc.messages)) return doc.messages;
  return [];
}

// ---------------------------------------------------------------------------------------
// Claude Code

function claudeUsage(usage: unknown): number | undefined {
  if (!isBag(usage)) return undefined;
  const input = num(usage.input_tokens);
  if (input === undefined) return undefined;
  return input + (num(usage.cache_read_input_tokens) ?? 0) + (num(usage.cache_creation_input_tokens) ?? 0);
}

/** What an Anthropic usage says the cache did. */
function claudeCache(usage: unknown): RawStep['cache'] {
  if (!isBag(usage) || num(usage.input_tokens) === undefined) return undefined;
  return { read: num(usage.cache_read_input_tokens) ?? 0, write: num(usage.cache_creation_input_tokens) ?? 0, pricing: 'anthropic' };
}

function claudeCode(text: string, name: string): ReplaySession {
  const b = new Builder();
  const byMessage = new Map<string, RawStep>();
  const byTool = new Map<string, RawCall>();
  forEachJsonLine(text, b.warnings, (r) => {
    if (!isBag(r) || r.isSidechain === true) return;
    if (r.type === 'system') {
      if (r.subtype === 'compact_boundary' || r.subtype === 'microcompact_boundary') {
        const meta = isBag(r.compactMetadata) ? r.compactMetadata : isBag(r.microcompactMetadata) ? r.microcompactMetadata : {};
        b.compact(undefined, num(meta.preTokens));
      }
      return;
    }
    if ((r.type !== 'user' && r.type !== 'assistant') || !isBag(r.message)) return;
    const m = r.message;
    const content = m.content;
    if (r.type === 'assistant') {
      if (m.model === '<synthetic>') return; // written by the CLI, not a model call
      const id = typeof m.id === 'string' ? m.id : undefined;
      let step = id === undefined ? undefined : byMessage.get(id);
      if (!step) {
        step = b.step();
        if (id !== undefined) byMessage.set(id, step);
        step.tokens = claudeUsage(m.usage);
        step.cache = claudeCache(m.usage);
      }
      for (const block of Array.isArray(content) ? content : [{ type: 'text', text: str(content) }]) {
        if (!isBag(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string' && block.text) step.text.push(block.text);
        else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) step.text.push(block.thinking);
        else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          const toolId = str(block.id);
          if (toolId && byTool.has(toolId)) continue; // the same block logged twice
          const call = b.call(step, block.name, block.input);
          if (toolId) byTool.set(toolId, call);
        } else if (typeof block.type === 'string' && block.type.endsWith('_tool_result') && typeof block.tool_use_id === 'string') {
          const call = byTool.get(block.tool_use_id); // a server tool's result, in the model's own message
          if (call) call.result = { status: 'success', output: blockText(block.content) };
        }
      }
      return;
    }
    if (r.isCompactSummary === true) {
      b.compact(blockText(content));
      return;
    }
    if (typeof content === 'string') {
      b.input(content);
      return;
    }
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isBag(block)) continue;
      if (block.type === 'tool_result') {
        const call = byTool.get(str(block.tool_use_id));
        if (call) call.result = { status: block.is_error === true ? 'error' : 'success', output: blockText(block.content) };
        else b.orphan();
      } else if (block.type === 'text' && typeof block.text === 'string') {
        b.input(block.text);
      } else if (block.type === 'image' || block.type === 'document') {
        b.input(`[${block.type}]`);
      }
    }
  });
  return b.finish(name, 'claude-code', 'claude-code');
}

// ---------------------------------------------------------------------------------------
// Codex CLI rollout

/** The exit code a Codex shell output reports, if any. */
function codexExitCode(output: string): number | undefined {
  const head = output.slice(0, 400);
  if (head.startsWith('{') && head.includes('"exit_code"')) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isBag(parsed) && isBag(parsed.metadata) && typeof parsed.metadata.exit_code === 'number') return parsed.metadata.exit_code;
    } catch {
      // not the JSON form
    }
  }
  const m = /^Exit code: (-?\d+)/m.exec(head) ?? /Process exited with code (-?\d+)/.exec(head);
  return m ? Number(m[1]) : undefined;
}

function codexResult(out: unknown): { status: Status; output: string } {
  let status: Status = 'success';
  let output: string;
  if (typeof out === 'string') output = out;
  else if (Array.isArray(out)) output = blockText(out);
  else if (isBag(out)) {
    output = typeof out.content === 'string' ? out.content : Array.isArray(out.content_items) ? blockText(out.content_items) : str(out.output ?? out);
    if (out.success === false) status = 'error';
  } else output = str(out);
  const code = codexExitCode(output);
  if (code !== undefined && code !== 0) status = 'error';
  return { status, output };
}

function codex(text: string, name: string): ReplaySession {
  const b = new Builder();
  const byCall = new Map<string, RawCall>();
  let open: RawStep | undefined; // the model turn whose output items are arriving
  let contextTokens: number | undefined; // the last reported size of the context
  const turn = () => (open ??= b.step());

  const item = (p: Bag) => {
    switch (p.type) {
      case 'message': {
        const t = blockText(p.content);
        if (p.role === 'assistant') {
          if (t) turn().text.push(t);
        } else if (p.role === 'user') {
          b.input(t);
          open = undefined;
        }
        return;
      }
      case 'reasoning': {
        const parts = [blockText(p.summary), Array.isArray(p.content) ? blockText(p.content) : ''].filter((s) => s.trim() !== '');
        const step = turn();
        if (parts.length) step.text.push(parts.join('\n\n'));
        return;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call':
      case 'web_search_call': {
        const args = p.type === 'function_call' ? p.arguments : p.type === 'custom_tool_call' ? { input: str(p.input) } : p.action;
        const toolName = p.type === 'local_shell_call' ? 'local_shell' : p.type === 'web_search_call' ? 'web_search' : p.name;
        const call = b.call(turn(), toolName, args);
        const id = str(p.call_id ?? p.id);
        if (id) byCall.set(id, call);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const call = byCall.get(str(p.call_id));
        if (call) call.result = codexResult(p.output);
        else b.orphan();
        open = undefined;
        return;
      }
      case 'compaction':
      case 'compaction_summary':
      case 'context_compaction':
        b.compact(undefined, contextTokens);
        open = undefined;
        return;
      default:
        return; // ghost snapshots and anything newer
    }
  };

  forEachJsonLine(text, b.warnings, (r) => {
    if (!isBag(r)) return;
    const p = isBag(r.payload) ? r.payload : undefined;
    if (r.type === 'response_item' && p) item(p);
    else if (r.type === 'compacted' && p) {
      b.compact(typeof p.message === 'string' ? p.message : undefined, contextTokens);
      open = undefined;
    } else if (r.type === 'event_msg' && p) {
      if (p.type === 'token_count') {
        const info = isBag(p.info) ? p.info : undefined;
        const last = info && isBag(info.last_token_usage) ? info.last_token_usage : num(p.input_tokens) !== undefined ? p : undefined;
        const input = last ? num(last.input_tokens) : undefined;
        if (last && input !== undefined) {
          const target = open ?? b.last;
          if (target && target.tokens === undefined) {
            target.tokens = input;
            target.cache = { read: num(last.cached_input_tokens) ?? 0, write: 0, pricing: 'openai' };
          }
          contextTokens = num(last.total_tokens) ?? input + (num(last.output_tokens) ?? 0);
          open = undefined; // the response is complete
        }
      } else if (p.type === 'context_compacted') {
        b.compact(undefined, contextTokens);
        open = undefined;
      }
    } else if (p === undefined && typeof r.type === 'string' && CODEX_ITEM_TYPES.has(r.type)) {
      item(r); // the older form: items without the { type, payload } wrapper
    }
  });
  return b.finish(name, 'codex', 'codex');
}

// ---------------------------------------------------------------------------------------
// Anthropic Messages and Cline

/** Tools Cline (and its fork Roo Code) call with XML-like tags in the assistant's text. */
const CLINE_TOOLS = new Set([
  'execute_command', 'read_file', 'write_to_file', 'replace_in_file', 'search_files', 'list_files',
  'list_code_definition_names', 'browser_action', 'use_mcp_tool', 'access_mcp_resource',
  'ask_followup_question', 'plan_mode_respond', 'act_mode_respond', 'load_mcp_documentation',
  'attempt_completion', 'new_task', 'condense', 'summarize_task', 'report_bug', 'new_rule', 'web_fetch',
  'web_search', 'apply_patch', 'use_skill',
  // Roo Code
  'apply_diff', 'insert_content', 'search_and_replace', 'switch_mode', 'codebase_search',
  'fetch_instructions', 'update_todo_list', 'run_slash_command', 'generate_image',
]);
/** Parameters whose value may hold its own closing tag (file contents, diffs). */
const CLINE_LONG_PARAMS = new Set(['content', 'diff', 'result', 'context', 'response', 'todos']);
/** Tools whose call compacts Cline's context: their `context` is the summary. */
const CLINE_COMPACTIONS = new Set(['summarize_task', 'condense']);
const PARAM_TAG = /^<([A-Za-z_][\w-]*)>/;

interface ClineTool {
  name: string;
  params: Record<string, string>;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i] as string)) i += 1;
  return i;
}

/** The tool uses in an assistant text and the text around them. */
function parseClineText(text: string): { text: string; tools: ClineTool[] } {
  const tools: ClineTool[] = [];
  if (!text.includes('</')) return { text, tools };
  const open = /<([a-z_]+)>/g;
  let out = '';
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = open.exec(text)) !== null) {
    const toolName = m[1] as string;
    if (!CLINE_TOOLS.has(toolName)) continue;
    const closeTag = `</${toolName}>`;
    const params: Record<string, string> = {};
    let p = m.index + m[0].length;
    let end: number;
    for (;;) {
      p = skipSpace(text, p);
      if (text.startsWith(closeTag, p)) {
        end = p + closeTag.length;
        break;
      }
      const pm = PARAM_TAG.exec(text.slice(p, p + 80));
      if (!pm) {
        const c = text.indexOf(closeTag, p);
        end = c < 0 ? text.length : c + closeTag.length;
        break;
      }
      const param = pm[1] as string;
      const valueStart = p + pm[0].length;
      const paramClose = `</${param}>`;
      let valueEnd = text.indexOf(paramClose, valueStart);
      if (valueEnd >= 0 && CLINE_LONG_PARAMS.has(param)) {
        // The value may hold its own closing tag: take the first one followed by another
        // parameter or the tool's closing tag.
        for (let at = valueEnd; at >= 0; at = text.indexOf(paramClose, at + 1)) {
          const after = skipSpace(text, at + paramClose.length);
          if (text.startsWith(closeTag, after) || PARAM_TAG.test(text.slice(after, after + 80))) {
            valueEnd = at;
            break;
          }
        }
      }
      if (valueEnd < 0) {
        params[param] = text.slice(valueStart).trim(); // cut off: the rest is the value
        end = text.length;
        break;
      }
      params[param] = text.slice(valueStart, valueEnd).trim();
      p = valueEnd + paramClose.length;
    }
    tools.push({ name: toolName, params });
    out += text.slice(last, m.index);
    last = end;
    open.lastIndex = end;
  }
  if (tools.length === 0) return { text, tools };
  out += text.slice(last);
  return { text: out.trim(), tools };
}

/** `[tool for 'x'] Result:` at the start of a text block: the tool's name and where the output starts. */
function clineHeader(text: string): { name: string; rest: number } | undefined {
  if (text[0] !== '[') return undefined;
  const m = /^\[([a-z_]+)[\] ]/.exec(text);
  if (!m) return undefined;
  const at = text.indexOf('] Result:');
  if (at < 0) return undefined;
  return { name: m[1] as string, rest: at + '] Result:'.length };
}

const CLINE_ERROR = /^(?:The tool execution failed|The user denied this operation|Error[ :]|Missing value for required parameter|Unknown tool)/;
const CLINE_SKIPPED = /^(?:Skipping tool[^[]*\[([a-z_]+)|Tool was interrupted[^[]*\[([a-z_]+)|Tool \[([a-z_]+)[^\]]*\] was (?:not executed|interrupted))/;
/** Text blocks of a user message that are no tool's output. */
const CLINE_USER_TEXT = /^(?:<environment_details>|#\s*task_progress|#\s*TODO LIST|\[TASK RESUMPTION\]|The user provided (?:the following feedback|additional content)|<hook_context)/;

/** The name a result's header gives a call: native MCP calls are `<server>0mcp0<tool>`. */
function clineName(name: string): string {
  return name.includes('0mcp0') ? 'use_mcp_tool' : name;
}

function anthropicUsage(m: Bag): number | undefined {
  const fromUsage = claudeUsage(m.usage);
  if (fromUsage !== undefined) return fromUsage;
  const tokens = isBag(m.metrics) && isBag(m.metrics.tokens) ? m.metrics.tokens : undefined; // Cline
  return tokens ? num(tokens.prompt) : undefined;
}

function anthropic(messages: unknown[], name: string, format: 'anthropic-messages' | 'cline'): ReplaySession {
  const b = new Builder();
  const byId = new Map<string, RawCall>();
  const cline = format === 'cline';
  let waiting: RawCall[] = []; // Cline's XML calls of the last assistant message, in order

  for (const [i, m] of messages.entries()) {
    checkMessage(m, i, ANTHROPIC_ROLES, format === 'cline' ? "Cline's history" : 'Anthropic messages');
    const blocks: unknown[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (m.role === 'assistant') {
      const step = b.step();
      step.tokens = anthropicUsage(m);
      step.cache = claudeCache(m.usage);
      const metrics = isBag(m.metrics) && isBag(m.metrics.tokens) ? m.metrics.tokens : undefined; // Cline
      if (!step.cache && metrics && num(metrics.cached) !== undefined) step.cache = { read: num(metrics.cached) ?? 0, write: 0, pricing: 'anthropic' };
      waiting = [];
      let summary: string | undefined;
      for (const block of blocks) {
        if (!isBag(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string') {
          if (cline) {
            const parsed = parseClineText(block.text);
            if (parsed.text) step.text.push(parsed.text);
            for (const tool of parsed.tools) {
              waiting.push(b.call(step, tool.name, tool.params));
              if (CLINE_COMPACTIONS.has(tool.name)) summary = tool.params.context ?? '';
            }
          } else if (block.text) step.text.push(block.text);
        } else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) {
          step.text.push(block.thinking);
        } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          const call = b.call(step, block.name, block.input);
          if (typeof block.id === 'string') byId.set(block.id, call);
          // Cline with native tool calling answers most providers' calls with text blocks
          // headed `[read_file for 'x'] Result:`, in call order, not with tool_result blocks.
          if (cline) waiting.push(call);
          if (cline && CLINE_COMPACTIONS.has(str(block.name))) summary = isBag(block.input) ? str(block.input.context) : '';
        } else if (typeof block.type === 'string' && block.type.endsWith('_tool_result') && typeof block.tool_use_id === 'string') {
          const call = byId.get(block.tool_use_id);
          if (call) call.result = { status: 'success', output: blockText(block.content) };
        }
      }
      if (summary !== undefined) b.compact(summary);
      continue;
    }
    if (m.role !== 'user') continue; // a system prompt is not replayed
    let current: RawCall | undefined;
    let parts: string[] = [];
    const settle = () => {
      if (current) {
        const output = parts.join('\n');
        current.result = { status: CLINE_ERROR.test(output.trimStart()) ? 'error' : 'success', output };
      }
      current = undefined;
      parts = [];
    };
    const next = (toolName?: string): RawCall | undefined => {
      const i = toolName === undefined ? 0 : waiting.findIndex((c) => clineName(c.name) === toolName);
      if (i < 0 || i >= waiting.length) return undefined;
      return waiting.splice(i, 1)[0];
    };
    for (const block of blocks) {
      if (!isBag(block)) continue;
      if (block.type === 'tool_result') {
        settle();
        const call = byId.get(str(block.tool_use_id));
        if (call) {
          call.result = { status: block.is_error === true ? 'error' : 'success', output: blockText(block.content) };
          const at = waiting.indexOf(call);
          if (at >= 0) waiting.splice(at, 1);
        } else b.orphan();
        continue;
      }
      const text = block.type === 'text' && typeof block.text === 'string' ? block.text
        : block.type === 'image' || block.type === 'document' ? `[${block.type}]` : undefined;
      if (text === undefined) continue;
      if (!cline) {
        b.input(text);
        continue;
      }
      const header = clineHeader(text);
      const lead = text.trimStart();
      if (header) {
        settle();
        // Some labels are not their call's name (`[subagents] Result:` answers `use_subagents`).
        // Results come in call order, so a label that names no pending call answers the next
        // unanswered one; dropping it would hide a result the model saw.
        current = next(header.name) ?? next();
        const rest = text.slice(header.rest).replace(/^[ \t]*\r?\n/, '');
        if (current) {
          if (rest.trim() !== '') parts.push(rest);
        } else {
          b.orphan();
        }
      } else if (lead.startsWith('<function_results>')) {
        settle();
        current = next();
        if (current) parts.push(lead.replace(/^<function_results>\r?\n?/, '').replace(/\r?\n?<\/function_results>\s*$/, ''));
        else b.orphan();
        settle();
      } else if (CLINE_USER_TEXT.test(lead)) {
        // Cline's own additions after the results, and feedback the user gave before one.
        settle();
        b.input(text);
      } else if (CLINE_SKIPPED.test(lead)) {
        settle();
        const sm = CLINE_SKIPPED.exec(lead) as RegExpExecArray;
        const call = next(sm[1] ?? sm[2] ?? sm[3]);
        if (call) call.result = { status: 'error', output: text };
        else b.input(text);
      } else if (current) {
        parts.push(text);
      } else {
        b.input(text);
      }
    }
    settle();
  }
  return b.finish(name, format, format);
}

// ---------------------------------------------------------------------------------------
// OpenAI Chat Completions messages, and SWE-agent's history (the same shape)

const OPENAI_ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
const ANTHROPIC_ROLES = ['user', 'assistant'];

/** A message in one of `roles`, with text or blocks as content; else the error names its index and field. */
function checkMessage(m: unknown, i: number, roles: readonly string[], shape: string): asserts m is Bag {
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

function openAi(messages: unknown[], name: string, format: 'openai-messages' | 'swe-agent' | 'mini-swe-agent'): ReplaySession {
  const b = new Builder();
  const byId = new Map<string, RawCall>();
  let legacy: RawCall | undefined; // the last `function_call` (the API before tool_calls)
  let bare: RawCall | undefined; // SWE-agent without function calling: the action awaiting its observation
  for (const [i, m] of messages.entries()) {
    if (isBag(m) && m.is_demo === true) continue;
    checkMessage(m, i, OPENAI_ROLES, 'OpenAI messages');
    if (m.role === 'assistant') {
      const step = b.step();
      const usage = isBag(m.usage) ? m.usage : isBag(m.extra) && isBag(m.extra.response) && isBag(m.extra.response.usage) ? m.extra.response.usage : undefined;
      if (usage) step.tokens = num(usage.prompt_tokens);
      const reasoning = typeof m.reasoning_content === 'string' ? m.reasoning_content : typeof m.reasoning === 'string' ? m.reasoning : '';
      if (reasoning) step.text.push(reasoning);
      const said = format === 'swe-agent' && typeof m.thought === 'string' ? m.thought : blockText(m.content);
      if (said) step.text.push(said);
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      for (const c of calls) {
        if (!isBag(c)) continue;
        const fn = isBag(c.function) ? c.function : {};
        const call = b.call(step, fn.name, fn.arguments);
        if (typeof c.id === 'string') byId.set(c.id, call);
      }
      if (isBag(m.function_call)) legacy = b.call(step, m.function_call.name, m.function_call.arguments);
      bare = undefined;
      if (calls.length === 0 && format === 'swe-agent' && typeof m.action === 'string' && m.action.trim() !== '') {
        bare = b.call(step, 'bash', { command: m.action });
      }
    } else if (m.role === 'tool') {
      const ids = Array.isArray(m.tool_call_ids) ? m.tool_call_ids : [m.tool_call_id];
      const output = blockText(m.content);
      let matched = false;
      for (const id of ids) {
        const call = byId.get(str(id));
        if (call) {
          call.result = { status: 'success', output };
          matched = true;
        }
      }
      if (!matched && bare) {
        bare.result = { status: 'success', output };
        bare = undefined;
      } else if (!matched) b.orphan();
    } else if (m.role === 'function') {
      if (legacy) legacy.result = { status: 'success', output: blockText(m.content) };
      else b.orphan();
      legacy = undefined;
    } else if (m.role === 'user') {
      if (bare && m.message_type === 'observation') {
        bare.result = { status: 'success', output: blockText(m.content) };
        bare = undefined;
      } else b.input(blockText(m.content));
    }
    // system / developer prompts are not replayed
  }
  return b.finish(name, format, format);
}

// ---------------------------------------------------------------------------------------
// SWE-agent and mini-SWE-agent

function sweAgent(doc: Bag, name: string): ReplaySession {
  if (Array.isArray(doc.history) && doc.history.length > 0) return openAi(doc.history, name, 'swe-agent');
  // Only the trajectory: one step per action.
  const b = new Builder();
  for (const t of Array.isArray(doc.trajectory) ? doc.trajectory : []) {
    if (!isBag(t)) continue;
    const step = b.step();
    const thought = str(t.thought ?? t.response);
    if (thought) step.text.push(thought);
    if (typeof t.action === 'string' && t.action.trim() !== '') {
      b.call(step, 'bash', { command: t.action }).result = { status: 'success', output: str(t.observation) };
    }
  }
  return b.finish(name, 'swe-agent', 'swe-agent');
}

function miniSweAgent(doc: Bag, name: string): ReplaySession {
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  if (hasOpenAiTools(messages)) return openAi(messages, name, 'mini-swe-agent'); // later versions call tools
  const b = new Builder();
  let pending: RawCall | undefined;
  for (const m of messages) {
    if (!isBag(m)) continue;
    const content = blockText(m.content);
    if (m.role === 'assistant') {
      const step = b.step();
      const usage = isBag(m.extra) && isBag(m.extra.response) && isBag(m.extra.response.usage) ? m.extra.response.usage : isBag(m.usage) ? m.usage : undefined;
      if (usage) step.tokens = num(usage.prompt_tokens);
      const blocks = [...content.matchAll(/```bash\s*\n([\s\S]*?)\n```/g)];
      const thought = content.split('```')[0]?.replace(/^THOUGHT:\s*/, '').trim() ?? '';
      if (thought) step.text.push(thought);
      // Not exactly one action: mini-SWE-agent ran nothing, and its format error is the next input.
      pending = blocks.length === 1 ? b.call(step, 'bash', { command: blocks[0]?.[1] ?? '' }) : undefined;
      if (blocks.length > 1) step.text.push(content.slice(content.indexOf('```')));
    } else if (m.role === 'user') {
      if (pending) {
        const code = /<returncode>(-?\d+)<\/returncode>/.exec(content.slice(0, 200));
        const status: Status = /^\s*The last command <command>[\s\S]*?timed out/.test(content.slice(0, 2000)) ? 'timeout'
          : code && code[1] !== '0' ? 'error' : 'success';
        pending.result = { status, output: content };
        pending = undefined;
      } else {
        b.input(content);
      }
    }
  }
  return b.finish(name, 'mini-swe-agent', 'mini-swe-agent');
}

// ---------------------------------------------------------------------------------------
// OpenHands

function openHands(doc: unknown, text: string, name: string): ReplaySession[] {
  if (Array.isArray(doc)) return [openHandsEvents(doc, name)];
  if (isBag(doc)) return [openHandsInstance(doc, name)];
  // JSON Lines: an evaluation output.jsonl (one instance per line), or one event per line.
  const warnings: string[] = [];
  const sessions: ReplaySession[] = [];
  const events: unknown[] = [];
  forEachJsonLine(text, warnings, (r) => {
    if (isOpenHandsInstance(r)) sessions.push(openHandsInstance(r as Bag, name));
    else if (isOpenHandsEvent(r)) events.push(r);
  });
  if (events.length > 0) sessions.push(openHandsEvents(events, name));
  if (sessions.length === 0) sessions.push({ name, format: 'openhands', steps: [], warnings: [], unmatchedResults: 0 });
  // The file's warnings (a truncated last line) belong to the last session read.
  (sessions[sessions.length - 1] as ReplaySession).warnings.push(...warnings);
  return sessions;
}

/** One evaluation instance: its `history`, named `file#instance_id`. */
function openHandsInstance(doc: Bag, name: string): ReplaySession {
  const id = doc.instance_id;
  const label = id !== undefined && id !== null ? `${name}#${str(id)}` : name;
  return openHandsEvents(Array.isArray(doc.history) ? doc.history : [], label);
}

function openHandsStatus(e: Bag): Status {
  if (e.observation === 'error' || e.observation === 'user_rejected') return 'error';
  const exit = isBag(e.extras) && isBag(e.extras.metadata) ? e.extras.metadata.exit_code : undefined;
  if (exit === -1) return 'timeout'; // still running when the soft timeout hit
  return typeof exit === 'number' && exit !== 0 ? 'error' : 'success';
}

/** OpenHands-internal fields of an action's `args`, not the tool's arguments. */
const OPENHANDS_INTERNAL = new Set(['thought', 'blocking', 'is_static', 'cwd', 'hidden', 'confirmation_state', 'security_risk', 'is_input']);

function openHandsEvents(events: unknown[], name: string): ReplaySession {
  const b = new Builder();
  const byEvent = new Map<unknown, RawCall>();
  const byResponse = new Map<string, RawStep>();
  for (const e of events) {
    if (!isBag(e)) continue;
    const args = isBag(e.args) ? e.args : {};
    if (e.action === 'system' || e.action === 'recall' || e.action === 'change_agent_state') continue;
    if (e.action === 'condensation') {
      b.compact(typeof args.summary === 'string' ? args.summary : undefined);
      continue;
    }
    if (e.observation === 'agent_condensation' || e.observation === 'condense') {
      b.compact(str(e.content) || undefined);
      continue;
    }
    if (typeof e.action === 'string') {
      if (e.source === 'user') {
        if (e.action === 'message') b.input(str(args.content ?? e.message));
        continue;
      }
      const meta = isBag(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
      if (meta) {
        const response = isBag(meta.model_response) ? meta.model_response : {};
        const choice = Array.isArray(response.choices) && isBag(response.choices[0]) ? response.choices[0] : {};
        const message = isBag(choice.message) ? choice.message : {};
        const responseId = typeof response.id === 'string' ? response.id : undefined;
        let step = responseId === undefined ? undefined : byResponse.get(responseId);
        if (!step) {
          step = b.step();
          if (responseId !== undefined) byResponse.set(responseId, step);
          const said = blockText(message.content) || str(args.thought);
          if (said) step.text.push(said);
          if (isBag(response.usage)) step.tokens = num(response.usage.prompt_tokens);
        }
        const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        const tc = toolCalls.find((c) => isBag(c) && c.id === meta.tool_call_id) as Bag | undefined;
        const fn = tc && isBag(tc.function) ? tc.function : undefined;
        const call = b.call(step, fn?.name ?? meta.function_name ?? e.action, fn ? fn.arguments : withoutInternal(args));
        byEvent.set(e.id, call);
      } else if (e.action === 'message') {
        const step = b.step();
        const said = str(args.content ?? e.message);
        if (said) step.text.push(said);
      } else {
        // An agent without function calling: the action itself is the call.
        const step = b.step();
        const said = str(args.thought);
        if (said) step.text.push(said);
        byEvent.set(e.id, b.call(step, e.action, withoutInternal(args)));
      }
      continue;
    }
    if (typeof e.observation === 'string') {
      const call = e.cause === undefined || e.cause === null ? undefined : byEvent.get(e.cause);
      if (call) {
        call.result = { status: openHandsStatus(e), output: str(e.content) };
      } else if (e.observation === 'error' && e.source === 'agent') {
        // A tool call the runtime rejected before it became an action: a model turn too.
        const step = b.step();
        b.call(step, 'rejected_tool_call', {}).result = { status: 'error', output: str(e.content ?? e.message) };
      }
    }
  }
  return b.finish(name, 'openhands', 'openhands');
}

function withoutInternal(args: Bag): Bag {
  const out: Bag = {};
  for (const key of Object.keys(args)) if (!OPENHANDS_INTERNAL.has(key)) out[key] = args[key];
  return out;
}

// ---------------------------------------------------------------------------------------
// SAOP envelopes

function saop(doc: unknown, text: string, name: string): ReplaySession {
  const b = new Builder();
  const add = (r: unknown, where: string) => {
    if (!isSaopEnvelope(r)) {
      b.warnings.push(`${where}: not a SAOP envelope, skipped`);
      return;
    }
    const e = r as Bag;
    const thought = e.thought as Bag;
    const action = e.action as Bag;
    const observation = e.observation as Bag;
    const step = b.step();
    const reasoning = str(thought.reasoning);
    if (reasoning) step.text.push(reasoning);
    const call = b.call(step, action.tool_name, action.arguments);
    if (typeof e.agent_id === 'string' && e.agent_id) call.agentId = e.agent_id;
    if (typeof thought.plan === 'string') call.plan = thought.plan;
    if (typeof thought.uncertainty === 'string') call.uncertainty = thought.uncertainty;
    const status = typeof observation.status === 'string' && STATUSES.includes(observation.status) ? (observation.status as Status) : 'error';
    call.result = { status, output: str(observation.output) };
    if (typeof observation.error_detail === 'string') call.result.errorDetail = observation.error_detail;
  };
  if (Array.isArray(doc)) doc.forEach((r, i) => add(r, `element ${i}`));
  else forEachJsonLine(text, b.warnings, (r, line) => add(r, `line ${line}`));
  return b.finish(name, 'saop-jsonl', 'saop');
}
