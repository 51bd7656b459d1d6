// Where a conversation's texts are stored when the host gives no store.
//
// One store per conversation, so that a conversation let go of (the table is bounded)
// takes its texts with it; ids drawn from one counter for the whole filter, so that no
// two conversations ever name a text with the same id. The recall tool answers from the
// manager of the conversation that called it, and a manager knows only the ids it stored,
// so an id of another conversation is refused; unique ids make that hold even if a call
// were ever answered by the wrong conversation.
import type { StateRepository, ToolOutputEntry } from '@devs/context';

export class ConversationStore implements StateRepository {
  readonly #rows = new Map<string, ToolOutputEntry & { id: string }>();
  readonly #nextId: () => number;

  constructor(nextId: () => number) {
    this.#nextId = nextId;
  }

  insertRawToolOutput(entry: ToolOutputEntry): string {
    const id = String(this.#nextId());
    this.#rows.set(id, { ...entry, id });
    return id;
  }

  getRawToolOutput(id: string | number): ToolOutputEntry | undefined {
    return this.#rows.get(String(id));
  }

  /** Stored texts. */
  get size(): number {
    return this.#rows.size;
  }
}
