// Compactions as OpenTelemetry spans, in the host's own tracing, with no import of
// `@opentelemetry/api`: the API keeps what the host registered (its tracer provider and
// context manager) on `globalThis` under a versioned symbol, so this reads it there and
// the package loads, bundles and runs the same without it. A host may name its own
// tracer instead (`options.tracer`). Nothing registered: no span, and no cost. Telemetry
// never changes what a build does: every call into it is guarded, and a throw is a warning.
import { errorText } from '../errors/index.js';
import type { CompactionEvent, ContextWarning, LedgerRecord, SummaryUsage } from './types.js';

/** `@opentelemetry/api`'s global registry for API 1.x, and its context key of the active span. */
const API = Symbol.for('opentelemetry.js.api.1');
const SPAN = Symbol.for('OpenTelemetry Context Key SPAN');
/** SpanStatusCode.ERROR. */
const ERROR = 2;

export type Attributes = Record<string, string | number | boolean | string[]>;

/** The parts of an OpenTelemetry `Span` used here. */
export interface OtelSpan {
  setAttribute(key: string, value: unknown): unknown;
  setAttributes(attributes: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(error: unknown): unknown;
  end(endTime?: number): unknown;
}

/** The parts of an OpenTelemetry `Tracer` used here: a tracer from `trace.getTracer()`. */
export interface OtelTracer {
  startSpan(name: string, options?: { startTime?: number; attributes?: Attributes }, context?: unknown): OtelSpan;
}

interface Context {
  getValue(key: symbol): unknown;
  setValue(key: symbol, value: unknown): Context;
}

interface Registry {
  trace?: { getTracer(name: string, version?: string): OtelTracer };
  context?: { active(): Context; with<T>(context: Context, fn: () => T): T };
}

/** What a build keeps of the telemetry calls that threw: enough to say which, not every one. */
const KEPT_FAULTS = 16;

/** A call into the host's tracing that threw: which (`tracer.startSpan`, `span.end`…), and what it threw. */
export interface TelemetryFault {
  call: string;
  error: unknown;
}

/** Notes `faults` in `into`, keeping the first few: a warning names them, it need not list a thousand. */
export function keepFaults(into: TelemetryFault[], faults: readonly TelemetryFault[]): void {
  for (const f of faults) if (into.length < KEPT_FAULTS) into.push(f);
}

/**
 * Runs one call into the host's tracing. Telemetry never changes what a build does: a
 * throw (the tracer's, a span's, its processor's, the registered provider's or context
 * manager's, a getter's on any of them) is noted in `faults`, for the build's
 * `telemetry-failed` warning, and the call gives nothing.
 */
function guarded<T>(faults: TelemetryFault[], call: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    keepFaults(faults, [{ call, error }]);
    return undefined;
  }
}

const registry = (): Registry | undefined => (globalThis as Record<symbol, Registry | undefined>)[API];

/** One build's compaction span: started when first needed (a summary's child span, or its end), from the build's start. */
export class BuildTrace {
  readonly #tracer: OtelTracer;
  readonly #started: number;
  readonly #conversation: string | undefined;
  /** The build's telemetry calls that threw (shared with the build, which reports them). */
  readonly #faults: TelemetryFault[];
  /** The compaction's span; null once its start threw (it is not tried again). */
  #span: OtelSpan | null | undefined;
  /** The registered context manager, if any. */
  readonly #api: Registry['context'];
  /** The context the build was called in, with the compaction span active once it is made. */
  #parent: Context | undefined;
  /** The span active where the build was called. */
  readonly #caller: OtelSpan | undefined;

  /**
   * The trace of a build: the host's tracer, else the registered provider's; none without
   * either, or when the provider threw (noted in `faults`).
   */
  static of(given: OtelTracer | undefined, started: number, conversation: string | undefined, faults: TelemetryFault[]): BuildTrace | undefined {
    const tracer = given ?? guarded(faults, 'trace.getTracer', () => registry()?.trace?.getTracer('@devs/context'));
    return tracer ? new BuildTrace(tracer, started, conversation, faults) : undefined;
  }

  private constructor(tracer: OtelTracer, started: number, conversation: string | undefined, faults: TelemetryFault[]) {
    this.#tracer = tracer;
    // performance.now() to the epoch's milliseconds, as the SDK's times are.
    this.#started = performance.timeOrigin + started;
    this.#conversation = conversation;
    this.#faults = faults;
    this.#api = guarded(faults, 'context', () => registry()?.context);
    const api = this.#api;
    const parent = api && guarded(faults, 'context.active', () => api.active());
    this.#parent = parent;
    this.#caller = parent && (guarded(faults, 'context.getValue', () => parent.getValue(SPAN)) as OtelSpan | undefined);
  }

