// When a session writes its next checkpoint. A checkpoint holds the live state, so taking
// one every so many calls costs its size over and over, whatever the calls wrote: the
// checkpoints of a long session with images outgrew what it held. One is due once the rows
// written since the last outweigh it (so the checkpoints weigh at most what the rows do,
// or one per `MIN_CALLS` calls where those weigh more), and never fewer than `MIN_CALLS`
// nor more than `MAX_CALLS` calls apart: opening a session replays at most `MAX_CALLS`
// rows (the rules' replay of them is most of what opening costs). A session opened again counts the same
// from its rows, so it takes its checkpoints where the process that wrote it would have.
import type { SessionRows } from '../../stores/types.js';

/** Calls at least between two checkpoints: no more often than before. */
export const MIN_CALLS = 64;
/** Calls at most between two checkpoints: what an open replays, at most. */
export const MAX_CALLS = 256;
/** The rows' bytes since the last checkpoint, against its own, that make the next one due. */
export const RATIO = 1;

export class Spacing {
  /** Rows since the last checkpoint, its own included; a session starts as if from one at version 0. */
  #calls = 1;
  /** Their length, in UTF-16 units. */
  #bytes = 0;
  /** The last checkpoint's length; 0 when there is none. */
  #size = 0;

  /** Whether the next call's row carries a checkpoint. */
  due(): boolean {
    return this.#calls >= MIN_CALLS && (this.#bytes >= RATIO * this.#size || this.#calls >= MAX_CALLS);
  }

  /** A call's row was written, with `checkpoint` if it had one. */
  wrote(changes: string, checkpoint: string | undefined): void {
    if (checkpoint !== undefined) [this.#calls, this.#bytes, this.#size] = [0, 0, checkpoint.length];
    this.#calls++;
    this.#bytes += changes.length;
  }

  /** Other workers' rows, taken in. */
  caughtUp(changes: readonly string[]): void {
    for (const c of changes) this.wrote(c, undefined);
  }

  /** The session as the store gave it: its newest checkpoint and the rows from it on. */
  loaded(rows: SessionRows | undefined): void {
    this.#calls = rows?.checkpoint ? 0 : 1;
    this.#bytes = 0;
    this.#size = rows?.checkpoint?.state.length ?? 0;
    // Without a checkpoint, every call so far (the rows given are all of them).
    this.caughtUp(rows?.changes ?? []);
  }
}
