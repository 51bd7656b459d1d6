// A host written the way the seeds use the API. It must compile under --strict against
// the published .d.ts (see packaging/npm-pack.test.mjs), as ESM, CJS and for bundlers.
import {
  AgentLogStore,
  ContextRefresher,
  OrchestratorContextInjector,
  TurnTracker,
  isSaopEnvelope,
  validateSaopEnvelope,
} from '@devs/context';
import type {
  ContextRefresherOptions,
  RefreshResult,
  SaopEnvelope,
  SummaryProvider,
  TurnLogEntry,
} from '@devs/context';

// Seed 000: an interface, so file-, DB- or memory-backed providers all fit.
class InMemoryProvider implements SummaryProvider {
  async getSummary(): Promise<{ tasSummary: string; prdSummary: string }> {
    return { tasSummary: 'TAS', prdSummary: 'PRD' };
  }
}
const mockProvider: SummaryProvider = { getSummary: async () => ({ tasSummary: 'TAS', prdSummary: 'PRD' }) };
const options: ContextRefresherOptions = { threshold: 5, summaryProvider: mockProvider };
const refresher = new ContextRefresher(options);
const defaulted = new ContextRefresher({ summaryProvider: new InMemoryProvider() });
const turns: number = refresher.turnsInCurrentNode + defaulted.threshold;

const envelope: SaopEnvelope = {
  schema_version: '1.0.0',
  turn_index: 0,
  agent_id: 'agent-1',
  phase: 'phase-3',
  thought: { reasoning: 'why', plan: 'what' },
  action: { tool_name: 'read_file', arguments: { path: 'src/lib.rs' } },
  observation: { status: 'success', output: '' },
};

async function seedFlow(): Promise<number> {
  let refreshCount = 0;
  for (let i = 1; i <= 10; i++) {
    const result: RefreshResult = await refresher.onTurn(i);
    if (result.refreshed) refreshCount++;
    const summary: string | undefined = result.injectedSummary;
    void summary;
  }
  refresher.resetNode();

  const injector = new OrchestratorContextInjector(refresher);
  const injected: SaopEnvelope = await injector.injectIfNeeded(envelope, 1);
  const reasoning: string = injected.thought.reasoning;

  // Seed 004.
  const tracker = new TurnTracker('agent-1', 'phase-3');
  const next: number = tracker.nextIndex();
  const stamped: SaopEnvelope = tracker.attach(envelope);
  const entry: TurnLogEntry = tracker.toLogEntry();
  const ns: bigint = entry.timestamp_ns;
  tracker.reset();

  const store = new AgentLogStore(1000);
  const unbounded = new AgentLogStore();
  store.append(entry);
  const all: TurnLogEntry[] = store.getAll();
  const mine: TurnLogEntry[] = store.getByAgent('agent-1');
  const found: TurnLogEntry | undefined = store.getByTurnIndex(1);
  store.clear();

  const unknownValue: unknown = JSON.parse('{}');
  if (isSaopEnvelope(unknownValue)) {
    const status: 'success' | 'error' | 'timeout' | 'partial' = unknownValue.observation.status;
    void status;
  }
  const checked: SaopEnvelope = validateSaopEnvelope(unknownValue);

  // @ts-expect-error threshold is a number
  void new ContextRefresher({ threshold: '5', summaryProvider: mockProvider });
  // @ts-expect-error a provider must have getSummary
  void new ContextRefresher({ summaryProvider: {} });
  // @ts-expect-error timestamp_ns is a bigint, not a number
  const wrong: number = entry.timestamp_ns;

  void [turns, reasoning, next, stamped, ns, all, mine, found, unbounded, checked, wrong];
  return refreshCount;
}

void seedFlow();
