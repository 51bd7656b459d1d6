// A host written the way the seeds use the API. It must compile under --strict against
// the published .d.ts (see packaging/npm-pack.test.mjs), as ESM, CJS and for bundlers.
import {
  AgentLogStore,
  AgentRunner,
  ContextComposer,
  ContextRefresher,
  OrchestratorContextInjector,
  SlidingRelevanceWindow,
  SpecRefreshProtocol,
  SummarizationError,
  SummarizationHandoff,
  TokenThresholdMonitor,
  ToolOutputPruner,
  TurnTracker,
  WindowComposer,
  applyContextManagement,
  ContextPruner,
  countTokens,
  createDefaultWindowBudget,
  isSaopEnvelope,
  validateSaopEnvelope,
} from '@devs/context';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { createTokenCounter } from '@devs/context/tokenizers';
import type { ExactTokenCounter, TokenizerEncoding } from '@devs/context/tokenizers';
import type { RawToolOutputRow } from '@devs/context/sqlite';
import type {
  AgentTurn,
  AppliedContextResult,
  ComposedWindow,
  ContextManagementDeps,
  OrchestratorContext,
  PrunedContext,
  StateRepository,
  ToolOutputEntry,
  TruncatedToolOutput,
  WindowBudget,
  AgentTurnResult,
  ContextRefreshEvent,
  ContextRefresherOptions,
  ContextWindow,
  MediumTermSummary,
  RefreshResult,
  SaopEnvelope,
  SlidingRelevanceWindowConfig,
  SpecDocument,
  SummaryProvider,
  ThresholdCallback,
  TokenCounter,
  TokenThresholdMonitorConfig,
  TurnEntry,
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

// Seed 001.
async function memoryFlow(): Promise<void> {
  const config: SlidingRelevanceWindowConfig = { maxTurns: 20 };
  const slidingWindow = new SlidingRelevanceWindow(config);
  const defaults = new SlidingRelevanceWindow();
  const turns: TurnEntry[] = [{ turnIndex: 1, agentId: 'a', role: 'user', content: 'hi', createdAt: new Date() }];
  const window: ContextWindow = slidingWindow.compose(turns, 'goal');
  const due: boolean = slidingWindow.shouldInjectSpec(10) && SlidingRelevanceWindow.shouldInjectSpec(20);
  const docs: SpecDocument[] = [{ name: 'TAS', content: 't' }, { name: 'PRD', content: 'p' }];
  const specRefresh = new SpecRefreshProtocol();
  const injection: TurnEntry = specRefresh.buildInjectionTurn(docs);
  const injected: ContextWindow = specRefresh.inject(window, docs, 10);
  const fromDisk: ContextComposer = await ContextComposer.fromProject('/repo', { maxTurns: 20 });
  const composer = new ContextComposer({ specs: docs });
  const composed: ContextWindow = composer.compose(turns, 'goal', 10);

  // Seed 003.
  const onThresholdExceeded: ThresholdCallback = async (event: ContextRefreshEvent) => {
    const at: Date = event.triggeredAt;
    void at;
  };
  const monitorConfig: TokenThresholdMonitorConfig = { thresholdTokens: 800_000, onThresholdExceeded };
  const monitor = new TokenThresholdMonitor(monitorConfig);
  await monitor.record(countTokens('response text'));
  const total: number = monitor.getAccumulatedTokens();
  monitor.reset();
  const exact: TokenCounter = (text) => text.length;
  const custom = new TokenThresholdMonitor({ onThresholdExceeded, countTokens: exact });
  await custom.recordText('hello');

  const handoff = new SummarizationHandoff({ llmClient: { summarize: async (prompt: string) => prompt.slice(0, 10) } });
  const summary: MediumTermSummary | null = await handoff.transfer('agent-1', turns);
  try {
    await handoff.transfer('agent-1', turns);
  } catch (e) {
    if (e instanceof SummarizationError) {
      const code: string = e.code;
      const agent: string | undefined = e.agentId;
      void [code, agent];
    }
  }

  const runner = new AgentRunner({
    agentId: 'agent-1',
    taskGoal: 'Fix the failing test',
    llm: { complete: async (request) => ({ text: `ack ${request.turnIndex}: ${request.prompt.length}` }) },
    composer,
    handoff,
    countTokens: exact,
  });
  const result: AgentTurnResult = await runner.runTurn('go');
  const refreshed: MediumTermSummary | null = result.contextRefresh;
  const history: TurnEntry[] = runner.turns;

  // @ts-expect-error maxTurns is a number
  void new SlidingRelevanceWindow({ maxTurns: '20' });
  // @ts-expect-error record takes a number
  void monitor.record('100');

  void [defaults, due, injection, injected, fromDisk, composed, total, summary, refreshed, history];
}

// Seed 002.
async function managementFlow(): Promise<void> {
  const budget: WindowBudget = createDefaultWindowBudget(800_000);
  const composer = new WindowComposer(budget, { maxRecentEnvelopes: 10 });
  const composed: ComposedWindow = composer.compose('goal', 'map', [envelope]);
  const kind: 'goal' | 'map' | 'recent_past' = composed.slots[0].kind;
  const pruner = new ContextPruner({ summarize: async (prompt: string) => prompt.slice(0, 100) }, { saturationRatio: 0.9 });
  const due: boolean = pruner.shouldPrune(720_000, budget);
  const turns: AgentTurn[] = [{ role: 'model', content: 'x', timestampMs: Date.now() }];
  const pruned: PrunedContext = await pruner.prune(turns, 'plan', 'tas', 'observation');
  const tools = new ToolOutputPruner();
  const entry: ToolOutputEntry = { toolName: 'run_tests', rawContent: 'ok', byteSize: 2, turnAge: 2, capturedAt: Date.now() };
  const repo: StateRepository = new SqliteStateRepository('state.sqlite');
  await tools.persistRaw(entry, repo);
  const small: TruncatedToolOutput = tools.truncate(entry);
  const context: OrchestratorContext = {
    turns, goal: 'g', map: 'm', plan: 'p', tas: 't', currentObservation: 'o', envelopes: [envelope], pendingToolOutputs: [entry], budget,
  };
  const deps: ContextManagementDeps = { composer, pruner, toolOutputPruner: tools, stateRepository: repo };
  const mocked: ContextManagementDeps = {
    composer: { compose: () => composed },
    pruner: { shouldPrune: async () => false, prune: async () => pruned },
    toolOutputPruner: { shouldTruncate: () => false, persistRaw: async () => {}, truncate: () => small },
    stateRepository: { insertRawToolOutput: async () => {} },
    logger: { warn: (message: string) => void message },
  };
  const result: AppliedContextResult = await applyContextManagement(context, deps);
  const again: AppliedContextResult = await applyContextManagement(context, mocked);
  const tokens: number = result.windowUsedTokens + again.truncatedOutputCount;
  const rows: RawToolOutputRow[] = new SqliteStateRepository().getRawToolOutputs('run_tests');

  // Issue 5: an exact counter is a TokenCounter.
  const encoding: TokenizerEncoding = 'o200k_base';
  const exact: ExactTokenCounter = createTokenCounter(encoding);
  const asRuleCounter: TokenCounter = exact;
  void new TokenThresholdMonitor({ onThresholdExceeded: async () => {}, countTokens: exact });
  void new WindowComposer(budget, { countTokens: asRuleCounter });
  await applyContextManagement(context, { ...deps, countTokens: exact });
  // @ts-expect-error only the two encodings
  void createTokenCounter('p50k_base');

  // @ts-expect-error roles are 'user' | 'model'
  const wrongTurn: AgentTurn = { role: 'assistant', content: 'x', timestampMs: 0 };

  void [kind, due, small, tokens, rows, wrongTurn];
}

void seedFlow();
void managementFlow();
void memoryFlow();
