// The Vercel AI SDK's `ModelMessage` (`ai`, `@ai-sdk/provider-utils`) and its
// `LanguageModelUsage` (v5 and v6 and later). A `tool-call` part is answered by a
// `tool-result` part of a `tool` message after it; a provider-executed one by the
// `tool-result` beside it in the assistant message. Cache breakpoints ride in
// `providerOptions.anthropic.cacheControl`, which only the Anthropic provider reads.
import type { Bag } from '../../core/read.js';
import { base64Of } from '../media.js';
import {
  type Adapter, type NeutralMessage, type NeutralPart, type Plan, Kind, Role, bag, count, onlyFields, optionalCount, parsedArguments, shapeError, text, slot,
} from '../neutral.js';
import { readPart } from './read.js';

/** A `ModelMessage`'s fields. */
const FIELDS = new Set(['role', 'content', 'providerOptions']);

type Shown = string | null | undefined;

function roleOf(role: unknown): number | undefined {
  return ({ user: Role.User, assistant: Role.Assistant, system: Role.System, tool: Role.Tool } as Record<string, number>)[role as string];
}

const CACHE = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** `message`, marked as a cache breakpoint for the Anthropic provider. */
function marked(message: Bag, breakpoint: boolean): Bag {
  if (!breakpoint) return message;
  const options = (message.providerOptions ?? {}) as Bag;
  return { ...message, providerOptions: { ...options, anthropic: { ...((options.anthropic ?? {}) as Bag), ...CACHE.anthropic } } };
}

const textPart = (text: string): Bag => ({ type: 'text', text });

/** A tool result's output shown: its own text as `own`, its images and files as `inner` says. */
function shownOutput(output: Bag, own: Shown, inner: ReadonlyMap<number, Shown>): Bag {
  if (output.type === 'content' && Array.isArray(output.value)) {
    const value: Bag[] = [];
    if (typeof own === 'string') value.push(textPart(own));
    output.value.forEach((v, i) => {
      if (!inner.has(i) && typeof own === 'string') return;
      const s = inner.get(i);
      value.push(typeof s === 'string' ? textPart(s) : (v as Bag));
    });
    return { ...output, value };
  }
  if (typeof own !== 'string') return output;
  const error = String(output.type).startsWith('error');
  return { type: error ? 'error-text' : 'text', value: own };
}

/** Part `part` (read as `parts`) shown as `shown` says. */
function shownPart(part: Bag, parts: readonly NeutralPart[], shown: readonly Shown[]): Bag {
  const own = shown[0];
  const inner = new Map<number, Shown>();
  parts.forEach((p, j) => {
    if (p.inner !== undefined) inner.set(p.inner, shown[j]);
  });
  switch (part.type) {
    case 'tool-result':
      return { ...part, output: shownOutput(part.output as Bag, parts[0].inner === undefined ? own : undefined, inner) };
    case 'tool-call': {
      const input = typeof own === 'string' ? parsedArguments(own) : undefined;
      return input === undefined ? part : { ...part, input };
    }
    case 'text':
    case 'reasoning':
      return typeof own === 'string' ? { ...part, text: own } : part;
    default:
      // An image or a file: a text part in its place.
      return typeof own === 'string' ? textPart(own) : part;
  }
}

/** `source`'s content shown as `shown` says; `drop`: a `null` part is left out (else kept). */
function shownMessage(source: Bag, neutral: NeutralMessage, shown: readonly Shown[], drop: boolean): Bag {
  if (typeof source.content === 'string') return { ...source, content: typeof shown[0] === 'string' ? shown[0] : source.content };
  const parts = neutral.parts;
  const content: Bag[] = [];
  let p = 0;
  (source.content as Bag[]).forEach((part, b) => {
    const from = p;
    while (p < parts.length && (parts[p].block ?? p) === b) p++;
    const mine = shown.slice(from, p);
    if (mine.every((s) => s === undefined)) content.push(part);
    else if (mine[0] === null) {
      if (!drop) content.push(part);
    } else content.push(shownPart(part, parts.slice(from, p), mine));
  });
  return { ...source, content };
}

/** A part with the bytes of its image or file (or those of item `inner` of its tool result) let go. */
function stripped(part: Bag, inner: number | undefined): Bag {
  const empty = (v: Bag): Bag => {
    if (v.type === 'image') return { ...v, image: '' };
    if (v.type === 'file' && (v.data as Bag)?.type === 'data') return { ...v, data: { type: 'data', data: '' } };
    if ('data' in v) return { ...v, data: '' };
    return v;
  };
  if (inner === undefined) return empty(part);
  const output = part.output as Bag;
  const value = (output.value as Bag[]).map((v, i) => (i === inner ? empty(v) : v));
  return { ...part, output: { ...output, value } };
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
      return { role, parts: [{ kind: Kind.Text, text: m.content, label: '', path: 'content', block: 0 }], source: message };
    }
    if (!Array.isArray(m.content)) throw shapeError(`${field}.content`, 'a string or an array of parts', m.content);
    return { role, parts: m.content.flatMap((p, i) => readPart(p, `${field}.content[${i}]`, slot('content', i), i)), source: message };
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
      const message = pm.shown.some((s) => s !== undefined) ? shownMessage(source, pm.neutral, pm.shown, true) : source;
      out.push(marked(message, pm.breakpoint));
      if (pm.unanswered.length) {
        const call = (id: string) => (source.content as Bag[]).find((p) => p.approvalId === id && p.type === 'tool-approval-request');
        out.push({
          role: 'tool',
          content: pm.unanswered.map((c) => (call(c.id)
            ? { type: 'tool-approval-response', approvalId: c.id, approved: false, reason: plan.unansweredText }
            : { type: 'tool-result', toolCallId: c.id, toolName: c.name, output: { type: 'error-text', value: plan.unansweredText } })),
        });
      }
    });
    if (plan.summaryAt >= plan.messages.length) folded();
    return { messages: out };
  },

  rewrite(source, neutral, shown) {
    return shownMessage(source as Bag, neutral, shown, false);
  },

  strip(source, neutral, parts) {
    const m = source as Bag;
    const content = [...(m.content as Bag[])];
    for (const k of parts) {
      const part = neutral.parts[k];
      const b = part.block ?? k;
      content[b] = stripped(content[b], part.inner);
    }
    return { ...m, content };
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

  toolResult(call, output, media) {
    const result = (o: Bag) => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: call.id, toolName: call.name, output: o }] });
    if (!media) return result({ type: 'text', value: output });
    // The content items of ai 6 and 7 (`image-data`, `file-data`, …), which both take.
    const image = media.kind === 'image';
    const item = media.data !== undefined
      ? { type: image ? 'image-data' : 'file-data', data: base64Of(media), mediaType: media.mediaType, ...(image ? {} : { filename: 'document.pdf' }) }
      : media.url !== undefined ? { type: image ? 'image-url' : 'file-url', url: media.url, ...(image ? {} : { mediaType: media.mediaType }) }
        : { type: image ? 'image-file-id' : 'file-id', fileId: media.fileId };
    return result({ type: 'content', value: [{ type: 'text', text: output }, item] });
  },

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
