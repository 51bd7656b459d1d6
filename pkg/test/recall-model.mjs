// A scripted model for the recall tool's tests: it reads the request it is sent, picks a
// store id the request names, and calls the recall tool the way each provider's SDK
// response holds a tool call. Also reads the tool result the host appends back, in each
// format, and parses the answer's heading.
import { fakeVscode } from './provider-sessions.mjs';
import { requestText } from './validity.mjs';

/**
 * The store ids a request names, in order, each once: in placeholders and index lines
 * (`stored as 17`, `stored as a:3`), cut markers (`the whole output is stored as 17`) and
 * the index's listing line (`listed in stored text 19`). Read from the request as sent
 * (JSON), so an id ends at a quote or backslash too.
 */
export function namedIds(request) {
  const text = requestText(request);
  const ids = [...text.matchAll(/(?:stored as|listed in stored text) ([^\s,;[\]\\"`]+)/g)].map((m) => m[1].replace(/[.:]+$/, ''));
  return [...new Set(ids)];
}

/**
 * The model's response calling tool `name` with `input` (or, for the OpenAI formats,
 * `rawArguments`: the arguments text as the model wrote it, JSON or not), in `format`:
 * `{ message, call }`, where `message` is what the host appends (the assistant message,
 * or the Responses API's output item) and `call` the call inside it, as the SDK gives it.
 */
export function modelCall(format, callId, input, { name = 'recall', rawArguments, vscode = fakeVscode } = {}) {
  const args = rawArguments ?? JSON.stringify(input);
  switch (format) {
    case 'anthropic': {
      const call = { type: 'tool_use', id: callId, name, input };
      return { message: { role: 'assistant', content: [call] }, call };
    }
    case 'openai-chat': {
      const call = { id: callId, type: 'function', function: { name, arguments: args } };
      return { message: { role: 'assistant', content: null, tool_calls: [call] }, call };
    }
    case 'openai-responses': {
      // An item of `response.output`, appended as it is.
      const call = { type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: args, status: 'completed' };
      return { message: call, call };
    }
    case 'ai-sdk': {
      const call = { type: 'tool-call', toolCallId: callId, toolName: name, input };
      return { message: { role: 'assistant', content: [call] }, call };
    }
    case 'vscode': {
      const call = new vscode.LanguageModelToolCallPart(callId, name, input);
      return { message: vscode.LanguageModelChatMessage.Assistant([call]), call };
    }
    case 'gemini': {
      // With no id, as Gemini may send it: its response is told apart by name and order.
      const call = { functionCall: { name, args: input } };
      return { message: { role: 'model', parts: [call] }, call };
    }
    default:
      throw new Error(`no such format: ${format}`);
  }
}

/** The tool result message `recall(call)` gave, read back: `{ callId, text }` (throws if it is not that format's tool result). */
export function toolResult(format, message, vscode = fakeVscode) {
  const fail = () => {
    throw new Error(`not a ${format} tool result: ${JSON.stringify(message).slice(0, 300)}`);
  };
  switch (format) {
    case 'anthropic': {
      const [block, ...rest] = message.role === 'user' && Array.isArray(message.content) ? message.content : [];
      if (block?.type !== 'tool_result' || rest.length || typeof block.content !== 'string') fail();
      return { callId: block.tool_use_id, text: block.content };
    }
    case 'openai-chat':
      if (message.role !== 'tool' || typeof message.content !== 'string') fail();
      return { callId: message.tool_call_id, text: message.content };
    case 'openai-responses':
      if (message.type !== 'function_call_output' || typeof message.output !== 'string') fail();
      return { callId: message.call_id, text: message.output };
    case 'ai-sdk': {
      const [part, ...rest] = message.role === 'tool' && Array.isArray(message.content) ? message.content : [];
      if (part?.type !== 'tool-result' || rest.length || part.output?.type !== 'text') fail();
      return { callId: part.toolCallId, text: part.output.value, toolName: part.toolName };
    }
    case 'vscode': {
      // The host's own classes: an extension gets real instances back.
      if (!(message instanceof vscode.LanguageModelChatMessage) || message.role !== vscode.LanguageModelChatMessageRole.User) fail();
      const [part, ...rest] = message.content;
      if (!(part instanceof vscode.LanguageModelToolResultPart) || rest.length || part.content.length !== 1) fail();
      const [text] = part.content;
      if (!(text instanceof vscode.LanguageModelTextPart)) fail();
      return { callId: part.callId, text: text.value };
    }
    case 'gemini': {
      const [part, ...rest] = message.role === 'user' && Array.isArray(message.parts) ? message.parts : [];
      const output = part?.functionResponse?.response?.output;
      if (rest.length || typeof output !== 'string') fail();
      return { callId: part.functionResponse.id, text: output, toolName: part.functionResponse.name };
    }
    default:
      return fail();
  }
}

const number = (s) => Number(s.replaceAll(',', ''));

/**
 * A page's answer: `{ id, label, start, end, total, next, body }` (`next`: the offset the
 * heading says to ask for, `undefined` at the end), or `undefined` if `text` is no page.
 */
export function parsePage(text) {
  const m = /^\[Stored text (\S+) \((.*?)\), characters ([\d,]+)–([\d,]+) of ([\d,]+)(?:; for more, recall it with offset (\d+)|(; the end))\]\n/.exec(text);
  if (!m) return undefined;
  return {
    id: m[1], label: m[2], start: number(m[3]), end: number(m[4]), total: number(m[5]),
    next: m[6] === undefined ? undefined : Number(m[6]), heading: m[0], body: text.slice(m[0].length),
  };
}

/** A query's answer: `{ id, label, shown, of, query, lines: [{ n, text }] }`, or `undefined`. */
export function parseQuery(text) {
  const [heading, ...rest] = text.split('\n');
  const m = /^\[Stored text (\S+) \((.*?)\): ([\d,]+) of ([\d,]+) lines containing (".*")(?:; for more, recall with this query and offset (\d+))?\]$/.exec(heading);
  if (!m) return undefined;
  const lines = rest.map((l) => {
    const k = l.indexOf(': ');
    return { n: Number(l.slice(0, k)), text: l.slice(k + 2) };
  });
  return { id: m[1], label: m[2], shown: number(m[3]), of: number(m[4]), query: JSON.parse(m[5]), next: m[6] === undefined ? undefined : Number(m[6]), lines };
}
