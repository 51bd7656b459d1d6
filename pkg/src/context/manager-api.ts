// `ContextManager` as hosts see it: the instance type, and a constructor with a signature
// per format. TypeScript infers no type argument once one is given, so with a class alone
// `new ContextManager<Anthropic.MessageParam>({ format: 'anthropic', … })` would leave the
// format at its default (every format), and `recallTool` and `build().system` untyped. A
// signature per format takes the format from `options.format` when the message type alone
// is named; the class itself is `manager.ts`.
import { ContextManagerClass } from './manager.js';
import type { ContextSession } from './session/session.js';
import type { ContextFormat, ContextManagerOptions, ContextSessionOptions, ContextSnapshot } from './types.js';

/** A `ContextManager`: `Message` is your SDK's message type, `Format` the manager's format (see the `ContextManager` class). */
export interface ContextManager<Message = unknown, Format extends ContextFormat = ContextFormat> extends ContextManagerClass<Message, Format> {}

/** `ContextManager`'s constructor and statics. */
export interface ContextManagerConstructor {
  /**
   * A manager of `options.format`, whose messages are `Message`s. With no type argument,
   * `Format` is read from `options.format`; with one, a signature below does the same.
   * @throws {TypeError} naming the option of the wrong type; an unknown `format` lists the formats.
   * @throws {RangeError} for a `budget` under 1000 or one that cannot hold `system`, `pinned` and the summary's reserve, naming each size.
   */
  new <Message, Format extends ContextFormat>(options: ContextManagerOptions & { format: Format }): ContextManager<Message, Format>;
  /** An Anthropic manager of `Message`s (`Anthropic.MessageParam`). */
  new <Message>(options: ContextManagerOptions & { format: 'anthropic' }): ContextManager<Message, 'anthropic'>;
  /** An OpenAI Chat Completions manager of `Message`s (`ChatCompletionMessageParam`). */
  new <Message>(options: ContextManagerOptions & { format: 'openai-chat' }): ContextManager<Message, 'openai-chat'>;
  /** An OpenAI Responses manager of `Message`s (`ResponseInputItem`). */
  new <Message>(options: ContextManagerOptions & { format: 'openai-responses' }): ContextManager<Message, 'openai-responses'>;
  /** A Gemini manager of `Message`s (`Content` of `@google/genai`). */
  new <Message>(options: ContextManagerOptions & { format: 'gemini' }): ContextManager<Message, 'gemini'>;
  /** An AI SDK manager of `Message`s (`ModelMessage`). */
  new <Message>(options: ContextManagerOptions & { format: 'ai-sdk' }): ContextManager<Message, 'ai-sdk'>;
  /** A `vscode.lm` manager of `Message`s (`vscode.LanguageModelChatMessage`). */
  new <Message>(options: ContextManagerOptions & { format: 'vscode' }): ContextManager<Message, 'vscode'>;
  /** A manager whose format is known at run time only: `recallTool` and `build().system` are every format's. */
  new <Message>(options: ContextManagerOptions): ContextManager<Message>;
  /** The signature `class … extends ContextManager` takes (a subclass names both type arguments, or none). */
  new (options: ContextManagerOptions): ContextManager;
  readonly prototype: ContextManager;

  /**
   * A manager made from `snapshot`, with the same options as the one that took it (the
   * callbacks may be new ones): its next `build()` is byte for byte the one the first
   * manager would have given. No callback is called: a summary already paid for is not
   * asked for again, and the store is not touched.
   * @throws {Error} for a snapshot newer than this package, naming both versions.
   * @throws {TypeError} naming the first field of a snapshot that is altered or cut short, or whose format or config differs from `options`.
   */
  restore<M = unknown>(snapshot: ContextSnapshot, options: ContextManagerOptions): ContextManager<M>;

