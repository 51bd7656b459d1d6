// `AgentRunner`'s `bounded` option: the runner's conversation through the same engine as
// `ContextManager` (one pipeline), written as one prompt string (`providers/text.ts`).
import type { CalibrationFigures } from '../context/types.js';
import { Engine } from '../context/engine.js';
import type { Request } from '../context/build.js';
import { engineOptions } from '../context/kernel.js';
import { give } from '../context/history.js';
import { textFormat, type TextMessage } from '../providers/text.js';
import { object, optionalFunction, type Bag } from '../core/read.js';
import { readSnapshot, toSnapshot } from '../context/snapshot.js';
import { textKey } from '../core/text-key.js';
import type { ContextFormat, ContextSnapshot, ContextWarning, LedgerRecord } from '../context/types.js';
import type { BoundedOptions } from './runner-types.js';
import type { SaopEnvelope, TokenCounter } from './types.js';
import type { StateRepository } from '../stores/types.js';

export class BoundedHistory {
  readonly #engine: Engine;
  readonly #onLedger: ((record: LedgerRecord) => void) | undefined;
  readonly #onWarning: ((warning: ContextWarning) => void) | undefined;
  /** The turn's request, as built. */
  #built: { record: LedgerRecord; warnings: ContextWarning[]; request: Request } | null = null;
  /** Where raw texts go, and the id each stored text got there, by `textKey`. */
  readonly #store: Bag;
  readonly #known = new Map<string, string>();

  constructor(options: BoundedOptions, defaults: { budget: number; store: StateRepository | undefined; goal: string; counter: TokenCounter | undefined; callbackTimeoutMs: number | undefined }) {
    const field = 'options.bounded';
    const opts = object(field, options);
    this.#onLedger = optionalFunction(`${field}.onLedger`, opts.onLedger);
    this.#onWarning = optionalFunction(`${field}.onWarning`, opts.onWarning);
    const o = engineOptions(field, { ...opts, system: undefined } as Bag, textFormat, { budget: defaults.budget, store: defaults.store, counter: defaults.counter, callbackTimeoutMs: defaults.callbackTimeoutMs });
    this.#store = o.store;
    this.#engine = new Engine({ ...o, system: defaults.goal, cacheControl: false });
  }

  /**
   * The seeds' store (`contextManagement.deps.stateRepository`) as their tool-output
   * pruner gets it. When it is the bounded store too, each output is stored there once:
   * one the pruner stored is named by its id when masked, and one already stored when it
   * was masked or cut is not stored again by the pruner.
   */
  sharing(repo: Bag): Bag {
    if (repo !== this.#store) return repo;
    const known = this.#known;
    // Only a shared store needs the ids by text: kept alone, they would grow with the session.
    this.#engine.remember(known);
    return new Proxy(repo, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        if (key !== 'insertRawToolOutput') return value.bind(target);
        return async (entry: unknown) => {
          const raw = (entry as Bag | null)?.rawContent;
          const key = typeof raw === 'string' ? textKey(raw) : undefined;
          const stored = key === undefined ? undefined : known.get(key);
          if (stored !== undefined) return stored;
          const id: unknown = await value.call(target, entry);
          if ((typeof id === 'string' || typeof id === 'number') && key !== undefined) known.set(key, String(id));
          return id;
        };
      },
    });
  }

  begin(): void {
    this.#engine.begin();
    this.#built = null;
  }

  /** Keeps the turn's record, once the host has heard of it. */
  commit(): void {
    this.#engine.commit(this.#built?.record, this.#built?.request);
    this.#built = null;
  }

  rollback(): void {
    this.#engine.rollback();
    this.#built = null;
  }

  /** The tokens entering the context with the user's message. */
  addUser(turn: number, text: string): number {
    return this.#append({ role: 'user', turn, text: flat(text) });
  }

  /** The response's text and calls, then their outputs; the tokens they bring. */
  addResponse(turn: number, text: string, envelopes: readonly SaopEnvelope[]): number {
    const calls = envelopes.map((e, k) => ({ id: `${turn}.${k}`, name: e.action.tool_name, args: JSON.stringify(e.action.arguments) }));
    let tokens = text !== '' || calls.length ? this.#append({ role: 'assistant', turn, text: flat(text), calls }) : 0;
    if (envelopes.length) {
      tokens += this.#append({
        role: 'tool', turn,
        results: envelopes.map((e, k) => ({ id: `${turn}.${k}`, name: e.action.tool_name, output: flat(e.observation.output), status: e.observation.status })),
      });
    }
    return tokens;
  }

  #append(message: TextMessage): number {
    return this.#engine.append([message], () => `turn ${message.turn}`);
  }

  /** The turn's prompt: at most the budget, the plan last. */
  async prompt(plan: string): Promise<{ prompt: string; promptTokens: number; rawTokens: number }> {
    this.#engine.setTail(plan);
    const { request, record, warnings } = await this.#engine.build();
    this.#built = { record, warnings, request };
    return { prompt: request.messages[0] as string, promptTokens: record.tokens, rawTokens: record.rawTokens };
  }

  /** Learns from the provider's count of the prompt last built. */
  observe(inputTokens: number): void {
    this.#engine.observe({ input: inputTokens });
  }

  /** Hands the turn's record to `onLedger`, and its warnings to `onWarning`, before the turn commits. */
  report(): LedgerRecord | null {
    const built = this.#built;
    if (!built) return null;
    this.#onLedger?.(built.record);
    if (this.#onWarning) for (const w of built.warnings) this.#onWarning(w);
    return built.record;
  }

  resetCalibration(): void {
    give(this.#engine.core, { kind: 'CalibrationReset' });
  }

  get calibration(): CalibrationFigures {
    return this.#engine.calibration;
  }

  get records(): LedgerRecord[] {
    return this.#engine.records;
  }

  /** The history between turns, as JSON data: a snapshot of its engine, and the ids it shares with the seeds' pruner. */
  snapshot(): { bounded: ContextSnapshot; known: Array<[string, string]> } {
    return { bounded: toSnapshot(this.#engine.state(), TEXT, this.#engine.config), known: [...this.#known] };
  }

  /** Makes this new history the one `snapshot` was taken of; `field` names it in errors. */
  restore(bounded: unknown, known: Array<[string, string]>, field: string): void {
    this.#engine.restore(readSnapshot(bounded, TEXT, this.#engine.config, field), field);
    for (const [key, id] of known) this.#known.set(key, id);
  }
}

/**
 * `text`, made one piece in memory once as it enters the history. A host's text built by
 * concatenation (a streamed answer, an output read line by line) is a tree of pieces that
 * every turn's prompt, itself a concatenation, would walk again when it is read: for a
 * transcript's replay, 10 to 20 times the copy's cost (V8 flattens a string in place on
 * its first indexed read).
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** The runner's history is one prompt string: no provider's format, so a name of its own. */
const TEXT = 'text' as ContextFormat;
