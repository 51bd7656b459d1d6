// Gemini (`@google/genai` `models.generateContent`: `Content`, `Part`, `GenerateContentResponseUsageMetadata`).
// A request is `contents` of roles `user` and `model`, with the system prompt as
// `systemInstruction`. Each `functionCall` of a model content is answered by a
// `functionResponse` in the user content right after it, by `id` where the call has one,
// else by name and order (the history pairs them, for every format alike). A part's
// `thoughtSignature` rides on that part byte for byte: the part is kept whole, or shown
// by a line with the signature still on it, never rebuilt without it.
import type { Bag } from '../../core/read.js';
import { decodeBase64 } from '../../core/base64.js';
import { base64Of, mediaPart, wholeMedia } from '../media.js';
import {
  type Adapter, type MediaRef, type NeutralMessage, type NeutralPart, type Plan, Kind, OPAQUE_TOKENS, Role, bag, count, intern, json, onlyFields,
  optionalCount, parsedArguments, shapeError, slot, text,
} from '../neutral.js';

/** A `Content`'s fields: the API takes no other. */
const FIELDS = new Set(['role', 'parts']);
const ROLES: Record<string, number> = { user: Role.User, model: Role.Assistant };

/** Tokens of a field no counter can read (a `thoughtSignature`): a token per 4 characters, as for the other providers' signatures. */
const opaque = (value: unknown): number => (typeof value === 'string' ? Math.ceil(value.length / 4) : 0);

/** Media types whose bytes are text a counter reads: `text/*`, and JSON, XML, YAML, JavaScript and the like. */
const TEXTUAL = /^(text\/|application\/(json|xml|x-yaml|yaml|javascript|x-javascript|ecmascript|csv|x-sh|x-python|sql|graphql|rtf|x-tex|ld\+json)$|application\/[\w.+-]+\+(json|xml)$)/;

/** Base64 read as UTF-8 text; `undefined` for bytes that are not. */
function utf8(data: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(decodeBase64(data.replace(/\s+/g, '')));
  } catch {
    return undefined;
  }
}

/**
 * An `inlineData` or `fileData` as what it is: an image, a document, audio or video (its
 * bytes, or where they are), or text (a text file's bytes, read as UTF-8). `undefined` for
 * anything else: other binary data, or text held elsewhere, which no rule here measures.
 */
function mediaOf(part: Bag, field: string): { ref: MediaRef } | { text: string; mediaType: string } | undefined {
  const inline = part.inlineData !== undefined;
  const d = bag(`${field}.${inline ? 'inlineData' : 'fileData'}`, inline ? part.inlineData : part.fileData);
  const mediaType = typeof d.mimeType === 'string' ? d.mimeType : '';
  const type = mediaType.toLowerCase();
  const kind = type.startsWith('image/') ? 'image' : type === 'application/pdf' ? 'document' : type.startsWith('audio/') ? 'audio' : type.startsWith('video/') ? 'video' : undefined;
  if (kind !== undefined) {
    return { ref: inline ? { kind, mediaType, data: text(`${field}.inlineData.data`, d.data) } : { kind, mediaType, url: text(`${field}.fileData.fileUri`, d.fileUri) } };
  }
  if (!inline || !TEXTUAL.test(type)) return undefined;
  const body = utf8(text(`${field}.inlineData.data`, d.data));
  return body === undefined ? undefined : { text: body, mediaType };
}

