// The suite's shapes: the store it takes, a case, its options.
import type { SessionStore, StateRepository } from '@devs/context';

/** A store under test: the session contract, and reading a stored text back by its id. */
export type ConformingStore = SessionStore & StateRepository;

/** One case of the suite: run it with any test runner; it rejects when the store does not conform. */
export interface ConformanceCase {
  name: string;
  run(): Promise<void>;
}

/** Options of `sessionStoreConformance`. */
export interface ConformanceOptions {
  /** Ends a store the suite made (closes its file or pool), after each case. */
  dispose?(store: ConformingStore): Promise<void> | void;
  /** A claim's time to live in the claim cases, in ms (default 200): long enough for the store's round trip. */
  claimTtlMs?: number;
  /**
   * Deletes the row of call `version` of session `sessionId` from the store, as damage
   * would (a row deleted by hand, a copy put back from before it). Given, the suite deletes
   * rows for real and checks that the session is refused, so that a store whose `version`
   * is counted from its rows is caught; without it, it checks the refusal on rows left out
   * of what `loadSession` gives.
   */
  dropCall?(store: ConformingStore, sessionId: string, version: number): Promise<void> | void;
}
