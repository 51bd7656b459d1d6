// OpenAI Chat Completions (`openai`: `ChatCompletionMessageParam`, `CompletionUsage`).
// Each call in an assistant message's `tool_calls` is answered by a `tool` message before
// the next user or assistant message; a tool message holds text only. Images and files
// in a user message are parts of their own. The provider caches a repeated prefix by
// itself.
import type { Bag } from '../../core/read.js';
import { audioOf, imageAt, mediaPart, wholeMedia } from '../media.js';
import {
  type Adapter, type NeutralMessage, type NeutralPart, type Plan, Kind, OPAQUE_TOKENS, Role, bag, count, onlyFields, optionalCount, parsedArguments,
  shapeError, shownContent, text, slot } from '../neutral.js';

/** A message param's fields, and those of the response's message, which the API takes back as it is. */
const FIELDS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'refusal', 'audio', 'function_call', 'annotations']);

/** The rules' role of each message `role`. */
const ROLES: Record<string, number> = {
  user: Role.User, assistant: Role.Assistant, system: Role.System, developer: Role.System, tool: Role.Tool, function: Role.User,
};
const roleOf = (role: unknown): number | undefined => (typeof role === 'string' && Object.hasOwn(ROLES, role) ? ROLES[role] : undefined);

/** A `file` part's document: its data (a data URL or base64), or its file id. */
function filePart(file: Bag, path: string): NeutralPart {
  const data = typeof file.file_data === 'string' ? file.file_data : undefined;
  const inline = data?.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  const mediaType = data?.startsWith('data:') ? data.slice(5, data.indexOf(';')) : 'application/pdf';
  return mediaPart(inline !== undefined ? { kind: 'document', mediaType, data: inline } : { kind: 'document', mediaType, fileId: String(file.file_id ?? '') }, path);
}

/** The parts of a `content`: a string, or parts; images and files are parts of their own. */
function contentParts(field: string, content: unknown, path: string): NeutralPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ kind: Kind.Text, text: content, label: '', path, block: 0 }];
  if (!Array.isArray(content)) throw shapeError(field, 'a string or an array of parts', content);
  return content.map((p, i): NeutralPart => {
    const part = bag(`${field}[${i}]`, p);
    const at = slot(path, i);
    if (part.type === 'text') return { kind: Kind.Text, text: text(`${field}[${i}].text`, part.text), label: '', path: at, block: i };
    if (part.type === 'refusal') return { kind: Kind.Text, text: text(`${field}[${i}].refusal`, part.refusal), label: '', path: at, block: i };
    if (part.type === 'image_url') {
      const image = bag(`${field}[${i}].image_url`, part.image_url);
      const detail = image.detail === 'low' || image.detail === 'high' ? image.detail : 'auto';
      return { ...mediaPart(imageAt(text(`${field}[${i}].image_url.url`, image.url), detail), at), block: i };
    }
    if (part.type === 'file') return { ...filePart(bag(`${field}[${i}].file`, part.file), at), block: i };
    if (part.type === 'input_audio') return { ...wholeMedia(audioOf(bag(`${field}[${i}].input_audio`, part.input_audio), `${field}[${i}].input_audio`), at, 'input_audio'), block: i };
    if (typeof part.type !== 'string') throw shapeError(`${field}[${i}].type`, 'a string', part.type);
    return { kind: Kind.Opaque, text: '', label: part.type, path: at, tokens: OPAQUE_TOKENS, block: i };
  });
}

/** A part shown as `text`: a text part's text, or a text part in the place of an image or a file. */
function shownPart(part: Bag, text: string): Bag {
  if (part.type === 'refusal') return { ...part, refusal: text };
  if (part.type === 'text') return { ...part, text };
  return { type: 'text', text };
}

function joined(field: string, content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw shapeError(field, 'a string or an array of text parts', content);
  return content.map((p, i) => text(`${field}[${i}].text`, bag(`${field}[${i}]`, p).text)).join('');
}

/** `source` with its parts shown as `shown` says; `drop`: a `null` part is left out (else kept). */
function shownMessage(source: Bag, neutral: NeutralMessage, shown: ReadonlyArray<string | null | undefined>, drop: boolean): Bag {
  const message = { ...source };
  if (source.role === 'tool') {
    message.content = shown[0] ?? source.content;
    return message;
  }
  // A string content is part 0; calls come after the content's parts.
  const calls = neutral.parts.findIndex((p) => p.kind === Kind.Call);
  const inContent = calls < 0 ? shown : shown.slice(0, calls);
  if (typeof source.content === 'string' || Array.isArray(source.content)) message.content = shownContent(source.content, inContent, drop, shownPart);
  if (calls >= 0 && shown.slice(calls).some((s) => typeof s === 'string')) {
    message.tool_calls = (source.tool_calls as Bag[]).map((c, i) => {
      const s = shown[calls + i];
      if (typeof s !== 'string') return c;
      // A call's input shortened: its arguments (or a custom tool's input) as the rules show them.
      return c.type === 'custom' ? { ...c, custom: { ...(c.custom as Bag), input: s } } : { ...c, function: { ...(c.function as Bag), arguments: s } };
    });
  }
  return message;
}

