// Between the AI SDK's provider-level prompt and the manager's 'ai-sdk' format. The two are
// nearly one shape (a `ModelMessage` reads the same parts, `output` kinds and
// `providerOptions`); what differs is handled here:
// - the system messages at the start of the prompt become the manager's `system` (it puts
//   one system message first, never cut);
// - the manager writes its own user messages (the summary, the note for dropped turns) with
//   `content` as a string, which a `ModelMessage` may have and a provider-level message may
//   not: they are made a list of one text part;
// - a provider's response (`content` with `input` as JSON text, `providerMetadata`) becomes
//   the prompt's assistant message (`input` parsed, `providerOptions`), as the SDK does it;
// - the usage (`inputTokens: { total, cacheRead, cacheWrite }`) is read into the shape
//   `recordUsage` takes for 'ai-sdk' (ai 5's flat numbers pass as they are).
// `file`, `reasoning-file`, `custom` and approval parts pass through whole: the manager
// counts them as opaque parts and writes back the host's own objects.

type Bag = Record<string, unknown>;

const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The prompt's leading system texts, and the messages after them. */
export function splitPrompt(prompt: unknown): { system: string[]; messages: unknown[] } {
  if (!Array.isArray(prompt)) {
    throw Object.assign(new TypeError(`params.prompt must be an array of messages, got ${prompt === null ? 'null' : typeof prompt}`), { code: 'ERR_INVALID_ARG_TYPE', field: 'params.prompt' });
  }
  let i = 0;
  const system: string[] = [];
  for (; i < prompt.length; i++) {
    const m = prompt[i] as Bag;
    if (!isBag(m) || m.role !== 'system' || typeof m.content !== 'string') break;
    system.push(m.content);
  }
  return { system, messages: prompt.slice(i) };
}

/** The manager's messages as a provider-level prompt: every user and assistant `content` a list of parts. */
export function providerPrompt(messages: readonly unknown[]): unknown[] {
  return messages.map((m) => {
    const message = m as Bag;
    if ((message.role === 'user' || message.role === 'assistant') && typeof message.content === 'string') {
      return { ...message, content: [{ type: 'text', text: message.content }] };
    }
    return message;
  });
}

/** A response part's provider metadata as the prompt carries it (the SDK's own mapping), only when there is some. */
function withOptions(part: Bag, source: Bag): Bag {
  return source.providerMetadata === undefined ? part : { ...part, providerOptions: source.providerMetadata };
}

/** A tool call's JSON `input` parsed, as a prompt holds it; a text that is not JSON stays a text. */
export function parsedInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** A tool call of a response as a prompt's `tool-call` part. */
export function callPart(call: Bag): Bag {
  return withOptions({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: parsedInput(call.input) }, call);
}

/**
 * The assistant message of a response that called the recall tool, as the next prompt
 * holds it: its texts and reasoning (a signed thinking block must come back with the call
 * it led to), then the recall calls alone. Other tool calls are left out: they are not
 * answered here, and the model calls them again once it has read what it asked for.
 */
export function recallTurn(content: readonly unknown[], calls: readonly Bag[]): Bag {
  const parts: Bag[] = [];
  for (const p of content) {
    if (!isBag(p)) continue;
    if ((p.type === 'text' || p.type === 'reasoning') && typeof p.text === 'string') {
      // An empty text part would make some providers refuse the request; a reasoning part may be empty but signed.
      if (p.type === 'text' && p.text === '') continue;
      parts.push(withOptions({ type: p.type, text: p.text }, p));
    }
  }
  for (const c of calls) parts.push(callPart(c));
  return { role: 'assistant', content: parts };
}

/** The tool messages `recall` answers with, made one: the SDK answers all calls of a step in one message. */
export function toolMessage(answers: readonly unknown[]): Bag {
  return { role: 'tool', content: answers.flatMap((a) => ((a as Bag).content as unknown[]) ?? []) };
}

/** The usage of a model call as `recordUsage` takes it for format 'ai-sdk'; `undefined` when the provider gave no input count. */
export function usageFigures(usage: unknown): Bag | undefined {
  if (!isBag(usage)) return undefined;
  const input = usage.inputTokens;
  if (typeof input === 'number') return usage; // ai 5 (`LanguageModelV2Usage`): flat numbers.
  if (!isBag(input) || typeof input.total !== 'number') return undefined;
  const details: Bag = {};
  if (typeof input.cacheRead === 'number') details.cacheReadTokens = input.cacheRead;
  if (typeof input.cacheWrite === 'number') details.cacheWriteTokens = input.cacheWrite;
  return { inputTokens: input.total, inputTokenDetails: details };
}

const add = (a: unknown, b: unknown): unknown => (typeof a === 'number' && typeof b === 'number' ? a + b : typeof a === 'number' ? a : b);

/** Two calls' usage as one: what a step that answered a recall call in between cost in all. */
export function sumUsage(a: unknown, b: unknown): unknown {
  if (!isBag(a) || !isBag(b)) return b;
  const out: Bag = { ...b };
  for (const key of Object.keys(b)) {
    const x = a[key];
    const y = b[key];
    if (key === 'raw') continue;
    if (isBag(x) && isBag(y)) {
      const inner: Bag = { ...y };
      for (const k of Object.keys(y)) inner[k] = add(x[k], y[k]);
      out[key] = inner;
    } else {
      out[key] = add(x, y);
    }
  }
  return out;
}

/** What the middleware reads and sets of a call's options (`LanguageModelV3CallOptions`, `LanguageModelV4CallOptions`). */
export interface ModelCallOptions {
  /** The provider-level prompt: `system`, `user`, `assistant` and `tool` messages with typed parts. */
  prompt: readonly unknown[];
  /** The call's tools; the recall tool is added to them. */
  tools?: readonly unknown[];
  /** `devsContext.conversation` names the call's conversation (and is removed before the call goes on). */
  providerOptions?: Record<string, unknown>;
}

/** What the middleware reads of a generate result (`LanguageModelV3GenerateResult`, `…V4…`). */
export interface ModelGenerateResult {
  content: readonly unknown[];
  usage: unknown;
}

/** What the middleware reads of a stream result (`LanguageModelV3StreamResult`, `…V4…`). */
export interface ModelStreamResult {
  stream: ReadableStream<unknown>;
}
