// Images, documents, audio and video measured as they are appended, the way the provider
// bills them (`devs_context_rules::media`): each part's first bytes go to the rules in one
// crossing (all its bytes for a PDF, audio or video, or for a JPEG whose metadata is long),
// and its tokens, size, pages and seconds come back, with the rules' note where it was
// counted at a bound (a warning for the next build's ledger) or cannot be counted (a
// TypeError naming it). A host that bills images and documents otherwise passes
// `imageTokens` as a function.
import { argumentError, checked } from '../errors/index.js';
import { describe } from '../core/read.js';
import { rules } from '../core/wasm.js';
import { DetailCode, IMAGE_MEDIA_TYPES, Source, type WarningCode } from '../core/protocol.js';
import { frameTexts } from '../core/frame.js';
import { bytesOf } from '../providers/media.js';
import type { NeutralPart } from '../providers/neutral.js';
import type { MediaInfo } from './types.js';

/** A part counted at a bound: what the next build's ledger says of it. */
export interface MediaNote {
  code: WarningCode;
  message: string;
}

/** Numbers `rules.measureMedia` gives per part. */
const STRIDE = 8;

/** `media::DetailCode` by a part's `detail`, as the host writes it. */
const DETAIL: Record<string, number> = { auto: DetailCode.Auto, low: DetailCode.Low, high: DetailCode.High, original: DetailCode.Original };
/** The first bytes read for an image's size (`media::size::HEADER_BYTES`): a size is in them but for a JPEG with long metadata. */
const HEADER_BYTES = 64 * 1024;

/** How a manager measures its media: the rule its format (or the host) names, or the host's own function. */
export interface MediaRules {
  rule: Float64Array;
  tokens?: (media: MediaInfo) => number;
  /** Names the option in errors. */
  field: string;
}

function sourceOf(part: NeutralPart): number {
  const ref = part.media!;
  const held = ref.data !== undefined;
  switch (ref.kind) {
    case 'image':
      return held ? Source.Image : Source.ImageAway;
    case 'audio':
      return held ? Source.Audio : Source.AudioAway;
    case 'video':
      return held ? Source.Video : Source.VideoAway;
    default:
      return held && (ref.mediaType === 'application/pdf' || ref.mediaType === '') ? Source.Pdf : Source.DocumentAway;
  }
}

const AWAY: ReadonlySet<number> = new Set([Source.ImageAway, Source.DocumentAway, Source.AudioAway, Source.VideoAway]);
/** Sources read from all their bytes: a PDF's pages and a file's seconds may be anywhere in it. */
const WHOLE: ReadonlySet<number> = new Set([Source.Pdf, Source.Audio, Source.Video]);

/**
 * Measures the media `parts` (each with its field, for errors): sets each one's `tokens`
 * (added to what it held: a signature's) and `measured`. Returns what the rules noted of
 * the parts counted at a bound; throws a TypeError naming a part that cannot be counted,
 * before anything is set.
 */
export function measureMedia(parts: ReadonlyArray<{ part: NeutralPart; field: string }>, o: MediaRules): MediaNote[] {
  if (parts.length === 0) return [];
  const run = (list: ReadonlyArray<{ part: NeutralPart; field: string }>, whole: boolean) => {
    const sources = Uint8Array.from(list, ({ part }) => sourceOf(part));
    const chunks = list.map(({ part }, i) => {
      if (AWAY.has(sources[i])) return [new Uint8Array(0), true] as const;
      return bytesOf(part.media!, whole || WHOLE.has(sources[i]) ? undefined : HEADER_BYTES);
    });
    const lens = Uint32Array.from(chunks, ([b]) => b.length);
    const bytes = new Uint8Array(lens.reduce((a, b) => a + b, 0));
    let at = 0;
    for (const [b] of chunks) {
      bytes.set(b, at);
      at += b.length;
    }
    const details = Uint8Array.from(list, ({ part }) => DETAIL[part.media!.detail ?? 'auto'] ?? 0);
    const complete = Uint8Array.from(chunks, ([, all]) => (all ? 1 : 0));
    return { sources, out: rules.measureMedia(o.rule, sources, details, bytes, lens, complete) };
  };
  // Every part measured, and every count checked, before any part is changed.
  const found: Array<{ at: number; sources: Uint8Array; out: Float64Array; i: number }> = [];
  const first = run(parts, false);
  const again: number[] = [];
  parts.forEach((_, i) => {
    if (first.out[STRIDE * i + 4] === 1) again.push(i);
    else found.push({ at: i, ...first, i });
  });
  if (again.length) {
    const whole = run(again.map((i) => parts[i]), true);
    again.forEach((at, j) => found.push({ at, ...whole, i: j }));
  }
  const notes: MediaNote[] = [];
  const settled = found.map(({ at, sources, out, i }) => {
    const { part, field } = parts[at];
    const row = out.subarray(STRIDE * i, STRIDE * i + STRIDE);
    const note = row[7];
    if (note >= 0) {
      const amount = row[6] > 0 ? row[6] : row[3];
      // Throws the rules' TypeError for a part that cannot be counted.
      const [code, message] = frameTexts(checked(() => rules.mediaNote(note, sources[i], field, row[0], amount)));
      notes.push({ code: code as WarningCode, message });
    }
    return { part, field, row };
  });
  for (const { part, field, row } of settled) settle(part, row, field, o);
  return notes;
}

function settle(part: NeutralPart, row: Float64Array, field: string, o: MediaRules): void {
  const ref = part.media!;
  const [tokens, width, height, pages, , format] = row;
  if (ref.kind === 'image' && ref.mediaType === '' && format >= 0) {
    ref.mediaType = IMAGE_MEDIA_TYPES[format];
    part.label = ref.mediaType;
  }
  part.measured = { width, height, pages };
  // What the part held already is billed beside it (a signature on a signed image).
  const beside = part.tokens ?? 0;
  part.tokens = beside + tokens;
  // The host's function counts images and documents; audio and video are the rules' alone.
  if (!o.tokens || (ref.kind !== 'image' && ref.kind !== 'document')) return;
  const info: MediaInfo = { kind: ref.kind, mediaType: ref.mediaType, width, height, pages, detail: ref.detail ?? 'auto', tokens };
  const given = o.tokens(info);
  if (typeof given !== 'number' || !Number.isFinite(given) || given < 0) {
    throw argumentError(typeof given === 'number' ? RangeError : TypeError, `${o.field}()`, `must return a finite number >= 0 for ${field}, got ${describe(given)}`);
  }
  part.tokens = beside + given;
}
