// What `ContextManager`, `ContextSession` and `AgentRunner`'s `bounded` share: reading
// the engine's options from a host's, and one build, all or nothing. It lives apart so
// that the manager (which opens sessions) and the session (which builds as a manager
// does) both import it, and neither imports the other.
import type { Engine } from './engine.js';
import { MemoryStateRepository } from '../stores/memory.js';
import { ADAPTERS, FORMATS } from '../providers/index.js';
import { timeoutOption, within } from '../core/timeout.js';
import type { Adapter } from '../providers/neutral.js';
import {
  holder, isObject, method, number, object, optionalBoolean, optionalFunction, optionalNumber, optionalString, string, type Bag,
} from '../core/read.js';
import { argumentError, checked } from '../errors/index.js';
import { rules } from '../core/wasm.js';
import { DEFAULT_SUMMARY_PROMPT, FORMAT_RULES, RULE_OPTIONS } from '../core/protocol.js';
import type { MediaRules } from './media.js';
import { recallTool } from './recall.js';
import { workingOptions } from './working.js';
import type { CompactionEvent, CompactionNotice, ContextBuild, ContextFormat, ContextReminder, LedgerRecord, ContextWarning } from './types.js';
import { compactionEvent } from './compaction-event.js';
import { askBeforeCompaction } from './before-compaction.js';
import { BuildTrace, keepFaults, type OtelTracer, reportFaults } from './tracing.js';
import type { TokenCounter } from '../core/types.js';

const DEFAULT_SUMMARIZER_TIMEOUT_MS = 120_000;

// The options the rules read, by name (`RULE_OPTIONS`, from `config::OPTION_NAMES`, which
// refuses a name it does not know and one left out), in the order of an engine's config key.

/** The tools the host protects, by name: the rules are told only whether there are any. */
function protectedTools(field: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw argumentError(TypeError, field, 'must be an array of tool names');
  const names = value.map((n, i) => {
    const name = string(`${field}[${i}]`, n);
    if (rules.isBlank(name)) throw argumentError(TypeError, `${field}[${i}]`, 'must be a tool name, not an empty text');
    return name;
  });
  return [...new Set(names)].sort();
}

/** How images and documents are counted: the option, or the format's provider's rule (a format the rules have no rule for does not compile here). */
function mediaRules(field: string, value: unknown, format: (typeof FORMAT_RULES)[number]): MediaRules {
  const at = `${field}.imageTokens`;
  if (value === undefined) return { rule: checked(() => rules.formatImageRule(at, format)), field: at };
  if (typeof value === 'function') return { rule: checked(() => rules.formatImageRule(at, format)), tokens: value as MediaRules['tokens'], field: at };
  if (typeof value === 'string') return { rule: checked(() => rules.imageRule(at, value, '')), field: at };
  if (isObject(value)) {
    const provider = optionalString(`${at}.provider`, value.provider) ?? '';
    const model = optionalString(`${at}.model`, value.model) ?? '';
    return { rule: checked(() => rules.imageRule(`${at}.provider`, provider, model)), field: at };
  }
  throw argumentError(TypeError, at, "must be 'anthropic', 'openai' or 'gemini', { provider, model }, or a function of an image's measured size");
}

function reminders(value: unknown): ContextReminder[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw argumentError(TypeError, 'options.reminders', 'must be an array of { every, text }');
  return value.map((r, i) => {
    const field = `options.reminders[${i}]`;
    const bag = object(field, r);
    const every = number(`${field}.every`, bag.every);
    if (!Number.isInteger(every) || every < 1) throw argumentError(RangeError, `${field}.every`, `must be a whole number >= 1, got ${every}`);
    const text = bag.text;
    if (typeof text !== 'string' && typeof text !== 'function') throw argumentError(TypeError, `${field}.text`, 'must be a string or a function that returns one');
    return { every, text: text as ContextReminder['text'] };
  });
}

/** The summarizing instruction: the host's, or the rules' built-in one. */
function summaryPrompt(field: string, value: unknown): string {
  const text = optionalString(field, value);
  if (text === undefined) return DEFAULT_SUMMARY_PROMPT;
  if (rules.isBlank(text)) throw argumentError(TypeError, field, 'must be a non-empty instruction, or left out for the built-in one');
  return text;
}

