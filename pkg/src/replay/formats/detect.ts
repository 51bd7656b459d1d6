// Which format a text is, from its content: a JSON document is classified whole, a JSON
// Lines file by its first records that a format claims. The file name only breaks ties.
import { isAider } from './aider.js';
import { CLAUDE_LINE_TYPES } from './claude-code.js';
import { looksCline } from './cline.js';
import { CODEX_ITEM_TYPES, CODEX_LINE_TYPES } from './codex.js';
import { isGeminiCli } from './gemini-cli.js';
import { looksMini } from './mini-swe-agent.js';
import { isMoatless } from './moatless.js';
import { hasOpenAiTools } from './openai.js';
import { isOpenHandsEvent, isOpenHandsInstance } from './openhands.js';
import { isSaopEnvelope } from './saop.js';
import type { TranscriptFormat } from './session.js';
import { TranscriptFormatError } from './session.js';
import { describe, isBag, stripBom } from './shared.js';

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

export interface Sniffed {
  format: TranscriptFormat;
  /** The parsed document, for the formats that are one JSON document. */
  doc?: unknown;
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

export function sniff(raw: string, fileName?: string): Sniffed {
  const text = stripBom(raw);
  const head = firstLine(text);
  if (!head) throw new TranscriptFormatError('the file is empty');
  const lead = head.text.trimStart()[0];
  if (lead !== '[' && lead !== '{' && isAider(text)) return { format: 'aider' };
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
  if (isGeminiCli(doc)) return 'gemini-cli';
  if (isMoatless(doc)) return 'moatless';
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
