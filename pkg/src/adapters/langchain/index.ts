// `@devs/context/langchain`: a LangChain.js v1 agent middleware that sends the model a view
// of the thread's messages kept within a token budget by a `ContextManager`, append-only
// between compactions, so the provider reads each request's prefix from its cache.
//
// The view is made in `wrapModelCall`, and only handed to the model (`handler({ ...request,
// messages })`): the agent's state, and so its checkpoints, keep every message as it was.
// `beforeModel` would rewrite the state itself, and lose what a compaction folds away;
// LangChain's `contextEditingMiddleware` edits the view too, but clears one more old tool
// result at each call, mid-prefix, so every call writes the cache anew.
import { createMiddleware } from 'langchain';
import { AIMessage } from '@langchain/core/messages';
import type { ClientTool } from '@langchain/core/tools';
import type { ContextManager, ContextSession } from '@devs/context';
import { BackToLangChain, ChatLists } from './messages.js';
import { type ContextMiddlewareOptions, readSettings, type SummarizerModel } from './options.js';
import { recallTool } from './recall-tool.js';
import { threadIdOf } from './thread-id.js';
import { Threads } from './threads.js';
import { usageOf } from './usage.js';
import { type ModelCall, modelSummary } from './summarizer.js';

export type { ContextMiddlewareOptions, SummarizerModel };

/**
 * The middleware `contextMiddleware` makes: pass it in `createAgent({ middleware })`. It is
 * `createMiddleware`'s own type, with no type arguments of ours, so that it is the
 * `AgentMiddleware` of whichever `langchain` the host has (1.0 has three type parameters
 * where 1.5 has five).
 */
export type ContextMiddleware = ReturnType<typeof createMiddleware> & ContextMiddlewareMethods;

/** What `ContextMiddleware` has beside the middleware itself. */
export interface ContextMiddlewareMethods {
  /**
   * The thread's `ContextManager` (with `options.store`, its `ContextSession`) while it is in
   * memory: its `ledger` (each request's tokens, compaction and cache figures),
   * `calibration`, `compact()`. `undefined` before the thread's first model call.
   */
  manager(threadId: string): ContextManager | ContextSession | undefined;
  /**
   * Lets every thread go once its calls have ended: frees the managers, closes the sessions
   * (they stay in the store, and open again at the thread's next call).
   */
  close(): Promise<void>;
}

/**
 * A LangChain.js v1 agent middleware that keeps every model call within `budget` tokens,
 * in the thread's own `ContextManager`:
 *
 * - **Append-only between compactions.** Each call's request is the previous one plus the
 *   messages new since, so the provider reads it from its cache; a compaction, when the
 *   request passes 75% of the budget, stores old tool outputs whole and shows a line naming
 *   their id (`stored as 12`), then summarizes (or drops, saying so) the oldest turns.
 *   Every tool call keeps its result.
 * - **The state is not touched.** The bounded view goes to the model only; the agent's
 *   state and checkpoints keep every message. A state that another middleware rewrote is
 *   taken in anew, with a `history-rebuilt` warning.
 * - **Nothing lost for the agent.** The `recall` tool (registered by the middleware) reads
 *   a stored text back by its id, a page at a time or by the lines holding a query.
 * - **Counts that match the provider.** The system prompt is counted; the usage the model
 *   reports (`usage_metadata`, cache reads and writes included) calibrates the count, so
 *   the tools' definitions are allowed for too.
 * - **One context per thread** (`configurable.thread_id`): in memory, at most `maxThreads`
 *   of them; with `store`, a session per thread written ahead, so a thread resumed after a
 *   restart (with the agent's checkpointer) goes on from where it was.
 *
 * Use one middleware per agent: an agent and its subagent on one thread would each take
 * the other's messages for a rewritten history.
 * @throws {TypeError} naming the option of the wrong type, or one that is not an option.
 * @throws {RangeError} naming the option out of its range (a `budget` under 1000).
 * @example
 * import { createAgent, tool } from 'langchain';
 * import { MemorySaver } from '@langchain/langgraph';
 * import { z } from 'zod';
 * import { contextMiddleware } from '@devs/context/langchain';
 * import { createTokenCounter } from '@devs/context/tokenizers';
 *
 * const readFile = tool(async ({ path }) => `contents of ${path}`, { name: 'read_file', description: 'Read a file', schema: z.object({ path: z.string() }) });
 * const context = contextMiddleware({ budget: 100_000, countTokens: createTokenCounter('o200k_base') });
 * const agent = createAgent({ model: 'openai:gpt-5', tools: [readFile], systemPrompt: 'You are a coding agent.', middleware: [context], checkpointer: new MemorySaver() });
 * await agent.invoke({ messages: [{ role: 'user', content: 'Make the parser tests pass' }] }, { configurable: { thread_id: 'task-42' }, recursionLimit: 1000 });
 * console.log(context.manager('task-42')?.ledger.at(-1)?.tokens); // the last request's tokens, at most 100,000
 */
export function contextMiddleware(options: ContextMiddlewareOptions): ContextMiddleware {
  const settings = readSettings(options);
  /** Each thread's model call in flight, whose model writes the summaries its build asks for. */
  const calls = new Map<string, ModelCall>();
  const summaries = settings.modelSummaries;
  if (summaries) settings.summarize = (threadId, prompt, request) => modelSummary(summaries.model, calls.get(threadId), prompt, request);
  const threads = new Threads(settings);
  const durable = settings.store !== undefined;

  const tools: ClientTool[] = settings.recall
    ? [recallTool(settings.recallSpec, async (config, id, ask) => {
      const state = config.state as { messages?: AIMessage[] } | undefined;
      const threadId = threadIdOf(config.configurable, state?.messages, durable);
      return threads.withContext(threadId, (context) => context.recall(id, ask));
    })]
    : [];

  /** The lists as OpenAI messages; the last call's are reused, message by message. */
  const lists = new ChatLists();

  const middleware = createMiddleware({
    name: 'ContextMiddleware',
    tools,
    wrapModelCall: async (request, handler) => {
      const list = request.messages;
      const threadId = threadIdOf(request.runtime?.configurable, request.state?.messages ?? list, durable);
      const system = request.systemPrompt ? request.systemPrompt : undefined;
      const chat = lists.of(list);
      return threads.withList(threadId, system, list, chat, async (context) => {
        calls.set(threadId, { model: request.model, tools: request.tools, back: new BackToLangChain(list, chat, durable) });
        let built;
        try {
          built = await context.build();
        } finally {
          calls.delete(threadId);
        }
        // The system prompt is the manager's, first in its request: the agent sends its own system message, as it is.
        const first = built.messages[0];
        const from = system !== undefined && first?.role === 'system' && first.content === system ? 1 : 0;
        // Only a session's messages can be read back from a store, without their origin.
        const back = new BackToLangChain(list, chat, durable);
        const messages = built.messages.slice(from).map((m) => back.message(m));
        const response = await handler({ ...request, messages });
        const usage = AIMessage.isInstance(response) ? usageOf(response) : undefined;
        if (usage) {
          try {
            await context.recordUsage(usage);
          } catch (error) {
            // The model's answer stands: a usage the store could not write costs one calibration sample.
            settings.onWarning?.({ request: built.ledger.request, code: 'usage-not-recorded', message: `the model's usage could not be recorded (${error instanceof Error ? error.message : String(error)})`, error }, threadId);
          }
        }
        return response;
      });
    },
  });

  return Object.assign(middleware, {
    manager: (threadId: string) => threads.context(threadId) as ContextManager | ContextSession | undefined,
    close: () => threads.close(),
  }) as ContextMiddleware;
}