/** @internal The engine's options from a host's (shared with `AgentRunner`'s `bounded`). */
export function engineOptions(field: string, opts: Bag, adapter: Adapter, defaults: { budget?: number; store?: unknown; counter?: unknown; callbackTimeoutMs?: number } = {}) {
  const budget = opts.budget === undefined && defaults.budget !== undefined ? defaults.budget : number(`${field}.budget`, opts.budget);
  const store = opts.store !== undefined ? object(`${field}.store`, opts.store) : ((defaults.store as Bag | undefined) ?? (new MemoryStateRepository() as unknown as Bag));
  method(store, 'insertRawToolOutput', `${field}.store.insertRawToolOutput`);
  const timeout = optionalNumber(`${field}.summarizerTimeoutMs`, opts.summarizerTimeoutMs) ?? DEFAULT_SUMMARIZER_TIMEOUT_MS;
  if (!(timeout > 0)) throw argumentError(RangeError, `${field}.summarizerTimeoutMs`, `must be a number > 0, got ${timeout}`);
  const pinned = opts.pinned === undefined ? [] : opts.pinned;
  if (!Array.isArray(pinned)) throw argumentError(TypeError, `${field}.pinned`, 'must be an array of strings');
  const protects = protectedTools(`${field}.protectedTools`, opts.protectedTools);
  // NaN for an option left to the rules' default; `keepFirstMessage` as 1 or 0;
  // `protectedTools` as 1 when it names any.
  const values = Float64Array.from(RULE_OPTIONS, (key) => {
    if (key === 'protectedTools') return protects.length > 0 ? 1 : NaN;
    const value = key === 'keepFirstMessage' ? optionalBoolean(`${field}.${key}`, opts[key]) : optionalNumber(`${field}.${key}`, opts[key]);
    return value === undefined ? NaN : Number(value);
  });
  return {
    field,
    adapter,
    budget,
    options: { names: RULE_OPTIONS, values },
    working: workingOptions(field, opts),
    protectedTools: protects,
    counter: (opts.countTokens === undefined ? defaults.counter : optionalFunction(`${field}.countTokens`, opts.countTokens)) as TokenCounter | undefined,
    store,
    // `false`: none, as the adapters whose default is their model say it.
    summarizer: opts.summarizer === undefined || opts.summarizer === false ? undefined : holder(`${field}.summarizer`, opts.summarizer, ['summarize']),
    summarizerTimeoutMs: timeout,
    summaryPrompt: summaryPrompt(`${field}.summaryPrompt`, opts.summaryPrompt),
    system: optionalString(`${field}.system`, opts.system),
    pinned: pinned.map((p, i) => string(`${field}.pinned[${i}]`, p)),
    cacheControl: optionalBoolean(`${field}.cacheControl`, opts.cacheControl) !== false,
    calibrate: optionalBoolean(`${field}.calibrate`, opts.calibrate) !== false,
    recall: optionalBoolean(`${field}.recall`, opts.recall) === true,
    callbackTimeoutMs: timeoutOption(`${field}.callbackTimeoutMs`, opts.callbackTimeoutMs) ?? defaults.callbackTimeoutMs,
    media: mediaRules(field, opts.imageTokens, adapter.format),
  };
}

/** @internal The recall tool of `engine`, which must have been made with `recall: true`. */
export function recallToolOf(engine: Engine, adapter: Adapter): unknown {
  if (!engine.recall) throw Object.assign(new Error("the recall tool is off: set options.recall: true, so the requests say how the agent reads a stored text back"), { code: 'ERR_RECALL_OFF' });
  return recallTool(adapter);
}

/** @internal What a manager reads from the host's options besides the engine's, once. */
export function managerParts(opts: Bag) {
  const format = opts.format;
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) {
    throw argumentError(TypeError, 'options.format', `must be one of ${FORMATS.map((f) => `'${f}'`).join(', ')}, got ${typeof format === 'string' ? JSON.stringify(format) : typeof format}`);
  }
  return {
    opts,
    format: format as ContextFormat,
    adapter: ADAPTERS[format as ContextFormat](opts),
    onLedger: optionalFunction('options.onLedger', opts.onLedger) as ((record: LedgerRecord) => void) | undefined,
    onWarning: optionalFunction('options.onWarning', opts.onWarning) as ((warning: ContextWarning) => void) | undefined,
    onCompaction: optionalFunction('options.onCompaction', opts.onCompaction) as ((event: CompactionEvent) => void) | undefined,
    beforeCompaction: optionalFunction('options.beforeCompaction', opts.beforeCompaction) as Hooks['beforeCompaction'],
    tracer: tracerOption(opts.tracer),
    conversation: optionalString('options.conversationId', opts.conversationId),
    reminders: reminders(opts.reminders),
    timeoutMs: timeoutOption('options.callbackTimeoutMs', opts.callbackTimeoutMs),
  };
}

