// OpenAI Responses API input items (`openai`: `ResponseInputItem`, `ResponseUsage`).
// A call (a function's, a custom tool's, a built-in tool's) is answered by an output item
// with its `call_id`; consecutive assistant-side items are one turn. Items the provider
// runs or writes itself (`mcp_call`, `code_interpreter_call`, reasoning, compaction) hold
// what they hold and pass back as they are but for what a compaction shortens.
import type { Bag } from '../../core/read.js';
import { base64Of } from '../media.js';
import { type Adapter, type Plan, bag, count, optionalCount, parsedArguments, shapeError, text } from '../neutral.js';
import { readItem } from './read.js';
import { TINY_PNG, shownItem, strippedItem, unansweredItem } from './write.js';

export const openaiResponses: Adapter = {
  format: 'openai-responses',
  framing: { message: 4, part: 1 },
  read: readItem,

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
      if (pm.shown.some((s) => s !== undefined)) out.push(...shownItem(source, pm.neutral.parts, pm.shown, true));
      else out.push(source);
      for (const c of pm.unanswered) out.push(unansweredItem(source.type, c.id, plan.unansweredText));
    });
    if (plan.summaryAt >= plan.messages.length) folded();
    return { messages: out };
  },

  rewrite(source, neutral, shown) {
    // In memory the item keeps its place and kind: a line with no field of its own is not written in.
    return shownItem(source as Bag, neutral.parts, shown, false)[0];
  },

  // A computer call's output must hold a screenshot: a stored one leaves a 1 × 1 PNG, billed as an image.
  shownExtra: (part) => (part.path === 'output' && part.media?.kind === 'image' && part.id !== undefined && part.inner === 0 ? { media: { kind: 'image', mediaType: 'image/png', data: TINY_PNG.slice(TINY_PNG.indexOf(',') + 1) } } : undefined),

  strip(source, neutral, parts) {
    return strippedItem(source as Bag, parts.map((k) => neutral.parts[k]));
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

  toolResult(call, output, media) {
    if (!media) return { type: 'function_call_output', call_id: call.id, output };
    const data = media.data !== undefined ? `data:${media.mediaType};base64,${base64Of(media)}` : undefined;
    const part = media.kind === 'image'
      ? { type: 'input_image', detail: media.detail ?? 'auto', ...(data ?? media.url ? { image_url: data ?? media.url } : { file_id: media.fileId }) }
      : { type: 'input_file', filename: 'document.pdf', ...(data ? { file_data: data } : media.url ? { file_url: media.url } : { file_id: media.fileId }) };
    return { type: 'function_call_output', call_id: call.id, output: [{ type: 'input_text', text: output }, part] };
  },

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
