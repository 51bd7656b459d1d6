// What a store is asked to keep: raw tool outputs (seed 002's `StateRepository`) and a
// session's rows (`SessionStore`). Written once, for the in-memory, SQLite and PostgreSQL
// stores and a host's own.

/** A tool's output waiting in the context. */
export interface ToolOutputEntry {
  /** The tool that produced the output. */
  toolName: string;
  /** The whole output. */
  rawContent: string;
  /** UTF-8 bytes of `rawContent`, a whole number >= 0. */
  byteSize: number;
  /**
   * Turns since the output was captured, a whole number >= 0. The orchestrator adds one
   * each turn (`AgentRunner` does, for its `contextManagement`); `applyContextManagement`
   * only reads it.
   */
  turnAge: number;
  /** When it was captured: a Date, epoch milliseconds or a date string. */
  capturedAt: number | string | Date;
}

/** Where raw tool outputs are kept before they are truncated (e.g. `SqliteStateRepository`). */
export interface StateRepository {
  /** Stores `entry`; may return its store id, which placeholders and the ledger name. */
  insertRawToolOutput(entry: ToolOutputEntry): Promise<void | string | number> | void | string | number;
  /** Reads a stored output back by its id, when the store can. */
  getRawToolOutput?(id: string | number): Promise<ToolOutputEntry | undefined> | ToolOutputEntry | undefined;
}

/** One stored raw output, as a store reads it back (`MemoryStateRepository`, `SqliteStateRepository`). */
export interface RawToolOutputRow {
  /** The row's id, as `insertRawToolOutput` resolved it. */
  id: number;
  /** The tool that produced the output. */
  toolName: string;
  /** The whole output, as stored. */
  rawContent: string;
  /** UTF-8 bytes of `rawContent`. */
  byteSize: number;
  /** The entry's `turnAge` when it was stored. */
  turnAge: number;
  /** ISO time the output was captured. */
  capturedAt: string;
  /** ISO time the row was written. */
  storedAt: string;
}

/**
 * A store that keeps sessions written ahead: `SqliteStateRepository` from
 * `@devs/context/sqlite`, `PostgresStateRepository` from `@devs/context/postgres`. A host's
 * own store implements these methods; each may return a promise.
 */
export interface SessionStore {
  /** The session's committed calls after version `after` (default 0), in order, what it has stored, and the appends queued for it; `undefined` for a new session with none queued. */
  loadSession(sessionId: string, after?: number): Promise<SessionRows | undefined> | SessionRows | undefined;
  /**
   * Writes one call, all or nothing: its changes as version `version + 1`, and the texts it
   * stored. Throws `SessionConflictError` (writing nothing) when the session is no longer at
   * `version`; at version 0, when it exists.
   */
  commitSession(commit: SessionCommit): Promise<void> | void;
  /** A summary written for `key` (the summarizer's prompt's key), if one was. */
  readSummary(sessionId: string, key: string): Promise<string | undefined> | string | undefined;
  /**
   * Claims `key` of the session for `owner`, for `ttlMs` (by the store's clock): true when
   * no summary is kept for `key` and no other owner's claim on it is live. A summary's key
   * is claimed by the one worker that asks for it, the others wait for its answer; a shared
   * session's `'build'` by the one worker that builds.
   */
  claim(sessionId: string, key: string, owner: string, ttlMs: number): Promise<boolean> | boolean;
  /** Ends `owner`'s claim on `key` (no summary came, or the build is written): another may claim it. */
  release(sessionId: string, key: string, owner: string): Promise<void> | void;
  /** Keeps a summary the moment it is paid for, and ends its claim: asked again for `key`, `readSummary` gives it. */
  writeSummary(sessionId: string, key: string, text: string): Promise<void> | void;
  /**
   * Queues messages (JSON text) appended to a shared session: the next build, by any
   * worker, takes them in, in queue order. `appendId` names the append: queued again under
   * the same id (a retry after a lost answer), it is queued once.
   */
  enqueue(sessionId: string, messages: string, appendId: string): Promise<void> | void;
}

/** A session as `SessionStore.loadSession` reads it. */
export interface SessionRows {
  /** The calls committed. */
  version: number;
  format: string;
  config: string;
  /** Each call's changes, as `SessionCommit.changes` wrote them, oldest first: from `checkpoint.version` on when there is one. */
  changes: string[];
  /**
   * The version of each of `changes`, if the store can say: a session that lost a call's
   * row is then refused naming that call. Without them, a count of `changes` short of the
   * calls is refused too, without the name. `version` must be kept apart from the rows (not
   * counted from them), or a lost row goes unseen.
   */
  versions?: number[];
  /** The newest checkpoint after version `after`, if the store keeps them: the state before call `version`. */
  checkpoint?: { version: number; state: string };
  /** How many texts the session stored (their ids run `sessionId:1` on). */
  outputs: number;
  /** Appends queued for a shared session and not yet taken in: `[seq, messages]`, in queue order. */
  inbox: Array<[number, string]>;
}

/** One call of a session, as `SessionStore.commitSession` writes it. */
export interface SessionCommit {
  sessionId: string;
  /** The version the call was made on: the store's must still be this one. */
  version: number;
  format: string;
  config: string;
  /** What the call changed, as JSON text. */
  changes: string;
  /** Texts the call stored whole, numbered on from the session's last. */
  outputs: SessionOutput[];
  /** Queued appends the call took in (their `seq`): marked as taken in by this version, with it. */
  inbox?: number[];
  /** Every so many calls, the session's state before this call (a `ContextSnapshot` as JSON text): `loadSession` gives the newest, and the calls from this one on. */
  checkpoint?: string;
}

/** A text a session stored whole: its id is `<sessionId>:<seq>`, which `getRawToolOutput` reads back. */
export interface SessionOutput extends ToolOutputEntry {
  seq: number;
}
