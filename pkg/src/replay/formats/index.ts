// Transcripts of real agent sessions, read into replayable steps: the input side of
// `devs-context replay <file>`. Pure: text in, plain data out, no I/O.
//
//   detectFormat(text, fileName?)     → the format, from the content (detect.ts)
//   parseTranscript(text, fileName?)  → [{ name, format, steps, warnings }]
//
// A step is one model turn: the user's message before it (`input`), what the model wrote
// (`text`), and its tool calls, each with its result as one SAOP envelope. Parallel calls
// of one model message are one step with several calls. A call with no recorded result
// (interrupted, or the final submit) is kept, marked `unanswered`, with status 'partial'
// and output ''. Where the file holds them: the provider's reported input tokens of each
// model call, and the compactions the recorded agent made (on the step after them).
//
// One file per vendor's format (TRANSCRIPT_FORMATS in session.ts lists them), each saying
// what it reads: claude-code.ts, codex.ts, openhands.ts, swe-agent.ts, mini-swe-agent.ts,
// saop.ts, gemini-cli.ts, moatless.ts, aider.ts; openai.ts (openai-messages, and the message shape SWE-agent shares);
// anthropic.ts (anthropic-messages, and cline: Anthropic messages in Cline's dialect, which
// cline.ts knows). `READERS` below is the one place a format is tied to its reader;
// detect.ts finds the format. Shared: session.ts (what a reader makes, the error) and
// shared.ts (plain-data helpers, the session builder, JSON Lines).
//
// Linear in the file's size: each line or document is parsed once (a JSONL file's first
// line up to three times, to detect the format), and JSONL records are dropped as soon as
// they are read. A JSONL line that is not JSON is skipped with a warning in the session's
// `warnings` (a truncated last line, typically); everything around it is kept.
import { aider } from './aider.js';
import { anthropic } from './anthropic.js';
import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { sniff } from './detect.js';
import { geminiCli } from './gemini-cli.js';
import { miniSweAgent } from './mini-swe-agent.js';
import { moatless } from './moatless.js';
import { openAi } from './openai.js';
import { openHands } from './openhands.js';
import { saop } from './saop.js';
import type { ReplaySession, TranscriptFormat } from './session.js';
import { baseName, isBag, stripBom } from './shared.js';
import type { Bag } from './shared.js';
import { sweAgent } from './swe-agent.js';

export { TRANSCRIPT_FORMATS, TranscriptFormatError } from './session.js';
export type { ReplayCall, ReplaySession, ReplayStep, TranscriptFormat } from './session.js';

/**
 * Reads one format: `doc` is the parsed document for the formats that are one JSON
 * document (undefined for JSON Lines), `text` the file's text without its BOM.
 */
type Reader = (doc: unknown, text: string, name: string) => ReplaySession[];

/** Each format's reader: a format missing here does not compile. */
const READERS: { readonly [F in TranscriptFormat]: Reader } = {
  'claude-code': (_doc, text, name) => [claudeCode(text, name)],
  codex: (_doc, text, name) => [codex(text, name)],
  cline: (doc, _text, name) => [anthropic(messagesOf(doc), name, 'cline')],
  openhands: (doc, text, name) => openHands(doc, text, name),
  'swe-agent': (doc, _text, name) => [sweAgent(doc as Bag, name)],
  'mini-swe-agent': (doc, _text, name) => [miniSweAgent(doc as Bag, name)],
  'openai-messages': (doc, _text, name) => [openAi(messagesOf(doc), name, 'openai-messages')],
  'anthropic-messages': (doc, _text, name) => [anthropic(messagesOf(doc), name, 'anthropic-messages')],
  'saop-jsonl': (doc, text, name) => [saop(doc, text, name)],
  'gemini-cli': (doc, _text, name) => [geminiCli(doc as Bag, name)],
  moatless: (doc, _text, name) => [moatless(doc as Bag, name)],
  aider: (_doc, text, name) => [aider(text, name)],
};

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
  return READERS[sniffed.format](sniffed.doc, stripBom(text), name);
}

/** The messages of a message format's document: the array itself, or its `messages`. */
function messagesOf(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  if (isBag(doc) && Array.isArray(doc.messages)) return doc.messages;
  return [];
}
