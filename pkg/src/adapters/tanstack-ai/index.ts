// `@devs/context/tanstack-ai`: a `ContextManager` as a TanStack AI `ChatMiddleware`. Before
// each model call of `chat()`'s agent loop (`onConfig`, phase `beforeModel`), the thread's
// manager takes in what is new of the chat's messages (`ContextManager.sync`) and sets what
// the model is sent (`providerMessages`) to its bounded view; the chat's own `messages`, which
// the client and persistence read, are never touched. The recall tool is added to the chat's
// tools, and run by the chat's tool loop; each call's usage is recorded (`onUsage`).
// TanStack AI is never loaded (it is ESM only, and an optional peer): its shapes are read as
// data, and its types are not imported (types.ts).
import type { RecallOptions, ToolSpec } from '@devs/context';
import { type Conversation, Conversations } from './conversations.js';
import { fromChat } from './messages.js';
import { readSettings } from './options.js';
import type { ChatConfig, ChatContext, ChatUsage, ContextMiddleware, ContextMiddlewareOptions } from './types.js';
import { usageOf } from './usage.js';

export type { ChatConfig, ChatContext, ChatUsage, ContextMiddleware, ContextMiddlewareOptions } from './types.js';

/** Said when the conversation's manager was let go between the model's call and its tool's run. */
const NOT_OPEN = 'The stored texts of this conversation are not open now: they open with your next step, whose request names what you can read back. Ask again then.';

/** The chat's system prompts as the one text the manager counts first (strings, or `{ content }`). */
function systemText(prompts: readonly unknown[] | undefined): string {
  return (prompts ?? [])
    .map((p) => (typeof p === 'string' ? p : typeof (p as { content?: unknown })?.content === 'string' ? (p as { content: string }).content : ''))
    .filter((t) => t !== '')
    .join('\n\n');
}

/** The recall tool's input, as the rules' schema has it. */
interface RecallInput {
  id?: unknown;
  offset?: unknown;
  length?: unknown;
  query?: unknown;
}

/** The recall tool as TanStack AI runs it: the rules' name, description and JSON Schema; its answer read from the conversation's manager. */
function recallTool(spec: ToolSpec, conversation: Conversation) {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.parameters,
    execute: async (input: RecallInput): Promise<string> => {
      const ask: RecallOptions = {};
      if (typeof input?.offset === 'number') ask.offset = input.offset;
      if (typeof input?.length === 'number') ask.length = input.length;
      if (typeof input?.query === 'string') ask.query = input.query;
      return conversation.run(() => (conversation.closed ? NOT_OPEN : conversation.manager.recall(String(input?.id), ask)));
    },
  };
}

/**
 * A TanStack AI chat middleware that keeps every model call of `chat()` within `budget`
 * tokens, in the conversation's own `ContextManager`:
 *
 * - **Append-only between compactions.** Each call's prompt is the previous one plus the
 *   messages new since, so the provider reads it from its cache; a compaction, when the
 *   prompt passes 75% of the budget, stores old tool outputs whole and shows a line naming
 *   their id (`stored as 12`), then summarizes (or drops, saying so) the oldest turns.
 *   Every tool call keeps its result.
 * - **The chat's messages are not touched.** The bounded view goes to the model only
 *   (`providerMessages`); the chat's `messages`, its stream and what you persist keep every
 *   message. A list another middleware or your code edited is taken in anew, with a
 *   `history-rebuilt` warning. Put this middleware last, so what it bounds is what is sent.
 * - **Nothing lost for the agent.** The `recall` tool, added to the chat's tools and run by
 *   its tool loop, reads a stored text back by its id, a page at a time or by the lines
 *   holding a query. A tool of yours named `recall` is refused (a TypeError naming it):
 *   rename it, or pass `recall: false`.
 * - **Counts that match the provider.** The system prompts are counted, never cut, and sent
 *   as they are; the usage each call reports (cache reads and writes included) calibrates
 *   the count, so the tools' definitions are allowed for too.
 * - **One context per conversation**, by the chat's `threadId`: every iteration of a run
 *   shares it, and a later `chat()` with the same `threadId` goes on from where it was (at
 *   most `maxConversations` in memory). A chat without one gets a `threadId` of TanStack AI's
 *   making, so a new context. Run one `chat()` at a time per thread.
 *
 * @throws {TypeError} naming the option of the wrong type, or one that is not an option.
 * @throws {RangeError} naming the option out of its range (a `budget` under 1000).
 * @example
 * import { chat, maxIterations } from '@tanstack/ai';
 * import type { AnyTextAdapter } from '@tanstack/ai';
 * import { contextMiddleware } from '@devs/context/tanstack-ai';
 * import { createTokenCounter } from '@devs/context/tokenizers';
 *
 * declare const adapter: AnyTextAdapter; // openaiText('gpt-5'), anthropicText('claude-sonnet-4-6'), …
 * const readFile = {
 *   name: 'read_file',
 *   description: 'Read a file of the project',
 *   inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
 *   execute: async ({ path }: { path: string }) => `contents of ${path}`,
 * };
 * const context = contextMiddleware({ budget: 100_000, countTokens: createTokenCounter('o200k_base') });
 * const text = await chat({
 *   adapter, threadId: 'task-42', stream: false, agentLoopStrategy: maxIterations(500),
 *   systemPrompts: ['You are a coding agent.'], messages: [{ role: 'user', content: 'Make the parser tests pass' }],
 *   tools: [readFile], middleware: [context],
 * });
 * console.log(text, context.manager('task-42')?.ledger.at(-1)?.tokens); // the last prompt's tokens, at most 100,000
 */
