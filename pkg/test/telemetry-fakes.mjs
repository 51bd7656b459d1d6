// A host's OpenTelemetry, faked, for the telemetry-faults tests: a tracer, its spans, a
// context manager and the global registry `@opentelemetry/api` keeps on `globalThis`,
// each call of which goes through `hit(name)`, which counts it and may throw. Not a test
// file: its name does not end in .test.mjs.

/** `@opentelemetry/api`'s global registry for API 1.x, and its context key of the active span. */
export const API_KEY = Symbol.for('opentelemetry.js.api.1');
export const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

/** Every call the package can make into a host's tracing, by the name `hit` is given. */
export const TELEMETRY_CALLS = [
  'trace.getTracer', 'context.active', 'context.with', 'context.getValue', 'context.setValue',
  'tracer.startSpan', 'span.setAttribute', 'span.setAttributes', 'span.setStatus', 'span.recordException', 'span.end',
];

export class FakeTelemetry {
  /** `hit(name, span?)` is told of each call before it is made; a throw from it is the call's. */
  constructor(hit = () => {}) {
    this.hit = hit;
    this.spans = [];
  }

  tracer() {
    return {
      startSpan: (name, options) => {
        this.hit('tracer.startSpan', { name });
        return this.span(name, options?.attributes ?? {});
      },
    };
  }

  span(name, attributes) {
    const hit = (call) => this.hit(call, s);
    const s = {
      name, attributes: { ...attributes }, ended: 0, status: undefined, exceptions: [],
      setAttribute(key, value) { hit('span.setAttribute'); s.attributes[key] = value; return s; },
      setAttributes(values) { hit('span.setAttributes'); Object.assign(s.attributes, values); return s; },
      setStatus(status) { hit('span.setStatus'); s.status = status; return s; },
      recordException(error) { hit('span.recordException'); s.exceptions.push(error); },
      end() { hit('span.end'); s.ended += 1; },
    };
    this.spans.push(s);
    return s;
  }

  context(values = new Map()) {
    return {
      getValue: (key) => { this.hit('context.getValue'); return values.get(key); },
      setValue: (key, value) => { this.hit('context.setValue'); return this.context(new Map(values).set(key, value)); },
    };
  }

  /**
   * Registers as the host's global OpenTelemetry, with a span of the host's active (the
   * model call a build is made in); returns what unregisters it.
   */
  register() {
    const caller = this.span('host call', {});
    const active = this.context(new Map([[SPAN_KEY, caller]]));
    globalThis[API_KEY] = {
      version: '1.9.0',
      trace: { getTracer: () => { this.hit('trace.getTracer'); return this.tracer(); } },
      context: {
        active: () => { this.hit('context.active'); return active; },
        with: (_context, fn) => { this.hit('context.with'); return fn(); },
      },
    };
    return () => { delete globalThis[API_KEY]; };
  }
}

/** Counts each call by name; throws `value` at the `at`-th call of `name` while armed. */
export class CallFault {
  constructor(name, at, value = new Error(`${name} failed (call ${at})`)) {
    Object.assign(this, { name, at, value, armed: false, fired: 0, counts: {} });
  }

  hit(name) {
    if (!this.armed) return;
    this.counts[name] = (this.counts[name] ?? 0) + 1;
    if (name === this.name && (this.at === undefined || this.counts[name] === this.at)) {
      this.fired += 1;
      throw this.value;
    }
  }
}