  /**
   * Opens the session `sessionId` in `store`, or creates it: a manager written ahead, whose
   * `append`, `build` and `recordUsage` resolve once the call is in the store. A process
   * killed at any point opens the session again and goes on from its last acknowledged
   * call, with no summary asked for twice.
   * @throws {SessionConflictError} when the session is already open in this process.
   * @throws {TypeError} naming the option that differs from the session's (`options.format`, `options`).
   * @example
   * import { ContextManager } from '@devs/context';
   * import { SqliteStateRepository } from '@devs/context/sqlite';
   *
   * const store = new SqliteStateRepository('state.sqlite');
   * const context = await ContextManager.open({ sessionId: 'task-42', store, format: 'openai-chat', budget: 100_000 });
   * await context.append({ role: 'user', content: 'Make the parser tests pass' });
   * const { messages } = await context.build();
   * console.log(messages.length, context.version); // 1 2: two calls written
   * await context.close();
   */
  open<Message, Format extends ContextFormat>(options: ContextSessionOptions & { format: Format }): Promise<ContextSession<Message, Format>>;
  /** As the first `open`, the format read from `options.format` when the message type alone is named. */
  open<Message>(options: ContextSessionOptions & { format: 'anthropic' }): Promise<ContextSession<Message, 'anthropic'>>;
  open<Message>(options: ContextSessionOptions & { format: 'openai-chat' }): Promise<ContextSession<Message, 'openai-chat'>>;
  open<Message>(options: ContextSessionOptions & { format: 'openai-responses' }): Promise<ContextSession<Message, 'openai-responses'>>;
  open<Message>(options: ContextSessionOptions & { format: 'gemini' }): Promise<ContextSession<Message, 'gemini'>>;
  open<Message>(options: ContextSessionOptions & { format: 'ai-sdk' }): Promise<ContextSession<Message, 'ai-sdk'>>;
  open<Message>(options: ContextSessionOptions & { format: 'vscode' }): Promise<ContextSession<Message, 'vscode'>>;
  /** A session whose format is known at run time only. */
  open<Message = unknown>(options: ContextSessionOptions): Promise<ContextSession<Message>>;
}

/**
 * Keeps a coding agent's conversation inside a token budget, in its provider's own
 * message shape, with the provider's prompt cache kept. `append` the messages you send
 * and receive, exactly as you have them; `await build()` before each model call, and pass
 * its `system` and `messages` straight to your SDK; `recordUsage` the usage it returns.
 *
 * Every request is at most `budget` tokens. Between compactions a request is the previous
 * one plus what you appended, so the provider reads it from its cache. When a request
 * passes `highWater` (75% of the budget), one compaction brings it under `lowWater` (25%):
 * old tool outputs and texts are stored whole, then replaced by a line naming their store
 * id; then the oldest turns are summarized (or dropped, without a summarizer). Every tool
 * call keeps its result; signed thinking is never edited.
 *
 * `Message` is your SDK's message type, `Format` the manager's format: name the message
 * type alone (`new ContextManager<Anthropic.MessageParam>({ format: 'anthropic', … })`) and
 * the format is read from `options.format`, which types `recallTool`, `recall(call)` and
 * `build().system` for that provider.
 * @class
 * @example
 * import { ContextManager } from '@devs/context';
 * import { createTokenCounter } from '@devs/context/tokenizers';
 *
 * // Your Anthropic client: `new Anthropic()` from '@anthropic-ai/sdk'.
 * declare const client: { messages: { create(request: object): Promise<{ content: object[]; usage: object }> } };
 * const context = new ContextManager({ format: 'anthropic', budget: 150_000, countTokens: createTokenCounter('o200k_base'), system: 'You are a coding agent.' });
 * context.append({ role: 'user', content: 'Make the parser tests pass' });
 * const { system, messages } = await context.build();
 * const response = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4096, system, messages });
 * context.append({ role: 'assistant', content: response.content });
 * context.recordUsage(response.usage);
 */
export const ContextManager: ContextManagerConstructor = ContextManagerClass;
