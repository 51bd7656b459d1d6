// The runner's pending tool outputs, kept in step with the rules' index of them
// (`devs_context_rules::seeds::pending`), so that a turn's cost does not grow with every
// output seed 002 keeps pending. The index says which outputs are due, what they show in
// tokens, and which the prompt already shows; this file keeps the shell's side of it: the
// array the index describes, the entries' ages as a clock, and the Tool outputs text.
import { checked } from '../errors/index.js';
import { FrameReader } from '../core/frame.js';
import { isObject, string, type Bag } from '../core/read.js';
import { countAll } from '../tokens/count.js';
import type { TokenCounter } from './types.js';
import { rules } from '../core/wasm.js';
import { PendingOp } from '../core/protocol.js';

/** What a runner-made entry holds behind its properties. */
interface Held {
  outputs: PendingOutputs;
  toolName: unknown;
  rawContent: unknown;
  byteSize: unknown;
  capturedAt: unknown;
  /** The tick the output was born at: its `turnAge` is the clock less this. */
  born: number;
  /** A `turnAge` written by a host (or the fallback's ageing), until the index reads it back. */
  written: unknown;
}

const HELD = Symbol('pending output');

/** Writes to runner-made entries since the start: an index that saw fewer must read its entries again. */
let edits = 0;

function field(key: 'toolName' | 'rawContent' | 'byteSize' | 'capturedAt'): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: Bag) {
      return (this[HELD as unknown as string] as Held)[key];
    },
    set(this: Bag, value: unknown) {
      (this[HELD as unknown as string] as Held)[key] = value;
      edits++;
    },
  };
}

/**
 * A runner-made entry's properties: its own and enumerable, as a `ToolOutputEntry`'s are
 * (a spread, `JSON.stringify` and `structuredClone` see plain values), but `turnAge` is
 * read off the runner's clock, so ageing the outputs writes nothing into them.
 */
const DESCRIPTORS: PropertyDescriptorMap = {
  toolName: field('toolName'),
  rawContent: field('rawContent'),
  byteSize: field('byteSize'),
  turnAge: {
    enumerable: true,
    configurable: true,
    get(this: Bag) {
      const held = this[HELD as unknown as string] as Held;
      return held.written !== undefined ? held.written : held.outputs.clock - held.born;
    },
    set(this: Bag, value: unknown) {
      (this[HELD as unknown as string] as Held).written = value;
      edits++;
    },
  },
  capturedAt: field('capturedAt'),
};

/** Already a `TruncatedToolOutput`: nothing left to persist or cut (as `management.ts` reads it). */
function isTruncated(entry: unknown): entry is Bag & { summary: string } {
  return isObject(entry) && typeof entry.summary === 'string' && entry.rawContent === undefined;
}

/** `capturedAt` as epoch milliseconds, as the due check reads it (NaN when it is no time). */
function epochMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number' || typeof value === 'string') return new Date(value).getTime();
  return NaN;
}

export class PendingOutputs {
  /** @internal The rules' index. */
  readonly core = new rules.PendingIndex();
  /** The index's clock, mirrored: what the entries' `turnAge` reads. */
  clock = 0;
  /** The array the index describes (the one last written to the context), or null when it describes none. */
  array: unknown[] | null = null;
  /** Its entries as written: a host that assigns into the array in place is seen by comparing. */
  #items: unknown[] = [];
  #edits = -1;
  /** The Tool outputs text of the last prompt: the index says how much of it still stands. */
  tools = '';
  readonly #counter: TokenCounter | undefined;

  constructor(counter: TokenCounter | undefined) {
    this.#counter = counter;
  }

