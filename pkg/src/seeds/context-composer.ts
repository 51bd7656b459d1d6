// `ContextComposer`: seed 001's wiring as a class. The specs are loaded once at startup;
// each turn slides the window and injects the specs when due.
import { checked, UseAfterFreeError } from '../errors/index.js';
import { frameText } from '../core/frame.js';
import { array, joinTexts, nonEmptyString, number, object, string } from '../core/read.js';
import { readSpecFile } from '../core/runtime.js';
import type { ContextComposerOptions, ContextWindow, SpecDocument, TurnEntry } from './types.js';
import { maxTurnsOption, specTexts, turnEntry } from './window.js';
import { rules } from '../core/wasm.js';
import { SeedFn } from '../core/protocol.js';

export const TAS_PATH = '.devs/specs/tas_summary.md';
export const PRD_PATH = '.devs/specs/prd_summary.md';

interface Loaded {
  maxTurns: number;
  /** `[name0, content0, …]`. */
  texts: string[];
  /** The `[SPEC REFRESH]` text, built once: the specs never change after startup. */
  injection: string;
}

/**
 * Composes the context window on every turn: the newest `maxTurns` turns, with the TAS and
 * PRD specs prepended every 10 turns (requirement 4_USER_FEATURES-REQ-018, listed in docs/guides/seeds.md, "Requirement IDs").
 * @example
 * import { ContextComposer } from '@devs/context';
 *
 * const composer = new ContextComposer({
 *   specs: [{ name: 'TAS', content: tasSummary }, { name: 'PRD', content: prdSummary }],
 * });
 * const window = composer.compose(turns, 'Make the parser tests pass', 10);
 * window.specInjected; // true: the specs are re-injected on turns 10, 20, …
 */
export class ContextComposer {
  #loaded: Loaded | null;

  /**
   * From documents the host already holds, e.g.
   * `[{ name: 'TAS', content }, { name: 'PRD', content }]`.
   * @throws {TypeError} naming the field of a malformed document.
   * @throws {RangeError} when a document is empty or `maxTurns` is not a whole number >= 1.
   */
  constructor(options: ContextComposerOptions) {
    const opts = object('options', options);
    this.#loaded = load(specTexts('options.specs', opts.specs), opts.maxTurns);
  }

  /**
   * Loads `.devs/specs/tas_summary.md` and `.devs/specs/prd_summary.md` under
   * `projectRoot` (Node only). A missing or empty file rejects with an error naming its
   * path: a spec is never silently empty.
   */
  static async fromProject(projectRoot: string, options?: { maxTurns?: number }): Promise<ContextComposer> {
    const root = nonEmptyString('projectRoot', projectRoot);
    const maxTurns = options === undefined ? undefined : object('options', options).maxTurns;
    maxTurnsOption('options.maxTurns', maxTurns);
    const tas = await readSpecFile(root, TAS_PATH);
    const prd = await readSpecFile(root, PRD_PATH);
    return new ContextComposer({ specs: [{ name: 'TAS', content: tas }, { name: 'PRD', content: prd }], maxTurns: maxTurns as number | undefined });
  }

  /** Turns kept in each window (the sliding window's size). */
  get maxTurns(): number {
    return this.#live().maxTurns;
  }

  /** The spec documents loaded at startup. */
  get specs(): SpecDocument[] {
    const { texts } = this.#live();
    const docs: SpecDocument[] = [];
    for (let i = 0; i < texts.length; i += 2) docs.push({ name: texts[i], content: texts[i + 1] });
    return docs;
  }

  /**
   * The window for this turn: `slidingWindow.compose(allTurns, taskGoal)`, then
   * `specRefresh.inject(window, specs, turnCount)`. `allTurns` is never mutated.
   */
  compose(allTurns: TurnEntry[], taskGoal: string, turnCount: number): ContextWindow {
    const { maxTurns, injection } = this.#live();
    const count = number('turnCount', turnCount);
    const turns = array('turns', allTurns) as TurnEntry[];
    const goal = string('taskGoal', taskGoal);
    const plan = checked(() => rules.seed(SeedFn.ComposePlan, turns.length, maxTurns, count));
    if (plan >= 0) return { taskGoal: goal, turns: turns.slice(plan), specInjected: false };
    return { taskGoal: goal, turns: [turnEntry(-1, 'system', 'user', injection), ...turns.slice(-plan - 1)], specInjected: true };
  }

  /** Marks the composer freed (its specs are ordinary JS strings, reclaimed with it). */
  free(): void {
    this.#loaded = null;
  }

  #live(): Loaded {
    if (this.#loaded === null) throw new UseAfterFreeError('ContextComposer');
    return this.#loaded;
  }
}

function load(texts: string[], maxTurns: unknown): Loaded {
  const contents = texts.filter((_, i) => i % 2 === 1);
  const [joined, lens] = joinTexts(contents);
  const injection = frameText(checked(() => rules.composerSpecs('options', joined, lens)), texts);
  return { maxTurns: maxTurnsOption('options.maxTurns', maxTurns), texts, injection };
}
