// Replays a recorded agent session through this package's rules, turn by turn, and keeps
// what each rule did: the data behind `devs-context replay` and the www/ page. It runs in
// Node and in browsers; the rules are the package's own (`@devs/context`), in wasm.
import {
  AgentLogStore, AgentRunner, ContextComposer, ContextPruner, ContextRefresher, OrchestratorContextInjector,
  SummarizationHandoff, ToolOutputPruner, TurnTracker, WindowComposer, createDefaultWindowBudget,
} from '@devs/context';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import type { LedgerRecord, SaopEnvelope, StateRepository, SummarizerClient, TokenCounter } from '@devs/context';
import type { ReplaySession, ReplayStep } from './formats/index.js';
import { providerTurns, type ReplayFormat } from './messages.js';
import { compactionEvent } from '../context/compaction-event.js';
import { PREVIEW_CHARS, detached, previewOf } from './preview.js';

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
  /** As `BoundedOptions.recentShare`: the newest turns a compaction keeps whole, as a share of the budget. Default 0.1. */
  recentShare?: number;
  /** As `BoundedOptions.partShare`: the largest share of the budget one part may take. Default 0.15. */
  partShare?: number;
  /** As `BoundedOptions.summarizerShare`: the cap on a summarizer prompt's share. Default 0.4. */
  summarizerShare?: number;
  /** As `BoundedOptions.highWater`: a prompt past this share of the budget is compacted. Default 0.75. */
  highWater?: number;
  /** As `BoundedOptions.lowWater`: a compaction brings the prompt under this share of the budget. Default 0.25. */
  lowWater?: number;
  /**
   * What builds the requests: `'runner'` (the default), an `AgentRunner` with every seed
   * rule and the `bounded` option, one prompt string a turn; or a provider format, a
   * `ContextManager` given the session as that provider's messages.
   */
  format?: 'runner' | ReplayFormat;
}

/** The CLI's defaults: a 200,000-token budget, the length / 4 counter, the seed's 800k and 5-turn refreshes. */
export const DEFAULT_SETTINGS: ReplaySettings = {
  budget: 200_000, counterName: 'heuristic', thresholdTokens: 800_000, refreshOn: 'response', refreshEvery: 5,
};

/** The markers a turn can carry, in the order the report lists them. */
export const MARKERS = ['spec-refresh', 'context-refresh', 'handoff', 'prune', 'truncation', 'mask', 'cut', 'summary', 'drop'] as const;
/** A rule's firing on a turn, e.g. 'prune' or 'handoff' (see `MARKER_INFO` for each one's meaning). */
export type Marker = (typeof MARKERS)[number];

/** What a replay is given besides its settings: the host's own parts, where it has them. */
export interface ReplayOptions {
  /** Called after each turn with the turns done and the total. */
  onProgress?: (done: number, total: number) => void;
  /** Called after each turn with what it did. */
  onTurn?: (turn: ReplayTurn) => void;
  /** Where raw outputs go. Default: a new `MemoryStateRepository`. */
  store?: StateRepository;
  /** The TAS and PRD summaries, re-injected and pinned. Default: stand-ins. */
  specs?: { tas: string; prd: string };
  /** The goal every prompt starts with. Default: the session's first user message. */
  goal?: string;
  /** The window's Map slot: the project's structure. Default: none. */
  map?: string;
  /** The summarizer of the prune, the handoff and the bound. Default: an extractive stand-in, which calls no LLM. */
  summarizer?: SummarizerClient;
}

/** A rule's firing on a turn, in words: what it acted on and why. */
export interface ReplayEvent {
  /** The rule. */
  marker: Marker;
  /** What it did, e.g. "masked in the prompt: the bash output of turn 3 (stored as 3)". */
  text: string;
  /** The turns it acted on, where it acted on a span of them. */
  fromTurn?: number;
  toTurn?: number;
}

