// One build, as the rules drive it (crates/rules/src/context/build.rs): the rules say what
// they need next (`Need::encode`: its kind, then its fields), this does it in JS (store a
// text, show a part as a placeholder or a cut, summarize, store what left the request),
// answers, and asks again, until the request is done; then it is written from the plan.
// Every change is noted in the build's `Undo`, so a failure takes all of it back.
import { checked, errorText } from '../errors/index.js';
import { frameText } from '../core/frame.js';
import { callMethod, string, type Bag } from '../core/read.js';
import { within } from '../core/timeout.js';
import { count } from '../tokens/count.js';
import { rules } from '../core/wasm.js';
import type { Adapter } from '../providers/neutral.js';
import { Kind, NeedKind } from './codes.js';
import { type Core, type History, namesOf } from './history.js';
import { cutText, ownText, planOf, shortenedCall } from './render.js';
import type { StoreOptions, StoredTexts } from './texts.js';
import type { Undo } from './undo.js';
import { measureMedia, type MediaRules } from './media.js';
import { mediaPart } from '../providers/media.js';
import type { ContextWarning, LedgerRecord } from './types.js';

export interface EngineOptions extends StoreOptions {
  /** Names the options in errors: `options`, or `options.bounded`. */
  field: string;
  adapter: Adapter;
  budget: number;
  /** The options the rules read, by name: NaN for a default. */
  options: { names: readonly string[]; values: Float64Array };
  summarizer: Bag | undefined;
  /** No bound when undefined: a session bounds the host's summarizer itself, not its wait for another worker's. */
  summarizerTimeoutMs: number | undefined;
  /** The summarizing instruction: the host's `summaryPrompt`, or the built-in one. */
  summaryPrompt: string;
  system: string | undefined;
  pinned: string[];
  cacheControl: boolean;
  calibrate: boolean;
  /** How images and documents are counted. */
  media: MediaRules;
}

/** A request as the adapter writes it. */
export interface Request {
  system?: unknown;
  messages: unknown[];
}

/** One built request: what to send, its record, and the warnings with their host errors. */
export interface Built {
  request: Request;
  record: LedgerRecord;
  warnings: ContextWarning[];
}

/** The texts the engine holds besides the messages, which a build reads and changes. */
export class Held {
  summary = '';
  /** The host's text after the conversation (the runner's plan). */
  tail = '';
  /** The request last built, for a summarizer that reads its prefix from the cache. */
  lastRequest: Request | undefined = undefined;
}

/** What a build works on: the engine's parts. */
export interface Building {
  core: Core;
  o: EngineOptions;
  history: History;
  texts: StoredTexts;
  held: Held;
  undo: Undo;
  /** The counter's name, for the record. */
  counterName: string;
}

/** Builds the request as the rules plan it, storing and summarizing as they ask. Opens no journal. */
export async function build(b: Building, started: number): Promise<Built> {
  const { core, o, history, texts, held } = b;
  const failures = { store: [] as unknown[], summarizer: [] as unknown[] };
  let need = checked(() => core.plan());
  while (need[0] !== NeedKind.Done) {
    const [kind, a, c, d, e] = need;
    if (kind === NeedKind.Persist) {
      const [id, line] = await texts.persist(a, c, failures.store);
      need = checked(() => core.persisted(id, line));
    } else if (kind === NeedKind.PersistSpan) {
      const [id, line] = await texts.persistSpan(a, c, failures.store);
      need = checked(() => core.span_persisted(id, line));
    } else if (kind === NeedKind.PersistGroup) {
      const [id, line] = await texts.persistGroup(a, failures.store);
      need = checked(() => core.group_persisted(id, line));
    } else if (kind === NeedKind.MergeSpans) {
      const [id, line] = await texts.mergeSpans(a, failures.store);
      need = checked(() => core.spans_merged(id, line));
    } else if (kind === NeedKind.Placeholder) {
      const tokens = show(b, a, c, texts.placeholder(a, c));
      need = checked(() => core.measured(tokens));
    } else if (kind === NeedKind.Cut) {
      const part = history.messages[a].parts[c];
      const id = core.store_id(a, c);
      // A call's input is cut as the JSON its tool takes; anything else, head and tail.
      const call = part.kind === Kind.Call || part.kind === Kind.ServerCall ? shortenedCall(part.text, d + e, id) : undefined;
      const tokens = show(b, a, c, call ?? cutText(part.text, d, e, id));
      need = checked(() => core.measured(tokens));
    } else if (kind === NeedKind.Summarize) need = await summarize(b, a, c, failures.summarizer);
    else if (kind === NeedKind.TooLarge) {
      // Nothing more can go: refused, naming the part as the host wrote it; the caller takes the build back.
      const path = history.messages[a]?.parts[c]?.path;
      checked(() => core.too_large(a, c, path ? `messages[${a}].${path}` : `messages[${a}]`));
    } else throw Object.assign(new Error(`context engine: unknown need ${kind}`), { code: 'ERR_INTERNAL' });
  }
  const encoded = checked(() => core.render(o.system !== undefined || o.pinned.length > 0));
  // Read from the rules only when a step asks (a crossing most builds need not make).
  let has: boolean | undefined;
  const hasSummary = () => (has ??= core.has_summary);
  const request = o.adapter.write(planOf(encoded, history, {
    system: o.system, pinned: o.pinned, cacheControl: o.cacheControl, tail: held.tail, hasSummary,
    summary: () => [hasSummary() ? ownText(0, held.summary) : '', texts.indexText()].filter(Boolean).join('\n\n'),
  }));
  const before = held.lastRequest;
  b.undo.push(() => {
    held.lastRequest = before;
  });
  held.lastRequest = request;
  const record = JSON.parse(core.ledger(performance.now() - started, b.counterName)) as LedgerRecord;
  return { request, record, warnings: explain(record, failures) };
}

