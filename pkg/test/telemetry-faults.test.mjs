// Issue 47, item 2: telemetry can never change what a build does. A tracer, span, span
// processor, or the global provider's getTracer or context manager that throws, at any of
// its calls, is a `telemetry-failed` warning; the build goes on with the request it gives
// without a tracer, and the summarizer is asked once per compaction, not once per retry.
// Item 9: the spans' token attributes are whole numbers.
import { describe, it, before, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ContextManager } from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { API_KEY, FakeTelemetry } from './telemetry-fakes.mjs';

const boom = new Error('telemetry down');

/**
 * A coding session whose builds compact: its requests, ledgers and warnings, the
 * summarizer's calls, and the builds rejected (each tried again up to `retries` times).
 * The summarizer's `failAt`-th call throws (so spans get an error status); the others
 * alternate between a text and `{ summary, usage }`. The host's usage is reported after
 * each build, so the ledger's figures carry the calibration's fractions.
 */
async function run(options = {}, { turns = 30, retries = 0, failAt = 2, open } = {}) {
  let calls = 0;
  const summarizer = async () => {
    calls += 1;
    if (calls === failAt) throw new Error('model down');
    return calls % 2 ? { summary: `summary ${calls}`, usage: { input_tokens: 300, cache_read_input_tokens: 700, cache_creation_input_tokens: 100 } } : `summary ${calls}`;
  };
  const warnings = [];
  const all = { format: 'anthropic', budget: 4_000, summarizer, onWarning: (w) => warnings.push(w), ...options };
  const manager = open ? await open(all) : new ContextManager(all);
  const out = { requests: [], ledgers: [], warnings, rejected: 0, errors: [] };
  await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
  for (let t = 0; t < turns; t++) {
    await manager.append([
      { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'run_tests', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `run ${t}: ${'FAIL parser line 12\n'.repeat(30)}` }] },
      { role: 'assistant', content: `run ${t} failed` },
      { role: 'user', content: `again (${t})` },
    ]);
    let built;
    for (let attempt = 0; !built; attempt++) {
      try {
        built = await manager.build();
      } catch (error) {
        out.rejected += 1;
        out.errors.push(error);
        if (attempt >= retries) throw error;
      }
    }
    out.requests.push(JSON.stringify({ system: built.system, messages: built.messages }));
    out.ledgers.push(built.ledger);
    await manager.recordUsage({ input_tokens: Math.round(built.tokens * 1.07) + 13 });
  }
  await (open ? manager.close() : manager.free());
  return { ...out, calls };
}

const telemetryWarnings = (got) => got.warnings.filter((w) => w.code === 'telemetry-failed');

/** What telemetry must not change: the builds all resolve, with the same requests, and the same summarizer calls. */
function assertUnchanged(got, base) {
  assert.equal(got.rejected, 0, `builds rejected: ${got.errors.map(String).join('; ')}`);
  assert.equal(got.requests.length, base.requests.length);
  got.requests.forEach((r, i) => assert.equal(r, base.requests[i], `request ${i + 1}`));
  assert.equal(got.calls, base.calls, 'summarizer calls');
}

/** A fake host telemetry whose calls named in `names` throw `boom`; how often they did is `fired()`. */
function throwing(names) {
  let fired = 0;
  const fake = new FakeTelemetry((call) => {
    if (names.includes(call)) {
      fired += 1;
      throw boom;
    }
  });
  return { fake, fired: () => fired };
}

