// Issue 36: each compaction is an OpenTelemetry span in the host's own tracing, with the
// summarizer's call its child, recorded by the real SDK into an in-memory exporter.
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextManager } from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

async function session(options, turns = 40) {
  const manager = new ContextManager({ format: 'anthropic', budget: 4_000, ...options });
  const records = [];
  await manager.append({ role: 'user', content: 'Fix the failing parser test.' });
  for (let t = 0; t < turns; t++) {
    await manager.append([
      { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'run_tests', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: `run ${t}: ${'FAIL parser line 12\n'.repeat(30)}` }] },
      { role: 'assistant', content: `run ${t} failed` },
      { role: 'user', content: `again (${t})` },
    ]);
    records.push((await manager.build()).ledger);
  }
  manager.free();
  return records;
}

describe('OpenTelemetry spans', () => {
  before(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
  });
  after(() => {
    trace.disable();
    context.disable();
  });
  beforeEach(() => exporter.reset());

  it('makes each compaction a span with its figures, and each summarizer call its child', async () => {
    const inner = trace.getTracer('host');
    const records = await trace.getTracer('host').startActiveSpan('agent run', async (root) => {
      const r = await session({
        conversationId: 'thread-7',
        summarizer: async () => {
          // The host's own instrumentation inside the summarizer nests under its span.
          inner.startSpan('host llm call').end();
          return 'the parser fails on line 12';
        },
      });
      root.end();
      return r;
    });
    const spans = exporter.getFinishedSpans();
    const compactions = spans.filter((s) => s.name === 'context.compaction');
    const compacted = records.filter((r) => r.compaction);
    assert.equal(compactions.length, compacted.length);
    assert.ok(compactions.length >= 2, `${compactions.length} compaction spans`);
    const root = spans.find((s) => s.name === 'agent run');
    for (const [i, s] of compactions.entries()) {
      const r = compacted[i];
      const a = s.attributes;
      assert.equal(s.parentSpanContext?.spanId, root.spanContext().spanId, 'under the host span it was built in');
      assert.equal(a['devs_context.compaction.request'], r.request);
      // Tokens as whole numbers, the nearest (telemetry-faults.test.mjs checks them with fractions).
      assert.equal(a['devs_context.compaction.tokens.before'], Math.round(r.compaction.before));
      assert.equal(a['devs_context.compaction.tokens.after'], Math.round(r.tokens));
      assert.equal(a['gen_ai.usage.cache_read.input_tokens'], Math.round(r.cache.read));
      assert.equal(a['gen_ai.usage.cache_creation.input_tokens'], Math.round(r.cache.write));
      assert.equal(a['devs_context.compaction.masked'], r.compaction.masked.length);
      assert.equal(a['gen_ai.conversation.id'], 'thread-7');
    }
    const summaries = spans.filter((s) => s.name === 'context.summarize');
    assert.ok(summaries.length > 0);
    for (const s of summaries) {
      const parent = compactions.find((c) => c.spanContext().spanId === s.parentSpanContext?.spanId);
      assert.ok(parent, 'a summarizer call is a compaction span\'s child');
      assert.ok(s.startTime[0] * 1e3 + s.startTime[1] / 1e6 >= parent.startTime[0] * 1e3 + parent.startTime[1] / 1e6 - 1);
    }
    const llm = spans.filter((s) => s.name === 'host llm call');
    assert.equal(llm.length, summaries.length);
    for (const s of llm) assert.ok(summaries.some((p) => p.spanContext().spanId === s.parentSpanContext?.spanId), "the host's call nests under the summarizer's span");
  });

  it('marks the span a compacting build was called in with gen_ai.conversation.compacted, as an adapter builds inside its model call', async () => {
    const tracer = trace.getTracer('host');
    const manager = new ContextManager({ format: 'anthropic', budget: 4_000 });
    await manager.append({ role: 'user', content: 'go' });
    const marked = [];
    for (let t = 0; t < 30; t++) {
      await manager.append([{ role: 'assistant', content: `step ${t}` }, { role: 'user', content: `log ${t}: ${'x '.repeat(300)}` }]);
      await tracer.startActiveSpan(`inference ${t}`, async (span) => {
        const { ledger } = await manager.build();
        span.end();
        marked.push(Boolean(ledger.compaction));
      });
    }
    manager.free();
    const spans = exporter.getFinishedSpans().filter((s) => s.name.startsWith('inference'));
    assert.ok(marked.some(Boolean) && !marked.every(Boolean));
    for (const [t, compacted] of marked.entries()) {
      assert.equal(spans[t].attributes['gen_ai.conversation.compacted'], compacted ? true : undefined, `inference ${t}`);
    }
  });

  it('marks a failed summarizer call and its compaction as errors', async () => {
    await session({ summarizer: async () => { throw new Error('model down'); } });
    const spans = exporter.getFinishedSpans();
    const summaries = spans.filter((s) => s.name === 'context.summarize');
    assert.ok(summaries.length > 0);
    for (const s of summaries) {
      assert.equal(s.status.code, 2);
      assert.equal(s.events[0]?.name, 'exception');
    }
    assert.ok(spans.filter((s) => s.name === 'context.compaction').some((s) => s.status.code === 2));
  });

  it("uses the host's tracer when given, and makes no span for a build that does not compact", async () => {
    const own = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(own)] }).getTracer('mine');
    const records = await session({ tracer }, 6);
    assert.ok(records.every((r) => !r.compaction));
    assert.equal(own.getFinishedSpans().length, 0);
    await session({ tracer });
    assert.ok(own.getFinishedSpans().some((s) => s.name === 'context.compaction'));
    assert.equal(exporter.getFinishedSpans().filter((s) => s.name === 'context.compaction').length, 0, 'not the global provider');
    assert.throws(() => new ContextManager({ format: 'anthropic', budget: 4_000, tracer: {} }), (e) => e instanceof TypeError && e.field === 'options.tracer');
  });

  it("names a session's spans by its session id", async () => {
    const store = new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'trace-')), 'state.sqlite'));
    const session = await ContextManager.open({ sessionId: 'task-7', store, format: 'anthropic', budget: 4_000, summarizer: async () => 'summary' });
    await session.append({ role: 'user', content: 'go' });
    for (let t = 0; t < 30; t++) {
      await session.append([{ role: 'assistant', content: `step ${t}` }, { role: 'user', content: `log ${t}: ${'x '.repeat(300)}` }]);
      await session.build();
    }
    await session.close();
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'context.compaction');
    assert.ok(spans.length > 0);
    for (const s of spans) assert.equal(s.attributes['gen_ai.conversation.id'], 'task-7');
  });
});
