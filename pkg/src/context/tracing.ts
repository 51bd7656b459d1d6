// Compactions as OpenTelemetry spans, in the host's own tracing, with no import of
// `@opentelemetry/api`: the API keeps what the host registered (its tracer provider and
// context manager) on `globalThis` under a versioned symbol, so this reads it there and
// the package loads, bundles and runs the same without it. A host may name its own
// tracer instead (`options.tracer`). Nothing registered: no span, and no cost.
import type { CompactionEvent, SummaryUsage } from './types.js';

/** `@opentelemetry/api`'s global registry for API 1.x, and its context key of the active span. */
const API = Symbol.for('opentelemetry.js.api.1');
const SPAN = Symbol.for('OpenTelemetry Context Key SPAN');
/** SpanStatusCode.ERROR. */
const ERROR = 2;

type Attributes = Record<string, string | number | boolean | string[]>;

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

const registry = (): Registry | undefined => (globalThis as Record<symbol, Registry | undefined>)[API];

/** The tracer spans go to: the host's, or the registered provider's; none without either. */
export function tracerOf(given: OtelTracer | undefined): OtelTracer | undefined {
  return given ?? registry()?.trace?.getTracer('@devs/context');
}

/** The span active where the host called in, if its tracing says one is. */
export function activeSpan(): OtelSpan | undefined {
  return registry()?.context?.active().getValue(SPAN) as OtelSpan | undefined;
}

/** One build's compaction span: started when first needed (a summary's child span, or its end), from the build's start. */
export class BuildTrace {
  readonly #tracer: OtelTracer;
  readonly #started: number;
  readonly #conversation: string | undefined;
  #span: OtelSpan | undefined;
  /** The context the build was called in, with the compaction span active once it is made. */
  #parent: Context | undefined = registry()?.context?.active();
  /** The span active where the build was called. */
  readonly #caller = this.#parent?.getValue(SPAN) as OtelSpan | undefined;

  constructor(tracer: OtelTracer, started: number, conversation: string | undefined) {
    this.#tracer = tracer;
    // performance.now() to the epoch's milliseconds, as the SDK's times are.
    this.#started = performance.timeOrigin + started;
    this.#conversation = conversation;
  }

  #compaction(): OtelSpan {
    if (!this.#span) {
      const attributes: Attributes = {};
      if (this.#conversation !== undefined) attributes['gen_ai.conversation.id'] = this.#conversation;
      this.#span = this.#tracer.startSpan('context.compaction', { startTime: this.#started, attributes }, this.#parent);
      this.#parent = this.#parent?.setValue(SPAN, this.#span);
    }
    return this.#span;
  }

  /** Runs the summarizer's call `fn` in a span of its own, the compaction's child, active while it runs. */
  async summarize<T>(attributes: Attributes, fn: (span: OtelSpan) => Promise<T>): Promise<T> {
    this.#compaction();
    const span = this.#tracer.startSpan('context.summarize', { attributes }, this.#parent);
    const api = registry()?.context;
    try {
      const inner = this.#parent?.setValue(SPAN, span);
      return await (api && inner ? api.with(inner, () => fn(span)) : fn(span));
    } catch (error) {
      span.recordException(error);
      span.setStatus({ code: ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  }

  /**
   * The build ended with `event` (a compaction), or none: the span, if any, takes its
   * figures and ends. The span the build was called in is marked compacted: where an
   * adapter builds inside the model call (the AI SDK's `doGenerate` span, say), that is the
   * inference the compaction was for.
   */
  end(event: CompactionEvent | undefined): void {
    if (event) this.#caller?.setAttribute('gen_ai.conversation.compacted', true);
    if (!event && !this.#span) return;
    const span = this.#compaction();
    if (event) span.setAttributes(attributesOf(event));
    if (event?.summary.usage) span.setAttribute('devs_context.compaction.summary.cost', event.summary.usage.cost);
    if (event?.error !== undefined) span.setStatus({ code: ERROR, message: 'the summarizer failed: the oldest turns were dropped instead' });
    span.end();
  }

  /** The build failed: a span started ends with the error. */
  fail(error: unknown): void {
    if (!this.#span) return;
    this.#span.recordException(error);
    this.#span.setStatus({ code: ERROR, message: error instanceof Error ? error.message : String(error) });
    this.#span.end();
  }
}

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
    [`${p}.tokens.before`]: e.tokens.before,
    [`${p}.tokens.after`]: e.tokens.after,
    [`${p}.messages.before`]: e.messages.before,
    [`${p}.messages.after`]: e.messages.after,
    [`${p}.stored`]: e.stored,
    [`${p}.cache.read`]: e.cache.read,
    [`${p}.cache.written`]: e.cache.written,
    [`${p}.cache.invalidated`]: e.cache.invalidated,
    [`${p}.summary.chunks`]: e.summary.chunks,
    [`${p}.summary.tokens`]: e.summary.tokens,
    [`${p}.ms`]: e.ms,
    'gen_ai.usage.cache_read.input_tokens': e.cache.read,
    'gen_ai.usage.cache_creation.input_tokens': e.cache.written,
  };
}

/** A summarizer call's usage, as the GenAI conventions name it. */
export function usageAttributes(u: SummaryUsage): Attributes {
  return {
    'gen_ai.usage.input_tokens': u.input,
    'gen_ai.usage.cache_read.input_tokens': u.cacheRead,
    'gen_ai.usage.cache_creation.input_tokens': u.cacheWrite,
    'devs_context.summarize.cost': u.cost,
  };
}
