// Error classes the rules throw. They live in JS so that hosts can `instanceof` them;
// the wasm constructs them through an import of this same module.

export interface SummarizationErrorOptions {
  /** The agent whose turns were being summarized, when known. */
  agentId?: string;
  /** Machine-readable reason, e.g. `ERR_EMPTY_SUMMARY`. */
  code: string;
  cause?: unknown;
}

/** The summarizer LLM gave no usable summary. */
export class SummarizationError extends Error {
  readonly code: string;
  readonly agentId: string | undefined;

  constructor(message: string, options: SummarizationErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SummarizationError';
    this.code = options.code;
    this.agentId = options.agentId;
  }
}

