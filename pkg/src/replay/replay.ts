// Replays a recorded agent session through this package's rules, turn by turn, and keeps
// what each rule did: the data behind `devs-context replay` and the www/ page. It runs in
// Node and in browsers; the rules are the package's own (`@devs/context`), in wasm.
import {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer, createDefaultWindowBudget,
} from '@devs/context';
import type { LedgerRecord, SaopEnvelope, TokenCounter, ToolOutputEntry } from '@devs/context';
import type { ReplaySession } from './formats.js';

/** The settings of a replay, as the CLI's options and the page's form give them. */
export interface ReplaySettings {
  /** The bound, in tokens. Default 200,000. */
  budget: number;
  /** `o200k_base`, `cl100k_base` or `heuristic` (length / 4). */
  counterName: string;
  /** The 800k monitor's threshold. Default 800,000. */
  thresholdTokens: number;
  /** What the monitor counts: the response (the seed's wiring) or everything entering the context. */
  refreshOn: 'response' | 'context';
  /** Turns per TAS/PRD reasoning refresh. Default 5. */
  refreshEvery: number;
  /** As `BoundedOptions.recentItems`: items whose outputs stay whole. Default 6. */
  recentItems?: number;
  /** As `BoundedOptions.partShare`: the largest share of the budget one part may take. Default 0.15. */
  partShare?: number;
  /** As `BoundedOptions.summarizerShare`: the cap on a summarizer prompt's share. Default 0.4. */
  summarizerShare?: number;
}

/** The CLI's defaults: a 200,000-token budget, the length / 4 counter, the seed's 800k and 5-turn refreshes. */
export const DEFAULT_SETTINGS: ReplaySettings = {
  budget: 200_000, counterName: 'heuristic', thresholdTokens: 800_000, refreshOn: 'response', refreshEvery: 5,
};

/** The markers a turn can carry, in the order the report lists them. */
export const MARKERS = ['spec-refresh', 'context-refresh', 'handoff', 'prune', 'truncation', 'mask', 'cut', 'summary', 'drop'] as const;
/** A rule's firing on a turn, e.g. 'prune' or 'handoff' (see `MARKER_INFO` for each one's meaning). */
export type Marker = (typeof MARKERS)[number];

/** One replayed turn. */
export interface ReplayTurn {
  /** 1-based turn number. */
  turn: number;
  /** Tokens of the prompt sent, at most the budget. */
  promptTokens: number;
  /** The bounded runner's ledger record of this turn. */
  ledger: LedgerRecord;
  /** The rules that fired on this turn. */
  markers: Marker[];
  /** Tool calls answered in this turn, and those with no recorded result. */
  calls: number;
  /** Tool calls of this turn with no recorded result. */
  unanswered: number;
  /** The first characters of each section of the prompt sent. */
  preview: { section: string; text: string }[];
  /** What the recorded agent did, where the file says. */
  recorded: { inputTokens?: number; compaction?: boolean };
}

/** What `replay` found: every turn's prompt and the rules that fired. */
export interface ReplayResult {
  /** The session replayed: its name, format, step count, reading warnings, and tool results that matched no call. */
  session: { name: string; format: string; steps: number; warnings: string[]; unmatchedResults: number };
  /** The settings it was replayed with. */
  settings: ReplaySettings;
  /** Every replayed turn, in order. */
  turns: ReplayTurn[];
  /** How many turns carried each marker. */
  counts: Record<Marker, number>;
  /** The largest prompt, and how long the replay took. */
  largestPromptTokens: number;
  /** Milliseconds the replay took. */
  ms: number;
}

const PREVIEW_CHARS = 400;

/**
 * A stand-in for the summarizer LLM, which a replay does not call: it keeps each turn's
 * heading and first line, so a summary is deterministic and small.
 */
const extractiveSummarizer = {
  summarize(prompt: string): string {
    const lines = prompt.split('\n');
    const kept: string[] = [];
    for (let i = 0; i < lines.length && kept.join('\n').length < 3000; i++) {
      if (lines[i].startsWith('[')) kept.push(`${lines[i]} ${(lines[i + 1] ?? '').slice(0, 160)}`);
    }
    return `(replay: an extractive stand-in for your summarizer)\n${kept.join('\n')}`;
  },
};

