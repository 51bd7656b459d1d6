// The shapes every product of the package shares (the seeds, `ContextManager`, the
// providers, the tokenizers), defined below all of them so that no import runs back up a
// floor. The public names are re-exported where they were always documented
// (seeds/types.ts, context/types.ts).

/**
 * Counts the tokens of a text. The default, `countTokens`, is `Math.ceil(text.length / 4)`;
 * any rule that counts accepts an exact counter in its place.
 */
export type TokenCounter = (text: string) => number;

/** The LLM that writes summaries. */
export interface SummarizerClient {
  /**
   * The LLM's answer to `prompt`; an empty answer is a `SummarizationError`.
   * `ContextManager` passes `request` too: the request it last built, in its provider's
   * shape, with the summarizing instruction appended as a last user message. Sent to the
   * same model, its prefix is read from the provider's cache (a tenth of the price) where
   * the text `prompt` would be written anew.
   */
  summarize(prompt: string, request?: SummarizerRequest): Promise<string> | string;
}

/** The request `ContextManager` last built, as a summarizer request (see `SummarizerClient.summarize`). */
export interface SummarizerRequest {
  /** The request's `system`, as built. */
  system?: unknown;
  /** Its messages, then the instruction as a user message. */
  messages: unknown[];
}

/** The provider shape a `ContextManager` takes and returns messages in. */
export type ContextFormat = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'ai-sdk' | 'vscode';

/** The classes of the `vscode` module a `ContextManager` with format `'vscode'` builds messages with. */
export interface VscodeLanguageModelApi {
  // `never[]`: any array of the module's own part types is taken, as `typeof import('vscode')` declares them.
  LanguageModelChatMessage: new (role: number, content: never[], name?: string) => unknown;
  LanguageModelChatMessageRole: { User: number; Assistant: number };
  LanguageModelTextPart: new (value: string) => unknown;
  LanguageModelToolCallPart: new (callId: string, name: string, input: object) => unknown;
  LanguageModelToolResultPart: new (callId: string, content: never[]) => unknown;
  /** Stable since VS Code 1.105: images and other data in a message or a tool result. Without it, a stored image is recalled by its line only. */
  LanguageModelDataPart?: new (data: Uint8Array, mimeType: string) => unknown;
}

/**
 * A tool as a framework or provider is told of it, with no shape of its own: `recallSpec()`
 * gives the recall tool this way, for a framework the package has no adapter for.
 */
export interface ToolSpec {
  /** The tool's name, `recall` for the recall tool. */
  name: string;
  /** What the model reads of when to call it. */
  description: string;
  /** Its input, as a JSON Schema object. */
  parameters: Record<string, unknown>;
}
