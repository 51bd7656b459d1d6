// An Anthropic message's blocks as parts (`@anthropic-ai/sdk`: `ContentBlockParam` and the
// beta blocks). Every block is counted for what it holds: texts, a call's input, a
// result's output, a server tool's result, the provider's compaction; fields no counter
// reads (`encrypted_content`, signatures) by the stated rule of `opaque`. Images and
// documents are parts of their own, inside the result that holds them.
import type { Bag } from '../../core/read.js';
import { mediaPart } from '../media.js';
import { type MediaRef, type NeutralPart, Kind, bag, json, shapeError, text, slot, intern } from '../neutral.js';

/** Tokens of a field no counter can read (an `encrypted_content`, a signature): a token per 4 characters, as the provider's bytes come to about that. */
export function opaque(value: unknown): number {
  return typeof value === 'string' ? Math.ceil(value.length / 4) : 0;
}

/** The results of server tools, in the assistant message of their `server_tool_use`. */
export const SERVER_RESULTS = new Set([
  'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result', 'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result', 'tool_search_tool_result', 'advisor_tool_result', 'mcp_tool_result',
]);

/** An image or document block's source, as a media reference; `undefined` for a text document. */
export function sourceRef(kind: 'image' | 'document', source: unknown, field: string): MediaRef | undefined {
  const s = bag(field, source);
  switch (s.type) {
    case 'base64':
      return { kind, mediaType: typeof s.media_type === 'string' ? s.media_type : '', data: text(`${field}.data`, s.data) };
    case 'url':
      return { kind, mediaType: kind === 'document' ? 'application/pdf' : '', url: text(`${field}.url`, s.url) };
    case 'file':
      return { kind, mediaType: '', fileId: text(`${field}.file_id`, s.file_id) };
    default:
      return undefined;
  }
}

/** A text block list's texts, joined (or the string it is). */
function texts(list: unknown): string {
  if (typeof list === 'string') return list;
  if (!Array.isArray(list)) return '';
  return list.map((b) => (typeof (b as Bag)?.text === 'string' ? ((b as Bag).text as string) : '')).filter((t) => t !== '').join('\n');
}

/** The readable text of a document block: its text, or its content's texts; `''` for a PDF. */
function documentText(doc: Bag): string {
  const s = (doc.source ?? {}) as Bag;
  const head = typeof doc.title === 'string' ? `${doc.title}\n` : '';
  if (s.type === 'text' && typeof s.data === 'string') return head + s.data;
  if (s.type === 'content') return head + texts(s.content);
  return '';
}

/** Fields of a server tool's result that hold no text: what it is, and what the provider encrypts. */
const NOT_TEXT = new Set(['type', 'media_type', 'encrypted_content', 'encrypted_stdout', 'encrypted_index', 'return_code', 'file_id', 'cache_control']);

/** Every text a server tool's result holds (its titles, URLs, dates, outputs), one a line: what it is counted by. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!NOT_TEXT.has(k)) strings(v, out);
  }
  return out;
}

/**
 * What a server tool's result holds, as text, and the tokens of what it holds that no
 * counter reads. `editable`: the output can be shown otherwise (its text replaced).
 */
function serverOutput(block: Bag): { text: string; tokens: number; editable: boolean; extra?: string } {
  const c = block.content;
  if (block.type === 'mcp_tool_result') return { text: texts(c), tokens: 0, editable: true };
  if (Array.isArray(c)) {
    // Web search: each result's title, URL and age, and its encrypted page.
    return { text: strings(c).join('\n'), tokens: c.reduce((n, r) => n + opaque((r as Bag)?.encrypted_content), 0), editable: true };
  }
  const o = (c ?? {}) as Bag;
  switch (o.type) {
    case 'web_fetch_result': {
      // Its URL and date, then the document's text; a fetched PDF is a document part of its own.
      const doc = (o.content ?? {}) as Bag;
      return { text: documentText(doc), extra: strings({ ...o, content: undefined }).join('\n'), tokens: 0, editable: true };
    }
    case 'code_execution_result':
    case 'bash_code_execution_result':
      return { text: [o.stdout, o.stderr].filter((x) => typeof x === 'string' && x !== '').join('\n'), tokens: 0, editable: true };
    case 'encrypted_code_execution_result':
      return { text: typeof o.stderr === 'string' ? o.stderr : '', tokens: opaque(o.encrypted_stdout), editable: false };
    case 'text_editor_code_execution_view_result':
      return { text: typeof o.content === 'string' ? o.content : '', tokens: 0, editable: true };
    case 'text_editor_code_execution_str_replace_result':
      return { text: [o.old_lines, o.new_lines, o.lines].flatMap((l) => (Array.isArray(l) ? l : [])).join('\n'), tokens: 0, editable: true };
    case 'tool_search_tool_search_result':
      return { text: Array.isArray(o.tool_references) ? o.tool_references.map((r) => String((r as Bag)?.tool_name)).join('\n') : '', tokens: 0, editable: false };
    case 'advisor_result':
      return { text: typeof o.text === 'string' ? o.text : '', tokens: 0, editable: true };
    case 'advisor_redacted_result':
      return { text: '', tokens: opaque(o.encrypted_content), editable: false };
    default:
      // An error: its code and message.
      return { text: [o.error_code, o.error_message].filter((x) => typeof x === 'string').join(': '), tokens: 0, editable: false };
  }
}

