// `ContextPruner` ([3_MCP-TAS-024]) and `ToolOutputPruner` ([8_RISKS-REQ-012]).
import { SummarizationError, checked, UseAfterFreeError } from '../errors/index.js';
import { frameText } from '../core/frame.js';
import { LIMITS } from '../core/limits.js';
import { array, callMethod, holder, isObject, joinTexts, number, object, probe, string, type Bag } from '../core/read.js';
import type { AgentTurn, ContextPrunerOptions, PrunedContext, SummarizerClient, ToolOutputPrunerOptions, TruncatedToolOutput, WindowBudget } from './types.js';
import type { StateRepository, ToolOutputEntry } from '../stores/types.js';
import { epochMs, readToolOutputEntry, type ReadEntry } from '../stores/entry.js';

import { rules } from '../core/wasm.js';
import { SeedFn } from '../core/protocol.js';

/** `turns` as `[roles, contents]`, each checked to be an object with string fields. */
export function readAgentTurns(field: string, value: unknown): [string[], string[]] {
  const turns = array(field, value);
  const roles: string[] = [];
  const contents: string[] = [];
  turns.forEach((turn, i) => {
    const t = object(`${field}[${i}]`, turn);
    roles.push(string(`${field}[${i}].role`, t.role));
    contents.push(string(`${field}[${i}].content`, t.content));
  });
  return [roles, contents];
}

export const PRUNE_RATIO = Symbol('prune ratio');

/**
 * Summarizes the conversation once it reaches `saturationRatio` (default 0.90) of the
 * budget, keeping the Plan, the TAS and the current failing Observation verbatim.
 * @example
 * import { ContextPruner, createDefaultWindowBudget, type AgentTurn } from '@devs/context';
 *
 * const pruner = new ContextPruner({ summarize: (prompt) => llm.generate(prompt) });
 * let history: AgentTurn[] = agentTurns;
 * if (pruner.shouldPrune(750_000, createDefaultWindowBudget())) { // 90% of 800,000 is 720,000
 *   const { summary } = await pruner.prune(history, '1. fix the lexer', tasSummary, 'parser tests: 1 failed');
 *   history = [{ role: 'model', content: summary, timestampMs: Date.now() }];
 * }
 */
export class ContextPruner {
  #summarizer: Bag | null;
  readonly #ratio: number;

  /**
   * @throws {TypeError} when `summarizer.summarize` is not a function.
   * @throws {RangeError} when `saturationRatio` is not in (0, 1].
   */
  constructor(summarizer: SummarizerClient | SummarizerClient['summarize'], options?: ContextPrunerOptions) {
    this.#summarizer = holder('summarizer', summarizer, ['summarize']);
    const ratio = options === undefined ? undefined : object('options', options).saturationRatio;
    const given = ratio === undefined ? undefined : number('options.saturationRatio', ratio);
    this.#ratio = checked(() => rules.seed(SeedFn.SaturationRatio, given ?? 0, given === undefined ? 0 : 1, 0));
  }

  /** The fraction of the budget at which `shouldPrune` answers true. */
  get saturationRatio(): number {
    this.#live();
    return this.#ratio;
  }

  /** @internal Its ratio, for the rules to answer `shouldPrune` as it would (`applyContextManagement`). */
  [PRUNE_RATIO](): number {
    this.#live();
    return this.#ratio;
  }

