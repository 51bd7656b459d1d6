// OpenAI Responses API input items (`openai`: `ResponseInputItem`, `ResponseUsage`).
// A `function_call` (or `custom_tool_call`) is answered by an output item with its
// `call_id`; consecutive assistant-side items are one turn. Reasoning items are kept as
// they are: they are bound to a model, not to the prefix, so an edit does not void them.
import type { Bag } from '../core/read.js';
import {
  type Adapter, type NeutralMessage, type NeutralPart, type Plan, Kind, OPAQUE_TOKENS, Role, bag, count, json,
  optionalCount, parsedArguments, shapeError, shownContent, text, slot } from './neutral.js';

const MESSAGE_ROLES = ['user', 'assistant', 'system', 'developer'];

function roleOf(role: unknown): number | undefined {
  return ({ user: Role.User, assistant: Role.Assistant, system: Role.System, developer: Role.System } as Record<string, number>)[role as string];
}

/** An item's content (or an output's), as parts: text parts are text, the rest passes through. */
function contentParts(field: string, content: unknown, path: string): NeutralPart[] {
  if (typeof content === 'string') return [{ kind: Kind.Text, text: content, label: '', path }];
  if (!Array.isArray(content)) throw shapeError(field, 'a string or an array of parts', content);
  return content.map((p, i) => {
    const part = bag(`${field}[${i}]`, p);
    if (part.type === 'input_text' || part.type === 'output_text') {
      return { kind: Kind.Text, text: text(`${field}[${i}].text`, part.text), label: '', path: slot(path, i) };
    }
    if (part.type === 'refusal') return { kind: Kind.Text, text: text(`${field}[${i}].refusal`, part.refusal), label: '', path: slot(path, i) };
    if (typeof part.type !== 'string') throw shapeError(`${field}[${i}].type`, 'a string', part.type);
    return { kind: Kind.Opaque, text: '', label: part.type, path: slot(path, i), tokens: OPAQUE_TOKENS };
  });
}

function outputText(field: string, output: unknown): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) throw shapeError(field, 'a string or an array of parts', output);
  return output.map((p, i) => {
    const part = bag(`${field}[${i}]`, p);
    return part.type === 'input_text' ? text(`${field}[${i}].text`, part.text) : `[${String(part.type)}]`;
  }).join('\n');
}

function read(item: unknown, field: string): NeutralMessage {
  const m = bag(field, item);
  const type = m.type ?? 'message';
  switch (type) {
    case 'message': {
      const role = roleOf(m.role);
      if (role === undefined) throw shapeError(`${field}.role`, `one of ${MESSAGE_ROLES.map((r) => `'${r}'`).join(', ')}`, m.role);
      return { role, parts: contentParts(`${field}.content`, m.content, 'content'), source: item };
    }
    case 'function_call':
    case 'custom_tool_call': {
      const args = type === 'function_call' ? text(`${field}.arguments`, m.arguments) : text(`${field}.input`, m.input);
      return {
        role: Role.Assistant, source: item,
        parts: [{ kind: Kind.Call, text: args, label: text(`${field}.name`, m.name), id: text(`${field}.call_id`, m.call_id), path: type === 'function_call' ? 'arguments' : 'input' }],
      };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = outputText(`${field}.output`, m.output);
      return {
        role: Role.Tool, source: item,
        parts: [{ kind: Kind.Result, text: output, raw: typeof m.output === 'string' ? output : json(m.output), label: '', id: text(`${field}.call_id`, m.call_id), path: 'output', idPath: 'call_id' }],
      };
    }
    default: {
      if (typeof type !== 'string') throw shapeError(`${field}.type`, 'a string', type);
      // Reasoning, a built-in tool's call or output, an item reference: passed through as
      // they are, with the turn they belong to.
      const role = type.endsWith('_output') || type === 'mcp_approval_response' ? Role.User : Role.Assistant;
      const tokens = type === 'reasoning' ? Math.ceil(json(m).length / 4) : OPAQUE_TOKENS;
      return { role, parts: [{ kind: Kind.Opaque, text: '', label: type, path: '', tokens }], source: item };
    }
  }
}

/** `source` with its parts shown as `shown` says; `drop`: a `null` part is left out (else kept). */
function shownItem(source: Bag, shown: ReadonlyArray<string | null | undefined>, drop: boolean): Bag {
  const item = { ...source };
  const type = source.type ?? 'message';
  if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    item.output = shown[0] ?? source.output;
  } else if (type === 'message') {
    item.content = shownContent(source.content, shown, drop);
  }
  return item;
}

export const openaiResponses: Adapter = {
  format: 'openai-responses',
  framing: { message: 4, part: 1 },
  read,

  write(plan: Plan) {
    const out: unknown[] = [];
    const fixed = [plan.system, ...plan.pinned].filter((t): t is string => t !== undefined && t !== '');
    if (fixed.length) out.push({ role: 'system', content: fixed.join('\n\n') });
    const folded = () => {
      if (plan.summary !== undefined) out.push({ role: 'user', content: plan.summary });
      if (plan.leftOut) out.push({ role: 'user', content: plan.leftOutText });
    };
    plan.messages.forEach((pm, i) => {
      if (i === plan.summaryAt) folded();
      const source = pm.source as Bag;
      out.push(pm.shown.some((s) => s !== undefined) ? shownItem(source, pm.shown, true) : source);
      for (const c of pm.unanswered) {
        const custom = source.type === 'custom_tool_call';
        out.push({ type: custom ? 'custom_tool_call_output' : 'function_call_output', call_id: c.id, output: plan.unansweredText });
      }
    });
    if (plan.summaryAt >= plan.messages.length) folded();
    return { messages: out };
  },

  rewrite(source, _neutral, shown) {
    return shownItem(source as Bag, shown, false);
  },

  reminder(text) {
    return { type: 'message', role: 'system', content: text };
  },

  tool: (spec) => ({ type: 'function', name: spec.name, description: spec.description, parameters: spec.parameters, strict: false }),

  toolCall(call, field) {
    const c = bag(field, call);
    if (c.type !== 'function_call') throw shapeError(`${field}.type`, "'function_call' (an item of the response's output)", c.type);
    return { id: text(`${field}.call_id`, c.call_id), name: text(`${field}.name`, c.name), input: parsedArguments(text(`${field}.arguments`, c.arguments)) };
  },

  toolResult: (call, output) => ({ type: 'function_call_output', call_id: call.id, output }),

  usage(usage, field) {
    const u = bag(field, usage);
    const details = u.input_tokens_details === undefined || u.input_tokens_details === null ? {} : bag(`${field}.input_tokens_details`, u.input_tokens_details);
    return {
      input: count(`${field}.input_tokens`, u.input_tokens),
      read: optionalCount(`${field}.input_tokens_details.cached_tokens`, details.cached_tokens),
      write: optionalCount(`${field}.input_tokens_details.cache_write_tokens`, details.cache_write_tokens),
    };
  },
};
