// A VSCode-extension-style host: bundled by esbuild (CJS, platform node, `vscode`
// external), then run after node_modules is gone, so nothing may be looked up on disk:
// the rules and the exact tokenizers both come from the bundle.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { bin, hostProject, run } from './harness.mjs';

const extension = `
const { ContextRefresher, OrchestratorContextInjector, TurnTracker, AgentLogStore } = require('@devs/context');
const { createTokenCounter } = require('@devs/context/tokenizers');

async function activate() {
  const provider = { getSummary: async () => ({ tasSummary: 'TAS', prdSummary: 'PRD' }) };
  const injector = new OrchestratorContextInjector(new ContextRefresher({ threshold: 5, summaryProvider: provider }));
  const tracker = new TurnTracker('vscode-agent', 'implement');
  const log = new AgentLogStore(3);
  let refreshed = 0;
  for (let turn = 1; turn <= 10; turn++) {
    tracker.nextIndex();
    const envelope = tracker.attach({ schema_version: '1.0.0', turn_index: 0, agent_id: 'vscode-agent', phase: 'implement',
      thought: { reasoning: 'r', plan: 'p' }, action: { tool_name: 't', arguments: {} }, observation: { status: 'success', output: '' } });
    const out = await injector.injectIfNeeded(envelope, turn);
    if (out.thought.reasoning.startsWith('[CONTEXT REFRESH]')) refreshed++;
    log.append(tracker.toLogEntry());
  }
  const exact = createTokenCounter('o200k_base')('hello world');
  return { refreshed, logged: log.size, last: log.getAll()[2].turn_index, exact };
}
module.exports = { activate };
`;

it('an esbuild bundle runs with node_modules deleted', () => {
  const dir = hostProject('vscode', { 'src/extension.js': extension });
  run(bin('esbuild'), ['src/extension.js', '--bundle', '--platform=node', '--format=cjs', '--external:vscode',
    '--outfile=out/extension.js', '--log-level=warning'], dir);
  rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
  assert.ok(!existsSync(join(dir, 'node_modules')));
  const out = run('node', ['-e', "require('./out/extension.js').activate().then((r) => console.log(JSON.stringify(r)))"], dir);
  assert.deepEqual(JSON.parse(out), { refreshed: 2, logged: 3, last: 10, exact: 2 });
});