export function contextMiddleware(options: ContextMiddlewareOptions): ContextMiddleware {
  const settings = readSettings(options);
  const spec = settings.recall;
  /** Every recall tool made: one of another conversation's is replaced, not refused. */
  const ours = new WeakSet<object>();
  const conversations = new Conversations(settings, (conversation) => {
    if (!spec) return undefined;
    const tool = recallTool(spec, conversation);
    ours.add(tool);
    return tool;
  });

  /** The chat's tools with the conversation's recall tool last; a tool of the host's with its name is refused. */
  function withRecall(tools: readonly unknown[], own: unknown): readonly unknown[] {
    if (own === undefined || tools.includes(own)) return tools;
    const kept = tools.filter((t) => !ours.has(t as object));
    kept.forEach((t, i) => {
      if ((t as { name?: unknown })?.name === spec!.name) {
        throw Object.assign(new TypeError(`config.tools[${i}].name is '${spec!.name}', the name of the context's recall tool: rename your tool, or make the middleware with recall: false`), { code: 'ERR_INVALID_ARG_VALUE', field: `config.tools[${i}].name` });
      }
    });
    return [...kept, own];
  }

  async function onConfig<C extends ChatConfig>(ctx: ChatContext, config: C): Promise<Partial<C> | undefined> {
    const conversation = conversations.open(ctx.threadId, systemText(config.systemPrompts));
    const out: Partial<ChatConfig> = {};
    // The final structured-output call takes no tools.
    if (ctx.phase !== 'structuredOutput' && Array.isArray(config.tools)) {
      const tools = withRecall(config.tools, conversation.tool);
      if (tools !== config.tools) out.tools = tools;
    }
    if (ctx.phase === 'beforeModel' || ctx.phase === 'structuredOutput') {
      // What an earlier middleware set for the model, else the chat's messages.
      const list = config.providerMessages ?? config.messages;
      const chat = conversation.lists.of(list);
      const built = await conversation.run(() => {
        conversation.manager.sync(chat);
        return conversation.manager.build();
      });
      // The manager's system message is the chat's system prompts, which are sent as they are.
      const messages = built.messages[0]?.role === 'system' ? built.messages.slice(1) : built.messages;
      out.providerMessages = messages.map((m) => fromChat(m));
    }
    return Object.keys(out).length ? (out as Partial<C>) : undefined;
  }

  async function onUsage(ctx: ChatContext, usage: ChatUsage): Promise<void> {
    const conversation = conversations.get(ctx.threadId);
    const figures = usageOf(usage, ctx.provider);
    if (!conversation || !figures) return;
    await conversation.run(() => {
      if (!conversation.closed) conversation.manager.recordUsage(figures);
    });
  }

  return {
    name: 'devs-context',
    onConfig,
    onUsage,
    manager: (threadId) => {
      const conversation = conversations.get(threadId);
      return conversation && !conversation.closed ? conversation.manager : undefined;
    },
    close: () => conversations.close(),
  };
}
