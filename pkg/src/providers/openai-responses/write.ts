// A Responses input item with its parts shown as the plan says: an output, a call's
// arguments, a built-in tool's output shortened in its own field, so the item keeps its
// type and its `call_id`; an image or a file becomes an `input_text` in its place. Where
// an item's field takes no text (a computer call's screenshot, a generated image, a tool
// search's tools), the item is emptied and a user message after it holds the line.
import type { Bag } from '../../core/read.js';
import { type NeutralPart, parsedArguments, shownContent } from '../neutral.js';

type Shown = string | null | undefined;

/** A 1 × 1 transparent PNG: a screenshot field that must hold an image, when its image is stored. */
export const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const inputText = (text: string): Bag => ({ type: 'input_text', text });
const line = (text: string): Bag => ({ type: 'message', role: 'user', content: [inputText(text)] });

/** A message part shown as `text`: its own text, or an `input_text` in the place of an image or a file. */
function shownPart(part: Bag, text: string): Bag {
  if (part.type === 'refusal') return { ...part, refusal: text };
  if (part.type === 'input_text' || part.type === 'output_text') return { ...part, text };
  return inputText(text);
}

/** An output of parts with its own text shown as `own` and its images and files as `inner` says. */
function shownOutput(output: unknown, own: Shown, inner: ReadonlyMap<number, Shown>): unknown {
  if (!Array.isArray(output)) return typeof own === 'string' ? own : output;
  const out: Bag[] = [];
  if (typeof own === 'string') out.push(inputText(own));
  output.forEach((p, i) => {
    if (!inner.has(i) && typeof own === 'string') return;
    const s = inner.get(i);
    out.push(typeof s === 'string' ? inputText(s) : (p as Bag));
  });
  return out;
}

/** `value`'s JSON text `s` parsed back, or `value` when it does not parse. */
function parsed(s: Shown, value: unknown): unknown {
  if (typeof s !== 'string') return value;
  const v = parsedArguments(s);
  return v === undefined ? value : v;
}

/** `source` (read as `parts`) shown as `shown` says: the item, and a message after it where its line has no field. */
export function shownItem(source: Bag, parts: readonly NeutralPart[], shown: readonly Shown[], drop: boolean): Bag[] {
  const type = source.type ?? 'message';
  const s = shown[0];
  const inner = new Map<number, Shown>();
  parts.forEach((p, j) => {
    if (p.inner !== undefined) inner.set(p.inner, shown[j]);
  });
  const text = typeof s === 'string' ? s : undefined;
  switch (type) {
    case 'message':
      return [{ ...source, content: shownContent(source.content, shown, drop, shownPart) }];
    case 'function_call':
    case 'mcp_approval_request':
      return [{ ...source, arguments: text ?? source.arguments }];
    case 'custom_tool_call':
      return [{ ...source, input: text ?? source.input }];
    case 'function_call_output':
    case 'custom_tool_call_output':
      return [{ ...source, output: shownOutput(source.output, s, inner) }];
    case 'computer_call':
      return [source.actions !== undefined ? { ...source, actions: parsed(s, source.actions) } : { ...source, action: parsed(s, source.action) }];
    case 'computer_call_output': {
      const shot = inner.get(0);
      if (typeof shot !== 'string') return [source];
      return [{ ...source, output: { type: 'computer_screenshot', image_url: TINY_PNG } }, line(shot)];
    }
    case 'shell_call':
    case 'local_shell_call':
    case 'web_search_call':
      return [{ ...source, action: parsed(s, source.action) }];
    case 'shell_call_output': {
      if (text === undefined) return [source];
      const first = Array.isArray(source.output) ? (source.output[0] as Bag | undefined) : undefined;
      return [{ ...source, output: [{ stdout: text, stderr: '', outcome: first?.outcome ?? { type: 'exit', exit_code: 0 } }] }];
    }
    case 'local_shell_call_output':
    case 'apply_patch_call_output':
      return [{ ...source, output: text ?? source.output }];
    case 'apply_patch_call':
      return [{ ...source, operation: parsed(s, source.operation) }];
    case 'program':
      return [{ ...source, code: text ?? source.code }];
    case 'program_output':
      return [{ ...source, result: text ?? source.result }];
    case 'mcp_approval_response':
      return [{ ...source, reason: text ?? source.reason }];
    case 'mcp_call': {
      const out = shown[1];
      const item = { ...source, arguments: text ?? source.arguments };
      return [typeof out === 'string' ? { ...item, output: out, error: null } : item];
    }
    case 'code_interpreter_call': {
      const out = shown[1];
      const outputs = Array.isArray(source.outputs) ? (source.outputs as Bag[]) : [];
      const kept = outputs.filter((o, i) => !(o?.type === 'logs' && typeof out === 'string') && typeof inner.get(i) !== 'string');
      const logs = typeof out === 'string' ? [{ type: 'logs', logs: out }] : [];
      return [{ ...source, code: text ?? source.code, outputs: [...logs, ...kept] }];
    }
    case 'file_search_call': {
      const out = shown[1];
      return [{ ...source, queries: parsed(s, source.queries), ...(typeof out === 'string' ? { results: [{ text: out }] } : {}) }];
    }
    case 'image_generation_call':
      return text === undefined ? [source] : [{ ...source, result: null }, line(text)];
    case 'tool_search_call':
      return [{ ...source, arguments: parsed(s, source.arguments) }];
    case 'tool_search_output':
      return text === undefined ? [source] : [{ ...source, tools: [] }, line(text)];
    default:
      // Passed through whole: reasoning, compaction, an MCP server's tool list, a reference.
      return [source];
  }
}