/** Shows part `k` of message `i` as `text`; its tokens. */
function show(b: Building, i: number, k: number, text: string): number {
  b.history.show(i, k, text);
  let tokens = count(b.o.counter, text, 'placeholder') + b.o.adapter.framing.part;
  const part = b.history.messages[i].parts[k];
  // What its block keeps beside the text shown (a fetched page's URL), and, where the
  // provider's field must still hold an image (a computer call's screenshot), the stand-in
  // the adapter writes, are billed too.
  if (part.extra) tokens += count(b.o.counter, part.extra, 'placeholder');
  const named = namesOf(part);
  if (named !== '') tokens += count(b.o.counter, named, 'placeholder');
  const beside = b.o.adapter.shownExtra?.(part);
  if (beside?.text) tokens += count(b.o.counter, beside.text, 'placeholder');
  if (beside?.media) {
    const measured = mediaPart(beside.media, part.path);
    measureMedia([{ part: measured, field: part.path }], b.o.media);
    tokens += measured.tokens ?? 0;
  }
  return tokens;
}

/** Summarizes messages `from..to` with the host's summarizer, or says it failed: the rules' next need. */
async function summarize(b: Building, from: number, to: number, failed: unknown[]): Promise<Float64Array> {
  const { core, o, history, held } = b;
  const summarizer = o.summarizer;
  if (!summarizer) return checked(() => core.no_summarizer());
  const hosts = [o.summaryPrompt, held.summary];
  for (let i = from; i < to; i++) {
    const m = history.messages[i];
    m.parts.forEach((p, k) => {
      const shown = m.display?.[k];
      // An image or a document is named by its store id, never given by its bytes.
      hosts.push(p.media ? core.store_id(i, k) ?? '' : shown === null ? '' : shown ?? p.text, history.label(i, k));
    });
  }
  const prompt = frameText(core.summarizer_prompt(from, to), hosts);
  const args: unknown[] = [prompt];
  const last = held.lastRequest;
  if (last && o.adapter.format !== 'text') {
    // The request as it was sent, then the instruction: its prefix is in the provider's cache.
    const end = history.messages[to - 1]?.parts.find((p) => p.kind === Kind.Text)?.text ?? '';
    const instruction = frameText(core.summarizer_instruction(from, to), [end.slice(0, 100), o.summaryPrompt]);
    args.push({ ...last, messages: [...last.messages, o.adapter.reminder!(instruction)] });
  }
  let summary: string;
  try {
    const answer = await within(o.summarizerTimeoutMs, Promise.resolve(callMethod(summarizer, 'summarize', 'summarizer.summarize', args)), 'summarizer.summarize', 'summarizerTimeoutMs');
    summary = string('summarizer.summarize()', answer);
    if (rules.isBlank(summary)) throw new TypeError('summarizer.summarize() returned an empty text');
  } catch (error) {
    failed.push(error);
    return checked(() => core.summary_failed());
  }
  // Counted as sent: in the manager's wrapper, with a message's framing.
  const tokens = count(o.counter, ownText(0, summary), 'summarizer.summarize()') + o.adapter.framing.message;
  const need = checked(() => core.summarized(tokens));
  if (core.has_summary && core.first_live === to) {
    const before = held.summary;
    b.undo.push(() => {
      held.summary = before;
    });
    held.summary = summary;
  }
  return need;
}

/** The record's warnings, each with the host error behind it. */
function explain(record: LedgerRecord, failures: { store: unknown[]; summarizer: unknown[] }): ContextWarning[] {
  const queue: Record<string, unknown[]> = { 'store-failed': failures.store, 'summarizer-failed': failures.summarizer };
  return record.warnings.map((w) => {
    const warning: ContextWarning = { request: record.request, code: w.code, message: w.message };
    const errors = queue[w.code];
    if (errors?.length) {
      warning.error = errors[errors.length - 1];
      warning.message = w.message = `${w.message} (${errorText(warning.error)})`;
    }
    return warning;
  });
}
