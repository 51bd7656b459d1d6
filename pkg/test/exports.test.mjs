// The .d.ts and the runtime agree: every value the declarations export exists in both
// entries, and nothing is exported that the declarations do not describe.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as esm from '@devs/context';

const require = createRequire(import.meta.url);
const cjs = require('@devs/context');
const dts = readFileSync(new URL('../dist/index.d.ts', import.meta.url), 'utf8');
const declared = [...dts.matchAll(/^export (?:declare )?(?:class|function|const) (\w+)/gm)].map((m) => m[1]);

it('declares and exports the same values from both entries', () => {
  const unique = [...new Set(declared)].sort();
  assert.deepEqual(Object.keys(esm).sort(), unique);
  assert.deepEqual(Object.keys(cjs).sort(), unique);
});

it('the seed classes are all there', () => {
  for (const name of ['ContextRefresher', 'OrchestratorContextInjector', 'TurnTracker', 'AgentLogStore',
    'SlidingRelevanceWindow', 'SpecRefreshProtocol', 'TokenThresholdMonitor', 'SummarizationHandoff',
    'ContextComposer', 'AgentRunner', 'SummarizationError']) {
    assert.equal(typeof esm[name], 'function', name);
  }
  assert.equal(typeof esm.SlidingRelevanceWindow.shouldInjectSpec, 'function');
});
