// `@devs/context/mastra`: a `ContextManager` as a Mastra input processor. Every model call
// of an agent's loop is bounded by its conversation's manager, the recall tool is given to
// the agent and answered by that manager, and each call's usage is recorded from its own
// response. Mastra is never loaded: its shapes are read as data, and its types are not
// imported (types.ts).
//
// Three of the processor's hooks are used:
// - `processInputStep` adds the recall tool to the step's tools. Its `messages` are not
//   touched: what a processor sets there is written to the agent's message list, and so
//   to its memory, which would then keep the bounded view in place of what happened.
// - `processLLMRequest` gets the prompt the step is about to send, in the AI SDK's
//   provider-level shape (Mastra converts its message list first), and gives back the one
//   the manager builds. It changes what the model is sent, and nothing the agent keeps.
// - `processLLMResponse` reads the usage of the call from its `finish` chunk.
// The prompt's shape is the one the AI SDK middleware reads, so the conversations and the
// prompt conversions are that adapter's own.
import { Conversations, type Conversation } from '../kit/prompt-conversations.js';
import { providerPrompt, splitPrompt } from '../kit/ai-sdk-prompt.js';
import { sameUnstamped } from './prints.js';
import { isModel, slottedManagers } from '../kit/ai-sdk-summarizer.js';
import { argumentError, readOptions, RECALL, type Settings } from './options.js';
import { usageOf } from './usage.js';
import type { ContextProcessor, ContextProcessorOptions, InputStepArgs, LLMRequestArgs, LLMResponseArgs } from './types.js';

export type { ContextProcessor, ContextProcessorOptions, InputStepArgs, LLMRequestArgs, LLMResponseArgs } from './types.js';

type Bag = Record<string, unknown>;

const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a run's conversation is kept in the processor's state: set at each model call, read by the recall tool. */
const CONVERSATION = Symbol.for('devs-context.mastra.conversation');

/** Said when the run has made no model call through the processor (a tool called outside its loop). */
const NOT_OPEN = 'The stored texts of this conversation are not open here: ask again in a later step.';

/** The recall tools the processor made: they are its own, not a host tool of the same name. */
const ours = new WeakSet<object>();

/** The text of the manager's answer to a recall call (a tool message of one `tool-result`). */
function answerText(answer: unknown): string {
  const content = isBag(answer) && Array.isArray(answer.content) ? answer.content : [];
  const output = isBag(content[0]) ? content[0].output : undefined;
  return isBag(output) && typeof output.value === 'string' ? output.value : NOT_OPEN;
}

/** The recall tool of one run: it answers from the conversation of the run's last model call. */
function recallTool(definition: NonNullable<Settings['recall']>, state: Record<string | symbol, unknown>): object {
  const tool = {
    description: definition.description,
    inputSchema: definition.inputSchema,
    execute: async (input: unknown, context?: { toolCallId?: unknown }): Promise<string> => {
      const conversation = state[CONVERSATION] as Conversation | undefined;
      if (!conversation) return NOT_OPEN;
      const toolCallId = typeof context?.toolCallId === 'string' ? context.toolCallId : RECALL;
      // The call form: the manager checks the input, and answers a page asked for again with a note.
      const answer = await conversation.run(() => conversation.manager.recall({ type: 'tool-call', toolCallId, toolName: RECALL, input }));
      return answerText(answer);
    },
  };
  ours.add(tool);
  return tool;
}