/** One replayed turn. */
export interface ReplayTurn {
  /** 1-based turn number. */
  turn: number;
  /** Tokens of the prompt sent, at most the budget. */
  promptTokens: number;
  /** The tokens `applyContextManagement` asked the prune rule about (it prunes at 90% of the budget), or null when it did not ask. */
  pruneTokens: number | null;
  /** The monitor's total on this turn (on a refresh turn, the total that reached its threshold). */
  monitorTokens: number;
  /** Tool outputs truncated in the context this turn. */
  truncated: number;
  /** Each rule's firing, in words. */
  events: ReplayEvent[];
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
  /** What the recorded agent did, where the file says: its provider's input tokens and cache reads, and whether it compacted. */
  recorded: { inputTokens?: number; cacheRead?: number; compaction?: boolean };
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
  /** What the session's input costs with the provider's prompt cache: ours, and the recorded agent's where the file says. */
  cost: ReplayCost;
  /** The manager's marks, in tokens: a prompt past `highWater` is compacted, down under `lowWater`. */
  marks: ReplayMarks;
  /** Each of the manager's compactions, with what it cost the cache. */
  compactions: ReplayCompaction[];
}

/** One compaction of the replay: its turn, trigger and tokens, and the cache it read, wrote and invalidated (`onCompaction`'s figures). */
export interface ReplayCompaction {
  turn: number;
  trigger: string;
  tokensBefore: number;
  tokensAfter: number;
  cacheRead: number;
  cacheWritten: number;
  /** What the request before had in the cache and this one no longer reads. */
  cacheInvalidated: number;
}

/** The compactions of `turns`, from their ledger records, as `onCompaction` reports them. */
function compactionsOf(turns: ReplayTurn[]): ReplayCompaction[] {
  const out: ReplayCompaction[] = [];
  turns.forEach((t, i) => {
    const e = compactionEvent(t.ledger, turns[i - 1]?.ledger, []);
    if (!e) return;
    out.push({
      turn: t.turn, trigger: e.trigger, tokensBefore: e.tokens.before, tokensAfter: e.tokens.after,
      cacheRead: e.cache.read, cacheWritten: e.cache.written, cacheInvalidated: e.cache.invalidated,
    });
  });
  return out;
}

/** The marks the manager that built the prompts used, in tokens, as its ledger gives them (`LedgerRecord.compaction`). */
export interface ReplayMarks {
  highWater: number;
  lowWater: number;
}

/**
 * The manager's marks for `settings`, from the manager itself: a manager given the same
 * options is asked to compact one message, and its ledger record names the marks. The
 * replay so keeps no copy of the rules' defaults, and a run that never compacted still
 * shows where it would have.
 */
async function marksOf(settings: ReplaySettings): Promise<ReplayMarks> {
  const probe = new ContextManager({
    format: 'openai-chat', budget: settings.budget, ...managerShares(settings),
  });
  try {
    probe.append({ role: 'user', content: 'the marks' });
    probe.compact();
    const { ledger } = await probe.build();
    const c = ledger.compaction as NonNullable<LedgerRecord['compaction']>;
    return { highWater: c.highWater, lowWater: c.lowWater };
  } finally {
    probe.free();
  }
}

/** The settings that are the manager's options, as both paths pass them (`bounded`, `ContextManager`). */
function managerShares(settings: ReplaySettings) {
  return {
    highWater: settings.highWater, lowWater: settings.lowWater,
    recentShare: settings.recentShare, partShare: settings.partShare, summarizerShare: settings.summarizerShare,
  };
}

/** A session's input with the provider's prompt cache, in uncached-token units. */
export interface ReplayCost {
  /** Of all request tokens, the share read from the cache (the prefix each request shares with the one before). */
  cacheShare: number;
  /** The input cost relative to sending every request uncached: reads cost 0.1, writes 1.25. */
  relativeCost: number;
  /** The recorded agent's own figures, from the usage its provider reported (Claude Code, Codex), on the requests that have them. */
  recorded?: { requests: number; cacheShare: number; relativeCost: number };
}

/** Our figures from the ledger, and the recorded agent's from the file's usage. */
function costOf(turns: ReplayTurn[], steps: ReplayStep[]): ReplayCost {
  let read = 0, tokens = 0, units = 0;
  for (const t of turns) {
    read += t.ledger.cache.read;
    tokens += t.ledger.tokens;
    units += t.ledger.cache.cost;
  }
  const cost: ReplayCost = { cacheShare: tokens ? read / tokens : 0, relativeCost: tokens ? units / tokens : 1 };
  const recorded = steps.filter((s) => s.reportedCache && s.reportedInputTokens);
  if (recorded.length) {
    let r = 0, total = 0, paid = 0;
    for (const s of recorded) {
      const c = s.reportedCache as NonNullable<ReplayStep['reportedCache']>;
      const all = s.reportedInputTokens as number;
      // Anthropic bills a cache write at 1.25; OpenAI at the uncached price.
      paid += 0.1 * c.read + (c.pricing === 'anthropic' ? 1.25 : 1) * c.write + (all - c.read - c.write);
      r += c.read;
      total += all;
    }
    cost.recorded = { requests: recorded.length, cacheShare: r / total, relativeCost: paid / total };
  }
  return cost;
}

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

