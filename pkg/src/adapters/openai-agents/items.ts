// The Agents SDK's input items and the 'openai-responses' format, both ways.
//
// The SDK does not hand the filter Responses API items: its protocol names a call's id
// `callId` (the API: `call_id`), answers a call with a `function_call_result` (the API:
// `function_call_output`), and wraps a tool's text as `{ type: 'text', text }`, which the
// API shape has no place for. The core's 'openai-responses' adapter reads the API's
// shape, so each SDK item is given to the manager in it, and what the manager sends back
// is turned into SDK items again. Everything else (messages, reasoning, built-in tools'
// items) is already in the shape the core reads, and passes as it is.

/** An SDK input item, as far as the mapping reads it. */
export type Item = Record<string, unknown>;

const isObject = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tool's output as the core reads it: a string, or an array of `input_text` parts and
 * others (which the core shows as `[type]`). The SDK's own `{ type: 'text' }` is its text;
 * a lone image or file becomes a one-part array, so that it reads as `[image]`.
 */
function coreOutput(output: unknown): unknown {
  if (typeof output === 'string' || Array.isArray(output)) return output;
  if (isObject(output) && output.type === 'text' && typeof output.text === 'string') return output.text;
  return isObject(output) ? [output] : output;
}

/**
 * `item` as the core's 'openai-responses' adapter reads it. A call's and a result's `id`
 * is left out: the SDK strips it when it saves items to a session, so an item read back
 * from a session must compare the same as the one the run held, or the manager would take
 * the whole history in anew at the next run.
 */
export function toCore(item: unknown): unknown {
  if (!isObject(item)) return item;
  if (item.type === 'function_call') {
    const { id: _id, ...rest } = item;
    return { ...rest, call_id: item.callId };
  }
  if (item.type === 'function_call_result') {
    const { id: _id, ...rest } = item;
    return { ...rest, type: 'function_call_output', call_id: item.callId, output: coreOutput(item.output) };
  }
  return item;
}

/**
 * An item the manager wrote that is not one the host gave it (a result shown as a
 * placeholder or cut, a summary, the note for dropped turns, the output of a call left
 * unanswered), as an SDK item. `names`: each call's tool name by call id, for an output
 * the core made, which has none.
 */
export function fromCore(item: unknown, names: { get(id: string): string | undefined }): unknown {
  if (!isObject(item)) return item;
  if (item.type === 'function_call_output') {
    const { call_id: callId, type: _type, ...rest } = item;
    const id = String(callId);
    const output = typeof item.output === 'string' ? { type: 'text', text: item.output } : item.output;
    return {
      ...rest, type: 'function_call_result', callId: id,
      name: typeof rest.name === 'string' ? rest.name : (names.get(id) ?? ''),
      status: typeof rest.status === 'string' ? rest.status : 'completed',
      output,
    };
  }
  if (item.type === 'function_call' && 'call_id' in item) {
    const { call_id: _callId, ...rest } = item;
    return rest;
  }
  // The summary and the note for dropped turns are `{ role: 'user', content }`: a user
  // message, which the SDK types with an optional `type`; say it, as its own items do.
  if (item.type === undefined && typeof item.role === 'string') return { type: 'message', ...item };
  return item;
}

/** Each function call's tool name in `items` (core shape), by call id. */
export function callNames(items: readonly unknown[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const item of items) {
    if (isObject(item) && item.type === 'function_call' && typeof item.call_id === 'string' && typeof item.name === 'string') names.set(item.call_id, item.name);
  }
  return names;
}
