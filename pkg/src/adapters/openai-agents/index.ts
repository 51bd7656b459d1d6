/**
 * `@devs/context/openai-agents`: `ContextManager` for the OpenAI Agents SDK
 * (`@openai/agents`). A `callModelInputFilter` that sends every model call a bounded,
 * cache-stable input, a model wrapper that reports each response's usage, and the recall
 * tool as a function tool.
 * @packageDocumentation
 */
import { ContextManager } from '@devs/context';
import type { ContextManagerOptions } from '@devs/context';
import { tool } from '@openai/agents';
import type {
  AgentInputItem, CallModelInputFilter, CallModelInputFilterArgs, FunctionTool, Model, ModelInputData, ModelProvider,
  ModelRequest, ModelResponse, RunContext,
} from '@openai/agents';
import { type Conversation, Conversations } from './conversations.js';
import { sameMessage } from '../kit/messages.js';
import { callNames, fromCore, toCore } from './items.js';
import { watchedModel } from './model.js';
import { isAgentModel, summarizerFor, type SummarySlot } from './summarizer.js';
import { type OpenAIAgentsContextOptions, type ReadOptions, conversationName, readOptions } from './options.js';
import { ConversationStore } from './store.js';
import { responsesUsage } from './usage.js';

export type { OpenAIAgentsContextOptions } from './options.js';

/** One conversation's manager, as `OpenAIAgentsContext.conversations()` lists it. */
export interface OpenAIAgentsConversation {
  /** The `conversation` option's name for it, or `#1`, `#2`, … for one told apart by its items. */
  conversation: string;
  /** The agent's instructions: its manager's system prompt. */
  instructions: string | undefined;
  /** Its manager: `ledger`, `calibration`, `snapshot()`, `recall(id)`. */
  manager: ContextManager;
}

/** A model input the filter returned, waiting for the model to be called with it. */
interface Sent {
  input: readonly unknown[];
  instructions: string | undefined;
  conversation: Conversation;
}

/** Requests in flight remembered at most, and recall calls waiting for their tool run. */
const MAX_SENT = 256;
const MAX_RECALL_CALLS = 256;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Whether the model is sent what the filter returned: the model gets a copy of each item,
 * so an input is known by its length, its first and last items and the instructions.
 */
function sameRequest(sent: Sent, input: readonly unknown[], instructions: string | undefined): boolean {
  const n = input.length;
  return sent.input.length === n && sent.instructions === instructions && (n === 0 || (sameMessage(sent.input[0], input[0]) && sameMessage(sent.input[n - 1], input[n - 1])));
}

/**
 * `ContextManager` for the OpenAI Agents SDK: one per conversation (and agent), fed the
 * SDK's items at each model call. Make it with `contextFilter(options)`, and use it one of
 * two ways:
 *
 * - `callModelInputFilter` for `run()` (or a `Runner`'s config), and `model(model)` as the
 *   agent's model. At each model call the filter takes in what is new in the SDK's input
 *   (`ContextManager.sync`), builds, and returns the bounded input, the agent's
 *   instructions counted in the budget; the wrapped model reports each response's usage to
 *   the manager (the SDK has no hook on a model response; without it the manager bounds
 *   inputs by its own counter alone).
 * - `boundedModel(model)` as the agent's model, and no filter: the model itself sends the
 *   bounded input, and records the usage. Use it with a `Session`.
 *
 * Either way, add `recallTool` to the agent's tools: the model reads a stored text back
 * with it.
 *
 * What the SDK keeps. The filter's input is what the SDK sends, and also, with a
 * `Session`, what it saves of the run's own input items (so that, in the SDK's words,
 * "session history mirrors the exact model payload"). The filter returns every item it
 * leaves whole as the very object it was given, so most runs save their message whole;
 * but a message too long for the cut (15% of the budget) is saved cut, or, if a
 * compaction later in the same run folds it away, not at all (SDK 0.20.0).
 * `boundedModel` changes only what the model is sent: the run's `history` and its session
 * hold every item as it came. The model's outputs and the tool results are saved as they
 * came either way, and `result.history` is whole with the filter too.
 *
 * Not for server-managed conversations (`conversationId`, `previousResponseId`): the SDK
 * then sends only the new items, and the server holds, and bounds, the rest.
 * @example
 * import { Agent, MemorySession, OpenAIProvider, run } from '@openai/agents';
 * import { OpenAIAgentsContext } from '@devs/context/openai-agents';
 *
 * // With a Session: the model sends the bounded input, the session keeps every item whole.
 * const context = new OpenAIAgentsContext({ budget: 128_000 });
 * const model = context.boundedModel(await new OpenAIProvider().getModel('gpt-5.1'));
 * const agent = new Agent({ name: 'coder', instructions: 'You are a coding agent.', model, tools: [context.recallTool] });
 * const session = new MemorySession();
 * await run(agent, 'Read the failing test', { session });
 * await run(agent, 'Now fix it', { session });
 */
