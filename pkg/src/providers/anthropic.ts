// Anthropic Messages (`@anthropic-ai/sdk`: `MessageParam`, `ContentBlockParam`, `Usage`).
// Results go in the user message right after their calls, before any text; roles
// alternate; `thinking` and `redacted_thinking` pass back byte for byte; the system
// prompt is the request's `system`, where a cache breakpoint goes on a text block.
import type { Bag } from '../core/read.js';
import {
  type Adapter, type NeutralMessage, type NeutralPart, type Plan, Kind, OPAQUE_TOKENS, Role, bag, count, json,
  onlyFields, optionalCount, shapeError, text, slot, intern } from './neutral.js';

/** The rules' role of each message `role`. */
const ROLES: Record<string, number> = { user: Role.User, assistant: Role.Assistant, system: Role.System };
const roleOf = (role: unknown): number | undefined => (typeof role === 'string' && Object.hasOwn(ROLES, role) ? ROLES[role] : undefined);
const CACHE = { type: 'ephemeral' } as const;
/** A `MessageParam`'s fields: the API refuses any other. */
const FIELDS = new Set(['role', 'content']);

function resultText(field: string, content: unknown): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw shapeError(field, 'a string or an array of blocks', content);
  return content.map((b, i) => {
    const block = bag(`${field}[${i}]`, b);
    return block.type === 'text' ? text(`${field}[${i}].text`, block.text) : `[${String(block.type)}]`;
  }).join('\n');
}

function readBlock(b: unknown, field: string, path: string): NeutralPart {
  const block = bag(field, b);
  switch (block.type) {
    case 'text':
      return { kind: Kind.Text, text: text(`${field}.text`, block.text), label: '', path };
    case 'thinking':
      return { kind: Kind.Thinking, text: text(`${field}.thinking`, block.thinking), label: '', path };
    case 'redacted_thinking':
      return { kind: Kind.Thinking, text: '', label: '', path, tokens: Math.ceil(text(`${field}.data`, block.data).length / 4) };
    case 'tool_use':
    case 'server_tool_use':
      return { kind: Kind.Call, text: json(block.input), label: text(`${field}.name`, block.name), id: text(`${field}.id`, block.id), path };
    case 'tool_result': {
      const output = resultText(`${field}.content`, block.content);
      return {
        kind: Kind.Result, text: output, raw: typeof block.content === 'string' || block.content === undefined ? output : json(block.content),
        label: '', id: text(`${field}.tool_use_id`, block.tool_use_id), path, idPath: intern(`${path}.tool_use_id`),
      };
    }
    default:
      if (typeof block.type !== 'string') throw shapeError(`${field}.type`, 'a string', block.type);
      // Images, documents, a server tool's result: passed through as they are.
      return { kind: Kind.Opaque, text: '', label: block.type, path, tokens: block.type === 'image' || block.type === 'document' ? OPAQUE_TOKENS : Math.ceil(json(block).length / 4) };
  }
}

/** Blocks of a message's content, string content as one text block. */
function blocks(m: Bag): Bag[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Bag[]);
}

