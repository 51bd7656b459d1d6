// What every provider's messages become for the rules, and what the rules' plan becomes
// again: each adapter (one file per provider shape) reads one host message into parts,
// and writes a request from a plan. Nothing here decides: the rules say what is shown.
import type { ContextFormat, ToolSpec } from '../core/types.js';
import { argumentError } from '../errors/index.js';
import { describe, isObject, type Bag } from '../core/read.js';


/** The rules' codes of a part's kind and a message's role: plain constants, written from the rules' tables (core/protocol.ts). */
export { Kind, Role } from '../core/protocol.js';

/** Shown as kept: no part changed, no call unanswered. Shared, so a kept message's plan entry costs one object. */
export const WHOLE: ReadonlyArray<undefined> = Object.freeze([]);
export const NONE: ReadonlyArray<never> = Object.freeze([]);

const paths = new Map<string, string>();
/** One string per path, however many messages hold it: a kept part's path costs nothing per message. */
export function intern(path: string): string {
  const known = paths.get(path);
  if (known !== undefined) return known;
  if (paths.size < 4096) paths.set(path, path);
  return path;
}

/**
 * A message's `content`, a string or a list of parts, with each part shown as `shown`
 * says: a text in its place (`show` writes it into the part), or, for `null`, left out
 * when `drop` (a request) and kept when not (a message rewritten in memory).
 */
export function shownContent(
  content: unknown, shown: ReadonlyArray<string | null | undefined>, drop: boolean,
  // OpenAI's refusal part holds its text in `refusal`; every other text part in `text`.
  show: (part: Bag, text: string) => Bag = (part, text) => (part.type === 'refusal' ? { ...part, refusal: text } : { ...part, text }),
): unknown {
  if (typeof content === 'string') return typeof shown[0] === 'string' ? shown[0] : shown[0] === null && drop ? '' : content;
  return (content as Bag[]).flatMap((p, i) => {
    const s = shown[i];
    return s === null ? (drop ? [] : [p]) : s === undefined ? [p] : [show(p, s)];
  });
}

/** A part's path, `content[2]`. */
export function slot(name: string, k: number): string {
  return intern(`${name}[${k}]`);
}

/** How an OpenAI image is looked at. */
export type ImageDetail = 'auto' | 'low' | 'high' | 'original';

/**
 * An image, a document, audio or video in a message: its bytes, or where they are
 * (`media.ts` reads and writes them). Audio and video are measured, never stored.
 */
export interface MediaRef {
  kind: 'image' | 'document' | 'audio' | 'video';
  /** `image/png`, `application/pdf`, … (`''` when the message does not say). */
  mediaType: string;
  /** Its bytes: base64 text, or the bytes. */
  data?: string | Uint8Array;
  /** Where the provider fetches it, when its bytes are not in the message. */
  url?: string;
  /** A provider's file id, when its bytes are not in the message. */
  fileId?: string;
  detail?: ImageDetail;
}

/** What the rules measured of a media part. */
export interface Measured {
  width: number;
  height: number;
  pages: number;
}

/** One part of a message. */
export interface NeutralPart {
  kind: number;
  /** What is counted, cut and summarized: the text, a call's arguments, a result's output. */
  text: string;
  /** A call's or result's tool name (the label in placeholders); '' otherwise. */
  label: string;
  /** A call's id, or the id of the call a result answers. */
  id?: string;
  /** What the store keeps when the part is stored: its whole text, as the host gave it. */
  raw?: string;
  /**
   * Tokens counted by a stated rule, added to the count of `text`: fields no counter can
   * read (`encrypted_content`, a signature), and an image's or a document's, which the
   * rules measure from `media` as the message is appended.
   */
  tokens?: number;
  /** Text the part's block holds beside `text` and keeps however the part is shown (a fetched page's URL and date): counted, never cut. */
  extra?: string;
  /** An image or a document (`Kind.Image`, `Kind.Document`): its bytes, or where they are. */
  media?: MediaRef;
  /** What the rules measured of `media`. */
  measured?: Measured;
  /** The part's path inside its message, for errors: `content[2]`. */
  path: string;
  /** The path of its call id, for errors: `content[2].tool_use_id`. */
  idPath?: string;
  /** The entry of the message's content it is read from (its block, or its part); parts of one entry share it. */
  block?: number;
  /** For a part read from inside an entry (an image in a tool result): its index in that entry's own list. */
  inner?: number;
}

/** One message, as the rules see it, with the host's own message kept to write it back. */
export interface NeutralMessage {
  role: number;
  parts: NeutralPart[];
  source: unknown;
}

/** A message as the plan writes it. */
export interface PlannedMessage {
  source: unknown;
  neutral: NeutralMessage;
  /** Per part: `undefined` whole, a string shown instead, `null` left out. */
  shown: ReadonlyArray<string | null | undefined>;
  /** Calls of this message that get a marked result. */
  unanswered: ReadonlyArray<{ id: string; name: string }>;
  /** The message's last block carries a cache breakpoint. */
  breakpoint: boolean;
}