export class OpenAIAgentsContext {
  readonly #o: ReadOptions;
  readonly #conversations: Conversations;
  /** Each SDK item in the core's shape, made once per item object. */
  readonly #core = new WeakMap<object, unknown>();
  /** The conversation of each run's last model call, by the run's context object. */
  readonly #runs = new WeakMap<object, Conversation>();
  #last: Conversation | undefined;
  /** The last input the filter was given, and its items in core shape. */
  #lastInput: [readonly unknown[], readonly unknown[]] = [[], []];
  /** Inputs the filter returned, oldest first, until the model is called with them. */
  #sent: Sent[] = [];
  /** The conversation of each recall call the wrapped model made, until the tool answers it. */
  readonly #recallCalls = new Map<string, Conversation>();
  readonly #recallName: string;
  readonly #recallTool: FunctionTool | undefined;
  readonly #models = new WeakMap<Model, Model>();
  readonly #boundedModels = new WeakMap<Model, Model>();
  /** Each manager's summary slot: the model of its conversation's call in flight, and that call's request. */
  readonly #slots = new WeakMap<ContextManager, SummarySlot>();
  #ids = 0;

  /** The filter: pass it as `run(agent, input, { callModelInputFilter })`. */
  readonly callModelInputFilter: CallModelInputFilter;