/** "turn 3" or "turns 3–7". */
function span(from: number, to: number): string {
  return from === to ? `turn ${from}` : `turns ${from}–${to}`;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

type TurnResult = Awaited<ReturnType<AgentRunner['runTurn']>>;

/** Each rule's firing on a turn, in words; `result` is the runner's (the seed rules' markers need it). */
function eventsOf(l: LedgerRecord, result: TurnResult | undefined, markers: Marker[], ctx: { pruneTokens: number | null; pruneAt: number; contextFrom: number; threshold: number; budget: number }): ReplayEvent[] {
  const r = result as TurnResult;
  const words: Record<Marker, () => ReplayEvent> = {
    'spec-refresh': () => ({ marker: 'spec-refresh', text: 'TAS and PRD summaries re-sent in the window' }),
    'context-refresh': () => ({ marker: 'context-refresh', text: "TAS and PRD summaries prepended to the envelope's reasoning" }),
    handoff: () => {
      const h = r.contextRefresh as NonNullable<TurnResult['contextRefresh']>;
      return { marker: 'handoff', fromTurn: h.turnRangeStart, toTurn: h.turnRangeEnd,
        text: `context refresh: the monitor reached ${fmt(r.monitorTokens)} ≥ ${fmt(ctx.threshold)}; ${span(h.turnRangeStart, h.turnRangeEnd)} summarized and re-injected as [CONTEXT REFRESH]` };
    },
    prune: () => ({ marker: 'prune', fromTurn: ctx.contextFrom, toTurn: r.turnIndex - 1,
      text: `prune: ${fmt(ctx.pruneTokens ?? 0)} ≥ ${fmt(ctx.pruneAt)}, so ${span(ctx.contextFrom, r.turnIndex - 1)} and this turn's input became one summary` }),
    truncation: () => ({ marker: 'truncation', text: `${r.contextManagement?.truncatedOutputCount} tool output(s) in the context stored whole and cut to their head` }),
    mask: () => {
      const c = l.compaction as NonNullable<LedgerRecord['compaction']>;
      return { marker: 'mask', text: `a compaction (${fmt(c.before)} → ${fmt(c.after)} tokens) masked ${c.masked.length} tool output${c.masked.length === 1 ? '' : 's'} in the prompt, stored as ${c.masked.slice(0, 6).join(', ')}${c.masked.length > 6 ? ', …' : ''}` };
    },
    cut: () => ({ marker: 'cut', text: `${l.cut} text${l.cut === 1 ? '' : 's'} too large for ${fmt(ctx.budget * 0.15)} tokens stored whole and cut to head and tail in the prompt` }),
    summary: () => {
      const c = l.compaction as NonNullable<LedgerRecord['compaction']>;
      const m = c.summarized as NonNullable<typeof c.summarized>;
      return { marker: 'summary', text: `summary: messages ${m.from}–${m.to - 1} of the conversation summarized in ${c.summarizerChunks} chunk${c.summarizerChunks === 1 ? '' : 's'} (largest summarizer prompt ${fmt(c.largestSummarizerPrompt)} tokens) to fit ${fmt(ctx.budget)}` };
    },
    drop: () => {
      const d = (l.compaction as NonNullable<LedgerRecord['compaction']>).dropped as NonNullable<NonNullable<LedgerRecord['compaction']>['dropped']>;
      return { marker: 'drop', text: `drop: messages ${d.from}–${d.to - 1} of the conversation left out (the deterministic cut) to fit ${fmt(ctx.budget)}` };
    },
  };
  return markers.map((m) => words[m]());
}

/**
 * Replays `session` with `settings`; `counter` counts tokens (undefined: length / 4).
 * `options` gives the host's own store, specs and summarizer, and is called after each
 * turn; a function there is `onProgress(done, total)`.
 * @example
 * import { readFileSync } from 'node:fs';
 * import { DEFAULT_SETTINGS, parseTranscript, replay } from '@devs/context/replay';
 *
 * const [session] = parseTranscript(readFileSync('session.jsonl', 'utf8'), 'session.jsonl');
 * const result = await replay(session, { ...DEFAULT_SETTINGS, budget: 100_000 }, undefined);
 * console.log(result.largestPromptTokens, result.counts.prune); // at most 100,000; turns pruned
 */
export async function replay(session: ReplaySession, settings: ReplaySettings, counter: TokenCounter | undefined,
  options: ReplayOptions | ((done: number, total: number) => void) = {}): Promise<ReplayResult> {
  const opts: ReplayOptions = typeof options === 'function' ? { onProgress: options } : options;
  if (settings.format !== undefined && settings.format !== 'runner') return replayMessages(session, settings, counter, opts, settings.format);
  const summarizer = opts.summarizer ?? extractiveSummarizer;
  const specs = opts.specs ?? { tas: '(the TAS summary)', prd: '(the PRD summary)' };
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
  const store = opts.store ?? new MemoryStateRepository();
  const goal = opts.goal ?? (steps.find((s) => s.input)?.input ?? session.name).slice(0, 2000);
  const context = { turns: [], goal, map: opts.map ?? '', plan: '', tas: specs.tas, currentObservation: '', envelopes: [], pendingToolOutputs: [], budget };
  const summaryProvider = { getSummary: () => ({ tasSummary: specs.tas, prdSummary: specs.prd }) };
  // The count applyContextManagement asks the prune rule about, seen on its way in.
  const inner = new ContextPruner(summarizer);
  let pruneTokens: number | null = null;
  const pruner = {
    saturationRatio: inner.saturationRatio,
    shouldPrune(tokens: number, b: Parameters<ContextPruner['shouldPrune']>[1]) {
      pruneTokens = tokens;
      return inner.shouldPrune(tokens, b);
    },
    prune: (...args: Parameters<ContextPruner['prune']>) => inner.prune(...args),
  };
  const runner = new AgentRunner({
    agentId: 'replay',
    taskGoal: goal,
    llm,
    countTokens: counter,
    thresholdTokens: settings.thresholdTokens,
    refreshOn: settings.refreshOn,
    composer: new ContextComposer({ specs: [{ name: 'TAS', content: specs.tas }, { name: 'PRD', content: specs.prd }] }),
    handoff: new SummarizationHandoff({ llmClient: summarizer }),
    contextManagement: {
      context,
      deps: {
        composer: new WindowComposer(budget, { countTokens: counter }),
        pruner,
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
      budget: settings.budget, store, summarizer, pinned: opts.specs ? [specs.tas, specs.prd] : undefined, ...managerShares(settings),
    },
  });
  const turns: ReplayTurn[] = [];
  const counts = Object.fromEntries(MARKERS.map((m) => [m, 0])) as Record<Marker, number>;
  const pruneAt = budget.totalBudget * pruner.saturationRatio;
  let contextFrom = 1; // the oldest turn whose messages are in the context
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    pruneTokens = null;
    const result = await runner.runTurn(step.input);
    const ledger = result.ledger as LedgerRecord;
    const markers: Marker[] = [];
    if (result.window.specInjected) markers.push('spec-refresh');
    if (result.envelope?.thought.reasoning.startsWith('[CONTEXT REFRESH]')) markers.push('context-refresh');
    if (result.contextRefresh) markers.push('handoff');
    if (result.contextManagement?.prunedOccurred) markers.push('prune');
    if (result.contextManagement?.truncatedOutputCount) markers.push('truncation');
    if (ledger.compaction?.masked.length) markers.push('mask');
    if (ledger.cut) markers.push('cut');
    if (ledger.compaction?.summarized) markers.push('summary');
    if (ledger.compaction?.dropped) markers.push('drop');
    for (const m of markers) counts[m]++;
    const events = eventsOf(ledger, result, markers, { pruneTokens, pruneAt, contextFrom, threshold: settings.thresholdTokens, budget: settings.budget });
    if (result.contextManagement?.prunedOccurred) contextFrom = result.turnIndex;
    const turn: ReplayTurn = {
      turn: result.turnIndex,
      promptTokens: result.promptTokens,
      pruneTokens,
      monitorTokens: result.monitorTokens,
      truncated: result.contextManagement?.truncatedOutputCount ?? 0,
      events,
      ledger,
      markers,
      calls: step.calls.length,
      unanswered: step.calls.filter((c) => c.unanswered).length,
      preview: previewOf(prompt),
      recorded: { inputTokens: step.reportedInputTokens, cacheRead: step.reportedCache?.read, compaction: step.compaction ? true : undefined },
    };
    turns.push(turn);
    opts.onTurn?.(turn);
    opts.onProgress?.(i + 1, steps.length);
  }
  runner.free();
  return {
    session: { name: session.name, format: session.format, steps: steps.length, warnings: session.warnings, unmatchedResults: session.unmatchedResults },
    settings,
    turns,
    counts,
    largestPromptTokens: turns.reduce((m, t) => Math.max(m, t.promptTokens), 0),
    ms: Date.now() - started,
    cost: costOf(turns, steps),
    compactions: compactionsOf(turns),
    marks: await marksOf(settings),
  };
}

/** The session as `format` messages through a `ContextManager`: the provider-native path. */
async function replayMessages(session: ReplaySession, settings: ReplaySettings, counter: TokenCounter | undefined, opts: ReplayOptions, format: ReplayFormat): Promise<ReplayResult> {
  const started = Date.now();
  const manager = new ContextManager({
    format, budget: settings.budget, countTokens: counter, store: opts.store, summarizer: opts.summarizer ?? extractiveSummarizer,
    system: opts.goal, pinned: opts.specs ? [opts.specs.tas, opts.specs.prd] : undefined, ...managerShares(settings),
  });
  const counts = Object.fromEntries(MARKERS.map((m) => [m, 0])) as Record<Marker, number>;
  const turns: ReplayTurn[] = [];
  const steps = session.steps;
  // The transcript's time of each call, as the host's clock would give it: records that
  // interleave may go back a little, and a time never goes back (`BuildOptions.now`).
  let clock = 0;
  for (const [i, t] of providerTurns(session, format).entries()) {
    if (t.input.length) manager.append(t.input);
    const time = steps[i]?.time;
    if (time !== undefined) clock = Math.max(clock, time);
    const { messages, ledger } = await manager.build(time === undefined ? undefined : { now: clock });
    const markers: Marker[] = [];
    if (ledger.compaction?.masked.length) markers.push('mask');
    if (ledger.cut) markers.push('cut');
    if (ledger.compaction?.summarized) markers.push('summary');
    if (ledger.compaction?.dropped) markers.push('drop');
    for (const m of markers) counts[m]++;
    const last = JSON.stringify(messages[messages.length - 1] ?? '');
    const turn: ReplayTurn = {
      turn: i + 1, promptTokens: ledger.tokens, pruneTokens: null, monitorTokens: 0, truncated: 0,
      events: eventsOf(ledger, undefined, markers, { pruneTokens: null, pruneAt: 0, contextFrom: 1, threshold: settings.thresholdTokens, budget: settings.budget }),
      ledger, markers, calls: steps[i].calls.length, unanswered: steps[i].calls.filter((c) => c.unanswered).length,
      preview: [{ section: `${messages.length} messages; the last`, text: detached(last.length > PREVIEW_CHARS ? `${last.slice(0, PREVIEW_CHARS)}… (${last.length} characters)` : last) }],
      recorded: { inputTokens: steps[i].reportedInputTokens, cacheRead: steps[i].reportedCache?.read, compaction: steps[i].compaction ? true : undefined },
    };
    turns.push(turn);
    opts.onTurn?.(turn);
    opts.onProgress?.(i + 1, steps.length);
    if (t.response.length) manager.append(t.response);
    if (t.results.length) manager.append(t.results);
  }
  manager.free();
  return {
    session: { name: session.name, format: session.format, steps: steps.length, warnings: session.warnings, unmatchedResults: session.unmatchedResults },
    settings, turns, counts,
    largestPromptTokens: turns.reduce((m, t) => Math.max(m, t.promptTokens), 0),
    ms: Date.now() - started,
    cost: costOf(turns, steps),
    compactions: compactionsOf(turns),
    marks: await marksOf(settings),
  };
}