/** Everything a request holds, in order. */
export interface Plan {
  system: string | undefined;
  pinned: string[];
  fixedBreakpoint: boolean;
  /** The summary message's text, when there is one. */
  summary: string | undefined;
  summaryBreakpoint: boolean;
  messages: PlannedMessage[];
  /** How many of `messages` come before the summary and the note for dropped turns: 1 when the opening message is kept (`keepFirstMessage`), else 0. */
  summaryAt: number;
  /** The host's text after the conversation (the runner's plan), '' for none. */
  tail: string;
  /** The earliest turns were dropped, with no summary in their place. */
  leftOut: boolean;
  /** The marked result of an unanswered call, and the note for a request whose first turns were dropped. */
  unansweredText: string;
  leftOutText: string;
  /** Place cache breakpoints where the provider takes them. */
  cacheControl: boolean;
}

/** The input tokens a provider reported, with its cache's part where it says. */
export interface UsageFigures {
  input: number;
  read?: number;
  write?: number;
}

/** A tool as the rules define it (the recall tool): its name, what it does, its JSON Schema. */
// Defined with the public types: `recallSpec()` gives it to hosts.
export type { ToolSpec };

/** A tool call as a provider's message holds it: the call's id, the tool, and its input (`undefined`: arguments that are not JSON). */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** One provider shape: how its messages are read, written and billed. */
export interface Adapter {
  /** The host's format, or `text`: the runner's one-string prompt. */
  readonly format: ContextFormat | 'text';
  /** Tokens the provider adds per message and per part, and the request's own headings, before calibration. */
  readonly framing: { message: number; part: number; request?: number };
  /** The parts of one message; throws a TypeError naming `field` and the bad member. */
  read(message: unknown, field: string): NeutralMessage;
  /** The request a plan describes. */
  write(plan: Plan): { system?: unknown; messages: unknown[] };
  /** `source` with each part that `shown` gives a text shown as that text (`null`: left as it is): a message of the same shape, parts in place. */
  rewrite(source: unknown, neutral: NeutralMessage, shown: ReadonlyArray<string | null | undefined>): unknown;
  /** A scheduled reminder as a message at the tail: a system message where the provider takes one mid-conversation, a user message otherwise. */
  reminder?(text: string): unknown;
  /** The provider's usage object, as its SDK returns it. */
  usage(usage: unknown, field: string): UsageFigures;
  /**
   * For a format whose messages are class instances: a message as JSON data (for a
   * snapshot or a session's row), throwing a TypeError naming `field` for a part JSON
   * cannot hold; and such data made a message of the host's classes again.
   */
  plain?(message: unknown, field: string): unknown;
  revive?(data: unknown): unknown;
  /** A tool's definition in this provider's shape, to pass with the host's own tools. */
  tool?(spec: ToolSpec): unknown;
  /** A tool call as this provider's response holds it; a TypeError naming `field` for anything else. */
  toolCall?(call: unknown, field: string): ToolCall;
  /** The message that answers call `call` with `text` (and the image or document `media`, where the shape can carry one), to append as the host appends its tools' results. */
  toolResult?(call: ToolCall, text: string, media?: MediaRef): unknown;
  /**
   * What a part shown by a line still holds beside it, where the provider's block takes
   * no edit of its own (a web search's error code, a computer call's 1 × 1 screenshot):
   * billed with the line.
   */
  shownExtra?(part: NeutralPart): { text?: string; media?: MediaRef } | undefined;
  /** Whether a tool result of this shape can hold an image or a document (a Chat Completions tool message holds text only). Default true. */
  readonly carriesMedia?: boolean;
  /** `source` with the bytes of its media parts `parts` let go (stored, and shown by a line from now on): a message of the same shape. */
  strip?(source: unknown, neutral: NeutralMessage, parts: readonly number[]): unknown;
}

/** A call's arguments as JSON text, parsed; `undefined` when they are not JSON. */
export function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A TypeError for a message that does not fit its format. */
export function shapeError(field: string, expected: string, value: unknown): Error {
  return argumentError(TypeError, field, `must be ${expected}, got ${describe(value)}`);
}

/**
 * Refuses a message with a field its provider's message does not have: an SDK's whole
 * response appended as a message (its `id`, `model`, `usage` beside `role` and `content`)
 * would send those on in the next request. The TypeError names the first such field.
 */
export function onlyFields(m: Bag, fields: ReadonlySet<string>, field: string, shape: string): void {
  for (const key of Object.keys(m)) {
    if (fields.has(key) || m[key] === undefined) continue;
    throw argumentError(TypeError, `${field}.${key}`, `is not a field of ${shape}: append the message (its role and content), not the whole response`);
  }
}

export function bag(field: string, value: unknown): Bag {
  if (!isObject(value)) throw shapeError(field, 'an object', value);
  return value;
}

export function text(field: string, value: unknown): string {
  if (typeof value !== 'string') throw shapeError(field, 'a string', value);
  return value;
}

/** A number a usage object must hold. */
export function count(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw argumentError(typeof value === 'number' ? RangeError : TypeError, field, `must be a finite number >= 0, got ${describe(value)}`);
  }
  return value;
}

/** A count a usage object may hold. */
export function optionalCount(field: string, value: unknown): number | undefined {
  return value === undefined || value === null ? undefined : count(field, value);
}

/** JSON of a value the host gave (a call's input), or its description when it has none. */
export function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** Tokens an image or other binary part is assumed to take. */
export const OPAQUE_TOKENS = 1_600;
