// Anthropic Messages (`@anthropic-ai/sdk`: `MessageParam`, `ContentBlockParam`, `Usage`).
// Results go in the user message right after their calls, before any text; a server
// tool's result stays in its assistant message, beside its `server_tool_use`, and is never
// answered by the host; roles alternate; `thinking`, `redacted_thinking` and `compaction`
// pass back byte for byte; the system prompt is the request's `system`, where a cache
// breakpoint goes on a text block.
import { isObject, type Bag } from '../../core/read.js';
import { argumentError } from '../../errors/index.js';
import { base64Of } from '../media.js';
import {
  type Adapter, type NeutralMessage, type NeutralPart, type Plan, Kind, Role, bag, count, onlyFields, optionalCount, shapeError, text,
} from '../neutral.js';
import { readBlock } from './read.js';
import { blocks, shownContent, stripped } from './write.js';

/** The rules' role of each message `role`. */
const ROLES: Record<string, number> = { user: Role.User, assistant: Role.Assistant, system: Role.System };
const roleOf = (role: unknown): number | undefined => (typeof role === 'string' && Object.hasOwn(ROLES, role) ? ROLES[role] : undefined);
const CACHE = { type: 'ephemeral' } as const;
/** A `MessageParam`'s fields: the API refuses any other. */
const FIELDS = new Set(['role', 'content']);

/** `message` with `blocks` as its content, the last non-thinking block marked for the cache. */
function withContent(m: Bag, content: Bag[], breakpoint: boolean): Bag {
  if (breakpoint) {
    const at = content.map((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking').lastIndexOf(true);
    if (at >= 0) content = content.map((b, i) => (i === at ? { ...b, cache_control: CACHE } : b));
  }
  return { ...m, content };
}

const isResult = (b: Bag) => b.type === 'tool_result';

/** A compaction block of on-demand compaction: one with a signature. */
const isSignedCompaction = (b: unknown): boolean => isObject(b) && b.type === 'compaction' && b.signature !== undefined;

/**
 * On-demand compaction's placement, checked before the request is sent: its block first
 * in `messages`, exactly once. A RangeError naming the block that breaks it, rather than
 * the provider's 400 (`compaction_block_misplaced`).
 */
function checkCompactionPlacement(out: readonly Bag[]): void {
  out.forEach((m, i) => {
    blocks(m).forEach((b, k) => {
      if (!isSignedCompaction(b) || (i === 0 && k === 0)) return;
      throw argumentError(RangeError, `messages[${i}].content[${k}]`, 'is a compaction block with a signature (on-demand compaction) that would not be first in the request, or not the only one: append the newest compaction alone, as its own first block, and the turns after it');
    });
  });
}

/** The blocks of the figures that `usage` reports: the last iteration's, where the request ran several (a compaction and the message). */
function lastIteration(u: Bag, field: string): [Bag, string] {
  if (!Array.isArray(u.iterations) || u.iterations.length === 0) return [u, field];
  const i = u.iterations.length - 1;
  return [bag(`${field}.iterations[${i}]`, u.iterations[i]), `${field}.iterations[${i}]`];
}

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
      parts = [{ kind: Kind.Text, text: m.content, label: '', path: 'content', block: 0 }];
    } else if (Array.isArray(m.content)) {
      parts = m.content.flatMap((b, i) => readBlock(b, `${field}.content[${i}]`, i));
      // On-demand compaction's block is first in `messages`, exactly once: it cannot follow another block.
      const signed = m.content.findIndex((b, i) => i > 0 && isSignedCompaction(b));
      if (signed > 0) throw argumentError(TypeError, `${field}.content[${signed}]`, "is a compaction block with a signature (on-demand compaction), which must be the first block of its message: the API refuses it after another block ('compaction_block_misplaced')");
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
        let content = changed ? shownContent(source, pm.neutral.parts, pm.shown, true) : blocks(source);
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
    // A request opens with a user message, but for on-demand compaction's block, which
    // nothing may come before.
    if (out.length === 0 || (out[0].role !== 'user' && !isSignedCompaction(blocks(out[0])[0]))) out.unshift({ role: 'user', content: plan.leftOutText });
    checkCompactionPlacement(out);
    const fixed = [plan.system, ...plan.pinned].filter((t): t is string => t !== undefined && t !== '');
    let system: unknown;
    if (fixed.length) {
      system = plan.cacheControl && plan.fixedBreakpoint
        ? fixed.map((t, i) => (i === fixed.length - 1 ? { type: 'text', text: t, cache_control: CACHE } : { type: 'text', text: t }))
        : fixed.join('\n\n');
    }
    return system === undefined ? { messages: out } : { system, messages: out };
  },

  rewrite(source, neutral, shown) {
    const m = source as Bag;
    return { ...m, content: shownContent(m, neutral.parts, shown, false) };
  },

  // A web search's results, stored, leave the block an error it takes: its code is billed.
  shownExtra: (part) => (part.kind === Kind.Result && part.label === 'web_search_tool_result' ? { text: 'web_search_tool_result_error unavailable' } : undefined),

  strip(source, neutral, parts) {
    const m = source as Bag;
    const content = [...blocks(m)];
    for (const k of parts) {
      const part = neutral.parts[k];
      const b = part.block ?? k;
      content[b] = stripped(content[b], part);
    }
    return { ...m, content };
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

  toolResult(call, output, media) {
    if (!media) return { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: output }] };
    const source = media.data !== undefined
      ? { type: 'base64', media_type: media.mediaType, data: base64Of(media) }
      : media.url !== undefined ? { type: 'url', url: media.url } : { type: 'file', file_id: media.fileId };
    const block = { type: media.kind, source };
    return { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: [{ type: 'text', text: output }, block] }] };
  },

  usage(usage, field) {
    const [u, at] = lastIteration(bag(field, usage), field);
    const input = count(`${at}.input_tokens`, u.input_tokens);
    const read = optionalCount(`${at}.cache_read_input_tokens`, u.cache_read_input_tokens);
    const write = optionalCount(`${at}.cache_creation_input_tokens`, u.cache_creation_input_tokens);
    // input_tokens is what came after the last breakpoint: the request is all three.
    return { input: input + (read ?? 0) + (write ?? 0), read, write };
  },
};
