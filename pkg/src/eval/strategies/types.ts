// What a strategy is to the eval: a host's way of keeping a long session under a budget.
// The host appends what it sent and received, and builds a request before each model call.
import type { EvalRequest, Measure, Meter } from '../measure.js';

/** The request formats a strategy may build in (the measure and the validity checks read these). */
export type StrategyFormat = 'anthropic' | 'openai-chat' | 'openai-responses' | 'ai-sdk';

/** One strategy's run over one session. */
export interface Strategy {
  format: StrategyFormat;
  append(messages: readonly unknown[]): void;
  build(): EvalRequest | Promise<EvalRequest>;
  /** The provider's usage of the request just built, as the measure saw it. */
  usage?(measure: Measure): void;
  /** The text stored under `id`, for recoverable recall; a strategy without it stores nothing. */
  stored?(id: string): string | undefined;
  /** The store ids a request's text names. */
  namedIds?(text: string): string[];
  free?(): void;
}

/** What every strategy is given. */
export interface StrategyArgs {
  budget: number;
  system: string;
  meter: Meter;
  /** The stand-in summarizer, the same for every strategy; each call is a summary request the meter prices. */
  summarize: (text: string) => string;
  /** Ours: the request format (default `anthropic`) and options for `ContextManager`. */
  format?: StrategyFormat;
  options?: Record<string, unknown>;
  /** LangChain's context editing: the edited history persists, as `createAgent`'s state keeps it. */
  persist?: boolean;
}

/** A strategy as the eval lists it: what it is and where it comes from. */
export interface StrategyInfo {
  /** Its name on the command line (`--strategies`). */
  id: string;
  /** Its name in tables. */
  name: string;
  /** What it does. */
  what: string;
  /** Where it comes from: the library and the function, or the reference it follows. */
  source: string;
  /** The optional peers it loads (none: it always runs). */
  peers: readonly string[];
  make(args: StrategyArgs): Strategy;
}
