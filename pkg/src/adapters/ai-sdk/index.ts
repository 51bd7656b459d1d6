// `@devs/context/ai-sdk`: a `ContextManager` as an AI SDK language model middleware. Every
// call the wrapped model gets (each step of `generateText`, `streamText` or a
// `ToolLoopAgent`) is bounded by its conversation's manager, the recall tool is answered
// inside the middleware, and each call's usage is recorded from its own result. The SDK is
// never loaded: its shapes are read as data, and its types are not imported (types.ts).
import { Conversations, type Conversation } from '../kit/prompt-conversations.js';
import { readOptions, RECALL, type RecallSpec } from './options.js';
import { callPart, providerPrompt, recallTurn, splitPrompt, sumUsage, toolMessage, usageFigures } from '../kit/ai-sdk-prompt.js';
import { recallStream } from './stream.js';
import { isModel, slottedManagers } from '../kit/ai-sdk-summarizer.js';
import type { ContextMiddleware, ContextMiddlewareOptions, ModelCallOptions, ModelGenerateResult, ModelStreamResult } from './types.js';

export type { ContextMiddleware, ContextMiddlewareOptions, ModelCallOptions, ModelGenerateResult, ModelStreamResult } from './types.js';

/**
 * Recall rounds one call may take before the model's answer is passed on with its recall
 * calls left out. The rules answer a page asked for again with a note, so a model that
 * reads should need far fewer; this only stops one that loops.
 */
const MAX_RECALL_ROUNDS = 8;

type Bag = Record<string, unknown>;

/** The recall calls of a response's content. */
function recallCalls(content: readonly unknown[]): Bag[] {
  return content.filter((p): p is Bag => {
    const part = p as Bag;
    return part?.type === 'tool-call' && part.toolName === RECALL && part.providerExecuted !== true;
  });
}

/** The call's conversation name (`providerOptions.devsContext.conversation`), and its provider options without it. */
function conversationName(providerOptions: Record<string, unknown> | undefined): { name: string | undefined; providerOptions: Record<string, unknown> | undefined } {
  const own = providerOptions?.devsContext as Bag | undefined;
  if (own === undefined) return { name: undefined, providerOptions };
  const name = own?.conversation;
  if (name !== undefined && typeof name !== 'string') {
    throw Object.assign(new TypeError(`providerOptions.devsContext.conversation must be a string, got ${name === null ? 'null' : typeof name}`), { code: 'ERR_INVALID_ARG_TYPE', field: 'providerOptions.devsContext.conversation' });
  }
  const { devsContext: _, ...rest } = providerOptions as Bag;
  return { name, providerOptions: Object.keys(rest).length ? rest : undefined };
}

/** The call's tools with the recall tool last; a tool of the host's with its name is refused. */
function withRecall(tools: readonly unknown[] | undefined, recall: RecallSpec): unknown[] {
  const list = tools ?? [];
  list.forEach((t, i) => {
    if ((t as Bag)?.name === recall.name) {
      throw Object.assign(new TypeError(`params.tools[${i}].name is '${recall.name}', the name of the context's recall tool: rename your tool, or make the middleware with recall: false`), { code: 'ERR_INVALID_ARG_VALUE', field: `params.tools[${i}].name` });
    }
  });
  return [...list, recall];
}

/**
 * A middleware for the AI SDK's `wrapLanguageModel({ model, middleware })`: every call the
 * wrapped model gets is bounded to `budget` tokens by a `ContextManager`, kept cache-stable
 * (between compactions each call's prompt is the previous one plus what is new), with the
 * recall tool answered inside the middleware. Use the wrapped model with `generateText`,
 * `streamText` or a `ToolLoopAgent` as before; nothing else changes in your code.
 *
 * - **The prompt.** The system messages at the start of the prompt are the manager's
 *   `system` (after `options.system`), sent as one system message, which carries the
 *   manager's cache breakpoint rather than their own `providerOptions`; the rest goes through
 *   `ContextManager.sync`, which takes in only what is new since the call before. A
 *   history the framework or your code edited is taken in anew, with a `history-rebuilt`
 *   warning. The manager's summary and notes become user messages of one text part.
 * - **Conversations.** One wrapped model may serve many conversations: each keeps its own
 *   manager (at most `maxConversations`, the least recently used dropped). A call goes to
 *   the conversation whose last prompt its own extends; one that shares more than its
 *   opening message with a conversation is that conversation, edited; any other starts a
 *   new one (so two conversations that open alike never take each other's manager).
 *   Changed system messages start a new one too. To name a call's conversation outright,
 *   pass `providerOptions: { devsContext: { conversation: id } }`: every edit of it is then a
 *   rebuild, and the option is removed before the call reaches the provider.
 * - **Recall.** With `recall` (the default), the call's tools get `recall`, through which
 *   the model reads back a text the prompt shows as `stored as <id>`. Its calls are
 *   answered here, and the model is called again with the answer, within the same step:
 *   your code and the SDK's tool loop never see them. A response that calls `recall`
 *   among other tools keeps only its recall calls; the model calls the others again once
 *   it has read. The step's usage is that of every call it took. A host tool named
 *   `recall` is refused (a TypeError naming it): rename it, or pass `recall: false`.
 * - **Streaming.** Text and reasoning stream as they come; the other tools' `tool-call`
 *   chunks are held until the response's `finish`, since a response that also calls
 *   `recall` is answered by another one, whose chunks follow in the same stream.
 * - **Usage.** Each call's usage (`inputTokens.total`, `cacheRead`, `cacheWrite`) is
 *   recorded from its own result: the calibration and the ledger's `observedRead` need no
 *   code of yours.
 * - **Versions.** The same middleware serves ai 6 (spec `v3`, which it declares) and ai 7
 *   (spec `v4`: ai 7 takes any version string, and the middleware reads nothing that
 *   differs between the two: file parts and tool-output kinds pass through whole).
 *
 * @throws {TypeError} naming the option of the wrong type (`options.budget`), as `ContextManager` does.
 * @throws {RangeError} for a `budget` under 1000, or another option out of range, naming it.
 * @example
 * import { contextMiddleware } from '@devs/context/ai-sdk';
 * import { createTokenCounter } from '@devs/context/tokenizers';
 * import { generateText, wrapLanguageModel } from 'ai';
 * import type { LanguageModelV3 } from '@ai-sdk/provider';
 *
 * declare const provider: LanguageModelV3; // openai('gpt-5'), anthropic('claude-sonnet-4-6'), …
 * const model = wrapLanguageModel({
 *   model: provider,
 *   middleware: contextMiddleware({ budget: 100_000, countTokens: createTokenCounter('o200k_base') }),
 * });
 * const { text } = await generateText({ model, system: 'You are a coding agent.', prompt: 'Make the parser tests pass' });
 * console.log(text);
 */
