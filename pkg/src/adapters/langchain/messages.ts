// LangChain messages ↔ OpenAI Chat Completions messages. The manager counts, cuts and
// masks in OpenAI Chat's shape ('openai-chat'); the agent's model gets LangChain messages
// back. A message the manager leaves whole comes back as the agent's own object, byte for
// byte (ids, names, metadata and content blocks included), so the provider reads the same
// prefix from its cache; one it edits comes back as a copy of the original with the new
// content, its id, tool call id and tool calls kept.
import { AIMessage, type BaseMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { sameMessage } from '../kit/messages.js';

/** A content part of an OpenAI Chat message: a LangChain block, tagged with its index. */
interface ChatPart {
  type: string;
  text?: string;
  [PART]?: number;
  [key: string]: unknown;
}

/** A call in an assistant message. */
interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** An OpenAI Chat Completions message, as the manager reads and writes them. */
export interface ChatMessageParam {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | ChatPart[];
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [ORIGIN]?: Origin;
}

/**
 * Where an OpenAI message came from: the agent's message at `index` of the list it was made
 * from, and the message made. A symbol key: the manager reads neither (it reads own string
 * keys, and JSON drops it), but its copies of a message it edits (`{ ...source }`) keep it.
 */
interface Origin {
  index: number;
  message: BaseMessage;
  made: ChatMessageParam;
}
const ORIGIN = Symbol('@devs/context/langchain: origin');
/** A part's index in its message's LangChain content, kept the same way through the manager's copies. */
const PART = Symbol('@devs/context/langchain: part');

/** Blocks of an AI message that say again what its `tool_calls` say: counted there, not twice. */
const CALL_BLOCKS = new Set(['tool_use', 'tool_call', 'function_call']);

const roleOf = (message: BaseMessage): ChatMessageParam['role'] => {
  const type = message.getType();
  if (type === 'human') return 'user';
  if (type === 'ai') return 'assistant';
  if (type === 'tool') return 'tool';
  if (type === 'system' || type === 'developer') return 'system';
  const role = type === 'generic' ? String((message as ChatMessage).role) : '';
  return role === 'assistant' || role === 'ai' ? 'assistant' : role === 'system' ? 'system' : 'user';
};

/** A LangChain content as the text parts and opaque parts the manager reads. */
function parts(content: BaseMessage['content'], callIds: ReadonlySet<string>): string | ChatPart[] {
  if (typeof content === 'string') return content;
  const out: ChatPart[] = [];
  (content as unknown[]).forEach((block, i) => {
    if (typeof block === 'string') return out.push({ type: 'text', text: block, [PART]: i });
    const b = block as ChatPart;
    if (typeof b !== 'object' || b === null || typeof b.type !== 'string') return out.push({ type: 'text', text: JSON.stringify(block) ?? '', [PART]: i });
    if (CALL_BLOCKS.has(b.type) && typeof b.id === 'string' && callIds.has(b.id)) return undefined;
    // A text block is counted, and may be cut; any other (an image, reasoning) is one opaque part, kept or dropped whole.
    return out.push({ ...b, [PART]: i });
  });
  return out.length ? out : '';
}

/** A tool result's text: OpenAI Chat's tool messages hold text only. */
function resultText(content: BaseMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content as unknown[]).map((b) => {
    if (typeof b === 'string') return b;
    const block = b as ChatPart;
    return block?.type === 'text' && typeof block.text === 'string' ? block.text : `[${typeof block?.type === 'string' ? block.type : 'part'}]`;
  }).join('');
}

/** What was made of a message, at its index, while its content and calls are the same objects. */
interface Made {
  content: unknown;
  calls: unknown;
  callId: unknown;
  made: ChatMessageParam;
}
const converted = new WeakMap<BaseMessage, Made>();

/** Whether `known` was made of `message`, as it is now, at `index`. */
const still = (known: Made | undefined, message: BaseMessage, index: number): known is Made => known !== undefined
  && known.made[ORIGIN]!.index === index && known.content === message.content
  && known.calls === (message as AIMessage).tool_calls && known.callId === (message as ToolMessage).tool_call_id;

function entryOf(message: BaseMessage, index: number): Made {
  const known = converted.get(message);
  if (still(known, message, index)) return known;
  const made = convert(message, index);
  const entry = { content: message.content, calls: (message as AIMessage).tool_calls, callId: (message as ToolMessage).tool_call_id, made };
  converted.set(message, entry);
  return entry;
}

