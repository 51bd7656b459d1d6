// The public types of `@devs/context/ai-sdk`. They name nothing of the AI SDK: the
// middleware's functions are generic over the call options and results the SDK hands them,
// so one middleware type fits ai 6 (`LanguageModelV3Middleware`, spec `v3`) and ai 7
// (`LanguageModelMiddleware`, spec `v4`, which takes any version string), and the
// declarations load whichever `@ai-sdk/provider` the host has, or none.
import type { ContextManagerOptions } from '@devs/context';

/** Options of `contextMiddleware`: a `ContextManager`'s, less those the middleware sets itself. */
export interface ContextMiddlewareOptions extends Omit<ContextManagerOptions, 'format' | 'vscode' | 'recall' | 'summarizer'> {
  /**
   * Writes the summaries. Default: the wrapped model, sent the prompt it was last called
   * with (its tools and provider options as they were) and the summarizing instruction, so
   * the provider reads the prefix from its cache; its usage is the compaction's cost
   * (`onCompaction`'s `summary.usage`). Another provider-level model (`openai('gpt-5-mini')`)
   * writes them the same way; `false` writes none (the oldest turns are dropped, stored and
   * indexed); a function or `{ summarize }` is called as `ContextManager` calls it.
   */
  summarizer?: ContextManagerOptions['summarizer'] | false | { readonly specificationVersion: string; doGenerate(options: never): PromiseLike<unknown> };
  /**
   * Your system prompt, before the system messages of each call's prompt (`system` of
   * `generateText`, or the agent's `instructions`). Default: none, the prompt's own.
   */
  system?: string;
  /**
   * Give the model the recall tool (named `recall`), answered inside the middleware: the
   * model reads back a text the conversation stored whole, and your code never sees the
   * call. Default true.
   */
  recall?: boolean;
  /**
   * How many conversations keep their manager, the least recently used dropped first.
   * Default 100. A conversation dropped and then called again starts a new manager.
   */
  maxConversations?: number;
}

export type { ModelCallOptions, ModelGenerateResult, ModelStreamResult } from '../kit/ai-sdk-prompt.js';
import type { ModelCallOptions, ModelGenerateResult, ModelStreamResult } from '../kit/ai-sdk-prompt.js';

/**
 * The middleware `contextMiddleware` returns, for `wrapLanguageModel({ model, middleware })`.
 * It declares spec `v3`, which ai 6 requires; ai 7 takes any version string and runs it
 * as its own, and the middleware reads nothing that differs between the two.
 */
export interface ContextMiddleware {
  readonly specificationVersion: 'v3';
  /** Bounds the call's prompt with the conversation's `ContextManager`, and adds the recall tool. */
  transformParams: <P extends ModelCallOptions>(options: {
    type: 'generate' | 'stream';
    params: P;
    model: { readonly specificationVersion: string };
  }) => PromiseLike<P>;
  /** Records the call's usage, and answers the model's recall calls with the model called again. */
  wrapGenerate: <P extends ModelCallOptions, R extends ModelGenerateResult>(options: {
    doGenerate: () => PromiseLike<R>;
    doStream: () => PromiseLike<unknown>;
    params: P;
    model: { doGenerate(options: P): PromiseLike<R> };
  }) => PromiseLike<R>;
  /** As `wrapGenerate`, chunk by chunk: see `contextMiddleware` for what is held back. */
  wrapStream: <P extends ModelCallOptions, S extends ModelStreamResult>(options: {
    doGenerate: () => PromiseLike<unknown>;
    doStream: () => PromiseLike<S>;
    params: P;
    model: { doStream(options: P): PromiseLike<S> };
  }) => PromiseLike<S>;
}
