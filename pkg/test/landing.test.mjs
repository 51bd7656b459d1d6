// Where each compaction lands (issue 49, item 2): between 0.9 of its low water mark and the
// mark, as the request is billed (the exact o200k count of the request built, which the
// manager learns through `recordUsage`), never further below; above the mark only where
// what no compaction takes (the system prompt, the summary and what it carries, the turn
// just appended) is that large already. Real sessions (./fixtures/sessions/), replayed as
// bench/recall.mjs replays them, at 50k and, three times over, at 200k, with a stand-in
// summarizer that keeps the head and the tail of its prompt.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ContextManager } from '@devs/context';
import { providerTurns } from '@devs/context/replay';
import { createTokenCounter } from '@devs/context/tokenizers';
import { SESSIONS, readSessions } from './sessions.mjs';

const o200k = createTokenCounter('o200k_base');
const SYSTEM = Array.from({ length: 40 }, (_, i) => `Rule ${i + 1}: work in small verified steps; read a file before editing it, run the tests after each change.`).join('\n');
const summarize = (text) => `Summary of the work so far:\n${text.slice(0, 3000)}\n…\n${text.length > 6000 ? text.slice(-3000) : text.slice(3000, 6000)}`;
// The request as the texts a provider reads, as bench/cache/measure.mjs counts an Anthropic
// request (each block's text; a call by its name, id and input; a result by its id and text).
const text = (content) => (typeof content === 'string' ? [content] : content.map(block));
function block(b) {
  if (b.type === 'text') return b.text;
  if (b.type === 'thinking') return b.thinking;
  if (b.type === 'tool_use') return `call ${b.name} ${b.id} ${JSON.stringify(b.input)}`;
  if (b.type === 'tool_result') return `result ${b.tool_use_id}\n${text(b.content ?? []).join('\n')}`;
  return JSON.stringify(b);
}
const billed = (request) => o200k(`system\n${SYSTEM}`) + request.messages.reduce((n, m) => n + o200k([m.role, ...text(m.content)].join('\n')), 0);

/** Every compaction past the high water mark of `session` at `budget`, with its landing. */
async function landings(session, budget) {
  const out = [];
  let event;
  let record;
  const manager = new ContextManager({
    format: 'anthropic', budget, system: SYSTEM, countTokens: o200k, summarizer: summarize,
    onCompaction: (e) => { event = e; },
    onLedger: (r) => { record = r; },
  });
  try {
    for (const turn of providerTurns(session, 'anthropic')) {
      manager.append(turn.input);
      event = undefined;
      const request = await manager.build();
      const tokens = billed(request);
      manager.recordUsage({ input_tokens: tokens, output_tokens: 1 });
      if (event?.trigger === 'highWater') {
        const s = record.sections;
        // What the compaction could not take, by the manager's count.
        const kept = s.system + s.pinned + s.summary + s.appended + s.framing;
        out.push({ at: event.request, landed: tokens / budget, low: record.compaction.lowWater / budget, keptOver: kept >= record.compaction.lowWater });
      }
      manager.append(turn.response);
      manager.append(turn.results);
    }
  } finally {
    manager.free();
  }
  return out;
}

const session = (file, times = 1) => {
  const [s] = readSessions(join(SESSIONS, file));
  return { ...s, steps: Array.from({ length: times }, () => s.steps).flat() };
};

/** The landings off the band: under 0.9 of the mark, or over it with room to take more. */
const off = (all) => all.filter((l) => l.landed < 0.9 * l.low || (l.landed > l.low && !l.keptOver));

describe('a compaction lands between 0.9 of its low water mark and the mark', () => {
  for (const [file, budget, times] of [
    ['claude-code-session.jsonl', 50_000, 1],
    ['mini-swe-agent-django-11138.traj.json', 50_000, 1],
    ['codex-desktop-rollout.jsonl', 50_000, 1],
    ['codex-cli-rollout-gpt-5.5.jsonl', 50_000, 1],
    ['claude-code-subagent.jsonl', 50_000, 1],
    ['claude-code-session.jsonl', 200_000, 3],
  ]) {
    it(`${file}${times > 1 ? ` ×${times}` : ''} at ${budget / 1000}k`, async () => {
      const all = await landings(session(file, times), budget);
      assert.ok(all.length >= 2, `${all.length} compactions`);
      assert.deepEqual(off(all), [], all.map((l) => l.landed.toFixed(3)).join(' '));
    });
  }
});