/** The summary, and the note for dropped turns, as user messages. */
function folded(plan: Plan, out: Bag[]): void {
  if (plan.summary !== undefined) out.push({ role: 'user', content: plan.summary });
  if (plan.leftOut) out.push({ role: 'user', content: plan.leftOutText });
}

export const openaiChat: Adapter = {
  format: 'openai-chat',
  framing: { message: 4, part: 1 },

  read(message, field) {
    const m = bag(field, message);
    const role = roleOf(m.role);
    if (role === undefined) throw shapeError(`${field}.role`, "'system', 'developer', 'user', 'assistant' or 'tool'", m.role);
    onlyFields(m, FIELDS, field, 'an OpenAI Chat message (ChatCompletionMessageParam)');
    if (m.role === 'tool') {
      const output = joined(`${field}.content`, m.content);
      return {
        role, source: message,
        parts: [{ kind: Kind.Result, text: output, raw: output, label: '', id: text(`${field}.tool_call_id`, m.tool_call_id), path: 'content', idPath: 'tool_call_id' }],
      };
    }
    const parts = contentParts(`${field}.content`, m.content, 'content');
    if (m.role === 'assistant' && m.tool_calls !== undefined) {
      if (!Array.isArray(m.tool_calls)) throw shapeError(`${field}.tool_calls`, 'an array', m.tool_calls);
      m.tool_calls.forEach((c, i) => {
        const call = bag(`${field}.tool_calls[${i}]`, c);
        const id = text(`${field}.tool_calls[${i}].id`, call.id);
        const fn = call.type === 'custom' ? bag(`${field}.tool_calls[${i}].custom`, call.custom) : bag(`${field}.tool_calls[${i}].function`, call.function);
        const args = call.type === 'custom' ? text(`${field}.tool_calls[${i}].custom.input`, fn.input) : text(`${field}.tool_calls[${i}].function.arguments`, fn.arguments);
        const name = call.type === 'custom' ? text(`${field}.tool_calls[${i}].custom.name`, fn.name) : text(`${field}.tool_calls[${i}].function.name`, fn.name);
        parts.push({ kind: Kind.Call, text: args, label: name, id, path: slot('tool_calls', i) });
      });
    }
    if (parts.length === 0) throw shapeError(`${field}.content`, m.role === 'assistant' ? 'a string or parts when there are no tool_calls' : 'a string or an array of parts', m.content);
    return { role, parts, source: message };
  },

  write(plan: Plan) {
    const out: Bag[] = [];
    const fixed = [plan.system, ...plan.pinned].filter((t): t is string => t !== undefined && t !== '');
    if (fixed.length) out.push({ role: 'system', content: fixed.join('\n\n') });
    plan.messages.forEach((pm, i) => {
      if (i === plan.summaryAt) folded(plan, out);
      const source = pm.source as Bag;
      out.push(pm.shown.some((s) => s !== undefined) ? shownMessage(source, pm.neutral, pm.shown, true) : source);
      for (const c of pm.unanswered) out.push({ role: 'tool', tool_call_id: c.id, content: plan.unansweredText });
    });
    if (plan.summaryAt >= plan.messages.length) folded(plan, out);
    return { messages: out };
  },

  rewrite(source, neutral, shown) {
    return shownMessage(source as Bag, neutral, shown, false);
  },

  strip(source, neutral, parts) {
    const m = source as Bag;
    const content = [...(m.content as Bag[])];
    for (const k of parts) {
      const b = neutral.parts[k].block ?? k;
      const part = content[b];
      if (part.type === 'image_url') {
        const image = part.image_url as Bag;
        const inline = typeof image.url === 'string' && image.url.startsWith('data:');
        if (inline) content[b] = { ...part, image_url: { ...image, url: (image.url as string).slice(0, (image.url as string).indexOf(',') + 1) } };
      } else if (part.type === 'file') {
        const file = part.file as Bag;
        if (typeof file.file_data === 'string') content[b] = { ...part, file: { ...file, file_data: '' } };
      }
    }
    return { ...m, content };
  },

  // A tool message holds text only: a recalled image is named, not given.
  carriesMedia: false,

  reminder(text) {
    return { role: 'system', content: text };
  },

  tool: (spec) => ({ type: 'function', function: { name: spec.name, description: spec.description, parameters: spec.parameters } }),

  toolCall(call, field) {
    const c = bag(field, call);
    const fn = bag(`${field}.function`, c.function);
    return { id: text(`${field}.id`, c.id), name: text(`${field}.function.name`, fn.name), input: parsedArguments(text(`${field}.function.arguments`, fn.arguments)) };
  },

  toolResult: (call, output) => ({ role: 'tool', tool_call_id: call.id, content: output }),
  // (The recall of an image: its heading says it cannot be shown in a tool message.)

  usage(usage, field) {
    const u = bag(field, usage);
    const details = u.prompt_tokens_details === undefined || u.prompt_tokens_details === null ? {} : bag(`${field}.prompt_tokens_details`, u.prompt_tokens_details);
    return {
      input: count(`${field}.prompt_tokens`, u.prompt_tokens),
      read: optionalCount(`${field}.prompt_tokens_details.cached_tokens`, details.cached_tokens),
      write: optionalCount(`${field}.prompt_tokens_details.cache_write_tokens`, details.cache_write_tokens),
    };
  },
};
