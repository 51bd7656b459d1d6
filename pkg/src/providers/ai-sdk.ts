// The Vercel AI SDK's `ModelMessage` (`ai`, `@ai-sdk/provider-utils`) and its
// `LanguageModelUsage` (v5 and v6 and later). A `tool-call` part is answered by a
// `tool-result` part of a `tool` message after it. Cache breakpoints ride in
// `providerOptions.anthropic.cacheControl`, which only the Anthropic provider reads.
import type { Bag } from '../core/read.js';
import {
  type Adapter, type NeutralPart, type Plan, Kind, OPAQUE_TOKENS, Role, bag, count, json, onlyFields, optionalCount, shapeError, shownContent, text, slot,
  intern } from './neutral.js';

/** A `ModelMessage`'s fields. */
const FIELDS = new Set(['role', 'content', 'providerOptions']);

function roleOf(role: unknown): number | undefined {
  return ({ user: Role.User, assistant: Role.Assistant, system: Role.System, tool: Role.Tool } as Record<string, number>)[role as string];
}

/** A tool result's output as text: what a model would read. */
function outputText(field: string, output: unknown): string {
  const o = bag(field, output);
  switch (o.type) {
    case 'text':
    case 'error-text':
      return text(`${field}.value`, o.value);
    case 'json':
    case 'error-json':
      return json(o.value);
    case 'execution-denied':
      return typeof o.reason === 'string' ? o.reason : 'execution denied';
    case 'content':
      if (!Array.isArray(o.value)) throw shapeError(`${field}.value`, 'an array', o.value);
      return o.value.map((v, i) => {
        const item = bag(`${field}.value[${i}]`, v);
        return item.type === 'text' ? text(`${field}.value[${i}].text`, item.text) : `[${String(item.type)}]`;
      }).join('\n');
    default:
      throw shapeError(`${field}.type`, "'text', 'json', 'error-text', 'error-json', 'execution-denied' or 'content'", o.type);
  }
}

function readPart(p: unknown, field: string, path: string): NeutralPart {
  const part = bag(field, p);
  switch (part.type) {
    case 'text':
      return { kind: Kind.Text, text: text(`${field}.text`, part.text), label: '', path };
    case 'reasoning':
      return { kind: Kind.Thinking, text: text(`${field}.text`, part.text), label: '', path };
    case 'tool-call':
      return { kind: Kind.Call, text: json(part.input), label: text(`${field}.toolName`, part.toolName), id: text(`${field}.toolCallId`, part.toolCallId), path };
    case 'tool-result': {
      const output = outputText(`${field}.output`, part.output);
      const type = (part.output as Bag).type;
      const raw = type === 'text' || type === 'error-text' ? output : json(part.output);
      return { kind: Kind.Result, text: output, raw, label: text(`${field}.toolName`, part.toolName), id: text(`${field}.toolCallId`, part.toolCallId), path, idPath: intern(`${path}.toolCallId`) };
    }
    default:
      if (typeof part.type !== 'string') throw shapeError(`${field}.type`, 'a string', part.type);
      return { kind: Kind.Opaque, text: '', label: part.type, path, tokens: OPAQUE_TOKENS };
  }
}

const CACHE = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** `message`, marked as a cache breakpoint for the Anthropic provider. */
function marked(message: Bag, breakpoint: boolean): Bag {
  if (!breakpoint) return message;
  const options = (message.providerOptions ?? {}) as Bag;
  return { ...message, providerOptions: { ...options, anthropic: { ...((options.anthropic ?? {}) as Bag), ...CACHE.anthropic } } };
}

/** `source` with its parts shown as `shown` says; `drop`: a `null` part is left out (else kept). */
function shownMessage(source: Bag, shown: ReadonlyArray<string | null | undefined>, drop: boolean): Bag {
  return { ...source, content: shownContent(source.content, shown, drop, shownPart) };
}

