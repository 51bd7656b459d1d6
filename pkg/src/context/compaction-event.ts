// One event per compaction, made from the build's ledger record and the request before
// it: what a host logs, charts or turns into a span, without reading the ledger's shape.
import type { CompactionEvent, ContextWarning, LedgerRecord, SummaryUsage } from './types.js';

/** The event of `record`'s compaction (none when it had none), after `previous`; `workingState`: the section the engine holds after it (`working.ts`). */
export function compactionEvent(record: LedgerRecord, previous: LedgerRecord | undefined, warnings: ContextWarning[], usage?: SummaryUsage, workingState = ''): CompactionEvent | undefined {
  const c = record.compaction;
  if (!c) return undefined;
  const span = (s: { from: number; to: number } | null) => (s ? s.to - s.from : 0);
  const kept = span(c.kept);
  const failed = warnings.find((w) => w.code === 'summarizer-failed');
  // What the previous request had written to (or read from) the cache and this one no longer reads.
  const invalidated = previous ? Math.max(0, previous.tokens - record.cache.read) : 0;
  const event: CompactionEvent = {
    request: record.request,
    trigger: c.trigger,
    actions: { masked: c.masked.length, cut: record.cut, summarized: c.summarized, dropped: c.dropped },
    tokens: { before: c.before, after: record.tokens },
    messages: { before: kept + span(c.summarized) + span(c.dropped), after: kept + (c.summarized ? 1 : 0) },
    stored: [...new Set([...c.masked, ...c.indexed])],
    cache: { read: record.cache.read, written: record.cache.write, invalidated },
    summary: { chunks: c.summarizerChunks, tokens: c.summarized ? record.sections.summary : 0, largestPrompt: c.largestSummarizerPrompt },
    workingState,
    ms: record.ms,
  };
  if (usage) event.summary.usage = usage;
  if (failed) event.error = failed.error ?? new Error(failed.message);
  return event;
}