export function contextMiddleware(options: ContextMiddlewareOptions): ContextMiddleware {
  const settings = readOptions(options);
  /** Each manager's summary slot: the model of its conversation's call in flight, and that call's options. */
  const managers = slottedManagers(settings.manager);
  const conversations = new Conversations(settings.maxConversations, managers.make);
  /** Each call's conversation, by the params `transformParams` returned (the SDK hands the same object to `wrapGenerate`). */
  const calls = new WeakMap<object, Conversation>();

  /** Records a model call's usage with its conversation's manager, after what is queued before. */
  async function record(conversation: Conversation, usage: unknown): Promise<void> {
    const figures = usageFigures(usage);
    if (figures) await conversation.run(() => conversation.manager.recordUsage(figures));
  }

  /** Appends the recall turn and its answers; the next call's prompt. */
  function answer(conversation: Conversation, content: readonly unknown[], recall: readonly Bag[]): Promise<unknown[]> {
    return conversation.run(async () => {
      const manager = conversation.manager;
      // The call first: the manager notes which page each call read, and answers the same page asked again with a note.
      manager.append(recallTurn(content, recall));
      const answers: unknown[] = [];
      for (const call of recall) answers.push(await manager.recall(callPart(call)));
      manager.append(toolMessage(answers));
      return providerPrompt((await manager.build()).messages);
    });
  }

  async function transformParams<P extends ModelCallOptions>({ params, model }: { params: P; model?: unknown }): Promise<P> {
    const { system, messages } = splitPrompt(params.prompt);
    const { name, providerOptions } = conversationName(params.providerOptions);
    const tools = settings.recall ? withRecall(params.tools, settings.recall) : params.tools;
    const route = conversations.route(system.join('\n\n'), messages, name);
    const conversation = route.conversation;
    const slot = managers.slotOf(conversation.manager);
    const built = await conversation.run(async () => {
      conversation.sync(messages, route);
      if (slot) {
        // A summary this build asks for is written by this call's model, with this call's options.
        slot.model = isModel(model) ? model : undefined;
        slot.params = { ...params, tools, providerOptions };
      }
      return conversation.manager.build();
    });
    const out = { ...params, prompt: providerPrompt(built.messages), tools, providerOptions } as P;
    calls.set(out, conversation);
    return out;
  }

  async function wrapGenerate<P extends ModelCallOptions, R extends ModelGenerateResult>({ doGenerate, params, model }: {
    doGenerate: () => PromiseLike<R>;
    params: P;
    model: { doGenerate(options: P): PromiseLike<R> };
  }): Promise<R> {
    const conversation = calls.get(params);
    if (!conversation) return doGenerate();
    let result = await doGenerate();
    await record(conversation, result.usage);
    let usage = result.usage;
    for (let round = 0; settings.recall; round++) {
      const recall = recallCalls(result.content);
      if (!recall.length) break;
      if (round === MAX_RECALL_ROUNDS) {
        result = { ...result, content: result.content.filter((p) => !recall.includes(p as Bag)) };
        break;
      }
      const prompt = await answer(conversation, result.content, recall);
      result = await model.doGenerate({ ...params, prompt });
      await record(conversation, result.usage);
      usage = sumUsage(usage, result.usage);
    }
    return usage === result.usage ? result : { ...result, usage };
  }

  async function wrapStream<P extends ModelCallOptions, S extends ModelStreamResult>({ doStream, params, model }: {
    doStream: () => PromiseLike<S>;
    params: P;
    model: { doStream(options: P): PromiseLike<S> };
  }): Promise<S> {
    const conversation = calls.get(params);
    if (!conversation) return doStream();
    const first = await doStream();
    let rounds = 0;
    const stream = recallStream(first.stream, {
      recall: settings.recall ? RECALL : undefined,
      usage: (usage) => record(conversation, usage),
      sum: sumUsage,
      answer: async (content, recall) => {
        if (++rounds > MAX_RECALL_ROUNDS) return undefined;
        const prompt = await answer(conversation, content, recall);
        return (await model.doStream({ ...params, prompt })).stream;
      },
    });
    return { ...first, stream };
  }

  return { specificationVersion: 'v3', transformParams, wrapGenerate, wrapStream };
}