/**
 * A Mastra input processor that keeps every model call of an agent within `budget` tokens,
 * with a `ContextManager` per conversation, cache-stable (between compactions each call's
 * prompt is the previous one plus what is new). Pass it in the agent's `inputProcessors`;
 * nothing else changes in your code.
 *
 * - **The prompt.** At each step, `processLLMRequest` hands the step's prompt to the
 *   conversation's manager and sends the model the one it builds: the system messages at
 *   the start are the manager's `system` (after `options.system`), one message, never cut;
 *   the rest goes through `ContextManager.sync`, which takes in only what is new since the
 *   call before. Old tool outputs are stored whole and shown as a line naming their id;
 *   every tool call keeps its result. The agent's message list, and its memory, keep every
 *   message as it was: only what the model is sent is bounded.
 * - **Conversations.** One processor may serve many runs and threads: each conversation
 *   keeps its own manager (at most `maxConversations`, the least recently used dropped). A
 *   call goes to the conversation whose last prompt its own extends; one that shares more
 *   than its opening message with a conversation is that conversation, edited (taken in
 *   anew, with a `history-rebuilt` warning); any other starts a new one. Changed system
 *   messages start a new one too. Messages are compared without the `createdAt` Mastra
 *   stamps on them, so a run that sends the history again goes on in its conversation.
 * - **Recall.** With `recall` (the default), `processInputStep` adds the `recall` tool to
 *   each step's tools: the model reads back a text the prompt shows as `stored as <id>`.
 *   The agent runs it as any tool; it answers from the manager of the run's last call. A
 *   tool of the agent's named `recall` is refused (a TypeError naming it): rename it, or
 *   pass `recall: false`.
 * - **Usage.** Each call's usage (`inputTokens`, `cachedInputTokens`,
 *   `cacheCreationInputTokens`) is recorded from its response's `finish` chunk: the
 *   calibration and the ledger's `observedRead` need no code of yours.
 *
 * @throws {TypeError} naming the option of the wrong type (`options.budget`), as `ContextManager` does.
 * @throws {RangeError} for a `budget` under 1000, or another option out of range, naming it.
 * @example
 * import { contextProcessor } from '@devs/context/mastra';
 * import { createTokenCounter } from '@devs/context/tokenizers';
 *
 * const context = contextProcessor({ budget: 100_000, countTokens: createTokenCounter('o200k_base') });
 * // Then, with Mastra: new Agent({ id: 'coder', name: 'Coder', instructions, model, tools, inputProcessors: [context] })
 * console.log(context.id); // 'devs-context'
 */
export function contextProcessor(options: ContextProcessorOptions): ContextProcessor {
  const settings = readOptions(options);
  /** Each manager's summary slot: the model of its conversation's call in flight. */
  const managers = slottedManagers(settings.manager);
  const conversations = new Conversations(settings.maxConversations, managers.make, sameUnstamped);

  function processInputStep({ tools, state }: InputStepArgs): { tools: Record<string, unknown> } | undefined {
    if (!settings.recall) return undefined;
    const own = tools?.[RECALL];
    if (own !== undefined && !(isBag(own) && ours.has(own))) {
      throw argumentError(TypeError, `tools.${RECALL}`, `is a tool of the agent's named '${RECALL}', the name of the context's recall tool: rename your tool, or make the processor with recall: false`);
    }
    return { tools: { ...tools, [RECALL]: recallTool(settings.recall, state) } };
  }

  async function processLLMRequest<P extends readonly unknown[]>({ prompt, state, model }: LLMRequestArgs<P>): Promise<{ prompt: P }> {
    const { system, messages } = splitPrompt(prompt);
    const route = conversations.route(system.join('\n\n'), messages, undefined);
    const conversation = route.conversation;
    const slot = managers.slotOf(conversation.manager);
    const built = await conversation.run(async () => {
      conversation.sync(messages, route);
      // A summary this build asks for is written by this step's model.
      if (slot) slot.model = isModel(model) ? model : undefined;
      return conversation.manager.build();
    });
    (state as Record<symbol, unknown>)[CONVERSATION] = conversation;
    return { prompt: providerPrompt(built.messages) as unknown as P };
  }

  async function processLLMResponse({ chunks, state, fromCache }: LLMResponseArgs): Promise<void> {
    const conversation = (state as Record<symbol, unknown>)[CONVERSATION] as Conversation | undefined;
    // A response replayed from a cache was no model call: it tells nothing of this prompt.
    if (!conversation || fromCache) return;
    const usage = usageOf(chunks);
    if (usage) await conversation.run(() => conversation.manager.recordUsage(usage));
  }

  return { id: 'devs-context', name: 'devs context', processInputStep, processLLMRequest, processLLMResponse };
}