/** `source` with the bytes of its media parts `parts` let go, its shape kept. */
export function strippedItem(source: Bag, parts: readonly NeutralPart[]): Bag {
  const inline = (url: unknown) => (typeof url === 'string' && url.startsWith('data:') ? url.slice(0, url.indexOf(',') + 1) : url);
  const emptied = (p: Bag): Bag => (p.type === 'input_image' ? { ...p, image_url: inline(p.image_url) } : p.type === 'input_file' ? { ...p, file_data: '' } : p);
  switch (source.type ?? 'message') {
    case 'message': {
      const content = [...(source.content as Bag[])];
      for (const p of parts) if (p.block !== undefined) content[p.block] = emptied(content[p.block]);
      return { ...source, content };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const output = [...(source.output as Bag[])];
      for (const p of parts) if (p.inner !== undefined) output[p.inner] = emptied(output[p.inner]);
      return { ...source, output };
    }
    case 'computer_call_output':
      return { ...source, output: { ...(source.output as Bag), image_url: inline((source.output as Bag).image_url) } };
    case 'image_generation_call':
      return { ...source, result: '' };
    default:
      return source;
  }
}

/** The item that answers call `call` of item type `type` when the conversation holds no result for it: marked as interrupted. */
export function unansweredItem(type: unknown, id: string, text: string): Bag {
  switch (type) {
    case 'custom_tool_call':
      return { type: 'custom_tool_call_output', call_id: id, output: text };
    case 'computer_call':
      return { type: 'computer_call_output', call_id: id, output: { type: 'computer_screenshot', image_url: TINY_PNG } };
    case 'shell_call':
      return { type: 'shell_call_output', call_id: id, output: [{ stdout: '', stderr: text, outcome: { type: 'exit', exit_code: 1 } }] };
    case 'local_shell_call':
      return { type: 'local_shell_call_output', id, output: text };
    case 'apply_patch_call':
      return { type: 'apply_patch_call_output', call_id: id, status: 'failed', output: text };
    case 'mcp_approval_request':
      return { type: 'mcp_approval_response', approval_request_id: id, approve: false, reason: text };
    case 'tool_search_call':
      return { type: 'tool_search_output', call_id: id, tools: [], execution: 'client' };
    case 'program':
      return { type: 'program_output', call_id: id, result: text, status: 'incomplete' };
    default:
      return { type: 'function_call_output', call_id: id, output: text };
  }
}