  /**
   * @throws {TypeError} naming the option of the wrong type.
   * @throws {RangeError} for a `budget` under 1000, or another option out of range, naming it.
   */
  constructor(options: OpenAIAgentsContextOptions) {
    let spec: { name: string; description: string; parameters: unknown } | undefined;
    // A manager made with the options checks them, with its own words and field names; it
    // also gives the recall tool's definition, in the Responses API's shape.
    this.#o = readOptions(options, (opts) => {
      const probe = new ContextManager(opts);
      try {
        if (opts.recall === true) spec = probe.recallTool as typeof spec;
      } finally {
        probe.free();
      }
    });
    const { name, description, parameters } = spec ?? { name: 'recall', description: '', parameters: {} };
    this.#recallName = name;
    this.#recallTool = spec
      ? tool({
        name, description, strict: false,
        // The rules' schema: an id, and an optional page or query (not strict: they are optional).
        parameters: parameters as never,
        execute: (input: unknown, runContext?: RunContext<unknown>, details?: { toolCall?: { callId: string; arguments: string } }) => this.#recall(input, runContext, details?.toolCall),
      }) as unknown as FunctionTool
      : undefined;
    this.#conversations = new Conversations(this.#o.maxConversations, (conversation, instructions) => this.#manager(conversation, instructions));
    const filter = ((args: CallModelInputFilterArgs) => this.#filter(args)) as CallModelInputFilter;
    // The filter never changes an item it is given (an item it shows differently is a new
    // object), so the SDK may pass its own items: a call then costs no deep copy of the
    // history, and the manager recognizes what it took in by identity.
    filter.preserveInputIdentity = true;
    this.callModelInputFilter = filter;
  }

  /**
   * The recall tool, a function tool named `recall`: add it to the agent's tools. Its
   * calls are answered by the manager of the conversation that made them: the one the
   * wrapped model's response belonged to, else the one of the run's last model call.
   * @throws {Error} with `recall: false`.
   */
  get recallTool(): FunctionTool {
    if (!this.#recallTool) throw Object.assign(new Error('the recall tool is off: leave options.recall at its default, true, so the inputs say how the agent reads a stored text back'), { code: 'ERR_RECALL_OFF' });
    return this.#recallTool;
  }

  /**
   * `model`, reporting each response's usage to the manager of the input it was sent (the
   * filter's), and noting which conversation each recall call came from. Pass it as the
   * agent's `model`, with `callModelInputFilter`. Streamed responses are seen too (their
   * `response_done` event).
   */
  model(model: Model): Model {
    let watched = this.#models.get(model);
    if (!watched) {
      watched = watchedModel<Conversation>(model, {
        send: async (request) => [request, this.#claim(request, false)],
        answered: (c, response) => this.#answered(c, response),
      });
      this.#models.set(model, watched);
    }
    return watched;
  }

  /**
   * `model`, sending each request with the input built by the conversation's manager
   * instead of the SDK's, and reporting the usage: the filter's work, done in the model, so
   * that the SDK keeps every item as it came (its run history, its session). Pass it as
   * the agent's `model`, without `callModelInputFilter`. Conversations are told apart by
   * their items (the `conversation` option needs the filter's arguments). A request the
   * filter already built, or one of a server-managed conversation (`previousResponseId`,
   * `conversationId`: the server holds the history), is sent as it is.
   */
  boundedModel(model: Model): Model {
    let watched = this.#boundedModels.get(model);
    if (!watched) {
      watched = watchedModel<Conversation>(model, { send: (request) => this.#bound(request, model), answered: (c, response) => this.#answered(c, response) });
      this.#boundedModels.set(model, watched);
    }
    return watched;
  }

  /**
   * `provider`, whose models are wrapped as `model()` does (`boundedModel()` with
   * `{ bounded: true }`): for a `Runner`'s `modelProvider`, or `setDefaultModelProvider`,
   * when agents name their model by string.
   */
  modelProvider(provider: ModelProvider, options?: { bounded?: boolean }): ModelProvider {
    const wrap = options?.bounded === true ? (m: Model) => this.boundedModel(m) : (m: Model) => this.model(m);
    return { getModel: async (name?: string) => wrap(await provider.getModel(name)) };
  }

  /** The conversations held, the most recently used first. */
  conversations(): OpenAIAgentsConversation[] {
    return this.#conversations.list().map((c) => ({ conversation: c.name, instructions: c.instructions, manager: c.manager }));
  }

  /** Lets go of every conversation not in a model call now, freeing its manager. */
  free(): void {
    this.#conversations.clear();
    this.#last = undefined;
    this.#sent = [];
    this.#recallCalls.clear();
  }

  #manager(conversation: string, instructions: string | undefined): ContextManager {
    const { onLedger, onWarning, onCompaction, beforeCompaction } = this.#o;
    const slot: SummarySlot = {};
    const options: ContextManagerOptions = {
      ...this.#o.manager,
      summarizer: summarizerFor(this.#o.summarizer, slot),
      store: this.#o.store ?? new ConversationStore(() => ++this.#ids),
      system: instructions,
      onLedger: onLedger && ((record) => onLedger(record, conversation)),
      onWarning: onWarning && ((warning) => onWarning(warning, conversation)),
      onCompaction: onCompaction && ((event) => onCompaction(event, conversation)),
      beforeCompaction: beforeCompaction && ((notice) => beforeCompaction(notice, conversation)),
    };
    const manager = new ContextManager(options);
    this.#slots.set(manager, slot);
    return manager;
  }

  async #filter(args: CallModelInputFilterArgs): Promise<ModelInputData> {
    const { input, instructions } = args.modelData;
    const own = (args as { agent?: { model?: unknown } }).agent?.model;
    const [c, data] = await this.#take(conversationName(this.#o.conversation?.(args)), input, instructions, args.context, { model: isAgentModel(own) ? own : undefined });
    this.#sent.push({ input: data.input, instructions: data.instructions, conversation: c });
    if (this.#sent.length > MAX_SENT) this.#sent.shift();
    return data;
  }

  /** `boundedModel`'s request: the conversation's bounded input instead of the SDK's. */
  async #bound(request: ModelRequest, model: Model): Promise<[ModelRequest, Conversation | undefined]> {
    const built = this.#claim(request, true);
    if (built || request.previousResponseId || request.conversationId) return [request, built];
    const input = typeof request.input === 'string' ? [{ type: 'message', role: 'user', content: request.input } as AgentInputItem] : request.input;
    const [c, data] = await this.#take(undefined, input, request.systemInstructions, undefined, { model, request });
    return [{ ...request, input: data.input, systemInstructions: data.instructions }, c];
  }

  /** The bounded input for `input`, from its conversation's manager, one model call of a conversation at a time. */
  #take(name: string | undefined, input: AgentInputItem[], instructions: string | undefined, context: unknown, via: SummarySlot): Promise<[Conversation, ModelInputData]> {
    const items = this.#coreItems(input);
    const c = this.#conversations.find(name, instructions, items);
    // In use from now (its queue is busy): a conversation waiting for its turn is not let go of either.
    const turn = c.queue.run(() => {
      // A summary this call's build asks for is written by the model it goes to, with its request.
      const slot = this.#slots.get(c.manager);
      if (slot) Object.assign(slot, { model: via.model, request: via.request });
      return this.#turn(c, items, input, instructions);
    });
    return turn.then((data) => {
      if (isObject(context)) this.#runs.set(context, c);
      this.#last = c;
      return [c, data];
    });
  }

  /** One model call of conversation `c`: take in what is new, build, and give it back as SDK items. */
  async #turn(c: Conversation, items: unknown[], input: AgentInputItem[], instructions: string | undefined): Promise<ModelInputData> {
    c.manager.sync(items);
    // Where each item is: an item at the place it held in the last call's list is known there already.
    const before = c.items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item !== before[i] && isObject(item)) c.positions.set(item, i);
    }
    c.items = items;
    c.count = items.length;
    c.last = items.length ? items[items.length - 1] : undefined;
    const built = await c.manager.build();
    return { input: this.#sdkItems(built.messages, input, c, instructions) as AgentInputItem[], instructions };
  }

  /** The input's items in core shape; an item the last call's input held at the same place is not looked up again. */
  #coreItems(input: readonly unknown[]): unknown[] {
    const [before, made] = this.#lastInput;
    const items = new Array<unknown>(input.length);
    for (let i = 0; i < input.length; i++) items[i] = input[i] === before[i] && i < made.length ? made[i] : this.#coreItem(input[i]);
    this.#lastInput = [input, items];
    return items;
  }

  #coreItem(item: unknown): unknown {
    if (!isObject(item)) return item;
    let core = this.#core.get(item);
    if (core === undefined) {
      core = toCore(item);
      this.#core.set(item, core);
    }
    return core;
  }

  /**
   * The built input as SDK items: an item the manager left whole is the SDK's own object
   * from this call's input (found by where the manager's copy was taken in), so the SDK
   * matches it to its original by identity; the system prompt the manager put first is
   * the instructions, sent apart as the SDK does; the rest is turned into SDK items.
   */
  #sdkItems(messages: readonly unknown[], input: readonly unknown[], c: Conversation, instructions: string | undefined): unknown[] {
    // Each call's tool name, for an output the manager wrote: read from the messages only if one needs it.
    let names: Map<string, string> | undefined;
    const named = { get: (id: string) => (names ??= callNames(messages)).get(id) };
    const items = c.items;
    const out: unknown[] = [];
    // The messages the manager left whole come in the order of the items: the next one is looked for first.
    let next = 0;
    messages.forEach((m, k) => {
      let at: number | undefined;
      if (next < items.length && m === items[next]) at = next;
      else at = isObject(m) ? c.positions.get(m) : undefined;
      if (at !== undefined && at < input.length) {
        out.push(input[at]);
        next = at + 1;
      } else if (k === 0 && instructions && isObject(m) && m.role === 'system' && m.type === undefined && m.content === instructions) return;
      else out.push(fromCore(m, named));
    });
    return out;
  }

  /** The conversation whose input `request` is: the latest one like it, or (not `exact`) the only one waiting. */
  #claim(request: ModelRequest, exact: boolean): Conversation | undefined {
    const input = Array.isArray(request.input) ? request.input : [];
    let i = -1;
    for (let k = this.#sent.length - 1; k >= 0; k--) {
      if (sameRequest(this.#sent[k], input, request.systemInstructions)) {
        i = k;
        break;
      }
    }
    if (i < 0 && !exact && this.#sent.length === 1) i = 0;
    if (i < 0) return undefined;
    const [sent] = this.#sent.splice(i, 1);
    return sent.conversation;
  }

  #answered(c: Conversation | undefined, response: Pick<ModelResponse, 'usage' | 'output'>): void {
    if (!c) return;
    for (const item of response.output ?? []) {
      if (item.type === 'function_call' && item.name === this.#recallName) {
        this.#recallCalls.set(item.callId, c);
        if (this.#recallCalls.size > MAX_RECALL_CALLS) this.#recallCalls.delete(this.#recallCalls.keys().next().value as string);
      }
    }
    const usage = responsesUsage(response.usage);
    // A conversation let go of since (the table is bounded) has no manager to tell.
    if (usage && !c.freed) c.manager.recordUsage(usage);
  }

  /** The recall tool's answer: a page of the stored text, or a note saying why not. */
  async #recall(input: unknown, runContext: RunContext<unknown> | undefined, call: { callId: string; arguments: string } | undefined): Promise<string> {
    const context = runContext?.context;
    const c = (call && this.#recallCalls.get(call.callId)) ?? (isObject(context) ? this.#runs.get(context) : undefined) ?? this.#last;
    if (call) this.#recallCalls.delete(call.callId);
    if (!c || c.freed) return 'No stored text: this conversation has none, or was let go of.';
    const answer = await c.manager.recall({
      type: 'function_call', name: this.#recallName,
      call_id: call?.callId ?? this.#recallName,
      arguments: call?.arguments ?? JSON.stringify(input ?? {}),
    }) as { output: string };
    return answer.output;
  }
}