/** The parts of content block `k` (`field` names it): one for most, more for a result with images or documents. */
export function readBlock(b: unknown, field: string, k: number): NeutralPart[] {
  const block = bag(field, b);
  const path = slot('content', k);
  const one = (part: Omit<NeutralPart, 'path' | 'block'>): NeutralPart[] => [{ ...part, path, block: k }];
  switch (block.type) {
    case 'text':
      return one({ kind: Kind.Text, text: text(`${field}.text`, block.text), label: '' });
    case 'thinking':
      return one({ kind: Kind.Thinking, text: text(`${field}.thinking`, block.thinking), label: '' });
    case 'redacted_thinking':
      return one({ kind: Kind.Thinking, text: '', label: '', tokens: opaque(text(`${field}.data`, block.data)) });
    case 'tool_use':
      return one({ kind: Kind.Call, text: json(block.input), label: text(`${field}.name`, block.name), id: text(`${field}.id`, block.id) });
    case 'server_tool_use':
    case 'mcp_tool_use':
      return one({ kind: Kind.ServerCall, text: json(block.input), label: text(`${field}.name`, block.name), id: text(`${field}.id`, block.id) });
    case 'tool_result':
      return resultParts(block, field, k);
    case 'image': {
      const ref = sourceRef('image', block.source, `${field}.source`) ?? { kind: 'image', mediaType: '' };
      return [{ ...mediaPart(ref, path), block: k }];
    }
    case 'document': {
      const ref = sourceRef('document', block.source, `${field}.source`);
      if (ref) return [{ ...mediaPart(ref, path), block: k }];
      // A text document, or one of content blocks: counted and shown as text.
      return one({ kind: Kind.Text, text: documentText(block), label: '' });
    }
    case 'search_result':
      return one({ kind: Kind.Text, text: [block.title, block.source, texts(block.content)].filter((x) => typeof x === 'string').join('\n'), label: '' });
    case 'compaction':
      // The provider's summary is readable; what it encrypts or signs is counted by the stated rule.
      return one({
        kind: Kind.Compaction, text: typeof block.content === 'string' ? block.content : '', label: 'compaction',
        tokens: opaque(block.encrypted_content) + opaque(block.signature),
      });
    default: {
      if (typeof block.type !== 'string') throw shapeError(`${field}.type`, 'a string', block.type);
      if (SERVER_RESULTS.has(block.type)) {
        const out = serverOutput(block);
        const id = text(`${field}.tool_use_id`, block.tool_use_id);
        // A result that cannot be shown otherwise (encrypted, an error) is kept whole, with its call.
        if (!out.editable) return one({ kind: Kind.Opaque, text: out.text, label: block.type, tokens: out.tokens });
        // Labelled with its block's type: how it is shown once stored depends on it.
        const parts = one({ kind: Kind.Result, text: out.text, label: block.type, id, tokens: out.tokens, idPath: intern(`${path}.tool_use_id`), ...(out.extra ? { extra: out.extra } : {}) });
        // A fetched PDF is a document of its own, inside the result.
        const fetched = ((block.content ?? {}) as Bag).content as Bag | undefined;
        if (block.type === 'web_fetch_tool_result' && fetched?.type === 'document') {
          const ref = sourceRef('document', fetched.source, `${field}.content.content.source`);
          if (ref) parts.push({ ...mediaPart(ref, intern(`${path}.content.content`), id), block: k, inner: 0 });
        }
        return parts;
      }
      // A provider's block of its own (container_upload, fallback, tool_addition, …): passed
      // through whole, counted as the JSON it is.
      return one({ kind: Kind.Opaque, text: json(block), label: block.type });
    }
  }
}

/** A `tool_result`: its text, then each image or document in it, a part of its own. */
function resultParts(block: Bag, field: string, k: number): NeutralPart[] {
  const path = slot('content', k);
  const id = text(`${field}.tool_use_id`, block.tool_use_id);
  const idPath = intern(`${path}.tool_use_id`);
  const content = block.content;
  if (content === undefined || typeof content === 'string') {
    const output = content ?? '';
    return [{ kind: Kind.Result, text: output, raw: output, label: '', id, path, idPath, block: k }];
  }
  if (!Array.isArray(content)) throw shapeError(`${field}.content`, 'a string or an array of blocks', content);
  const lines: string[] = [];
  const media: NeutralPart[] = [];
  content.forEach((c, i) => {
    const at = `${field}.content[${i}]`;
    const inner = bag(at, c);
    const innerPath = intern(`${path}.content[${i}]`);
    if (inner.type === 'text') lines.push(text(`${at}.text`, inner.text));
    else if (inner.type === 'image' || inner.type === 'document') {
      const ref = sourceRef(inner.type, inner.source, `${at}.source`);
      if (ref) media.push({ ...mediaPart(ref, innerPath, id), block: k, inner: i });
      else lines.push(documentText(inner));
    } else if (inner.type === 'search_result') lines.push([inner.title, inner.source, texts(inner.content)].filter((x) => typeof x === 'string').join('\n'));
    else lines.push(json(inner));
  });
  const output = lines.join('\n');
  return [{ kind: Kind.Result, text: output, raw: output, label: '', id, path, idPath, block: k }, ...media];
}
