// An AI SDK `ModelMessage`'s parts (`ai`, `@ai-sdk/provider-utils`, v5 to v7): images and
// files in every form the SDK has taken them (base64, bytes, a URL, a provider's
// reference, v7's tagged `FileData`; a tool result's `content` items, `media` to `file`)
// are parts of their own; a provider-executed call is a server call, answered by the
// `tool-result` beside it in the assistant message; an approval request is a call, its
// response the result.
import { decodeBase64 } from '../../core/base64.js';
import type { Bag } from '../../core/read.js';
import { dataUrl, mediaPart, wholeMedia } from '../media.js';
import { type MediaRef, type NeutralPart, Kind, OPAQUE_TOKENS, bag, json, shapeError, text, intern } from '../neutral.js';

/** What an AI SDK data value holds: its bytes or where they are, or a text (`{ text }`). */
function dataOf(value: unknown, mediaType: string): Omit<MediaRef, 'kind'> | { text: string } {
  if (typeof URL !== 'undefined' && value instanceof URL) {
    const inline = dataUrl(value.href);
    return inline ?? { mediaType, url: value.href };
  }
  if (typeof value === 'string') {
    if (/^https?:\/\//.test(value)) return { mediaType, url: value };
    const inline = dataUrl(value);
    return inline ? { mediaType: mediaType || inline.mediaType, data: inline.data } : { mediaType, data: value };
  }
  if (value instanceof Uint8Array) return { mediaType, data: value };
  if (value instanceof ArrayBuffer) return { mediaType, data: new Uint8Array(value) };
  const tagged = (value ?? {}) as Bag;
  switch (tagged.type) {
    case 'data':
      return dataOf(tagged.data, mediaType);
    case 'url':
      return dataOf(tagged.url, mediaType);
    case 'text':
      return { text: String(tagged.text) };
    case 'reference':
      return { mediaType, fileId: json(tagged.reference) };
    default:
      // A provider's reference: its ids by provider.
      return { mediaType, fileId: json(value) };
  }
}

/** A text file's bytes as UTF-8; `undefined` when they do not decode. */
function decoded(ref: Omit<MediaRef, 'kind'>): string | undefined {
  try {
    const bytes = typeof ref.data === 'string' ? decodeBase64(ref.data) : ref.data;
    return bytes ? new TextDecoder('utf-8', { fatal: true }).decode(bytes) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An image or a file given as `value` of `mediaType` (`image` alone: any image): an image
 * or a document part, a text part for a text file, audio or video measured by its seconds
 * and kept whole, or an opaque one.
 */
export function filePart(value: unknown, mediaType: string, path: string, id?: string): NeutralPart {
  const held = dataOf(value, mediaType === 'image' ? '' : mediaType);
  if ('text' in held) return { kind: Kind.Text, text: held.text, label: '', path };
  const type = held.mediaType || mediaType;
  if (type === 'image' || type.startsWith('image/')) return mediaPart({ ...held, kind: 'image', mediaType: type === 'image' ? '' : type }, path, id);
  if (type === 'application/pdf') return mediaPart({ ...held, kind: 'document', mediaType: type }, path, id);
  if (type.startsWith('text/') || type === 'application/json') {
    const body = decoded(held);
    if (body !== undefined) return { kind: Kind.Text, text: body, label: '', path };
  }
  // Audio and video: by their seconds, kept whole.
  if (type.startsWith('audio/') || type.startsWith('video/')) return wholeMedia({ ...held, kind: type.startsWith('audio/') ? 'audio' : 'video', mediaType: type }, path, type);
  return { kind: Kind.Opaque, text: '', label: type || 'file', path, tokens: OPAQUE_TOKENS };
}

/** A `content` output's item: its text, or an image or a file part inside the result (of call `id`). */
function contentItem(item: Bag, field: string, path: string, id: string): NeutralPart | string {
  switch (item.type) {
    case 'text':
      return text(`${field}.text`, item.text);
    case 'media':
    case 'image-data':
    case 'file-data':
    case 'file':
      return filePart(item.data, String(item.mediaType ?? (item.type === 'image-data' ? 'image' : '')), path, id);
    case 'image-url':
      return filePart(String(item.url), 'image', path, id);
    case 'file-url':
      return filePart(String(item.url), String(item.mediaType ?? 'application/pdf'), path, id);
    case 'image-file-id':
    case 'image-file-reference':
      return mediaPart({ kind: 'image', mediaType: '', fileId: json(item.fileId ?? item.providerReference) }, path, id);
    case 'file-id':
    case 'file-reference':
      return mediaPart({ kind: 'document', mediaType: 'application/pdf', fileId: json(item.fileId ?? item.providerReference) }, path, id);
    default:
      return json(item);
  }
}

/** A tool result's output as text and its images and files: the parts of a `tool-result`. */
function resultParts(part: Bag, field: string, path: string, k: number): NeutralPart[] {
  const id = text(`${field}.toolCallId`, part.toolCallId);
  const label = text(`${field}.toolName`, part.toolName);
  const idPath = intern(`${path}.toolCallId`);
  const o = bag(`${field}.output`, part.output);
  const result = (output: string, raw: string): NeutralPart => ({ kind: Kind.Result, text: output, raw, label, id, path, idPath, block: k });
  switch (o.type) {
    case 'text':
    case 'error-text': {
      const output = text(`${field}.output.value`, o.value);
      return [result(output, output)];
    }
    case 'json':
    case 'error-json':
      return [result(json(o.value), json(part.output))];
    case 'execution-denied': {
      const output = typeof o.reason === 'string' ? o.reason : 'execution denied';
      return [result(output, json(part.output))];
    }
    case 'content': {
      if (!Array.isArray(o.value)) throw shapeError(`${field}.output.value`, 'an array', o.value);
      const lines: string[] = [];
      const media: NeutralPart[] = [];
      o.value.forEach((v, i) => {
        const at = `${field}.output.value[${i}]`;
        const item = contentItem(bag(at, v), at, intern(`${path}.output.value[${i}]`), id);
        if (typeof item === 'string') lines.push(item);
        else if (item.kind === Kind.Text) lines.push(item.text);
        else if (item.kind === Kind.Opaque) lines.push(`[${item.label}]`);
        else media.push({ ...item, block: k, inner: i });
      });
      const output = lines.join('\n');
      return [result(output, output), ...media];
    }
    default:
      throw shapeError(`${field}.output.type`, "'text', 'json', 'error-text', 'error-json', 'execution-denied' or 'content'", o.type);
  }
}

/** The parts of part `k` of a message's content. */
export function readPart(p: unknown, field: string, path: string, k: number): NeutralPart[] {
  const part = bag(field, p);
  const one = (n: Omit<NeutralPart, 'path' | 'block'>): NeutralPart[] => [{ ...n, path, block: k }];
  switch (part.type) {
    case 'text':
      return one({ kind: Kind.Text, text: text(`${field}.text`, part.text), label: '' });
    case 'reasoning':
      return one({ kind: Kind.Thinking, text: text(`${field}.text`, part.text), label: '' });
    case 'tool-call':
      return one({
        kind: part.providerExecuted === true ? Kind.ServerCall : Kind.Call, text: json(part.input),
        label: text(`${field}.toolName`, part.toolName), id: text(`${field}.toolCallId`, part.toolCallId),
      });
    case 'tool-result':
      return resultParts(part, field, path, k);
    case 'tool-approval-request':
      return one({ kind: Kind.Call, text: json(part.toolCallId), label: 'approval', id: text(`${field}.approvalId`, part.approvalId) });
    case 'tool-approval-response':
      return one({
        kind: Kind.Result, text: `${part.approved === true ? 'approved' : 'denied'}${typeof part.reason === 'string' ? `: ${part.reason}` : ''}`,
        label: 'approval', id: text(`${field}.approvalId`, part.approvalId), idPath: intern(`${path}.approvalId`),
      });
    case 'image':
      return [{ ...filePart(part.image, typeof part.mediaType === 'string' ? part.mediaType : 'image', path), block: k }];
    case 'file':
      return [{ ...filePart(part.data, typeof part.mediaType === 'string' ? part.mediaType : '', path), block: k }];
    default:
      if (typeof part.type !== 'string') throw shapeError(`${field}.type`, 'a string', part.type);
      // A reasoning file, a provider's custom part: passed through whole.
      return one({ kind: Kind.Opaque, text: '', label: part.type, tokens: OPAQUE_TOKENS });
  }
}
