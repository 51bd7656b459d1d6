// The public types of `@devs/context/mastra`. They name nothing of Mastra: the processor's
// methods are generic over the arguments Mastra hands them, so it fits Mastra's
// `Processor` (and `inputProcessors`) without these declarations loading `@mastra/core`.
import type { ContextManagerOptions } from '@devs/context';

/** Options of `contextProcessor`: a `ContextManager`'s, less those the processor sets itself. */
export interface ContextProcessorOptions extends Omit<ContextManagerOptions, 'format' | 'vscode' | 'recall' | 'summarizer'> {
  /**
   * Writes the summaries. Default: the step's own model, sent the prompt it was last called
   * with and the summarizing instruction, so the provider reads the prefix from its cache;
   * its usage is the compaction's cost (`onCompaction`'s `summary.usage`). Another
   * provider-level model writes them the same way; `false` writes none (the oldest turns are
   * dropped, stored and indexed); a function or `{ summarize }` is called as `ContextManager`
   * calls it.
   */
  summarizer?: ContextManagerOptions['summarizer'] | false | { readonly specificationVersion: string; doGenerate(options: never): PromiseLike<unknown> };
  /**
   * Your system prompt, before the system messages of each call's prompt (the agent's
   * `instructions`). Default: none, the prompt's own.
   */
  system?: string;
  /**
   * Give the agent the recall tool (named `recall`), answered by the conversation's
   * manager: the model reads back a text the conversation stored whole. Default true.
   */
  recall?: boolean;
  /**
   * How many conversations keep their manager, the least recently used dropped first.
   * Default 100. A conversation dropped and then called again starts a new manager.
   */
  maxConversations?: number;
}

/** What the processor reads and sets at each step (Mastra's `ProcessInputStepArgs`). */
export interface InputStepArgs {
  /** The step's tools; the recall tool is added to them. */
  tools?: Record<string, unknown>;
  /** The processor's state for the run, shared by its methods. */
  state: Record<string, unknown>;
}

/** What the processor reads of a model call's request (Mastra's `ProcessLLMRequestArgs`). */
export interface LLMRequestArgs<P extends readonly unknown[]> {
  /** The provider-level prompt: `system`, `user`, `assistant` and `tool` messages with typed parts. */
  prompt: P;
  /** The processor's state for the run, shared by its methods. */
  state: Record<string, unknown>;
  /** The model the prompt is sent to: it writes the summaries by default. */
  model?: unknown;
}

/** What the processor reads of a model call's response (Mastra's `ProcessLLMResponseArgs`). */
export interface LLMResponseArgs {
  /** The response's chunks; the `finish` chunk carries the call's usage. */
  chunks: readonly { type: string; payload: unknown }[];
  /** The processor's state for the run, shared by its methods. */
  state: Record<string, unknown>;
  /** Whether the response was replayed from a cache, not a model call. */
  fromCache?: boolean;
}

/**
 * The processor `contextProcessor` returns, for an agent's `inputProcessors`. Its three
 * methods are Mastra's: `processInputStep` adds the recall tool to each step,
 * `processLLMRequest` bounds the prompt each model call is sent, and `processLLMResponse`
 * records the call's usage.
 */
export interface ContextProcessor {
  readonly id: 'devs-context';
  readonly name: string;
  /** Adds the recall tool to the step's tools (with `recall: false`, changes nothing). */
  processInputStep(args: InputStepArgs): { tools: Record<string, unknown> } | undefined;
  /** The prompt bounded by the conversation's `ContextManager`: what the model is sent, not what the agent keeps. */
  processLLMRequest<P extends readonly unknown[]>(args: LLMRequestArgs<P>): Promise<{ prompt: P }>;
  /** Records the call's usage with the manager that built its prompt. */
  processLLMResponse(args: LLMResponseArgs): Promise<void>;
}
