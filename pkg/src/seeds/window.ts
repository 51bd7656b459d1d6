// Seed 001: `SlidingRelevanceWindow` and `SpecRefreshProtocol` ([4_USER_FEATURES-REQ-018]).
import { checked, UseAfterFreeError } from '../errors/index.js';
import { frameText } from '../core/frame.js';
import { array, joinProbes, number, object, string } from '../core/read.js';
import { LIMITS } from '../core/limits.js';
import type { ContextWindow, SlidingRelevanceWindowConfig, SpecDocument, TurnEntry } from './types.js';
import { rules } from '../core/wasm.js';
import { SeedFn } from '../core/protocol.js';

/**
 * `true` on turn counts 10, 20, 30…: when the specs are due again. Also available as the
 * static `SlidingRelevanceWindow.shouldInjectSpec`, which the seed calls.
 * @throws {TypeError|RangeError} when `turnCount` is not a whole number.
 */
export function shouldInjectSpec(turnCount: number): boolean {
  const n = number('turnCount', turnCount);
  return checked(() => rules.seed(SeedFn.SpecDue, n, 0, 0)) === 1;
}

/** `maxTurns` under `field`: `undefined` gives 20. */
export function maxTurnsOption(field: string, value: unknown): number {
  const n = value === undefined ? undefined : number(field, value);
  return checked(() => rules.maxTurns(field, n));
}

/** A `TurnEntry` created now. */
export function turnEntry(turnIndex: number, agentId: string, role: TurnEntry['role'], content: string): TurnEntry {
  return { turnIndex, agentId, role, content, createdAt: new Date() };
}

/** The documents as `[name0, content0, …]`, each field checked. */
export function specTexts(field: string, value: unknown): string[] {
  const docs = array(field, value);
  const texts: string[] = [];
  docs.forEach((doc, i) => {
    const d = object(`${field}[${i}]`, doc);
    texts.push(string(`${field}[${i}].name`, d.name), string(`${field}[${i}].content`, d.content));
  });
  return texts;
}

/** The `[SPEC REFRESH]` text of `texts` (`[name0, content0, …]`). */
export function injectionContent(texts: string[]): string {
  const contents = texts.filter((_, i) => i % 2 === 1);
  // The rule cuts each content; a probe of it is all the rule reads.
  const [probes, lens, start] = joinProbes(contents, LIMITS.specChars);
  return frameText(rules.specInjection(probes, lens, start), texts);
}

/** A copy of `window` whose turns start with the `[SPEC REFRESH]` turn. */
export function withInjection(window: ContextWindow, turns: TurnEntry[], content: string): ContextWindow {
  return { ...window, turns: [turnEntry(-1, 'system', 'user', content), ...turns], specInjected: true };
}

/**
 * Keeps the newest `maxTurns` turns (default 20) of a conversation.
 * @example
 * import { SlidingRelevanceWindow } from '@devs/context';
 *
 * const window = new SlidingRelevanceWindow({ maxTurns: 20 });
 * window.compose(turns, 'Make the parser tests pass').turns.length; // at most 20
 */
export class SlidingRelevanceWindow {
  /** `true` on turn counts 10, 20, 30…; the same as the instance method. */
  static shouldInjectSpec(turnCount: number): boolean {
    return shouldInjectSpec(turnCount);
  }

  #maxTurns: number | null;

  /** @throws {RangeError} when `config.maxTurns` is not a whole number >= 1. */
  constructor(config?: Partial<SlidingRelevanceWindowConfig>) {
    const max = config === undefined ? undefined : object('config', config).maxTurns;
    this.#maxTurns = maxTurnsOption('config.maxTurns', max);
  }

  /** Turns kept in each window. */
  get maxTurns(): number {
    return this.#live();
  }

  /**
   * `{ taskGoal, turns, specInjected: false }` where `turns` is a new array holding the
   * last `maxTurns` entries of `turns` (most recent first priority). The input array is
   * never mutated.
   */
  compose(turns: TurnEntry[], taskGoal: string): ContextWindow {
    return composeWindow(this.#live(), turns, taskGoal);
  }

  /** `true` on turn counts 10, 20, 30…: when the specs are due again. */
  shouldInjectSpec(turnCount: number): boolean {
    this.#live();
    return shouldInjectSpec(turnCount);
  }

  /** Marks the window freed (it holds no wasm state of its own). */
  free(): void {
    this.#maxTurns = null;
  }

  #live(): number {
    if (this.#maxTurns === null) throw new UseAfterFreeError('SlidingRelevanceWindow');
    return this.#maxTurns;
  }
}

export function composeWindow(maxTurns: number, turns: unknown, taskGoal: unknown): ContextWindow {
  const all = array('turns', turns) as TurnEntry[];
  const goal = string('taskGoal', taskGoal);
  const start = rules.seed(SeedFn.WindowStart, all.length, maxTurns, 0);
  return { taskGoal: goal, turns: all.slice(start), specInjected: false };
}

/**
 * Builds and prepends the `[SPEC REFRESH]` turn every 10 turns.
 * @example
 * import { SlidingRelevanceWindow, SpecRefreshProtocol } from '@devs/context';
 *
 * const protocol = new SpecRefreshProtocol();
 * const recent = new SlidingRelevanceWindow().compose(turns, 'Make the parser tests pass');
 * const window = protocol.inject(recent, [{ name: 'TAS', content: tasSummary }, { name: 'PRD', content: prdSummary }], 10);
 * window.specInjected; // true: turn 10 is a refresh turn
 */
export class SpecRefreshProtocol {
  #freed = false;

  /**
   * A `user` turn (`turnIndex: -1`, `agentId: 'system'`) whose content is
   * `[SPEC REFRESH]\n\n` followed by `## NAME\nCONTENT\n` for each document, each content
   * cut to 3000 UTF-16 units without splitting a surrogate pair.
   */
  buildInjectionTurn(specDocuments: SpecDocument[]): TurnEntry {
    this.#live();
    return turnEntry(-1, 'system', 'user', injectionContent(specTexts('specDocuments', specDocuments)));
  }

  /**
   * `window` itself when the specs are not due on `turnCount`; otherwise a new window with
   * the injection turn prepended and `specInjected: true`. Spec content goes before the
   * history for positional salience. The result may hold `maxTurns + 1` turns: the spec
   * turn plus the window's own.
   */
  inject(window: ContextWindow, specDocuments: SpecDocument[], turnCount: number): ContextWindow {
    this.#live();
    const w = object('window', window);
    const turns = array('window.turns', w.turns) as TurnEntry[];
    const texts = specTexts('specDocuments', specDocuments);
    if (!shouldInjectSpec(turnCount)) return window;
    return withInjection(window, turns, injectionContent(texts));
  }

  /** Marks the protocol freed (it holds no wasm state of its own). */
  free(): void {
    this.#freed = true;
  }

  #live(): void {
    if (this.#freed) throw new UseAfterFreeError('SpecRefreshProtocol');
  }
}