/** Part `k` of a content as the rules' parts: one for most, more for a response that holds images. */
function readPart(p: unknown, field: string, k: number): NeutralPart[] {
  const part = bag(field, p);
  const path = slot('parts', k);
  const signed = opaque(part.thoughtSignature);
  const one = (n: Omit<NeutralPart, 'path' | 'block'>): NeutralPart[] => [{ ...n, path, block: k, ...(signed ? { tokens: (n.tokens ?? 0) + signed } : {}) }];
  if (part.functionCall !== undefined) {
    const fc = bag(`${field}.functionCall`, part.functionCall);
    const id = fc.id === undefined ? undefined : text(`${field}.functionCall.id`, fc.id);
    return one({ kind: Kind.Call, text: json(fc.args ?? {}), label: text(`${field}.functionCall.name`, fc.name), ...(id === undefined ? {} : { id }) });
  }
  if (part.functionResponse !== undefined) {
    const fr = bag(`${field}.functionResponse`, part.functionResponse);
    const id = fr.id === undefined ? undefined : text(`${field}.functionResponse.id`, fr.id);
    // A response of one text (`{ output }` or `{ error }`, as the API asks) is that text; any other is its JSON.
    const r = (fr.response ?? {}) as Bag;
    const keys = Object.keys(r);
    const output = keys.length === 1 && (keys[0] === 'output' || keys[0] === 'error') && typeof r[keys[0]] === 'string' ? (r[keys[0]] as string) : json(r);
    const parts = one({
      kind: Kind.Result, text: output, raw: output, label: text(`${field}.functionResponse.name`, fr.name),
      ...(id === undefined ? {} : { id, idPath: intern(`${path}.functionResponse.id`) }),
    });
    if (Array.isArray(fr.parts)) {
      const texts: string[] = [];
      fr.parts.forEach((inner, i) => {
        const at = `${field}.functionResponse.parts[${i}]`;
        const b = bag(at, inner);
        const read = b.inlineData !== undefined || b.fileData !== undefined ? mediaOf(b, at) : undefined;
        // An image names the call of its response by id; a response without one holds it as its content's own.
        if (read && 'ref' in read && (read.ref.kind === 'image' || read.ref.kind === 'document')) {
          parts.push({ ...mediaPart(read.ref, intern(`${path}.functionResponse.parts[${i}]`), id), block: k, inner: i });
        } else if (read && 'text' in read) texts.push(read.text);
      });
      // A text file beside the output: counted with it, and kept however the output is shown.
      if (texts.length) parts[0].extra = texts.join('\n');
    }
    return parts;
  }
  if (part.inlineData !== undefined || part.fileData !== undefined) {
    const read = mediaOf(part, field);
    // A text file: counted as its text, kept whole (an attachment, not words the user wrote).
    if (read && 'text' in read) return one({ kind: Kind.Opaque, text: read.text, label: read.mediaType });
    if (read === undefined) return one({ kind: Kind.Opaque, text: '', label: 'media', tokens: OPAQUE_TOKENS });
    const ref = read.ref;
    if ((ref.kind === 'image' || ref.kind === 'document') && !signed) return [{ ...mediaPart(ref, path), block: k }];
    // Audio and video, by their seconds; a signed image or document, by its rule, its
    // signature on it byte for byte: measured, never stored or shown by a line.
    return one(wholeMedia(ref, path, ref.mediaType || ref.kind));
  }
  if (part.text !== undefined) {
    const t = text(`${field}.text`, part.text);
    // A thought summary is the model's reasoning: kept whole or dropped whole. A signed text
    // part carries its signature on it, so it is kept as it is.
    if (part.thought === true) return one({ kind: Kind.Thinking, text: t, label: '' });
    return one({ kind: signed ? Kind.Opaque : Kind.Text, text: t, label: '' });
  }
  // The provider's own parts (`executableCode` and its `codeExecutionResult`, a server
  // tool's `toolCall` and `toolResponse`): run by the provider, passed back as they are,
  // counted as the JSON they are.
  return one({ kind: Kind.Opaque, text: json(part), label: Object.keys(part)[0] ?? 'part' });
}

/** Part `p` shown as `s`: the same kind of part where it takes the text, its signature still on it. */
function shownPart(p: Bag, s: string): Bag {
  if (p.functionResponse !== undefined) return { ...p, functionResponse: { ...(p.functionResponse as Bag), response: { output: s } } };
  if (p.functionCall !== undefined) {
    const args = parsedArguments(s);
    return args !== null && typeof args === 'object' && !Array.isArray(args) ? { ...p, functionCall: { ...(p.functionCall as Bag), args } } : p;
  }
  if (p.text !== undefined) return { ...p, text: s };
  // An image or a document: a text part in its place.
  return { text: s };
}

/** `source`'s parts shown as `shown` says (`drop`: a `null` part is left out, else kept). */
function shownParts(source: Bag, neutral: NeutralMessage, shown: ReadonlyArray<string | null | undefined>, drop: boolean): Bag[] {
  const list = source.parts as Bag[];
  const byBlock = new Map<number, Array<string | null | undefined>>();
  neutral.parts.forEach((p, j) => {
    const b = p.block ?? j;
    if (!byBlock.has(b)) byBlock.set(b, []);
    byBlock.get(b)!.push(shown[j]);
  });
  return list.flatMap((p, b) => {
    const mine = byBlock.get(b) ?? [];
    const own = mine[0];
    if (own === null) return drop ? [] : [p];
    if (typeof own === 'string') return [shownPart(p, own)];
    // A response's images shown by lines: their lines after its output.
    const lines = mine.slice(1).filter((s): s is string => typeof s === 'string');
    if (lines.length === 0) return [p];
    const fr = p.functionResponse as Bag;
    const kept = (fr.parts as Bag[]).filter((_, i) => typeof mine[i + 1] !== 'string');
    return [{ ...p, functionResponse: { ...fr, parts: kept, response: { ...((fr.response as Bag) ?? {}), images: lines } } }];
  });
}

/**
 * Where a part goes in a user content the writer joins: the host's responses, then the
 * marked responses of calls left unanswered, then anything else. Without ids, Gemini pairs
 * responses with calls by name and order, and the rules pair a response with the first
 * call of its name still open, so the calls left open are the last of their name: their
 * marked responses must follow the real ones, or each real one answers the call before it.
 */
const owedParts = new WeakSet<Bag>();
const placeOf = (p: Bag) => (p.functionResponse === undefined ? 2 : owedParts.has(p) ? 1 : 0);