/** `message` with `blocks` as its content, the last non-thinking block marked for the cache. */
function withContent(m: Bag, content: Bag[], breakpoint: boolean): Bag {
  if (breakpoint) {
    const at = content.map((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking').lastIndexOf(true);
    if (at >= 0) content = content.map((b, i) => (i === at ? { ...b, cache_control: CACHE } : b));
  }
  return { ...m, content };
}

const isResult = (b: Bag) => b.type === 'tool_result';

/** A block shown as `text`: a result's content, or a block's text. */
const shownBlock = (block: Bag, text: string): Bag => (isResult(block) ? { ...block, content: text } : { ...block, text });

export const anthropic: Adapter = {
  format: 'anthropic',
  framing: { message: 3, part: 1 },

  read(message, field) {
    const m = bag(field, message);
    const role = roleOf(m.role);
    if (role === undefined) throw shapeError(`${field}.role`, "'user', 'assistant' or 'system'", m.role);
    onlyFields(m, FIELDS, field, 'an Anthropic message (MessageParam)');
    let parts: NeutralPart[];
    if (typeof m.content === 'string') {
      parts = [{ kind: Kind.Text, text: m.content, label: '', path: 'content' }];
    } else if (Array.isArray(m.content)) {
      parts = m.content.map((b, i) => readBlock(b, `${field}.content[${i}]`, slot('content', i)));
    } else {
      throw shapeError(`${field}.content`, 'a string or an array of blocks', m.content);
    }
    return { role, parts, source: message } satisfies NeutralMessage;
  },

  write(plan: Plan) {
    const out: Bag[] = [];
    const push = (m: Bag) => {
      const prev = out[out.length - 1];
      // Roles alternate: a message of the same role as the one before joins it.
      if (prev && prev.role === m.role && m.role !== 'system') {
        const merged = [...blocks(prev), ...blocks(m)];
        // Results come first in a user message.
        if (m.role === 'user') merged.sort((a, b) => Number(isResult(b)) - Number(isResult(a)));
        out[out.length - 1] = { ...prev, content: merged };
      } else {
        out.push(m);
      }
    };
    const folded = () => {
      if (plan.summary === undefined) return;
      push({ role: 'user', content: [plan.summaryBreakpoint ? { type: 'text', text: plan.summary, cache_control: CACHE } : { type: 'text', text: plan.summary }] });
    };
    let pending: Bag[] = []; // marked results owed to the next user message
    plan.messages.forEach((pm, i) => {
      // The opening message has no calls: nothing is pending before the summary.
      if (i === plan.summaryAt) folded();
      const source = pm.source as Bag;
      const changed = pm.shown.some((s) => s !== undefined);
      let message: Bag = source;
      if (changed || pm.breakpoint || (pending.length && source.role === 'user')) {
        let content: Bag[] = [];
        blocks(source).forEach((block, k) => {
          const s = pm.shown[k];
          if (s === null) return;
          content.push(s === undefined ? block : shownBlock(block, s));
        });
        if (pending.length && source.role === 'user') {
          content = [...pending, ...content];
          pending = [];
        }
        if (source.role === 'user' && content.some(isResult)) content.sort((a, b) => Number(isResult(b)) - Number(isResult(a)));
        message = withContent(source, content, pm.breakpoint);
      }
      if (pending.length) {
        push({ role: 'user', content: pending });
        pending = [];
      }
      push(message);
      pending = pm.unanswered.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: plan.unansweredText, is_error: true }));
    });
    if (plan.summaryAt >= plan.messages.length) folded();
    if (pending.length) push({ role: 'user', content: pending });
    if (out.length === 0 || out[0].role !== 'user') out.unshift({ role: 'user', content: plan.leftOutText });
    const fixed = [plan.system, ...plan.pinned].filter((t): t is string => t !== undefined && t !== '');
    let system: unknown;
    if (fixed.length) {
      system = plan.cacheControl && plan.fixedBreakpoint
        ? fixed.map((t, i) => (i === fixed.length - 1 ? { type: 'text', text: t, cache_control: CACHE } : { type: 'text', text: t }))
        : fixed.join('\n\n');
    }
    return system === undefined ? { messages: out } : { system, messages: out };
  },

  rewrite(source, _neutral, shown) {
    const m = source as Bag;
    return { ...m, content: blocks(m).map((block, k) => (typeof shown[k] === 'string' ? shownBlock(block, shown[k] as string) : block)) };
  },

  reminder(text) {
    // No system role mid-conversation: a user text, which the writer joins to the results before it.
    return { role: 'user', content: [{ type: 'text', text }] };
  },

  tool: (spec) => ({ name: spec.name, description: spec.description, input_schema: spec.parameters }),

  toolCall(call, field) {
    const b = bag(field, call);
    if (b.type !== 'tool_use') throw shapeError(`${field}.type`, "'tool_use' (a block of the response's content)", b.type);
    return { id: text(`${field}.id`, b.id), name: text(`${field}.name`, b.name), input: b.input };
  },

  toolResult: (call, output) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: output }] }),

  usage(usage, field) {
    const u = bag(field, usage);
    const input = count(`${field}.input_tokens`, u.input_tokens);
    const read = optionalCount(`${field}.cache_read_input_tokens`, u.cache_read_input_tokens);
    const write = optionalCount(`${field}.cache_creation_input_tokens`, u.cache_creation_input_tokens);
    // input_tokens is what came after the last breakpoint: the request is all three.
    return { input: input + (read ?? 0) + (write ?? 0), read, write };
  },
};
