// TanStack AI's `ModelMessage` ↔ OpenAI Chat Completions messages. The two are nearly one
// shape (`toolCalls` for `tool_calls`, `toolCallId` for `tool_call_id`, a text part's
// `content` for `text`), and the manager counts, cuts and masks in OpenAI Chat's
// ('openai-chat'). A message the manager leaves whole goes back to the model as the chat's
// own object (its id, thinking, metadata and parts included), so the provider reads the same
// prefix from its cache; one it edits goes back as a copy of the original with the new content.
// Image, audio, video and document parts are opaque to the manager: kept or dropped whole.
// Assistant `thinking` is not counted (the provider's reported usage calibrates the count).
import { argumentError } from '../kit/options.js';

/** A part of a TanStack AI message's content (`ContentPart`). */
interface Part {
  type: string;
  content?: string;
  [key: string]: unknown;
}

/** A tool call of a TanStack AI assistant message (`ToolCall`). */
interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  [key: string]: unknown;
}

/** A TanStack AI `ModelMessage`, as far as the manager reads it. */
export interface Message {
  role: string;
  content: string | null | Part[];
  toolCalls?: ToolCall[];
  toolCallId?: string;
  [key: string]: unknown;
}

/** A content part of an OpenAI Chat message: a TanStack part, tagged with its index. */
interface ChatPart {
  type: string;
  text?: string;
  [PART]?: number;
}

interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** An OpenAI Chat Completions message, as the manager reads and writes them. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null | ChatPart[];
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  [ORIGIN]?: Origin;
}

/**
 * The chat's message an OpenAI message was made from, and the message made. A symbol key:
 * the manager reads own string keys only, and its copies of a message it edits keep it.
 */
interface Origin {
  message: Message;
  made: ChatMessage;
}
const ORIGIN = Symbol('@devs/context/tanstack-ai: origin');
/** A part's index in its message's TanStack content, kept the same way through the manager's copies. */
const PART = Symbol('@devs/context/tanstack-ai: part');

const isPart = (p: unknown): p is Part => typeof p === 'object' && p !== null && typeof (p as Part).type === 'string';

/** A TanStack content as the text parts and opaque parts the manager reads. */
function parts(content: Message['content'], field: string): string | null | ChatPart[] {
  if (content === null || typeof content === 'string') return content;
  if (!Array.isArray(content)) throw argumentError(TypeError, field, `must be a string, null or an array of parts, got ${typeof content}`);
  return content.map((p, i): ChatPart => {
    if (!isPart(p)) throw argumentError(TypeError, `${field}[${i}].type`, 'must be a string: a content part is { type, … }');
    if (p.type === 'text') {
      if (typeof p.content !== 'string') throw argumentError(TypeError, `${field}[${i}].content`, `must be a string, got ${typeof p.content}`);
      return { type: 'text', text: p.content, [PART]: i };
    }
    // An image, audio, video or document: one opaque part, its bytes never read.
    return { type: p.type, [PART]: i };
  });
}

