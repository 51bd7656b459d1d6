// `WindowComposer` and `createDefaultWindowBudget` ([3_MCP-TAS-047]).
import { checked } from '../errors/index.js';
import { live, type WasmObject } from '../core/lifetime.js';
import { array, number, object, optionalNumber, probe, string, type Bag } from '../core/read.js';
import { validateAll } from './saop.js';
import { plainJson, same, vouched, walkOf } from './shape.js';
import { count, countAll, counterOption, measureAll } from '../tokens/count.js';
import { JOINS_JSON } from '../tokens/joins.js';
import type { ComposedSlot, ComposedWindow, SaopEnvelope, TokenCounter, WindowBudget, WindowComposerOptions } from './types.js';
import { rules } from '../core/wasm.js';
import { ComposerOp, SeedFn } from '../core/protocol.js';

const BUDGET_KEYS = ['totalBudget', 'goalBudget', 'mapBudget', 'recentPastBudget'] as const;

function budgetObject(shares: ArrayLike<number>): WindowBudget {
  return { totalBudget: shares[0], goalBudget: shares[1], mapBudget: shares[2], recentPastBudget: shares[3] };
}

/**
 * Budgets the rules found good, with the shares they had then: a context's budget read on
 * every turn is checked again only when a share changed (the check is the same on the same
 * numbers).
 */
const goodBudgets = new WeakMap<object, { field: string; shares: Float64Array }>();

/** A budget's four shares, read (numbers) and checked by the rules under `field`. */
export function readBudget(field: string, value: unknown): Float64Array {
  const budget = object(field, value);
  const shares = new Float64Array(4);
  BUDGET_KEYS.forEach((key, i) => {
    const share = budget[key];
    shares[i] = typeof share === 'number' ? share : number(`${field}.${key}`, share);
  });
  const good = goodBudgets.get(budget);
  if (good && good.field === field && good.shares.every((share, i) => share === shares[i])) return shares;
  checked(() => rules.checkBudget(field, shares));
  goodBudgets.set(budget, { field, shares: shares.slice() });
  return shares;
}

/**
 * Splits `total` (default 800,000) into Goal 30%, Map 20% and Recent Past 50%, each share
 * rounded down (requirement 3_MCP-TAS-047: Goal, then Map, then Recent Past).
 * @throws {RangeError} when `total` is not a whole number >= 1.
 * @example
 * import { createDefaultWindowBudget } from '@devs/context';
 *
 * createDefaultWindowBudget(); // { totalBudget: 800000, goalBudget: 240000, mapBudget: 160000, recentPastBudget: 400000 }
 */
export function createDefaultWindowBudget(total?: number): WindowBudget {
  const n = optionalNumber('total', total);
  return budgetObject(checked(() => rules.budgetSplit(n)));
}

/** A composer's turn-index buffer while it is in use, and before its first compose. */
const NO_INDEXES = new Float64Array(0);

/** Between envelopes in the Recent Past slot. */
const SEPARATOR = '\n';

/**
 * Composes the window in a fixed order on every turn: Goal, then Map, then Recent Past.
 * @example
 * import { createDefaultWindowBudget, WindowComposer } from '@devs/context';
 *
 * const composer = new WindowComposer(createDefaultWindowBudget(), { maxRecentEnvelopes: 10 });
 * const { slots, totalTokensUsed, budgetExceeded } = composer.compose('Make the parser tests pass', 'src/parser.rs', [envelope]);
 */
export class WindowComposer {
  #core: (WasmObject & InstanceType<typeof rules.Composer>) | null;
  readonly #counter: TokenCounter | undefined;
  /** The envelopes of the last window, as validated (see `Validated`). */
  #validated = new Map<object, Validated>();
  /** The envelopes' turn indexes, written anew on every compose into one buffer that grows with them. */
  #turnIndexes = NO_INDEXES;

  /**
   * `maxRecentEnvelopes` defaults to 10 and is clamped to 1..10.
   * @throws {TypeError|RangeError} naming the budget share or option at fault.
   */
  constructor(budget: WindowBudget, options?: WindowComposerOptions) {
    const shares = readBudget('budget', budget);
    let max: number | undefined;
    if (options !== undefined) {
      const opts = object('options', options);
      max = optionalNumber('options.maxRecentEnvelopes', opts.maxRecentEnvelopes);
      this.#counter = counterOption('options.countTokens', opts.countTokens);
    }
    this.#core = checked(() => new rules.Composer(shares, max));
  }