  #compaction(): OtelSpan | undefined {
    if (this.#span === undefined) {
      const attributes: Attributes = {};
      if (this.#conversation !== undefined) attributes['gen_ai.conversation.id'] = this.#conversation;
      const parent = this.#parent;
      const span = guarded(this.#faults, 'tracer.startSpan', () => this.#tracer.startSpan('context.compaction', { startTime: this.#started, attributes }, parent));
      this.#span = span ?? null;
      if (span && parent) this.#parent = guarded(this.#faults, 'context.setValue', () => parent.setValue(SPAN, span));
    }
    return this.#span ?? undefined;
  }

  /** `fn` on `span`, if there is one, its throw noted as `span.<name>`. */
  #on(span: OtelSpan | undefined, name: string, fn: (span: OtelSpan) => unknown): void {
    if (span) guarded(this.#faults, `span.${name}`, () => fn(span));
  }

  /**
   * Runs the summarizer's call `fn` in a span of its own, the compaction's child, active
   * while it runs; `fn` gives its usage to `usage`. Whatever the tracing does, `fn` runs
   * once, and what it gives or throws is the caller's.
   */
  async summarize<T>(attributes: Attributes, fn: (usage: (attributes: Attributes) => void) => Promise<T>): Promise<T> {
    this.#compaction();
    const parent = this.#parent;
    const span = guarded(this.#faults, 'tracer.startSpan', () => this.#tracer.startSpan('context.summarize', { attributes }, parent));
    let running: Promise<T> | undefined;
    const run = () => (running ??= fn((a) => this.#on(span, 'setAttributes', (s) => s.setAttributes(a))));
    const api = this.#api;
    if (api && span && parent) {
      const inner = guarded(this.#faults, 'context.setValue', () => parent.setValue(SPAN, span));
      if (inner) guarded(this.#faults, 'context.with', () => api.with(inner, run));
    }
    try {
      return await run();
    } catch (error) {
      this.#on(span, 'recordException', (s) => s.recordException(error));
      this.#on(span, 'setStatus', (s) => s.setStatus({ code: ERROR, message: error instanceof Error ? error.message : String(error) }));
      throw error;
    } finally {
      this.#on(span, 'end', (s) => s.end());
    }
  }

  /**
   * The build ended with `event` (a compaction), or none: the span, if any, takes its
   * figures and ends. The span the build was called in is marked compacted: where an
   * adapter builds inside the model call (the AI SDK's `doGenerate` span, say), that is the
   * inference the compaction was for.
   */
  end(event: CompactionEvent | undefined): void {
    if (event) this.#on(this.#caller, 'setAttribute', (s) => s.setAttribute('gen_ai.conversation.compacted', true));
    if (!event && !this.#span) return;
    const span = this.#compaction();
    if (event) this.#on(span, 'setAttributes', (s) => s.setAttributes(attributesOf(event)));
    if (event?.summary.usage) this.#on(span, 'setAttribute', (s) => s.setAttribute('devs_context.compaction.summary.cost', event.summary.usage!.cost));
    if (event?.error !== undefined) this.#on(span, 'setStatus', (s) => s.setStatus({ code: ERROR, message: 'the summarizer failed: the oldest turns were dropped instead' }));
    this.#on(span, 'end', (s) => s.end());
  }

  /** The build failed: a span started ends with the error. */
  fail(error: unknown): void {
    const span = this.#span ?? undefined;
    this.#on(span, 'recordException', (s) => s.recordException(error));
    this.#on(span, 'setStatus', (s) => s.setStatus({ code: ERROR, message: error instanceof Error ? error.message : String(error) }));
    this.#on(span, 'end', (s) => s.end());
  }
}

/**
 * The ledger's warning for the telemetry calls that threw (none when none did), added to
 * `record`'s warnings and to those `onWarning` is given.
 */
export function reportFaults(faults: readonly TelemetryFault[], record: LedgerRecord, warnings: ContextWarning[]): void {
  if (faults.length === 0) return;
  const calls = [...new Set(faults.map((f) => f.call))].join(', ');
  const message = `telemetry failed, and the build went on without it: ${calls} threw (${errorText(faults[0].error)})`;
  record.warnings.push({ code: 'telemetry-failed', message });
  warnings.push({ request: record.request, code: 'telemetry-failed', message, error: faults[0].error });
}

/**
 * Tokens as a span says them: a whole number, the nearest (half up), as a bill counts
 * them. The ledger's figures are predictions of the provider's count (our count times the
 * calibration), so they carry fractions; a cost stays as it is.
 */
const whole = (tokens: number): number => Math.round(tokens);

/** A compaction's figures as span attributes: the event's, and the GenAI conventions' cache usage. */
export function attributesOf(e: CompactionEvent): Attributes {
  const p = 'devs_context.compaction';
  const count = (s: { from: number; to: number } | null) => (s ? s.to - s.from : 0);
  return {
    [`${p}.request`]: e.request,
    [`${p}.trigger`]: e.trigger,
    [`${p}.masked`]: e.actions.masked,
    [`${p}.cut`]: e.actions.cut,
    [`${p}.summarized`]: count(e.actions.summarized),
    [`${p}.dropped`]: count(e.actions.dropped),
    [`${p}.tokens.before`]: whole(e.tokens.before),
    [`${p}.tokens.after`]: whole(e.tokens.after),
    [`${p}.messages.before`]: e.messages.before,
    [`${p}.messages.after`]: e.messages.after,
    [`${p}.stored`]: e.stored,
    [`${p}.cache.read`]: whole(e.cache.read),
    [`${p}.cache.written`]: whole(e.cache.written),
    [`${p}.cache.invalidated`]: whole(e.cache.invalidated),
    [`${p}.summary.chunks`]: e.summary.chunks,
    [`${p}.summary.tokens`]: whole(e.summary.tokens),
    [`${p}.working_state`]: e.workingState,
    [`${p}.ms`]: e.ms,
    'gen_ai.usage.cache_read.input_tokens': whole(e.cache.read),
    'gen_ai.usage.cache_creation.input_tokens': whole(e.cache.written),
  };
}

/** A summarizer call's usage, as the GenAI conventions name it. */
export function usageAttributes(u: SummaryUsage): Attributes {
  return {
    'gen_ai.usage.input_tokens': whole(u.input),
    'gen_ai.usage.cache_read.input_tokens': whole(u.cacheRead),
    'gen_ai.usage.cache_creation.input_tokens': whole(u.cacheWrite),
    'devs_context.summarize.cost': u.cost,
  };
}