/**
 * `message`, at `index` of the agent's list, as an OpenAI Chat message. The same message at
 * the same place gives the same OpenAI object at every call, which the manager then need
 * not compare (LangGraph keeps the state's message objects from one step to the next).
 */
export function toChat(message: BaseMessage, index: number): ChatMessageParam {
  return entryOf(message, index).made;
}

/**
 * The agent's lists as OpenAI messages, call after call: a message at the place it held in
 * the last list, unchanged, is not looked up again, so a call costs a comparison per
 * message held and a conversion per message new.
 */
export class ChatLists {
  #list: readonly BaseMessage[] = [];
  #made: readonly Made[] = [];

  of(list: readonly BaseMessage[]): ChatMessageParam[] {
    const before = this.#list;
    const known = this.#made;
    const made = new Array<Made>(list.length);
    const chat = new Array<ChatMessageParam>(list.length);
    for (let i = 0; i < list.length; i++) {
      const m = list[i];
      const entry = m === before[i] && still(known[i], m, i) ? known[i] : entryOf(m, i);
      made[i] = entry;
      chat[i] = entry.made;
    }
    this.#list = list;
    this.#made = made;
    return chat;
  }
}

function convert(message: BaseMessage, index: number): ChatMessageParam {
  const role = roleOf(message);
  let made: ChatMessageParam;
  if (role === 'tool') {
    made = { role, tool_call_id: (message as ToolMessage).tool_call_id, content: resultText(message.content) };
  } else if (role === 'assistant') {
    const calls = (message as AIMessage).tool_calls ?? [];
    made = { role, content: parts(message.content, new Set(calls.map((c) => c.id ?? ''))) };
    if (calls.length) {
      made.tool_calls = calls.map((c) => ({ id: c.id as string, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) } }));
    }
  } else {
    made = { role, content: parts(message.content, new Set()) };
  }
  made[ORIGIN] = { index, message, made };
  return made;
}

/** A copy of `part` without the tag: a LangChain block again. */
function untagged(part: ChatPart): ChatPart {
  const { [PART]: _, ...block } = part;
  return block as ChatPart;
}

/** The LangChain content of `shown`, a copy of `origin`'s message with parts the manager changed or left out. */
function contentOf(shown: ChatMessageParam, origin: Origin | undefined): BaseMessage['content'] {
  if (origin && shown.content === origin.made.content) return origin.message.content;
  if (typeof shown.content === 'string') return shown.content;
  if (!origin || typeof origin.message.content === 'string') return shown.content.map(untagged) as BaseMessage['content'];
  const made = origin.made.content as ChatPart[];
  const sent = new Set(made.map((p) => p[PART]));
  const byIndex = new Map(shown.content.map((p) => [p[PART], p]));
  const out: unknown[] = [];
  (origin.message.content as unknown[]).forEach((block, i) => {
    // Call blocks were not sent to the manager: they stay with their calls.
    if (!sent.has(i)) return out.push(block);
    const part = byIndex.get(i);
    if (part === undefined) return undefined;
    if (made.includes(part)) return out.push(block);
    return out.push(typeof block === 'string' ? part.text : untagged(part));
  });
  return out as BaseMessage['content'];
}

/** `source` with `content`: the same kind of message, every other field kept. */
function withContent(source: BaseMessage, content: BaseMessage['content']): BaseMessage {
  const base = { content, id: source.id, name: source.name, additional_kwargs: source.additional_kwargs, response_metadata: source.response_metadata } as const;
  switch (source.getType()) {
    case 'ai': {
      const ai = source as AIMessage;
      return new AIMessage({ ...base, tool_calls: ai.tool_calls, invalid_tool_calls: ai.invalid_tool_calls, usage_metadata: ai.usage_metadata } as ConstructorParameters<typeof AIMessage>[0]);
    }
    case 'tool': {
      const tool = source as ToolMessage;
      return new ToolMessage({ ...base, tool_call_id: tool.tool_call_id, status: tool.status, artifact: tool.artifact, metadata: tool.metadata } as ConstructorParameters<typeof ToolMessage>[0]);
    }
    case 'human':
      return new HumanMessage(base as ConstructorParameters<typeof HumanMessage>[0]);
    case 'system':
      return new SystemMessage(base as ConstructorParameters<typeof SystemMessage>[0]);
    default:
      return new ChatMessage({ ...base, role: (source as ChatMessage).role ?? 'user' } as ConstructorParameters<typeof ChatMessage>[0]);
  }
}

