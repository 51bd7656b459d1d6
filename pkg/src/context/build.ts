// One build, as the rules drive it (crates/rules/src/context/build.rs): the rules say what
// they need next (`Need::encode`: its kind, then its fields), this does it in JS (store a
// text, show a part as a placeholder or a cut, summarize, store what left the request),
// answers, and asks again, until the request is done; then it is written from the plan.
// Every change is noted in the build's `Undo`, so a failure takes all of it back.
import { checked, errorText } from '../errors/index.js';
import { frameText } from '../core/frame.js';
import { callMethod, type Bag } from '../core/read.js';
import { within } from '../core/timeout.js';
import { count } from '../tokens/count.js';
import { rules } from '../core/wasm.js';
import type { Adapter } from '../providers/neutral.js';
import { Kind } from './codes.js';
import { type Answer, decodeNeed, encodeAnswer, type Need } from '../core/protocol.js';
import { type Core, type History, namesOf } from './history.js';
import { cutText, ownText, planOf, shortenedCall } from './render.js';
import type { Describe, StoreOptions, StoredTexts } from './texts.js';
import type { Undo } from './undo.js';
import { measureMedia, type MediaRules } from './media.js';
import { mediaPart } from '../providers/media.js';
import type { ContextWarning, LedgerRecord, SummaryUsage } from './types.js';
import { type Carried, carriedText, joinSummary, splitSummary } from './carry.js';
import { joinWorking, splitWorking, type WorkingOptions, workingSection } from './working.js';
import { type Attributes, type BuildTrace, usageAttributes } from './tracing.js';
import { addUsage, summaryAnswer } from './summary-answer.js';

export interface EngineOptions extends StoreOptions {
  /** Names the options in errors: `options`, or `options.bounded`. */
  field: string;
  adapter: Adapter;
  budget: number;
  /** The options the rules read, by name: NaN for a default. */
  options: { names: readonly string[]; values: Float64Array };
  /** The tools whose calls and results the rules protect, by name, sorted. */
  protectedTools: readonly string[];
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
  /** How the working state is read (`working.ts`). */
  working: WorkingOptions;
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
  /** What its summarizer calls cost, where they said. */
  summaryUsage?: SummaryUsage;
}

/** A summarizer's answer, read. */
type SummaryRead = ReturnType<typeof summaryAnswer>;

/** Summarizer answers a build may take again: enough for the summaries of a few retries. */
const SUMMARIES_KEPT = 8;

/** The texts the engine holds besides the messages, which a build reads and changes. */
export class Held {
  summary = '';
  /** The host's text after the conversation (the runner's plan). */
  tail = '';
  /** The request last built, for a summarizer that reads its prefix from the cache. */
  lastRequest: Request | undefined = undefined;
  /**
   * The summarizer's answers since the last commit, by prompt, with the request they were
   * asked after: a build rolled back (an `onLedger` that threw, say) and tried again asks
   * the same, and is given the same answer instead of paying for it twice. Not taken back
   * by a rollback, as the store ids of texts stored are not (`StoredTexts.storedBefore`);
   * cleared on commit.
   */
  readonly answered = new Map<string, { after: Request | undefined; answer: SummaryRead }>();

  keepAnswer(prompt: string, after: Request | undefined, answer: SummaryRead): void {
    this.answered.delete(prompt);
    this.answered.set(prompt, { after, answer });
    if (this.answered.size > SUMMARIES_KEPT) this.answered.delete(this.answered.keys().next().value as string);
  }
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
  /** The summarizing instruction of the build in flight: `summaryPrompt`, and what `beforeCompaction` added. */
  instruction?: string;
  /** The build in flight's compaction span, when the host traces. */
  trace?: BuildTrace;
  /** What the build in flight's summarizer calls cost, where they said. */
  summaryUsage?: SummaryUsage;
  /** The rules' last reply in the build in flight. */
  last?: Reply;
}

/** Builds the request as the rules plan it, storing and summarizing as they ask. Opens no journal. */
export async function build(b: Building, started: number, instructions?: string, trace?: BuildTrace): Promise<Built> {
  b.instruction = instructions === undefined ? b.o.summaryPrompt : `${b.o.summaryPrompt}\n\n${instructions}`;
  b.trace = trace;
  b.summaryUsage = undefined;
  try {
    const built = await planned(b, started);
    if (b.summaryUsage) built.summaryUsage = b.summaryUsage;
    return built;
  } finally {
    b.instruction = undefined;
    b.trace = undefined;
    b.summaryUsage = undefined;
    b.last = undefined;
  }
}