/**
 * Keeps an OpenAI Agents SDK agent's model input inside a token budget, cache-stable, with
 * nothing lost for the agent: old tool outputs are stored whole and replaced by a line
 * naming their store id, which the agent reads back with the recall tool; the oldest
 * turns are summarized (with a `summarizer`) or dropped, with a note. Every function call
 * keeps its result. Between compactions each input is the previous one plus what was
 * added, so the provider reads it from its prompt cache.
 *
 * One manager per conversation (and agent instructions), at most `maxConversations`; see
 * the `conversation` option for how calls are told apart.
 * @throws {TypeError} naming the option of the wrong type.
 * @throws {RangeError} for a `budget` under 1000, or another option out of range, naming it.
 * @example
 * import { Agent, OpenAIProvider, run, tool } from '@openai/agents';
 * import { z } from 'zod';
 * import { contextFilter } from '@devs/context/openai-agents';
 * import { createTokenCounter } from '@devs/context/tokenizers';
 *
 * const context = contextFilter({ budget: 200_000, countTokens: createTokenCounter('o200k_base') });
 * const readFile = tool({ name: 'read_file', description: 'Read a file', parameters: z.object({ path: z.string() }), execute: async ({ path }) => `contents of ${path}` });
 * const agent = new Agent({
 *   name: 'coder', instructions: 'You are a coding agent.',
 *   model: context.model(await new OpenAIProvider().getModel('gpt-5.1')), // usage reaches the manager
 *   tools: [readFile, context.recallTool],
 * });
 * const result = await run(agent, 'Make the parser tests pass', { callModelInputFilter: context.callModelInputFilter, maxTurns: 200 });
 * console.log(result.finalOutput, context.conversations()[0].manager.ledger.at(-1)?.tokens);
 */
export function contextFilter(options: OpenAIAgentsContextOptions): OpenAIAgentsContext {
  return new OpenAIAgentsContext(options);
}