/** A part shown as `text`: a result's output becomes a text output, an error's an error text. */
function shownPart(p: Bag, text: string): Bag {
  if (p.type !== 'tool-result') return { ...p, text };
  const error = String((p.output as Bag).type).startsWith('error');
  return { ...p, output: { type: error ? 'error-text' : 'text', value: text } };
}

export const aiSdk: Adapter = {
  format: 'ai-sdk',
  framing: { message: 3, part: 1 },

  read(message, field) {
    const m = bag(field, message);
    const role = roleOf(m.role);
    if (role === undefined) throw shapeError(`${field}.role`, "'system', 'user', 'assistant' or 'tool'", m.role);
    onlyFields(m, FIELDS, field, "an AI SDK message (ModelMessage)");
    if (typeof m.content === 'string') {
      if (m.role === 'tool') throw shapeError(`${field}.content`, 'an array of tool-result parts', m.content);
      return { role, parts: [{ kind: Kind.Text, text: m.content, label: '', path: 'content' }], source: message };
    }
    if (!Array.isArray(m.content)) throw shapeError(`${field}.content`, 'a string or an array of parts', m.content);
    return { role, parts: m.content.map((p, i) => readPart(p, `${field}.content[${i}]`, slot('content', i))), source: message };
  },

  write(plan: Plan) {
    const out: Bag[] = [];
    const fixed = [plan.system, ...plan.pinned].filter((t): t is string => t !== undefined && t !== '');
    if (fixed.length) out.push(marked({ role: 'system', content: fixed.join('\n\n') }, plan.cacheControl && plan.fixedBreakpoint));
    const folded = () => {
      if (plan.summary !== undefined) out.push(marked({ role: 'user', content: plan.summary }, plan.summaryBreakpoint));
      if (plan.leftOut) out.push({ role: 'user', content: plan.leftOutText });
    };
    plan.messages.forEach((pm, i) => {
      if (i === plan.summaryAt) folded();
      const source = pm.source as Bag;
      const message = pm.shown.some((s) => s !== undefined) ? shownMessage(source, pm.shown, true) : source;
      out.push(marked(message, pm.breakpoint));
      if (pm.unanswered.length) {
        out.push({
          role: 'tool',
          content: pm.unanswered.map((c) => ({ type: 'tool-result', toolCallId: c.id, toolName: c.name, output: { type: 'error-text', value: plan.unansweredText } })),
        });
      }
    });
    if (plan.summaryAt >= plan.messages.length) folded();
    return { messages: out };
  },

  rewrite(source, _neutral, shown) {
    return shownMessage(source as Bag, shown, false);
  },

  reminder(text) {
    // Some providers behind the AI SDK (Anthropic's) refuse a system message after the first user one.
    return { role: 'user', content: [{ type: 'text', text }] };
  },

  // The AI SDK's `tool({ description, inputSchema: jsonSchema(...) })`, made without importing it.
  tool: (spec) => ({ description: spec.description, inputSchema: { [Symbol.for('vercel.ai.schema')]: true, _type: undefined, jsonSchema: spec.parameters, validate: undefined } }),

  toolCall(call, field) {
    const c = bag(field, call);
    if (c.type !== 'tool-call') throw shapeError(`${field}.type`, "'tool-call' (a part of the response's messages)", c.type);
    return { id: text(`${field}.toolCallId`, c.toolCallId), name: text(`${field}.toolName`, c.toolName), input: c.input };
  },

  toolResult: (call, output) => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, toolName: call.name, output: { type: 'text', value: output } }] }),

  usage(usage, field) {
    const u = bag(field, usage);
    const details = u.inputTokenDetails === undefined || u.inputTokenDetails === null ? undefined : bag(`${field}.inputTokenDetails`, u.inputTokenDetails);
    return {
      input: count(`${field}.inputTokens`, u.inputTokens),
      read: details ? optionalCount(`${field}.inputTokenDetails.cacheReadTokens`, details.cacheReadTokens) : optionalCount(`${field}.cachedInputTokens`, u.cachedInputTokens),
      write: details ? optionalCount(`${field}.inputTokenDetails.cacheWriteTokens`, details.cacheWriteTokens) : undefined,
    };
  },
};