  /** Tokens of a shown text for the index: NaN for the default counter, which the rules apply. */
  #tokens(text: string): number {
    return this.#counter ? countAll(this.#counter, [text])[0] : NaN;
  }

  /**
   * Brings the index in step with `context.pendingToolOutputs` before the turn ages it:
   * at no cost when it is the array the runner wrote and no entry was written to; otherwise
   * by reading every entry once, the host's whole entries copied into runner-made ones (as
   * ageing copies them). Returns false, with the index describing nothing, when an entry is
   * not one the index can describe (the caller then takes the seed's walk, which names the
   * fault).
   */
  sync(ctx: Bag): boolean {
    const list = ctx.pendingToolOutputs;
    if (this.array !== null && list === this.array && this.#edits === edits && this.#same(this.array)) return true;
    this.forget();
    if (!Array.isArray(list)) return false;
    const core = this.core;
    let copied: unknown[] | null = null;
    for (let i = 0; i < list.length; i++) {
      const e = list[i];
      const held = isObject(e) ? (e[HELD as unknown as string] as Held | undefined) : undefined;
      if (held && held.outputs === this) {
        const age = held.written !== undefined ? held.written : this.clock - held.born;
        const born = this.#push(held.toolName, held.rawContent, held.byteSize, age, held.capturedAt);
        if (Number.isNaN(born)) return this.forget();
        held.born = born;
        held.written = undefined;
      } else if (isTruncated(e)) {
        core.op(PendingOp.PushTruncated, e.summary.length, this.#tokens(e.summary), 0, 0, 0);
      } else {
        const own = this.#adopt(e);
        if (!own) return this.forget();
        (copied ??= list.slice())[i] = own;
      }
    }
    if (copied) ctx.pendingToolOutputs = copied;
    this.#describe((copied ?? list) as unknown[]);
    return true;
  }

  /** A copy of a host's whole entry, made the runner's; null for one that is not a valid `ToolOutputEntry`. */
  #adopt(entry: unknown): Bag | null {
    if (!isObject(entry) || entry.summary !== undefined) return null;
    const { toolName, rawContent, byteSize, turnAge, capturedAt } = entry;
    const born = this.#push(toolName, rawContent, byteSize, turnAge, capturedAt);
    if (Number.isNaN(born)) return null;
    // The host's other keys stay, in their places, as a spread keeps them.
    return this.#own({ ...entry }, { toolName, rawContent, byteSize, capturedAt }, born);
  }

  /**
   * A whole entry into the index, which checks its numbers as the due check does; NaN, and
   * nothing pushed, for an entry that check refuses (the seed's walk then names its fault).
   */
  #push(toolName: unknown, rawContent: unknown, byteSize: unknown, turnAge: unknown, capturedAt: unknown): number {
    if (typeof toolName !== 'string' || typeof rawContent !== 'string' || typeof byteSize !== 'number' || typeof turnAge !== 'number') return NaN;
    return this.core.op(PendingOp.PushWhole, byteSize, rawContent.length, this.#tokens(rawContent), turnAge, epochMs(capturedAt));
  }

  #own(target: Bag, fields: Pick<Held, 'toolName' | 'rawContent' | 'byteSize' | 'capturedAt'>, born: number): Bag {
    const held: Held = { outputs: this, ...fields, born, written: undefined };
    Object.defineProperty(target, HELD, { value: held });
    return Object.defineProperties(target, DESCRIPTORS);
  }

  #same(list: unknown[]): boolean {
    const items = this.#items;
    if (list.length !== items.length) return false;
    for (let i = 0; i < items.length; i++) if (list[i] !== items[i]) return false;
    return true;
  }

  #describe(list: unknown[]): void {
    this.array = list;
    this.#items = list.slice();
    this.#edits = edits;
  }

  /** The index describes no array: the next turn reads the entries again. */
  forget(): false {
    this.array = null;
    this.#items = [];
    this.core.op(PendingOp.Clear, 0, 0, 0, 0, 0);
    return false;
  }

  /** Every whole output one turn older; `untick` takes it back. */
  tick(): void {
    this.core.op(PendingOp.Tick, 0, 0, 0, 0, 0);
    this.clock++;
  }

  untick(): void {
    this.core.op(PendingOp.Untick, 0, 0, 0, 0, 0);
    this.clock--;
  }

  /** The turn's run replaced output `i` with `entry` (its truncated form). */
  truncated(i: number, entry: unknown): void {
    if (this.array === null) return;
    if (!isTruncated(entry)) {
      this.forget();
      return;
    }
    this.core.op(PendingOp.Truncated, i, entry.summary.length, this.#tokens(entry.summary), 0, 0);
    this.#items[i] = entry;
  }

  /** The run wrote `list` (the outputs it started from, some truncated) to the context. */
  written(list: unknown[]): void {
    if (this.array !== null) this.array = list;
  }

  /**
   * A new runner-made entry for an envelope's output, appended to `list` (a new array the
   * caller writes to the context); the index follows when it describes the array `list`
   * was copied from.
   */
  push(from: unknown, list: unknown[], fields: { toolName: unknown; rawContent: string; byteSize: number; capturedAt: number }): Bag {
    const inStep = this.array !== null && from === this.array;
    const tokens = this.#tokens(fields.rawContent);
    const born = inStep ? this.core.op(PendingOp.PushWhole, fields.byteSize, fields.rawContent.length, tokens, 0, fields.capturedAt) : this.clock;
    const entry = this.#own({}, fields, born);
    list.push(entry);
    if (inStep) {
      this.#items.push(entry);
      this.array = list;
    } else {
      this.forget();
    }
    return entry;
  }

  /**
   * The seeds' prompt (with Goal, Map and Recent Past) over `hosts` (`[goal, map,
   * recentPast, content0…]`): the Tool outputs text the last prompt had, with the entries of
   * the outputs added (or changed) since pasted on, so an output pending for a thousand
   * turns is written into the text once.
   */
  prompt(metas: Float64Array, roles: string, hosts: string[]): string {
    const frame = new FrameReader(checked(() => this.core.prompt(true, metas, roles)));
    const from = frame.num();
    const count = frame.num();
    let tools = from === 0 ? '' : this.tools;
    for (let j = from; j < count; j++) {
      const o = this.#items[j] as Bag;
      const name = o.toolName;
      tools += frame.text([typeof name === 'string' ? name : '', string('pendingToolOutputs[].rawContent', shownText(o))]);
    }
    this.tools = tools;
    return frame.text([...hosts.slice(0, 3), tools, ...hosts.slice(3)]);
  }

}


/** What a pending output shows: a truncated one its `summary`, a whole one its `rawContent`. */
export function shownText(output: unknown): unknown {
  const o = output as Bag;
  return typeof o?.summary === 'string' ? o.summary : o?.rawContent;
}