  /** `tokens >= budget.totalBudget * saturationRatio`. */
  shouldPrune(tokens: number, budget: WindowBudget): boolean {
    this.#live();
    const n = number('tokens', tokens);
    const total = number('budget.totalBudget', object('budget', budget).totalBudget);
    return checked(() => rules.seed(SeedFn.ShouldPrune, n, total, this.#ratio)) === 1;
  }

  /**
   * Asks the summarizer for a summary of `turns`. The prompt tells it to keep the Plan, the
   * TAS and the current failing Observation verbatim, and gives all three in full. Rejects
   * with the summarizer's own error if it fails, and with a `SummarizationError` if it
   * answers with an empty text.
   */
  prune(turns: AgentTurn[], plan: string, tas: string, currentObservation: string): Promise<PrunedContext> {
    let called: unknown;
    let count: number;
    try {
      const summarizer = this.#live();
      const [roles, contents] = readAgentTurns('turns', turns);
      const texts = [string('plan', plan), string('tas', tas), string('currentObservation', currentObservation), ...contents];
      const [roleText, lens] = joinTexts(roles);
      const prompt = frameText(checked(() => rules.prunePrompt(roleText, lens)), texts);
      count = contents.length;
      called = callMethod(summarizer, 'summarize', 'summarizer.summarize', [prompt]);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(called).then((answer) => {
      const summary = string('summarizer.summarize()', answer);
      if (rules.isBlank(summary)) {
        throw new SummarizationError('the summarizer returned an empty summary while pruning', { code: 'ERR_EMPTY_SUMMARY' });
      }
      return { summary, plan, tas, currentObservation, originalTurnCount: count, prunedAt: Date.now() };
    });
  }

  /** Marks the pruner freed (it holds no wasm state of its own). */
  free(): void {
    this.#summarizer = null;
  }

  #live(): Bag {
    if (this.#summarizer === null) throw new UseAfterFreeError('ContextPruner');
    return this.#summarizer;
  }
}

/** Internal: `shouldTruncate` for many entries in one crossing (see `applyContextManagement`). */
export const DUE_ALL = Symbol('due all');

/** What the due check read from an entry, by the entry: a pending output is checked on every turn. */
const READ = new WeakMap<object, { rawContent: string; byteSize: number; capturedAt: unknown; capturedAtMs: number }>();

function readEntryFields(field: string, value: unknown): ReadEntry {
  const e = object(field, value);
  return {
    toolName: string(`${field}.toolName`, e.toolName),
    rawContent: string(`${field}.rawContent`, e.rawContent),
    byteSize: number(`${field}.byteSize`, e.byteSize),
    turnAge: number(`${field}.turnAge`, e.turnAge),
    capturedAtMs: epochMs(e.capturedAt),
  };
}

/**
 * Persists large tool outputs raw, then truncates them once they are two turns old.
 * @example
 * import { ToolOutputPruner } from '@devs/context';
 * import { SqliteStateRepository } from '@devs/context/sqlite';
 *
 * const pruner = new ToolOutputPruner();
 * const repo = new SqliteStateRepository('state.sqlite');
 * if (pruner.shouldTruncate(entry)) {
 *   await pruner.persistRaw(entry, repo);
 *   const small = pruner.truncate(entry); // its first 500 characters and a marker
 * }
 */
export class ToolOutputPruner {
  #location: string | null | undefined;

  /**
   * `rawOutputLocation` is what the truncation marker says about where the raw output
   * is; default "state.sqlite, table raw_tool_outputs".
   */
  constructor(options?: ToolOutputPrunerOptions) {
    if (options !== undefined) {
      const given = object('options', options).rawOutputLocation;
      if (given !== undefined) {
        const location = string('options.rawOutputLocation', given, 'a non-empty string');
        checked(() => rules.seed(SeedFn.CheckRawLocation, location.length, 0, 0));
        this.#location = location;
      }
    }
  }

  /**
   * @internal `shouldTruncate` of each entry whose `skip` is 0, as 1 (due) or 0, in one
   * crossing; the same answers, and the same errors, as one call per entry.
   */
  [DUE_ALL](entries: readonly unknown[], skip: Uint8Array): Uint8Array {
    this.#live();
    const n = entries.length;
    const sizes = new Float64Array(n);
    const ages = new Float64Array(n);
    const times = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (skip[i]) continue;
      const e = entries[i] as Bag;
      // An entry checked before, and unchanged since but for its age, is not read again.
      const known = isObject(e) ? READ.get(e) : undefined;
      if (known && known.rawContent === e.rawContent && known.byteSize === e.byteSize && known.capturedAt === e.capturedAt && typeof e.turnAge === 'number') {
        sizes[i] = known.byteSize;
        ages[i] = e.turnAge;
        times[i] = known.capturedAtMs;
        continue;
      }
      const read = readEntryFields('entry', e);
      sizes[i] = read.byteSize;
      ages[i] = read.turnAge;
      times[i] = read.capturedAtMs;
      if (isObject(e)) READ.set(e, { rawContent: read.rawContent, byteSize: read.byteSize, capturedAt: e.capturedAt, capturedAtMs: read.capturedAtMs });
    }
    const due = rules.toolOutputsDue(sizes, ages, times);
    due.forEach((d, i) => {
      if (d === 2 && !skip[i]) readToolOutputEntry('entry', entries[i]);
      if (skip[i]) due[i] = 0;
    });
    return due;
  }

  /** `entry.turnAge >= 2 && entry.byteSize > 51_200`. */
  shouldTruncate(entry: ToolOutputEntry): boolean {
    this.#live();
    const e = readToolOutputEntry('entry', entry);
    return rules.seed(SeedFn.ShouldTruncate, e.turnAge, e.byteSize, 0) === 1;
  }

  /**
   * The first 500 characters of the output and a marker naming its byte size and where
   * the raw output is. `rawStoredAt` is the ISO time of the call.
   */
  truncate(entry: ToolOutputEntry): TruncatedToolOutput {
    const location = this.#live();
    const e = readToolOutputEntry('entry', entry);
    const hosts = location === undefined ? [e.rawContent, e.toolName] : [e.rawContent, e.toolName, location];
    const values = rules.truncationSummary(...probe(e.rawContent, LIMITS.summaryChars), e.byteSize, location !== undefined);
    return { toolName: e.toolName, summary: frameText(values, hosts), rawStoredAt: new Date().toISOString(), originalByteSize: e.byteSize };
  }

  /** Awaits `repo.insertRawToolOutput(entry)`; rejects with the repository's own error. */
  persistRaw(entry: ToolOutputEntry, repo: StateRepository): Promise<void> {
    let called: unknown;
    try {
      this.#live();
      readToolOutputEntry('entry', entry);
      called = callMethod(object('repo', repo), 'insertRawToolOutput', 'repo.insertRawToolOutput', [entry]);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(called).then(() => undefined);
  }

  /** Marks the pruner freed (it holds no wasm state of its own). */
  free(): void {
    this.#location = null;
  }

  #live(): string | undefined {
    if (this.#location === null) throw new UseAfterFreeError('ToolOutputPruner');
    return this.#location;
  }
}
