// Issue 48: the context manager's crossings into the rules, per build and per answered need,
// over every vendored session as `anthropic` at 20,000 tokens with recall on (bench/crossings.mjs
// counts each call of an export). Run: node bench/channel-crossings.mjs (after scripts/build.sh)
import { installCrossingCounter, snapshot, since } from './crossings.mjs';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
installCrossingCounter();
const ctx = await import('../pkg/dist/index.mjs');
const rp = await import('../pkg/dist/replay.mjs');
const dir = fileURLToPath(new URL('../pkg/test/fixtures/sessions/', import.meta.url));
const files = readdirSync(dir).filter((f) => /\.(jsonl|json|traj)$|\.chat\.history\.md$/.test(f)).sort();
const total = new Map();
let builds = 0, appends = 0;
// The calls that answer a need, today's and those an earlier build made (the same figures before and after).
const NEED = ['advance','index_body','placeholder_body','span_body','merged_body','carried','user_carried','too_large','event'];
for (const f of files) {
  let sessions;
  try { sessions = rp.parseTranscript(readFileSync(join(dir, f), 'utf8'), f); } catch { continue; }
  for (const s of sessions) {
    const store = new ctx.MemoryStateRepository();
    const m = new ctx.ContextManager({ format: 'anthropic', budget: 20000, recall: true, store,
      summarizer: { summarize: async (p) => String(p).slice(0, 400) } });
    const before = snapshot();
    for (const t of rp.providerTurns(s, 'anthropic')) {
      if (t.input.length) { m.append(t.input); appends++; }
      await m.build(); builds++;
      if (t.response.length) { m.append(t.response); appends++; }
      if (t.results.length) { m.append(t.results); appends++; }
    }
    m.free();
    for (const d of since(before)) for (const [k, v] of d.exports) total.set(k, (total.get(k) ?? 0) + v);
  }
}
const core = [...total].filter(([k]) => k.startsWith('managercore_')).sort((a, b) => b[1] - a[1]);
const sum = core.reduce((a, [, v]) => a + v, 0);
const needs = (total.get('managercore_advance') ?? 0);
const needCalls = core.filter(([k]) => NEED.some((n) => k === `managercore_${n}`)).reduce((a, [, v]) => a + v, 0);
console.log(JSON.stringify({ builds, appends, advance: needs, needCalls, perNeed: needCalls / needs, corePerBuild: sum / builds, allPerBuild: [...total.values()].reduce((a,b)=>a+b,0)/builds }, null, 1));
console.log(core.map(([k, v]) => `${k} ${v}`).join('\n'));
console.log('-- other exports');
console.log([...total].filter(([k]) => !k.startsWith('managercore_')).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join('\n'));