  /** The token shares each composed window must fit. */
  get budget(): WindowBudget {
    return budgetObject(live(this.#core, 'WindowComposer').shares);
  }

  /** The most envelopes considered for Recent Past (1..10). */
  get maxRecentEnvelopes(): number {
    return live(this.#core, 'WindowComposer').op(ComposerOp.MaxRecent, 0, 0, 0);
  }

  /**
   * Slots in order `goal`, `map`, `recent_past`. A Goal or Map over its budget is cut to
   * `budget * 4` characters, at the last space where there is one, and marked
   * `truncated`. Recent Past takes envelopes newest first by `turn_index`, at most
   * `maxRecentEnvelopes`, greedily while they fit, and lists them oldest first as JSON,
   * one per line; if even the newest does not fit, it goes in with its
   * `observation.output` cut, so an action is never shown without its observation.
   * @throws {TypeError} naming the bad field, e.g. `envelopes[2].observation.status`.
   */
  compose(goal: string, map: string, envelopes: SaopEnvelope[]): ComposedWindow {
    const core = live(this.#core, 'WindowComposer');
    const goalText = string('goal', goal);
    const mapText = string('map', map);
    const list = array('envelopes', envelopes);
    const now = Date.now();
    const slots = [this.#textSlot(core, 'goal', 0, goalText, now), this.#textSlot(core, 'map', 1, mapText, now), this.#recentPast(core, list, now)];
    // One number: the total, or `-1 - total` when it exceeds the budget.
    const total = core.op(ComposerOp.Totals, slots[0].tokenCount, slots[1].tokenCount, slots[2].tokenCount);
    return { slots, totalTokensUsed: total < 0 ? -1 - total : total, budgetExceeded: total < 0 };
  }

  /** Frees the composer's wasm state now; it is also reclaimed when collected. */
  free(): void {
    this.#core?.free();
    this.#core = null;
  }

  #textSlot(core: InstanceType<typeof rules.Composer>, kind: 'goal' | 'map', index: number, text: string, now: number): ComposedSlot {
    // The default counter's count is the text's length, counted by the rules in the same crossing.
    const counter = this.#counter;
    // Counted through the memo: the goal and the map are the same texts on every compose.
    const fit = core.op(ComposerOp.SlotCut, index, counter ? countAll(counter, [text])[0] : text.length, counter ? 0 : 1);
    if (fit >= 0) return slot(kind, text, fit, now, false);
    const max = -1 - fit;
    const end = rules.cutEnd(...probe(text, max, true), max, true);
    const content = end < 0 ? text : text.slice(0, end);
    return slot(kind, content, count(this.#counter, content, kind), now, true);
  }

  #recentPast(core: InstanceType<typeof rules.Composer>, envelopes: unknown[], now: number): ComposedSlot {
    // A buffer kept from compose to compose: a session's ten-thousandth compose would
    // otherwise allocate (and zero) 80 KB only to read the indexes into it. It is taken
    // while in use, so a compose from inside a host's getter makes its own.
    let buffer = this.#turnIndexes;
    this.#turnIndexes = NO_INDEXES;
    if (buffer.length < envelopes.length) buffer = new Float64Array(Math.max(envelopes.length, 2 * buffer.length));
    const turnIndexes = buffer.subarray(0, envelopes.length);
    for (let i = 0; i < envelopes.length; i++) {
      const e = envelopes[i];
      const t = typeof e === 'object' && e !== null ? (e as Bag).turn_index : undefined;
      turnIndexes[i] = typeof t === 'number' ? t : NaN;
    }
    const plan = core.to_render(turnIndexes);
    const n = plan.length - 1;
    const order = new Uint32Array(n);
    const picked = new Array<unknown>(n);
    const pickedIndexes = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      order[k] = plan[k + 1];
      picked[k] = envelopes[order[k]];
      pickedIndexes[k] = turnIndexes[order[k]];
    }
    this.#turnIndexes = buffer;
    // Only the newest few can appear: validate and render just those (or name the fault).
    const [texts, validated] = rendered(picked, order, this.#validated);
    this.#validated = validated;
    const counter = this.#counter;
    const sized = counter ? countAll(counter, texts, SEPARATOR) : measureAll(texts, SEPARATOR);
    const selection = core.select(pickedIndexes, sized, !counter);
    // Joined by concatenation: the slot's text is the envelopes' texts, not yet one more
    // copy of them (the prompt it goes into is copied whole when the host sends it).
    let content = '';
    for (let j = 2; j < selection.length; j++) content += j === 2 ? texts[selection[j]] : SEPARATOR + texts[selection[j]];
    const cut = selection[1] >= 0 ? this.#cutEnvelope(core, envelopes[order[selection[1]]] as SaopEnvelope) : undefined;
    if (cut !== undefined) content += (selection.length > 2 ? SEPARATOR : '') + cut;
    const tokens = counter && joinsJson(counter) ? joinedCount(counter, texts, sized, selection, cut) : undefined;
    return slot('recent_past', content, tokens ?? count(counter, content, 'recent_past'), now, selection[0] === 1);
  }

  /** The envelope with `observation.output` cut so that the whole fits the slot. */
  #cutEnvelope(core: InstanceType<typeof rules.Composer>, envelope: SaopEnvelope): string {
    const output = envelope.observation.output;
    const withOutput = (text: string) => JSON.stringify({ ...envelope, observation: { ...envelope.observation, output: text } });
    const room = core.op(ComposerOp.OutputRoom, count(this.#counter, withOutput(''), 'envelope'), 0, 0);
    const end = rules.cutEnd(...probe(output, room), room, false);
    return withOutput(end < 0 ? output : output.slice(0, end));
  }
}

/**
 * An envelope a composer validated for its last window, with its JSON then and what that
 * JSON is made of: each object's own keys in order and each leaf value, in the order
 * `JSON.stringify` reads them (see `shape`). An envelope whose walk finds the same keys and
 * the same values is the envelope that was validated, and renders the same JSON: a window
 * composed every turn validates and serializes only the envelopes that are new, and reads
 * the others' properties once each. An envelope holding anything whose JSON that walk
 * cannot vouch for (a function, a class instance such as a Date, a NaN, an object nested
 * deeper than `DEPTH`) is checked as before, by serializing it again and comparing. Only
 * the last window's envelopes are kept (at most 10), so what a composer holds does not
 * grow with the session.
 */
interface Validated {
  json: string;
  /** Null when `shape` vouches for the JSON (read only when a `toJSON` was added since). */
  keys: string | null;
  shape: unknown[] | null;
}

/** How many own keys the envelope and its `thought`, `action` and `observation` have. */
function keyCounts(envelope: Bag): string {
  let counts = `${Object.keys(envelope).length}`;
  for (const part of ['thought', 'action', 'observation']) {
    const value = envelope[part];
    counts += `,${typeof value === 'object' && value !== null ? Object.keys(value).length : -1}`;
  }
  return counts;
}

/** The JSON `e` still renders as it was validated, or undefined when it may have changed. */
function unchanged(e: object, seen: Validated, plain: boolean): string | undefined {
  try {
    if (seen.shape && plain) return same(e, seen.shape, 0, 0) === seen.shape.length ? seen.json : undefined;
    if (seen.keys === null) return undefined;
    return JSON.stringify(e) === seen.json && seen.keys === keyCounts(e as Bag) ? seen.json : undefined;
  } catch {
    // A getter that throws, a bigint or a cycle now: the validator names it.
    return undefined;
  }
}

/**
 * Each envelope as JSON, once it is known to be valid (faults named `envelopes[i]…`), with
 * what was validated of them, for the next window (`before`: what the last one validated).
 */
function rendered(list: unknown[], indexes: Uint32Array, before: Map<object, Validated>): [string[], Map<object, Validated>] {
  const texts = new Array<string>(list.length);
  const now = new Map<object, Validated>();
  const stale: number[] = [];
  const plain = plainJson();
  list.forEach((e, k) => {
    const seen = typeof e === 'object' && e !== null ? before.get(e) : undefined;
    const json = seen ? unchanged(e as object, seen, plain) : undefined;
    if (json === undefined) {
      stale.push(k);
    } else {
      texts[k] = json;
      now.set(e as object, seen as Validated);
    }
  });
  if (stale.length === 0) return [texts, now];
  // An envelope vouched for and unchanged since (the runner kept it from one it validated) is not validated again.
  const unknown = stale.filter((k) => !vouched(list[k]));
  if (unknown.length) validateAll(unknown.map((k) => list[k]), 'envelopes', Uint32Array.from(unknown, (k) => indexes[k]));
  for (const k of stale) {
    const e = list[k] as Bag;
    // The walk it was vouched for with; none when it holds what a walk cannot vouch for.
    const walked = walkOf(e);
    const json = JSON.stringify(e);
    // Read again after serializing: a getter that answers differently each time is compared by its JSON.
    const steady = walked !== undefined && plain && same(e, walked, 0, 0) === walked.length;
    now.set(e, { json, keys: steady ? null : keyCounts(e), shape: steady ? walked! : null });
    texts[k] = json;
  }
  return [texts, now];
}

/** A counter that counts JSON lines joined as the sum of each line's count (`JOINS_JSON`). */
function joinsJson(counter: TokenCounter): boolean {
  return (counter as unknown as Record<typeof JOINS_JSON, unknown>)[JOINS_JSON] === true;
}

/**
 * The Recent Past's tokens from the counts its texts already have: each selected text but
 * the last was counted with its separator (`sized`), the last is counted alone (a text
 * the memo keeps from turn to turn), the cut envelope as it is. Undefined, for the whole
 * text to be counted, when a text is not one JSON object, whose joins the counter adds.
 */
function joinedCount(counter: TokenCounter, texts: string[], sized: Float64Array, selection: ArrayLike<number>, cut: string | undefined): number | undefined {
  let tokens = 0;
  for (let j = 2; j < selection.length; j++) {
    const text = texts[selection[j]];
    if (text.charCodeAt(0) !== 123 || text.charCodeAt(text.length - 1) !== 125) return undefined;
    tokens += j < selection.length - 1 || cut !== undefined ? sized[selection[j]] : countAll(counter, [text])[0];
  }
  if (cut !== undefined) {
    if (cut.charCodeAt(0) !== 123) return undefined;
    tokens += count(counter, cut, 'recent_past');
  }
  return checked(() => rules.seed(SeedFn.CheckedCount, tokens, 0, 0));
}

function slot(kind: ComposedSlot['kind'], content: string, tokenCount: number, timestampMs: number, truncated: boolean): ComposedSlot {
  return { kind, content, tokenCount, timestampMs, truncated };
}