export const gemini: Adapter = {
  format: 'gemini',
  framing: { message: 3, part: 1 },

  read(message, field) {
    const m = bag(field, message);
    const role = typeof m.role === 'string' && Object.hasOwn(ROLES, m.role) ? ROLES[m.role] : undefined;
    if (role === undefined) throw shapeError(`${field}.role`, "'user' or 'model'", m.role);
    onlyFields(m, FIELDS, field, 'a Gemini content (Content)');
    if (!Array.isArray(m.parts)) throw shapeError(`${field}.parts`, 'an array of parts', m.parts);
    if (m.parts.length === 0) throw shapeError(`${field}.parts`, 'an array of at least one part (the API refuses an empty content)', m.parts);
    const parts = m.parts.flatMap((p, k) => readPart(p, `${field}.parts[${k}]`, k));
    return { role, parts, source: message };
  },

  write(plan: Plan) {
    const out: Bag[] = [];
    const push = (m: Bag) => {
      const prev = out[out.length - 1];
      // Roles alternate: a content of the role of the one before joins it, its responses first.
      if (prev && prev.role === m.role) {
        const parts = [...(prev.parts as Bag[]), ...(m.parts as Bag[])];
        if (m.role === 'user') parts.sort((a, b) => placeOf(a) - placeOf(b));
        out[out.length - 1] = { ...prev, parts };
      } else out.push(m);
    };
    const folded = () => {
      if (plan.summary !== undefined) push({ role: 'user', parts: [{ text: plan.summary }] });
      if (plan.leftOut) push({ role: 'user', parts: [{ text: plan.leftOutText }] });
    };
    plan.messages.forEach((pm, i) => {
      if (i === plan.summaryAt) folded();
      const source = pm.source as Bag;
      const changed = pm.shown.some((s) => s !== undefined);
      const parts = changed ? shownParts(source, pm.neutral, pm.shown, true) : (source.parts as Bag[]);
      if (parts.length) push(changed ? { ...source, parts } : source);
      const owed = pm.unanswered.map((c) => {
        const part: Bag = { functionResponse: { ...(c.id ? { id: c.id } : {}), name: c.name, response: { error: plan.unansweredText } } };
        owedParts.add(part);
        return part;
      });
      if (owed.length) push({ role: 'user', parts: owed });
    });
    if (plan.summaryAt >= plan.messages.length) folded();
    // A request opens with a user content.
    if (out.length === 0 || out[0].role !== 'user') out.unshift({ role: 'user', parts: [{ text: plan.leftOutText }] });
    const fixed = [plan.system, ...plan.pinned].filter((t): t is string => t !== undefined && t !== '');
    return fixed.length ? { system: fixed.join('\n\n'), messages: out } : { messages: out };
  },

  rewrite(source, neutral, shown) {
    const m = source as Bag;
    return { ...m, parts: shownParts(m, neutral, shown, false) };
  },

  strip(source, neutral, parts) {
    const m = source as Bag;
    const list = [...(m.parts as Bag[])];
    for (const k of parts) {
      const part = neutral.parts[k];
      const b = part.block ?? k;
      const p = list[b];
      const empty = (x: Bag): Bag => (x.inlineData !== undefined ? { ...x, inlineData: { ...(x.inlineData as Bag), data: '' } } : x);
      if (part.inner === undefined) list[b] = empty(p);
      else {
        const fr = p.functionResponse as Bag;
        list[b] = { ...p, functionResponse: { ...fr, parts: (fr.parts as Bag[]).map((x, i) => (i === part.inner ? empty(x) : x)) } };
      }
    }
    return { ...m, parts: list };
  },

  reminder(text) {
    return { role: 'user', parts: [{ text }] };
  },

  tool: (spec) => ({ functionDeclarations: [{ name: spec.name, description: spec.description, parametersJsonSchema: spec.parameters }] }),

  toolCall(call, field) {
    // A part of the response's content, or a `FunctionCall` as `response.functionCalls` lists it.
    const c = bag(field, call);
    const at = c.functionCall !== undefined ? `${field}.functionCall` : field;
    const fc = c.functionCall !== undefined ? bag(at, c.functionCall) : c;
    if (typeof fc.name !== 'string') throw shapeError(`${at}.name`, 'a string (a functionCall part, or a FunctionCall)', fc.name);
    const id = fc.id === undefined ? '' : text(`${at}.id`, fc.id);
    return { id, name: fc.name, input: fc.args ?? {} };
  },

  toolResult(call, output, media) {
    const response: Bag = { ...(call.id ? { id: call.id } : {}), name: call.name, response: { output } };
    if (media) {
      response.parts = [media.data !== undefined ? { inlineData: { mimeType: media.mediaType, data: base64Of(media) } } : { fileData: { mimeType: media.mediaType, fileUri: media.url ?? media.fileId ?? '' } }];
    }
    return { role: 'user', parts: [{ functionResponse: response }] };
  },

  usage(usage, field) {
    const u = bag(field, usage);
    // promptTokenCount is the whole prompt, the cached content's tokens included.
    return { input: count(`${field}.promptTokenCount`, u.promptTokenCount), read: optionalCount(`${field}.cachedContentTokenCount`, u.cachedContentTokenCount) };
  },
};