/** What a build's failed callbacks left, for its warnings. */
interface Failures {
  store: unknown[];
  summarizer: unknown[];
}

/**
 * The rules' reply to a step: their next need (`Need::encode`), then whether a summary is
 * held (a byte) and the first live message (4 bytes, little-endian), read here alone.
 */
interface Reply {
  need: Need;
  hasSummary: boolean;
  firstLive: number;
}

const TRAILER = 5;

const reply = (bytes: Uint8Array): Reply => {
  const at = bytes.length - TRAILER;
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, TRAILER);
  return { need: decodeNeed(bytes.subarray(0, at)), hasSummary: view.getUint8(0) === 1, firstLive: view.getUint32(1, true) };
};

/** The rules' next need, from their reply; the reply kept as the build's last (`Building.last`). */
const next = (b: Building, bytes: () => Uint8Array): Need => (b.last = reply(checked(bytes))).need;

/** Gives the rules the answer to the need in flight, as its journal event: their next need. */
const advance = (b: Building, answer: Answer): Need => next(b, () => b.core.advance(encodeAnswer(answer)));

/** A bug of the package's own: the rules and the shell do not agree. */
const internal = (what: string): never => {
  throw Object.assign(new Error(`context engine: ${what}`), { code: 'ERR_INTERNAL' });
};

/** The rules' reply to what the shell said on the way to an answer (`Event::Described`, `Event::Carried`). */
function told<K extends 'Measure' | 'Fit'>(b: Building, answer: Answer, kind: K): Extract<Need, { kind: K }> {
  const need = advance(b, answer);
  return need.kind === kind ? (need as Extract<Need, { kind: K }>) : internal(`${need.kind}, not ${kind}, came back`);
}

/** Says what the pending need's text is; the body the rules write of it. */
const describer = (b: Building): Describe => (text, args, media) => told(b, { kind: 'Described', text, args, media: [...media] }, 'Measure').body;

/** How many of the protected texts, `tokens` long, a summary carries. */
const fit = (b: Building, tokens: number[]): number => told(b, { kind: 'Carried', tokens }, 'Fit').count;

/** The need to summarize. */
type Summarize = Extract<Need, { kind: 'Summarize' }>;

/** Every need but `Done`, by name: each has its answer below. */
type NeedName = Exclude<Need['kind'], 'Done'>;

/** How the shell answers need `K`: its work in JS, then the rules' next need. */
type Answering<K extends NeedName> = (b: Building, need: Extract<Need, { kind: K }>, failures: Failures) => Need | Promise<Need>;

/**
 * How the shell answers each need the rules can ask, one row per need, by its fields'
 * names (crates/rules/src/context/need.rs `needs!`, written into core/protocol.ts): a need
 * declared without its row here does not compile.
 */
const ANSWERS: { readonly [K in NeedName]: Answering<K> } = {
  Persist: async (b, need, f) => {
    const [id, line] = await b.texts.persist(need, f.store, describer(b));
    return advance(b, { kind: 'Stored', id, line: line ?? NaN });
  },
  PersistSpan: async (b, need, f) => {
    const [id, line] = await b.texts.persistSpan(need, f.store, describer(b));
    return advance(b, { kind: 'SpanStored', id, line });
  },
  PersistGroup: async (b, need, f) => {
    const [id, line] = await b.texts.persistGroup(need, f.store);
    return advance(b, { kind: 'Listed', id, line });
  },
  MergeSpans: async (b, need, f) => {
    const [id, line] = await b.texts.mergeSpans(need, f.store, describer(b));
    return advance(b, { kind: 'Merged', id, line });
  },
  Placeholder: (b, need) => {
    const tokens = show(b, need.message, need.part, b.texts.placeholder(need, describer(b)));
    return advance(b, { kind: 'Measured', tokens });
  },
  Cut: (b, { message, part: k, head, tail, id }) => {
    const part = b.history.messages[message].parts[k];
    // A call's input is cut as the JSON its tool takes; anything else, head and tail.
    const call = part.kind === Kind.Call || part.kind === Kind.ServerCall ? shortenedCall(part.text, head + tail, id) : undefined;
    const tokens = show(b, message, k, call ?? cutText(part.text, head, tail, id));
    return advance(b, { kind: 'Measured', tokens });
  },
  Summarize: (b, need, f) => summarize(b, need, f.summarizer),
  Restate: (b, need) => restate(b, need),
  TooLarge: ({ core, history }, { message, part }) => {
    // Nothing more can go: refused, naming the part as the host wrote it; the caller takes the build back.
    const path = history.messages[message]?.parts[part]?.path;
    checked(() => core.too_large(message, part, path ? `messages[${message}].${path}` : `messages[${message}]`));
    return internal('a part too large was not refused');
  },
  // Replies to what the shell says on the way to an answer (`told`), never met in the loop of needs.
  Measure: () => internal('a reply came outside its answer'),
  Fit: () => internal('a reply came outside its answer'),
};