/** A message the manager made (a summary, a note, a result for a call left unanswered) or read back from a store. */
function made(m: ChatMessageParam): BaseMessage {
  const content = typeof m.content === 'string' ? m.content : (m.content.map(untagged) as BaseMessage['content']);
  if (m.role === 'tool') return new ToolMessage({ content, tool_call_id: m.tool_call_id ?? '' } as ConstructorParameters<typeof ToolMessage>[0]);
  if (m.role === 'system') return new SystemMessage({ content } as ConstructorParameters<typeof SystemMessage>[0]);
  if (m.role === 'user') return new HumanMessage({ content } as ConstructorParameters<typeof HumanMessage>[0]);
  const tool_calls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: parsed(c.function.arguments), type: 'tool_call' as const }));
  return new AIMessage({ content, tool_calls } as ConstructorParameters<typeof AIMessage>[0]);
}

function parsed(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Turns the manager's request back into the agent's messages. `list` is the agent's list the
 * request was built from, `chat` the same as OpenAI messages (`toChat`). `restored`: the
 * manager may hold messages read back from a store, which carry no origin and are found in
 * `list` by their call ids or their content; a manager in memory holds only messages with
 * their origin, and those it wrote itself.
 */
export class BackToLangChain {
  readonly #list: readonly BaseMessage[];
  readonly #chat: readonly ChatMessageParam[];
  readonly #restored: boolean;
  /** Found by call id, for messages with no origin (read back from a store): built when first needed. */
  #results: Map<string, number> | null = null;
  #calls: Map<string, number> | null = null;
  /** The other messages by their content's length (a text's, or a list's), compared in full when one is looked for. */
  #byLength: Map<number, number[]> | null = null;

  constructor(list: readonly BaseMessage[], chat: readonly ChatMessageParam[], restored = true) {
    this.#list = list;
    this.#chat = chat;
    this.#restored = restored;
  }

  message(m: ChatMessageParam): BaseMessage {
    const origin = m[ORIGIN];
    if (origin) {
      // The agent's message now at that place: the manager took in this list, so it is the same message.
      const source = this.#list[origin.index] ?? origin.message;
      if (m === origin.made) return source;
      return withContent(source, contentOf(m, { ...origin, message: source }));
    }
    const at = this.#restored ? this.#find(m) : undefined;
    if (at === undefined) return made(m);
    const source = this.#list[at];
    if (sameMessage(m, this.#chat[at])) return source;
    return withContent(source, contentOf(m, undefined));
  }

  /** Where a message read back from a store stands in the list: by its call ids, else by its content. */
  #find(m: ChatMessageParam): number | undefined {
    const id = m.role === 'tool' ? m.tool_call_id : m.role === 'assistant' ? m.tool_calls?.[0]?.id : undefined;
    if (id !== undefined) {
      if (!this.#results || !this.#calls) {
        const results = (this.#results = new Map());
        const calls = (this.#calls = new Map());
        this.#chat.forEach((c, i) => {
          if (c.role === 'tool' && c.tool_call_id !== undefined) results.set(c.tool_call_id, i);
          else if (c.role === 'assistant' && c.tool_calls?.[0]?.id !== undefined) calls.set(c.tool_calls[0].id, i);
        });
      }
      return (m.role === 'tool' ? this.#results : this.#calls).get(id);
    }
    if (!this.#byLength) {
      const byLength = (this.#byLength = new Map());
      this.#chat.forEach((c, i) => {
        const n = lengthOf(c);
        const at = byLength.get(n);
        if (at) at.push(i);
        else byLength.set(n, [i]);
      });
    }
    const candidates = this.#byLength.get(lengthOf(m));
    const k = candidates?.findIndex((i) => sameMessage(m, this.#chat[i])) ?? -1;
    return k < 0 ? undefined : candidates!.splice(k, 1)[0];
  }
}

/** A message's content length, to find the candidates for a message read back from a store. */
const lengthOf = (m: ChatMessageParam) => (typeof m.content === 'string' ? m.content.length : -1 - (m.content?.length ?? 0));
