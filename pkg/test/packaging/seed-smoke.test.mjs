// The seeds' `node -e` smoke checks, verbatim except for the seed's monorepo path, which
// becomes `./pkg`, run from the repository root as the spec asks, on each Node `engines`
// names (20, 22 and 24).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { NODES, repoRoot, runOn } from './harness.mjs';

const seedPath = "require('./packages/core/dist/protocol')";
const ours = (snippet) => snippet.replace(seedPath, "require('./pkg')");

// Seed 000, section 6.
const contextRefresh = `
    const { ContextRefresher } = require('./packages/core/dist/protocol');
    const mockProvider = { getSummary: async () => ({ tasSummary: 'TAS', prdSummary: 'PRD' }) };
    const r = new ContextRefresher({ threshold: 5, summaryProvider: mockProvider });
    (async () => {
      let refreshCount = 0;
      for (let i = 1; i <= 10; i++) {
        const result = await r.onTurn(i);
        if (result.refreshed) refreshCount++;
      }
      if (refreshCount !== 2) process.exit(1);
      console.log('context_refresh_ok');
    })();
  `;

// Seed 004, section 6.
const monotonic = `
    const { TurnTracker } = require('./packages/core/dist/protocol');
    const t = new TurnTracker('agent-1', 'phase-3');
    const e1 = t.toLogEntry(); t.nextIndex();
    const e2 = t.toLogEntry();
    if (e2.timestamp_ns <= e1.timestamp_ns) process.exit(1);
    console.log('monotonic_ok');
  `;

for (const version of NODES) {
  const [major] = version;
  it(`seed 000 smoke check prints context_refresh_ok (Node ${major})`, () => {
    assert.equal(runOn(version, ['-e', ours(contextRefresh)], repoRoot).trim(), 'context_refresh_ok');
  });

  it(`seed 004 smoke check prints monotonic_ok (Node ${major})`, () => {
    assert.equal(runOn(version, ['-e', ours(monotonic)], repoRoot).trim(), 'monotonic_ok');
  });

  it(`import('./pkg/dist/index.mjs') works from the repository root (Node ${major})`, () => {
    const script = "const m = await import('./pkg/dist/index.mjs'); console.log(typeof m.ContextRefresher, typeof m.TurnTracker, process.versions.node.split('.')[0]);";
    assert.equal(runOn(version, ['--input-type=module', '-e', script], repoRoot).trim(), `function function ${major}`);
  });
}
