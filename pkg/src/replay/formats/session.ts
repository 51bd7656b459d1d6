// What a transcript reader makes: sessions of steps (one per model turn) whose tool calls
// are SAOP envelopes; the list of formats; the error when the text is none of them.
import type { SaopEnvelope } from '@devs/context';

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
  | 'saop-jsonl'
  | 'gemini-cli'
  | 'moatless'
  | 'aider';

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
  'gemini-cli',
  'moatless',
  'aider',
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
  /**
   * When the model call was made, in ms since the epoch (UTC), where the file records it:
   * the first record of the model's turn (Claude Code, Codex and OpenHands `timestamp`,
   * Gemini CLI's message `timestamp`, Cline's `ts`); Aider's only on the first turn of
   * each `aider chat started at` (local time, read as UTC). A time with no zone is read
   * as UTC. Its calls were made at the same time. What the replay passes to `build` as
   * `now`, and what a meter prices the cache's lifetime by.
   */
  time?: number;
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
 *   if (error instanceof TranscriptFormatError) console.log(error.code, error.tried.length); // ERR_TRANSCRIPT_FORMAT 12
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