/**
 * A copy of a short piece of a long string: a slice would keep the whole prompt it came
 * from alive, one prompt a turn.
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** The sections of a bounded prompt, by their headings, each cut to a preview. */
function previewOf(prompt: string): { section: string; text: string }[] {
  return prompt.split(/\n(?=# )/).map((part) => {
    const newline = part.indexOf('\n');
    const section = detached(part.slice(0, newline < 0 ? part.length : newline).replace(/^#\s*/, ''));
    const text = part.slice(newline + 1);
    return { section, text: detached(text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}… (${text.length} characters)` : text) };
  });
}

/**
 * Replays `session` with `settings`; `counter` counts tokens (undefined: length / 4).
 * `onProgress(done, total)` is called after each turn.
 * @example
 * import { readFileSync } from 'node:fs';
 * import { DEFAULT_SETTINGS, parseTranscript, replay } from '@devs/context/replay';
 *
 * const [session] = parseTranscript(readFileSync('session.jsonl', 'utf8'), 'session.jsonl');
 * const result = await replay(session, { ...DEFAULT_SETTINGS, budget: 100_000 }, undefined);
 * console.log(result.largestPromptTokens, result.counts.prune); // at most 100,000; turns pruned
 */
export async function replay(session: ReplaySession, settings: ReplaySettings, counter: TokenCounter | undefined,
  onProgress?: (done: number, total: number) => void): Promise<ReplayResult> {
  const started = Date.now();
  const steps = session.steps;
  let k = 0;
  let prompt = '';
  const llm = {
    complete(request: { prompt: string }) {
      prompt = request.prompt;
      const step = steps[k++];
      const envelopes = step.calls.map((c) => c.envelope as SaopEnvelope);
      return envelopes.length ? { text: step.text, envelopes } : { text: step.text };
    },
  };
  const budget = createDefaultWindowBudget(Math.max(settings.budget, 1000));
  const stored = new Map<string, ToolOutputEntry>();
  const store = {
    insertRawToolOutput(entry: ToolOutputEntry) {
      const id = `raw-${stored.size + 1}`;
      stored.set(id, entry);
      return id;
    },
    getRawToolOutput: (id: string | number) => stored.get(String(id)),
  };
  const context = { turns: [], goal: session.name, map: '', plan: '', tas: '', currentObservation: '', envelopes: [], pendingToolOutputs: [], budget };
  const summaryProvider = { getSummary: () => ({ tasSummary: '(the TAS summary)', prdSummary: '(the PRD summary)' }) };
  const runner = new AgentRunner({
    agentId: 'replay',
    taskGoal: (steps.find((s) => s.input)?.input ?? session.name).slice(0, 2000),
    llm,
    countTokens: counter,
    thresholdTokens: settings.thresholdTokens,
    refreshOn: settings.refreshOn,
    composer: new ContextComposer({ specs: [{ name: 'TAS', content: '(the TAS summary)' }, { name: 'PRD', content: '(the PRD summary)' }] }),
    handoff: new SummarizationHandoff({ llmClient: extractiveSummarizer }),
    contextManagement: {
      context,
      deps: {
        composer: new WindowComposer(budget, { countTokens: counter }),
        pruner: new ContextPruner(extractiveSummarizer),
        toolOutputPruner: new ToolOutputPruner({ rawOutputLocation: 'the replay store' }),
        stateRepository: store,
        countTokens: counter,
        logger: { warn() {} },
      },
    },
    tracker: new TurnTracker('replay', 'replay'),
    log: new AgentLogStore(1000),
    injector: new OrchestratorContextInjector(new ContextRefresher({ threshold: settings.refreshEvery, summaryProvider })),
    bounded: {
      budget: settings.budget, store, summarizer: extractiveSummarizer,
      recentItems: settings.recentItems, partShare: settings.partShare, summarizerShare: settings.summarizerShare,
    },
  });
  const turns: ReplayTurn[] = [];
  const counts = Object.fromEntries(MARKERS.map((m) => [m, 0])) as Record<Marker, number>;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const result = await runner.runTurn(step.input);
    const ledger = result.ledger as LedgerRecord;
    const markers: Marker[] = [];
    if (result.window.specInjected) markers.push('spec-refresh');
    if (result.envelope?.thought.reasoning.startsWith('[CONTEXT REFRESH]')) markers.push('context-refresh');
    if (result.contextRefresh) markers.push('handoff');
    if (result.contextManagement?.prunedOccurred) markers.push('prune');
    if (result.contextManagement?.truncatedOutputCount) markers.push('truncation');
    if (ledger.masked.length) markers.push('mask');
    if (ledger.cut.length) markers.push('cut');
    if (ledger.summarized) markers.push('summary');
    if (ledger.dropped) markers.push('drop');
    for (const m of markers) counts[m]++;
    turns.push({
      turn: result.turnIndex,
      promptTokens: result.promptTokens,
      ledger,
      markers,
      calls: step.calls.length,
      unanswered: step.calls.filter((c) => c.unanswered).length,
      preview: previewOf(prompt),
      recorded: { inputTokens: step.reportedInputTokens, compaction: step.compaction ? true : undefined },
    });
    onProgress?.(i + 1, steps.length);
  }
  return {
    session: { name: session.name, format: session.format, steps: steps.length, warnings: session.warnings, unmatchedResults: session.unmatchedResults },
    settings,
    turns,
    counts,
    largestPromptTokens: turns.reduce((m, t) => Math.max(m, t.promptTokens), 0),
    ms: Date.now() - started,
  };
}