async function planned(b: Building, started: number): Promise<Built> {
  const { core, o, history, texts, held } = b;
  const failures: Failures = { store: [], summarizer: [] };
  let need = advance(b, { kind: 'Plan' });
  while (need.kind !== 'Done') need = await (ANSWERS[need.kind] as Answering<NeedName>)(b, need as Extract<Need, { kind: NeedName }>, failures);
  const encoded = checked(() => core.render(o.system !== undefined || o.pinned.length > 0));
  // As the rules' last reply says: rendering changes no summary.
  const summaryHeld = b.last?.hasSummary ?? false;
  const hasSummary = () => summaryHeld;
  const request = o.adapter.write(planOf(encoded, history, {
    system: o.system, pinned: o.pinned, cacheControl: o.cacheControl, tail: held.tail, hasSummary,
    summary: () => [hasSummary() ? ownText(0, held.summary) : '', texts.indexText(need.index)].filter(Boolean).join('\n\n'),
  }));
  const record = JSON.parse(core.ledger(performance.now() - started, b.counterName)) as LedgerRecord;
  // Parts appended since the last build that were counted at a bound: this build's ledger says so.
  record.warnings.push(...history.unsaid());
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

/**
 * The protected texts a summary of messages `from..to` carries after it: theirs, newest
 * first, then those the summary so far carried, as many as fit the share (the rules say).
 */
function carry(b: Building, from: number, to: number, before: Carried[]): { fresh: boolean; carried: Carried[] } {
  const { o, history } = b;
  const fresh: Carried[] = [];
  for (let i = to - 1; i >= from; i--) {
    const parts = history.messages[i].parts;
    for (let k = parts.length - 1; k >= 0; k--) {
      if (!history.isProtected(i, k)) continue;
      fresh.push({ tool: history.label(i, k), part: parts[k].kind === Kind.Result ? 'result' : 'call', text: parts[k].text });
    }
  }
  const all = [...fresh, ...before.filter((c) => c.part !== 'user')];
  if (all.length === 0) return { fresh: false, carried: [] };
  const tokens = all.map((c) => count(o.counter, carriedText(c), 'protectedTools'));
  return { fresh: fresh.length > 0, carried: all.slice(0, fit(b, tokens)) };
}

/** Summarizes messages `from..to` with the host's summarizer, or says it failed: the rules' next need. */
async function summarize(b: Building, need: Summarize, failed: unknown[]): Promise<Need> {
  const { o, held } = b;
  const { from, to } = need;
  const summarizer = o.summarizer;
  // The working state the engine writes after the summary (`working.ts`): the summary the
  // engine holds ends with it, and the summarizer never sees it.
  const held0 = splitWorking(held.summary);
  const before = splitSummary(held0.summary);
  const kept = carry(b, from, to, before.carried);
  const opening: [number, number] = [need.openingStart, need.openingEnd];
  const carriedWords = before.carried.filter((c) => c.part === 'user').map((c) => c.text);
  const keepFirst = o.options.values[o.options.names.indexOf('keepFirstMessage')] !== 0;
  const section = workingSection(b.history, o.budget, o.working, { from, to, ids: need.ids, opening, keepFirst }, held0.section, carriedWords);
  // A summarizer that failed in this build is not asked again (the rules ask the same turns
  // again after a failure): as with none, turns that hold protected texts, or what the
  // working state keeps, are still folded into a summary: the summary so far and those.
  const asks = summarizer !== undefined && failed.length === 0;
  if (!asks && !kept.fresh && section === '') return advance(b, { kind: 'NoSummarizer' });
  const summary = asks ? await summaryText(b, need, before.body, failed) : before.body;
  if (summary === undefined) return advance(b, { kind: 'SummaryFailed' });
  return summarized(b, to, joinWorking(joinSummary(summary, kept.carried), section));
}

/**
 * The provider compacted, and messages `from..to` left with what it compacted: the protected
 * texts among them, and those the summary carried, restated after its compaction in the
 * summary's place, with the working state. The summary's own words go with what the
 * provider summarized; after a compaction of ours that only masked, they stay.
 */
function restate(b: Building, { from, to, ids, summary }: Extract<Need, { kind: 'Restate' }>): Need {
  const { held, o } = b;
  const held0 = splitWorking(held.summary);
  const before = splitSummary(held0.summary);
  const { carried } = carry(b, from, to, before.carried);
  // A compaction that only masked keeps the summary's own words (no provider compacted them).
  const body = summary === 1 ? before.body : '';
  // The working state goes on after the provider's compaction, with the user's words that left.
  const words = before.carried.filter((c) => c.part === 'user').map((c) => c.text);
  const section = workingSection(b.history, o.budget, o.working, { from, to, ids, opening: [0, 0], keepFirst: false }, held0.section, words);
  if (body === '' && carried.length === 0 && section === '') {
    // No summary now: the old one's text is not the summary so far of a later compaction.
    const kept = held.summary;
    b.undo.push(() => {
      held.summary = kept;
    });
    held.summary = '';
    return advance(b, { kind: 'Summarized', tokens: 0 });
  }
  return summarized(b, to, joinWorking(joinSummary(body, carried), section));
}

/** The summarizer's summary of messages `from..to`, or undefined when it failed. */
async function summaryText(b: Building, need: Summarize, soFar: string, failed: unknown[]): Promise<string | undefined> {
  const { o, history, held } = b;
  const { from, to, ids } = need;
  const summarizer = o.summarizer!;
  const instruction = b.instruction ?? o.summaryPrompt;
  const hosts = [instruction, soFar];
  let n = 0;
  for (let i = from; i < to; i++) {
    const m = history.messages[i];
    m.parts.forEach((p, k) => {
      const shown = m.display?.[k];
      const id = ids[n++];
      // An image or a document is named by its store id, never given by its bytes.
      hosts.push(p.media ? id ?? '' : shown === null ? '' : shown ?? p.text, history.label(i, k));
    });
  }
  const prompt = frameText(need.prompt, hosts);
  const args: unknown[] = [prompt];
  const last = held.lastRequest;
  if (last && o.adapter.format !== 'text') {
    // The request as it was sent, then the instruction: its prefix is in the provider's cache.
    const end = history.messages[to - 1]?.parts.find((p) => p.kind === Kind.Text)?.text ?? '';
    const ending = frameText(need.instruction, [end.slice(0, 100), instruction]);
    args.push({ ...last, messages: [...last.messages, o.adapter.reminder!(ending)] });
  }
  // The same prompt after the same request, asked by a build that was then rolled back: the
  // same input, so its answer is taken again rather than paid for twice.
  const earlier = held.answered.get(prompt);
  if (earlier && earlier.after === last) return took(b, earlier.answer);
  const call = async (usage?: (attributes: Attributes) => void) => {
    const answer = await within(o.summarizerTimeoutMs, Promise.resolve(callMethod(summarizer, 'summarize', 'summarizer.summarize', args)), 'summarizer.summarize', 'summarizerTimeoutMs');
    const read = summaryAnswer(answer, o.adapter);
    held.keepAnswer(prompt, last, read);
    if (read.usage) usage?.(usageAttributes(read.usage));
    return took(b, read);
  };
  try {
    const attributes = { 'devs_context.summarize.from': from, 'devs_context.summarize.to': to, 'devs_context.summarize.prompt_chars': prompt.length };
    return await (b.trace ? b.trace.summarize(attributes, call) : call());
  } catch (error) {
    failed.push(error);
    return undefined;
  }
}

/** A summarizer's answer taken by the build: its usage added to the build's. */
function took(b: Building, read: SummaryRead): string {
  if (read.usage) b.summaryUsage = addUsage(b.summaryUsage, read.usage);
  return read.summary;
}

/** The summary of messages up to `to` came: told to the rules, and held once they take it. */
function summarized(b: Building, to: number, summary: string): Need {
  const { o, held } = b;
  // Counted as sent: in the manager's wrapper, with a message's framing.
  const tokens = count(o.counter, ownText(0, summary), 'summarizer.summarize()') + o.adapter.framing.message;
  const need = advance(b, { kind: 'Summarized', tokens });
  if (b.last?.hasSummary && b.last.firstLive === to) {
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
