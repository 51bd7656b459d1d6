// Images and documents measured as they are appended, the way the provider bills them
// (`devs_context_rules::media`): each part's first bytes go to the rules in one crossing
// (all its bytes for a PDF, or for a JPEG whose metadata is long), and its tokens, size
// and pages come back. A host that bills otherwise passes `imageTokens` as a function.
import { argumentError } from '../errors/index.js';
import { describe } from '../core/read.js';
import { rules } from '../core/wasm.js';
import { DetailCode, Source } from '../core/protocol.js';
import { bytesOf } from '../providers/media.js';
import type { NeutralPart } from '../providers/neutral.js';
import type { MediaInfo } from './types.js';

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
  if (ref.kind === 'image') return ref.data === undefined ? Source.ImageAway : Source.Image;
  return ref.data !== undefined && (ref.mediaType === 'application/pdf' || ref.mediaType === '') ? Source.Pdf : Source.DocumentAway;
}

/** Measures the media `parts` (each with its field, for errors): sets each one's `tokens` and `measured`. */
export function measureMedia(parts: ReadonlyArray<{ part: NeutralPart; field: string }>, o: MediaRules): void {
  if (parts.length === 0) return;
  const run = (list: ReadonlyArray<{ part: NeutralPart; field: string }>, whole: boolean) => {
    const sources = Uint8Array.from(list, ({ part }) => sourceOf(part));
    const chunks = list.map(({ part }, i) => {
      const away = sources[i] === Source.ImageAway || sources[i] === Source.DocumentAway;
      return away ? ([new Uint8Array(0), true] as const) : bytesOf(part.media!, whole || sources[i] === Source.Pdf ? undefined : HEADER_BYTES);
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
    return rules.measureMedia(o.rule, sources, details, bytes, lens, complete);
  };
  const out = run(parts, false);
  const again: number[] = [];
  parts.forEach(({ part }, i) => {
    if (out[6 * i + 4] === 1) again.push(i);
    else settle(part, out, i, parts[i].field, o);
  });
  if (again.length) {
    const list = again.map((i) => parts[i]);
    const whole = run(list, true);
    list.forEach(({ part, field }, j) => settle(part, whole, j, field, o));
  }
}

function settle(part: NeutralPart, out: Float64Array, i: number, field: string, o: MediaRules): void {
  const ref = part.media!;
  const [tokens, width, height, pages, , format] = out.subarray(6 * i, 6 * i + 6);
  if (ref.kind === 'image' && ref.mediaType === '' && format >= 0) {
    ref.mediaType = rules.imageMediaType(format);
    part.label = ref.mediaType;
  }
  part.measured = { width, height, pages };
  part.tokens = tokens;
  if (!o.tokens) return;
  const info: MediaInfo = { kind: ref.kind, mediaType: ref.mediaType, width, height, pages, detail: ref.detail ?? 'auto', tokens };
  const given = o.tokens(info);
  if (typeof given !== 'number' || !Number.isFinite(given) || given < 0) {
    throw argumentError(typeof given === 'number' ? RangeError : TypeError, `${o.field}()`, `must return a finite number >= 0 for ${field}, got ${describe(given)}`);
  }
  part.tokens = given;
}
