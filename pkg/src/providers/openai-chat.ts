// OpenAI Chat Completions (`openai`: `ChatCompletionMessageParam`, `CompletionUsage`).
// Each call in an assistant message's `tool_calls` is answered by a `tool` message before
// the next user or assistant message. The provider caches a repeated prefix by itself.
import type { Bag } from '../core/read.js';
import {
  type Adapter, type NeutralPart, type Plan, Kind, OPAQUE_TOKENS, Role, bag, count, onlyFields, optionalCount, parsedArguments, shapeError, shownContent, text,
  slot } from './neutral.js';

/** A message param's fields, and those of the response's message, which the API takes back as it is. */
const FIELDS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'refusal', 'audio', 'function_call', 'annotations']);

/** The rules' role of each message `role`. */
const ROLES: Record<string, number> = {
  user: Role.User, assistant: Role.Assistant, system: Role.System, developer: Role.System, tool: Role.Tool, function: Role.User,
};
const roleOf = (role: unknown): number | undefined => (typeof role === 'string' && Object.hasOwn(ROLES, role) ? ROLES[role] : undefined);

/** The text of a `content`: a string, or parts whose text parts are joined. */
function contentParts(field: string, content: unknown, path: string): NeutralPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ kind: Kind.Text, text: content, label: '', path }];
  if (!Array.isArray(content)) throw shapeError(field, 'a string or an array of parts', content);
  return content.map((p, i) => {
    const part = bag(`${field}[${i}]`, p);
    if (part.type === 'text') return { kind: Kind.Text, text: text(`${field}[${i}].text`, part.text), label: '', path: slot(path, i) };
    if (part.type === 'refusal') return { kind: Kind.Text, text: text(`${field}[${i}].refusal`, part.refusal), label: '', path: slot(path, i) };
    if (typeof part.type !== 'string') throw shapeError(`${field}[${i}].type`, 'a string', part.type);
    return { kind: Kind.Opaque, text: '', label: part.type, path: slot(path, i), tokens: OPAQUE_TOKENS };
  });
}

function joined(field: string, content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw shapeError(field, 'a string or an array of text parts', content);
  return content.map((p, i) => text(`${field}[${i}].text`, bag(`${field}[${i}]`, p).text)).join('');
}

/** `source` with its parts shown as `shown` says; `drop`: a `null` part is left out (else kept). */
function shownMessage(source: Bag, shown: ReadonlyArray<string | null | undefined>, drop: boolean): Bag {
  const message = { ...source };
  if (source.role === 'tool') message.content = shown[0] ?? source.content;
  // A string content is part 0; calls come after the content's parts.
  else if (typeof source.content === 'string' || Array.isArray(source.content)) message.content = shownContent(source.content, shown, drop);
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
        parts.push({ kind: Kind.Call, text: args, label: text(`${field}.tool_calls[${i}].function.name`, fn.name), id, path: slot('tool_calls', i) });
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
      out.push(pm.shown.some((s) => s !== undefined) ? shownMessage(source, pm.shown, true) : source);
      for (const c of pm.unanswered) out.push({ role: 'tool', tool_call_id: c.id, content: plan.unansweredText });
    });
    if (plan.summaryAt >= plan.messages.length) folded(plan, out);
    return { messages: out };
  },

  rewrite(source, _neutral, shown) {
    return shownMessage(source as Bag, shown, false);
  },

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
