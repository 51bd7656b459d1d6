#!/usr/bin/env node
// Demo orchestrator: drives the rules through a scripted 12-turn session and prints what
// happens on each turn. Run it with `bash scripts/demo.sh`.
import {
  AgentLogStore,
  ContextRefresher,
  OrchestratorContextInjector,
  TurnTracker,
  validateSaopEnvelope,
} from '../pkg/dist/index.mjs';

const script = [
  ['read_file', 'success', 'Read src/parser.rs (412 lines).'],
  ['run_tests', 'error', 'parser::tests::trailing_token FAILED'],
  ['read_file', 'success', 'Read src/lexer.rs (198 lines).'],
  ['edit_file', 'success', 'Patched lexer to emit the final token.'],
  ['run_tests', 'error', 'parser::tests::trailing_token FAILED (different assertion)'],
  ['read_file', 'success', 'Read tests/parser.rs.'],
  ['edit_file', 'success', 'Patched parser to consume EOF.'],
  ['run_tests', 'success', '42 passed'],
];

const summaryProvider = {
  calls: 0,
  async getSummary() {
    this.calls += 1;
    return {
      tasSummary: 'Rust core compiled to wasm; rules are pure, bindings are thin.',
      prdSummary: 'Keep long-running coding agents on track within a 1M-token window.',
    };
  },
};

const refresher = new ContextRefresher({ threshold: 5, summaryProvider });
const injector = new OrchestratorContextInjector(refresher);
const log = new AgentLogStore(8);
const phases = ['implement', 'verify'];
let step = 0;

for (const [p, phase] of phases.entries()) {
  if (p > 0) {
    refresher.resetNode();
    console.log(`-- node change: ${phase} (refresh counter reset)`);
  }
  const tracker = new TurnTracker('dev-agent', phase);
  const turnsInPhase = p === 0 ? 7 : 5;
  for (let i = 0; i < turnsInPhase; i++) {
    const turn = tracker.nextIndex();
    const [tool, status, output] = script[step++ % script.length];
    const draft = {
      schema_version: '1.0.0',
      turn_index: 0,
      agent_id: 'dev-agent',
      phase,
      thought: { reasoning: `Next step: ${tool}.`, plan: 'Make parser::tests::trailing_token pass.' },
      action: { tool_name: tool, arguments: {} },
      observation: { status, output },
    };
    const envelope = validateSaopEnvelope(await injector.injectIfNeeded(tracker.attach(draft), turn));
    const entry = tracker.toLogEntry();
    log.append(entry);
    const refreshed = envelope.thought.reasoning.startsWith('[CONTEXT REFRESH]');
    console.log(
      `turn ${String(turn).padStart(2)} ${phase.padEnd(9)} ${tool.padEnd(9)} ${status.padEnd(7)}` +
        ` node-turns=${refresher.turnsInCurrentNode}${refreshed ? '  << spec refresh injected' : ''}` +
        `  t=${entry.timestamp_ns}ns`,
    );
  }
}

console.log(`\nsummary: ${summaryProvider.calls} refreshes; log holds ${log.size}/${log.maxSize} entries ` +
  `(oldest turn_index ${log.getAll()[0].turn_index}, phase ${log.getAll()[0].phase})`);