/** @internal The host's callbacks a build calls, besides the engine's. */
export interface Hooks {
  adapter: Adapter;
  reminders: ContextReminder[];
  timeoutMs: number | undefined;
  onLedger: ((record: LedgerRecord) => void) | undefined;
  onWarning: ((warning: ContextWarning) => void) | undefined;
  onCompaction?: ((event: CompactionEvent) => void) | undefined;
  beforeCompaction?: ((notice: CompactionNotice) => unknown) | undefined;
  /** The host's tracer; else the one its OpenTelemetry registered, if any (`BuildTrace.of`). */
  tracer?: OtelTracer | undefined;
  /** The conversation's id in spans (`gen_ai.conversation.id`): a session's id, an adapter's thread. */
  conversation?: string | undefined;
  /** Runs first inside the build's journal (a shared session takes in queued appends). */
  before?: () => void;
}

/**
 * @internal One build, all or nothing: the reminders due, the request, the host's
 * callbacks, then the commit. A callback that fails takes back everything; telemetry
 * that fails changes nothing but a warning (`reportFaults`). Whatever throws, the
 * rollback runs first.
 */
export async function buildOnce<Message, Format extends ContextFormat = ContextFormat>(engine: Engine, hooks: Hooks): Promise<ContextBuild<Message, Format>> {
  const started = performance.now();
  // Telemetry calls that threw: those no ledger has said yet, then this build's.
  const faults = engine.telemetryFaults.splice(0);
  const trace = BuildTrace.of(hooks.tracer, started, hooks.conversation, faults);
  engine.begin();
  let event: CompactionEvent | undefined;
  let built: ContextBuild<Message, Format>;
  try {
    hooks.before?.();
    await remind(engine, hooks);
    const instructions = hooks.beforeCompaction ? await askBeforeCompaction(engine, hooks.beforeCompaction, hooks.timeoutMs) : undefined;
    const { request, record, warnings, summaryUsage } = await engine.build(started, instructions, trace);
    reportFaults(faults, record, warnings);
    hooks.onLedger?.(record);
    if (hooks.onWarning) for (const w of warnings) hooks.onWarning(w);
    event = hooks.onCompaction || trace ? compactionEvent(record, engine.records.at(-1), warnings, summaryUsage, engine.workingState) : undefined;
    if (event) hooks.onCompaction?.(event);
    engine.commit(record, request);
    faults.length = 0;
    built = { ...request, tokens: record.tokens, ledger: record } as ContextBuild<Message, Format>;
  } catch (error) {
    engine.rollback();
    trace?.fail(error);
    keepFaults(engine.telemetryFaults, faults);
    throw error;
  }
  // The span ends once the build is committed, so it says what the host was given; what
  // throws there is said by the next build's ledger.
  trace?.end(event);
  keepFaults(engine.telemetryFaults, faults);
  return built;
}

/** `options.tracer`: an OpenTelemetry `Tracer` (what `trace.getTracer()` returns). */
function tracerOption(value: unknown): OtelTracer | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || typeof value.startSpan !== 'function') throw argumentError(TypeError, 'options.tracer', "must be an OpenTelemetry Tracer (trace.getTracer('…')), with startSpan");
  return value as unknown as OtelTracer;
}

/** Appends the reminders due at this request, inside its journal. */
async function remind(engine: Engine, hooks: Hooks): Promise<void> {
  const request = engine.requestCount + 1;
  for (const [i, r] of hooks.reminders.entries()) {
    if (request % r.every !== 0) continue;
    const field = `options.reminders[${i}].text`;
    const text = string(typeof r.text === 'function' ? `${field}()` : field, typeof r.text === 'function' ? await within(hooks.timeoutMs, r.text(), field) : r.text);
    engine.append([hooks.adapter.reminder!(text)], () => field);
  }
}
