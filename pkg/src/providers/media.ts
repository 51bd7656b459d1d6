// Images and documents as the adapters read them from their messages: where the bytes
// are (base64 text, bytes, a URL, a provider's file id), what they are, and how a stored
// one is written in the store and read back. What they cost is the rules' to say
// (`devs_context_rules::media`, measured by `context/media.ts`).
import { decodeBase64, encodeBase64 } from '../core/base64.js';
import type { Bag } from '../core/read.js';
import { Kind, type ImageDetail, type MediaRef, type NeutralPart, text } from './neutral.js';

export type { ImageDetail, MediaRef, Measured } from './neutral.js';

/** A media part of a message: an image or a document, inside a result when `id` names its call. */
export function mediaPart(ref: MediaRef, path: string, id?: string): NeutralPart {
  const part: NeutralPart = { kind: ref.kind === 'image' ? Kind.Image : Kind.Document, text: '', label: ref.mediaType || ref.kind, path, media: ref };
  if (id !== undefined) part.id = id;
  return part;
}

/**
 * A part the rules measure but never store or show by a line: audio and video (billed by
 * their seconds), and a signed image (its signature rides on it byte for byte). Kept whole,
 * or folded away with its turn.
 */
export function wholeMedia(ref: MediaRef, path: string, label: string): NeutralPart {
  return { kind: Kind.Opaque, text: '', label, path, media: ref };
}

/** OpenAI's `input_audio` (`{ data, format }`, base64 WAV or MP3), at `field`: billed by its seconds, read from its header. */
export function audioOf(audio: Bag, field: string): MediaRef {
  const format = typeof audio.format === 'string' ? audio.format : '';
  return { kind: 'audio', mediaType: format ? `audio/${format}` : '', data: text(`${field}.data`, audio.data) };
}

/** A `data:` URL's media type and base64 data; `undefined` for any other URL. */
export function dataUrl(url: string): { mediaType: string; data: string } | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  const head = comma < 0 ? '' : url.slice(5, comma);
  if (!head.endsWith(';base64')) return undefined;
  return { mediaType: head.slice(0, -';base64'.length), data: url.slice(comma + 1) };
}

/** An image given by URL (a `data:` URL holds its bytes). */
export function imageAt(url: string, detail?: ImageDetail, mediaType = ''): MediaRef {
  const inline = dataUrl(url);
  const ref: MediaRef = inline ? { kind: 'image', mediaType: inline.mediaType, data: inline.data } : { kind: 'image', mediaType, url };
  if (detail !== undefined) ref.detail = detail;
  return ref;
}

/** The base64 text of a media part's bytes ('' when they are not in the message). */
export function base64Of(ref: MediaRef): string {
  if (typeof ref.data === 'string') return ref.data;
  return ref.data ? encodeBase64(ref.data) : '';
}

/** Its bytes, or the first `max` of them (all when `max` is undefined): `[bytes, all of them]`. */
export function bytesOf(ref: MediaRef, max?: number): [Uint8Array, boolean] {
  const data = ref.data;
  if (data === undefined) return [new Uint8Array(0), true];
  if (typeof data !== 'string') return max === undefined || data.length <= max ? [data, true] : [data.subarray(0, max), false];
  // Four base64 characters hold three bytes.
  const chars = max === undefined ? data.length : Math.ceil(max / 3) * 4;
  if (chars >= data.length) return [safeDecode(data), true];
  return [safeDecode(data.slice(0, chars)), false];
}

/** Base64 that does not decode is no bytes: the rules count an image they cannot read at its most. */
function safeDecode(text: string): Uint8Array {
  try {
    return decodeBase64(text.replace(/\s+/g, ''));
  } catch {
    return new Uint8Array(0);
  }
}

/**
 * A media part as the store keeps it, one text: `data:<type>;base64,<data>` for its bytes,
 * `url:<type>;<url>` or `file-id:<type>;<id>` for one held elsewhere (`media::stored`).
 */
export function storedText(ref: MediaRef): string {
  const type = ref.mediaType || (ref.kind === 'image' ? 'image/*' : 'application/pdf');
  if (ref.data !== undefined) return `data:${type};base64,${base64Of(ref)}`;
  if (ref.url !== undefined) return `url:${type};${ref.url}`;
  return `file-id:${type};${ref.fileId ?? ''}`;
}

/** A stored media text, read back (`rules.storedMedia` says where its parts are). */
export function storedRef(text: string, at: readonly number[]): MediaRef {
  const [image, typeStart, typeEnd, dataAt, form] = at;
  const ref: MediaRef = { kind: image === 1 ? 'image' : 'document', mediaType: text.slice(typeStart, typeEnd) };
  const rest = text.slice(dataAt);
  if (form === 0) ref.data = rest;
  else if (form === 1) ref.url = rest;
  else ref.fileId = rest;
  return ref;
}