describe('telemetry that throws changes nothing but a warning', () => {
  let base;
  let compactions;
  before(async () => {
    base = await run();
    compactions = base.ledgers.filter((l) => l.compaction).length;
  });
  afterEach(() => delete globalThis[API_KEY]);

  it('the scenario compacts, summarizes once per chunk, and a summary fails once', () => {
    assert.ok(compactions >= 3, `${compactions} compactions`);
    const chunks = base.ledgers.reduce((n, l) => n + (l.compaction?.summarizerChunks ?? 0), 0);
    assert.equal(base.calls, chunks, 'the summarizer is asked once per chunk of each compaction');
    assert.ok(base.warnings.some((w) => w.code === 'summarizer-failed'));
    assert.equal(telemetryWarnings(base).length, 0);
  });

  for (const method of ['startSpan', 'setAttribute', 'setAttributes', 'setStatus', 'recordException', 'end']) {
    it(`a tracer whose ${method} throws: the same requests and summarizer calls, and a warning with its error`, async () => {
      const { fake, fired } = throwing([`tracer.${method}`, `span.${method}`]);
      const got = await run({ tracer: fake.tracer() });
      assert.ok(fired() > 0, 'the fault was reached');
      assertUnchanged(got, base);
      const warned = telemetryWarnings(got);
      assert.ok(warned.length > 0);
      for (const w of warned) {
        assert.equal(w.error, boom);
        assert.match(w.message, new RegExp(`(tracer|span)\\.${method} threw \\(Error: telemetry down\\)`));
      }
      assert.ok(got.ledgers.some((l) => l.warnings.some((w) => w.code === 'telemetry-failed')), 'the ledger says so too');
    });
  }

  for (const call of ['trace.getTracer', 'context.active', 'context.with', 'context.getValue', 'context.setValue']) {
    it(`a global provider whose ${call} throws: the same requests and summarizer calls, and a warning`, async () => {
      const { fake, fired } = throwing([call]);
      fake.register();
      const got = await run();
      assert.ok(fired() > 0, 'the fault was reached');
      assertUnchanged(got, base);
      assert.ok(telemetryWarnings(got).some((w) => w.error === boom && w.message.includes(`${call} threw`)));
    });
  }

  it('every telemetry call throwing at once: still the same requests', async () => {
    const fake = new FakeTelemetry(() => { throw boom; });
    fake.register();
    const got = await run();
    assertUnchanged(got, base);
    assert.ok(telemetryWarnings(got).length > 0);
  });

  it('a healthy fake telemetry sees the spans, and no warning', async () => {
    const fake = new FakeTelemetry();
    fake.register();
    const got = await run();
    assertUnchanged(got, base);
    assert.equal(telemetryWarnings(got).length, 0);
    assert.equal(fake.spans.filter((s) => s.name === 'context.compaction').length, compactions);
    assert.ok(fake.spans.every((s) => s.name === 'host call' || s.ended === 1), 'every span ends once');
  });

  it("a compaction span whose end throws after its build's commit: the next build's ledger says so", async () => {
    const fake = new FakeTelemetry((call, span) => {
      if (call === 'span.end' && span?.name === 'context.compaction') throw boom;
    });
    const got = await run({ tracer: fake.tracer() });
    assertUnchanged(got, base);
    const i = got.ledgers.findIndex((l) => l.compaction);
    const codes = (l) => l.warnings.filter((w) => w.code === 'telemetry-failed').map((w) => w.message);
    assert.deepEqual(codes(got.ledgers[i]), [], 'its own ledger was written before the span ended');
    assert.equal(codes(got.ledgers[i + 1]).length, 1);
    assert.match(codes(got.ledgers[i + 1])[0], /span\.end threw/);
    assert.equal(got.warnings.find((w) => w.code === 'telemetry-failed').request, i + 2);
  });

  it('the real SDK with a span processor whose onEnd (or onStart) throws: 0 of 30 builds rejected', async () => {
    for (const hook of ['onEnd', 'onStart']) {
      const processor = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
      processor[hook] = () => { throw boom; };
      const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('host');
      const got = await run({ tracer }, { retries: 3 });
      assertUnchanged(got, base);
      assert.ok(telemetryWarnings(got).length > 0, hook);
    }
  });

  it("a session's builds go on through a tracer that throws", async () => {
    const open = (dir) => (o) => ContextManager.open({ ...o, sessionId: 'task-47', store: new SqliteStateRepository(join(dir, 'state.sqlite')) });
    const own = await run({}, { open: open(mkdtempSync(join(tmpdir(), 'tel-'))) });
    const { fake, fired } = throwing(['span.end', 'span.recordException']);
    const got = await run({ tracer: fake.tracer() }, { open: open(mkdtempSync(join(tmpdir(), 'tel-'))) });
    assert.ok(fired() > 0);
    assertUnchanged(got, own);
    assert.ok(telemetryWarnings(got).length > 0);
  });
});

describe('a build rolled back and tried again', () => {
  let base;
  before(async () => {
    base = await run({}, { failAt: 0 });
  });

  it('is rolled back even when its span throws too, and the next build succeeds', async () => {
    const { fake, fired } = throwing(['span.recordException', 'span.setStatus', 'span.end']);
    const ledgerDown = new Error('ledger file full');
    let thrown = 0;
    const onLedger = (record) => {
      if (record.compaction && thrown++ === 0) throw ledgerDown;
    };
    const got = await run({ tracer: fake.tracer(), onLedger }, { retries: 1, failAt: 0 });
    assert.ok(fired() > 0);
    assert.equal(got.rejected, 1);
    assert.equal(got.errors[0], ledgerDown);
    assertUnchanged({ ...got, rejected: 0 }, base);
  });

  for (const hook of ['onLedger', 'onWarning', 'onCompaction']) {
    it(`by ${hook}: the summarizer is asked once per compaction, and the retry gives the request a fresh manager gives`, async () => {
      const failed = new Set();
      const fail = (request) => {
        if (failed.has(request)) return;
        failed.add(request);
        throw new Error(`${hook} failed`);
      };
      const options = {
        onLedger: (record) => { if (hook === 'onLedger' && record.compaction) fail(record.request); },
        // Each compacting build has a warning here: the usage reported after it is set aside.
        onCompaction: (event) => { if (hook === 'onCompaction') fail(event.request); },
      };
      if (hook === 'onWarning') options.onWarning = (w) => { if (w.code === 'usage-set-aside' || w.code === 'summary-over-cap') fail(w.request); };
      const got = await run(options, { retries: 1, failAt: 0 });
      assert.ok(got.rejected > 0, 'builds were rejected');
      assertUnchanged({ ...got, rejected: 0 }, base);
    });
  }
});

it('token attributes are whole numbers (the nearest); cost attributes may stay fractional', async () => {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('host');
  const got = await run({ tracer });
  assert.ok(got.ledgers.some((l) => !Number.isInteger(l.cache.read)), 'the ledger has fractional figures to round');
  const spans = exporter.getFinishedSpans();
  const compactions = spans.filter((s) => s.name === 'context.compaction');
  assert.ok(compactions.length >= 3 && spans.some((s) => s.name === 'context.summarize' && s.attributes['gen_ai.usage.input_tokens'] !== undefined));
  let checked = 0;
  for (const s of spans) {
    for (const [key, value] of Object.entries(s.attributes)) {
      if (!/tokens/.test(key) && !/\.cache\.(read|written|invalidated)$/.test(key)) continue;
      checked += 1;
      assert.ok(Number.isInteger(value), `${s.name} ${key}: ${value}`);
    }
  }
  assert.ok(checked > 20);
  const compacted = got.ledgers.filter((l) => l.compaction);
  compactions.forEach((s, i) => assert.equal(s.attributes['gen_ai.usage.cache_read.input_tokens'], Math.round(compacted[i].cache.read)));
});