/** A tool result's text: OpenAI Chat's tool messages hold text only; a part that is not text is named. */
function resultText(content: Message['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (isPart(p) && p.type === 'text' && typeof p.content === 'string' ? p.content : `[${isPart(p) ? p.type : 'part'}]`)).join('');
}

/** What was made of a message, while its content and calls are the same objects. */
interface Made {
  content: unknown;
  calls: unknown;
  chat: ChatMessage;
}
const made = new WeakMap<object, Made>();

/**
 * The chat's lists as OpenAI messages, call after call: a message at the place it held in
 * the last list, its content and calls the same, is not looked up again, so a call costs a
 * comparison per message held and a conversion per message new.
 */
export class ChatLists {
  #list: readonly unknown[] = [];
  #made: readonly (Made | undefined)[] = [];

  of(list: readonly unknown[]): ChatMessage[] {
    const before = this.#list;
    const known = this.#made;
    const entries = new Array<Made | undefined>(list.length);
    const chat = new Array<ChatMessage>(list.length);
    for (let i = 0; i < list.length; i++) {
      const m = list[i];
      const had = m === before[i] ? known[i] : undefined;
      if (had !== undefined && had.content === (m as Message).content && had.calls === (m as Message).toolCalls) {
        chat[i] = had.chat;
        entries[i] = had;
      } else {
        chat[i] = toChat(m, i);
        entries[i] = made.get(m as object);
      }
    }
    this.#list = list;
    this.#made = entries;
    return chat;
  }
}

/**
 * `message`, the chat's `messages[index]`, as an OpenAI Chat message. The same message
 * object gives the same OpenAI object at every call, which the manager then need not compare.
 */
export function toChat(message: unknown, index: number): ChatMessage {
  const field = `messages[${index}]`;
  if (typeof message !== 'object' || message === null) throw argumentError(TypeError, field, `must be a message object, got ${message === null ? 'null' : typeof message}`);
  const m = message as Message;
  const known = made.get(m);
  if (known && known.content === m.content && known.calls === m.toolCalls) return known.chat;
  let chat: ChatMessage;
  if (m.role === 'tool') {
    if (typeof m.toolCallId !== 'string') throw argumentError(TypeError, `${field}.toolCallId`, `must be a string, got ${typeof m.toolCallId}`);
    chat = { role: 'tool', tool_call_id: m.toolCallId, content: resultText(m.content) };
  } else if (m.role === 'assistant') {
    const calls = m.toolCalls ?? [];
    if (!Array.isArray(calls)) throw argumentError(TypeError, `${field}.toolCalls`, `must be an array, got ${typeof calls}`);
    const content = parts(m.content, `${field}.content`);
    // An assistant message with neither text nor calls (a turn of thinking alone) is an empty text.
    chat = { role: 'assistant', content: content === null && calls.length === 0 ? '' : content };
    if (calls.length) {
      chat.tool_calls = calls.map((c, i) => {
        const call = `${field}.toolCalls[${i}]`;
        if (typeof c?.id !== 'string') throw argumentError(TypeError, `${call}.id`, `must be a string, got ${typeof c?.id}`);
        if (typeof c.function?.name !== 'string') throw argumentError(TypeError, `${call}.function.name`, `must be a string, got ${typeof c.function?.name}`);
        if (typeof c.function.arguments !== 'string') throw argumentError(TypeError, `${call}.function.arguments`, `must be a string, got ${typeof c.function.arguments}`);
        return { id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } };
      });
    }
  } else if (m.role === 'user') {
    chat = { role: 'user', content: parts(m.content, `${field}.content`) ?? '' };
  } else {
    throw argumentError(TypeError, `${field}.role`, `must be 'user', 'assistant' or 'tool', got ${JSON.stringify(m.role)}`);
  }
  chat[ORIGIN] = { message: m, made: chat };
  made.set(m, { content: m.content, calls: m.toolCalls, chat });
  return chat;
}

/** The TanStack content of `shown`, a copy of `origin`'s message with parts the manager changed or left out. */
function contentOf(shown: ChatMessage, origin: Origin): Message['content'] {
  const source = origin.message.content;
  if (shown.role === 'tool' || !Array.isArray(shown.content) || !Array.isArray(source)) return shown.content as string | null;
  const sent = origin.made.content as ChatPart[];
  const out: Part[] = [];
  for (const part of shown.content) {
    const i = part[PART];
    if (i === undefined) out.push({ type: 'text', content: part.text ?? '' });
    else if (sent.includes(part)) out.push(source[i]);
    else out.push({ ...source[i], content: part.text ?? '' });
  }
  return out;
}

/** The calls of `shown`, each the chat's own call unless the manager changed its arguments. */
function callsOf(shown: ChatToolCall[] | undefined, source: ToolCall[] | undefined): ToolCall[] | undefined {
  if (!shown) return undefined;
  const byId = new Map((source ?? []).map((c) => [c.id, c]));
  return shown.map((c) => {
    const own = byId.get(c.id);
    if (!own) return { id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } };
    return own.function.arguments === c.function.arguments ? own : { ...own, function: { ...own.function, arguments: c.function.arguments } };
  });
}

/** A message the manager wrote (a summary, a note for dropped turns, a result for a call left unanswered). */
function written(m: ChatMessage): Message {
  const content = Array.isArray(m.content) ? m.content.map((p) => p.text ?? '').join('') : m.content;
  if (m.role === 'tool') return { role: 'tool', toolCallId: m.tool_call_id, content: content ?? '' };
  if (m.role === 'assistant') {
    const out: Message = { role: 'assistant', content };
    if (m.tool_calls?.length) out.toolCalls = callsOf(m.tool_calls, undefined);
    return out;
  }
  // TanStack AI's messages have no system role: a system text past the first message is the user's to read.
  return { role: 'user', content: content ?? '' };
}

/** The manager's message `m` as the TanStack AI message to send. */
export function fromChat(m: ChatMessage): Message {
  const origin = m[ORIGIN];
  if (!origin) return written(m);
  if (m === origin.made) return origin.message;
  const out: Message = { ...origin.message };
  if (m.content !== origin.made.content) out.content = contentOf(m, origin);
  if (m.tool_calls !== origin.made.tool_calls) out.toolCalls = callsOf(m.tool_calls, origin.message.toolCalls);
  return out;
}
