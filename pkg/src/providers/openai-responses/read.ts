// A Responses input item as parts (`openai`: `ResponseInputItem`). Every item is counted
// for what it holds: a built-in tool's call and its output (`shell_call`, `apply_patch_call`,
// `mcp_call`, `code_interpreter_call`, …) are a call and a result like a function's, paired
// by their `call_id`; a tool the provider runs itself (`mcp_call`, `code_interpreter_call`,
// `file_search_call`, `web_search_call`) is a server call answered in its own item; images
// and files are parts of their own; `encrypted_content` is counted by a stated rule.
import type { Bag } from '../../core/read.js';
import { decodeBase64 } from '../../core/base64.js';
import { audioOf, imageAt, mediaPart, wholeMedia } from '../media.js';
import { type MediaRef, type NeutralMessage, type NeutralPart, Kind, OPAQUE_TOKENS, Role, bag, json, shapeError, slot, text, intern } from '../neutral.js';

const MESSAGE_ROLES = ['user', 'assistant', 'system', 'developer'];

function roleOf(role: unknown): number | undefined {
  return ({ user: Role.User, assistant: Role.Assistant, system: Role.System, developer: Role.System } as Record<string, number>)[role as string];
}

/** Tokens of a field no counter can read (`encrypted_content`, a fingerprint): a token per 4 characters. */
export function opaque(value: unknown): number {
  return typeof value === 'string' ? Math.ceil(value.length / 4) : 0;
}

/** Base64 (or a data URL's) text decoded as UTF-8; `undefined` when it does not decode. */
function decodedText(data: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(decodeBase64(data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data));
  } catch {
    return undefined;
  }
}

/** An `input_file`: a PDF is a document of its own; a text file is counted as its text (`{ text }`); one held elsewhere is a document of pages unread. */
function fileOf(part: Bag): MediaRef | { text: string; name: string } {
  const data = typeof part.file_data === 'string' ? part.file_data : undefined;
  const name = typeof part.filename === 'string' ? part.filename : 'file';
  const typed = data?.startsWith('data:') ? data.slice(5, data.indexOf(';')) : '';
  const pdf = typed === 'application/pdf' || /\.pdf$/i.test(name) || (data !== undefined && !typed && data.startsWith('JVBERi'));
  if (data !== undefined && !pdf) {
    const body = decodedText(data);
    if (body !== undefined) return { text: body, name };
  }
  const inline = data?.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  if (inline !== undefined) return { kind: 'document', mediaType: 'application/pdf', data: inline };
  const ref: MediaRef = { kind: 'document', mediaType: 'application/pdf' };
  if (typeof part.file_url === 'string') ref.url = part.file_url;
  else ref.fileId = String(part.file_id ?? '');
  return ref;
}

/** An `input_image` as an image part. */
function imagePart(part: Bag, field: string, path: string, id: string | undefined, inner: number | undefined, block: number | undefined): NeutralPart {
  const detail = part.detail === 'low' || part.detail === 'high' || part.detail === 'original' ? part.detail : 'auto';
  const ref = typeof part.image_url === 'string'
    ? imageAt(part.image_url, detail)
    : { kind: 'image' as const, mediaType: '', fileId: text(`${field}.file_id`, part.file_id), detail: detail as 'auto' };
  return { ...mediaPart(ref, path, id), block, inner };
}

/** A message's content as parts: texts, images and files. */
function contentParts(field: string, content: unknown, path: string): NeutralPart[] {
  if (typeof content === 'string') return [{ kind: Kind.Text, text: content, label: '', path, block: 0 }];
  if (!Array.isArray(content)) throw shapeError(field, 'a string or an array of parts', content);
  return content.map((p, i): NeutralPart => {
    const part = bag(`${field}[${i}]`, p);
    const at = slot(path, i);
    if (part.type === 'input_text' || part.type === 'output_text') return { kind: Kind.Text, text: text(`${field}[${i}].text`, part.text), label: '', path: at, block: i };
    if (part.type === 'refusal') return { kind: Kind.Text, text: text(`${field}[${i}].refusal`, part.refusal), label: '', path: at, block: i };
    if (part.type === 'input_image') return imagePart(part, `${field}[${i}]`, at, undefined, undefined, i);
    if (part.type === 'input_file') {
      const file = fileOf(part);
      return 'kind' in file ? { ...mediaPart(file, at), block: i } : { kind: Kind.Text, text: file.text, label: '', path: at, block: i };
    }
    if (part.type === 'input_audio') return { ...wholeMedia(audioOf(bag(`${field}[${i}].input_audio`, part.input_audio), `${field}[${i}].input_audio`), at, 'input_audio'), block: i };
    if (typeof part.type !== 'string') throw shapeError(`${field}[${i}].type`, 'a string', part.type);
    return { kind: Kind.Opaque, text: '', label: part.type, path: at, tokens: OPAQUE_TOKENS, block: i };
  });
}

/** An output that is a string or a list of input parts: its text, then its images and files, each a part of its own. */
function outputParts(field: string, output: unknown, id: string, idPath: string): NeutralPart[] {
  if (typeof output === 'string') return [{ kind: Kind.Result, text: output, raw: output, label: '', id, path: 'output', idPath }];
  if (!Array.isArray(output)) throw shapeError(field, 'a string or an array of parts', output);
  const lines: string[] = [];
  const media: NeutralPart[] = [];
  output.forEach((p, i) => {
    const part = bag(`${field}[${i}]`, p);
    const at = intern(`output[${i}]`);
    if (part.type === 'input_text') lines.push(text(`${field}[${i}].text`, part.text));
    else if (part.type === 'input_image') media.push(imagePart(part, `${field}[${i}]`, at, id, i, undefined));
    else if (part.type === 'input_file') {
      const file = fileOf(part);
      if ('kind' in file) media.push({ ...mediaPart(file, at, id), inner: i });
      else lines.push(file.text);
    } else lines.push(json(part));
  });
  const out = lines.join('\n');
  return [{ kind: Kind.Result, text: out, raw: out, label: '', id, path: 'output', idPath }, ...media];
}

/** The text of a shell call's output: each command's stdout and stderr. */
function shellOutput(output: unknown): string {
  if (!Array.isArray(output)) return typeof output === 'string' ? output : '';
  return output.map((o) => [(o as Bag)?.stdout, (o as Bag)?.stderr].filter((x) => typeof x === 'string' && x !== '').join('\n')).join('\n');
}

const part = (p: Omit<NeutralPart, 'path'> & { path?: string }): NeutralPart => ({ path: '', ...p });

/** One item, as a message of parts. */
export function readItem(item: unknown, field: string): NeutralMessage {
  const m = bag(field, item);
  const type = m.type ?? 'message';
  const assistant = (parts: NeutralPart[]): NeutralMessage => ({ role: Role.Assistant, parts, source: item });
  const tool = (parts: NeutralPart[]): NeutralMessage => ({ role: Role.Tool, parts, source: item });
  const callId = () => text(`${field}.call_id`, m.call_id);
  switch (type) {
    case 'message': {
      const role = roleOf(m.role);
      if (role === undefined) throw shapeError(`${field}.role`, `one of ${MESSAGE_ROLES.map((r) => `'${r}'`).join(', ')}`, m.role);
      return { role, parts: contentParts(`${field}.content`, m.content, 'content'), source: item };
    }
    case 'function_call':
      return assistant([part({ kind: Kind.Call, text: text(`${field}.arguments`, m.arguments), label: text(`${field}.name`, m.name), id: callId(), path: 'arguments' })]);
    case 'custom_tool_call':
      return assistant([part({ kind: Kind.Call, text: text(`${field}.input`, m.input), label: text(`${field}.name`, m.name), id: callId(), path: 'input' })]);
    case 'function_call_output':
    case 'custom_tool_call_output':
      return tool(outputParts(`${field}.output`, m.output, callId(), 'call_id'));
    case 'computer_call':
      return assistant([part({ kind: Kind.Call, text: json(m.actions ?? m.action), label: 'computer', id: callId(), path: 'action' })]);
    case 'computer_call_output': {
      const id = callId();
      const shot = bag(`${field}.output`, m.output);
      return tool([
        part({ kind: Kind.Result, text: '', raw: '', label: 'computer', id, path: 'output', idPath: 'call_id' }),
        imagePart({ ...shot, detail: 'auto' }, `${field}.output`, 'output', id, 0, undefined),
      ]);
    }
    case 'shell_call':
      return assistant([part({ kind: Kind.Call, text: json(m.action), label: 'shell', id: callId(), path: 'action' })]);
    case 'shell_call_output':
      return tool([part({ kind: Kind.Result, text: shellOutput(m.output), label: 'shell', id: callId(), path: 'output', idPath: 'call_id' })]);
    case 'local_shell_call':
      return assistant([part({ kind: Kind.Call, text: json(m.action), label: 'local_shell', id: callId(), path: 'action' })]);
    case 'local_shell_call_output':
      // Answers its call by its own `id`: the call's `call_id`.
      return tool([part({ kind: Kind.Result, text: text(`${field}.output`, m.output), label: 'local_shell', id: text(`${field}.id`, m.id), path: 'output', idPath: 'id' })]);
    case 'apply_patch_call':
      return assistant([part({ kind: Kind.Call, text: json(m.operation), label: 'apply_patch', id: callId(), path: 'operation' })]);
    case 'apply_patch_call_output':
      return tool([part({ kind: Kind.Result, text: typeof m.output === 'string' ? m.output : '', label: 'apply_patch', id: callId(), path: 'output', idPath: 'call_id' })]);
    case 'program':
      return assistant([part({ kind: Kind.Call, text: text(`${field}.code`, m.code), label: 'program', id: callId(), path: 'code', tokens: opaque(m.fingerprint) })]);
    case 'program_output':
      return tool([part({ kind: Kind.Result, text: text(`${field}.result`, m.result), label: 'program', id: callId(), path: 'result', idPath: 'call_id' })]);
    case 'mcp_approval_request':
      return assistant([part({ kind: Kind.Call, text: text(`${field}.arguments`, m.arguments), label: text(`${field}.name`, m.name), id: text(`${field}.id`, m.id), path: 'arguments' })]);
    case 'mcp_approval_response':
      return tool([part({ kind: Kind.Result, text: `${m.approve === true ? 'approved' : 'denied'}${typeof m.reason === 'string' ? `: ${m.reason}` : ''}`, label: 'mcp_approval', id: text(`${field}.approval_request_id`, m.approval_request_id), path: 'reason', idPath: 'approval_request_id' })]);
    case 'mcp_call': {
      // The provider runs it: the call and its output in one item.
      const id = text(`${field}.id`, m.id);
      const out = typeof m.output === 'string' ? m.output : m.error === undefined || m.error === null ? '' : json(m.error);
      return assistant([
        part({ kind: Kind.ServerCall, text: text(`${field}.arguments`, m.arguments), label: text(`${field}.name`, m.name), id, path: 'arguments' }),
        part({ kind: Kind.Result, text: out, label: '', id, path: 'output' }),
      ]);
    }
    case 'code_interpreter_call': {
      const id = text(`${field}.id`, m.id);
      const outputs = Array.isArray(m.outputs) ? (m.outputs as Bag[]) : [];
      const logs = outputs.filter((o) => o?.type === 'logs').map((o) => String(o.logs)).join('\n');
      const images = outputs.flatMap((o, i) => (o?.type === 'image' && typeof o.url === 'string' ? [{ ...mediaPart(imageAt(o.url), intern(`outputs[${i}]`), id), inner: i }] : []));
      return assistant([
        part({ kind: Kind.ServerCall, text: typeof m.code === 'string' ? m.code : '', label: 'code_interpreter', id, path: 'code' }),
        part({ kind: Kind.Result, text: logs, label: '', id, path: 'outputs' }),
        ...images,
      ]);
    }
    case 'file_search_call': {
      const id = text(`${field}.id`, m.id);
      const results = Array.isArray(m.results) ? (m.results as Bag[]) : [];
      return assistant([
        part({ kind: Kind.ServerCall, text: json(m.queries), label: 'file_search', id, path: 'queries' }),
        part({ kind: Kind.Result, text: results.map((r) => [r?.filename, r?.text].filter((x) => typeof x === 'string').join('\n')).join('\n'), label: '', id, path: 'results' }),
      ]);
    }
    case 'web_search_call':
      return assistant([part({ kind: Kind.ServerCall, text: json(m.action), label: 'web_search', id: text(`${field}.id`, m.id), path: 'action' })]);
    case 'image_generation_call':
      return assistant([typeof m.result === 'string'
        ? { ...mediaPart({ kind: 'image', mediaType: 'image/png', data: m.result }, 'result') }
        : part({ kind: Kind.Opaque, text: '', label: 'image_generation_call', path: 'result' })]);
    case 'tool_search_call':
    case 'tool_search_output': {
      const id = typeof m.call_id === 'string' ? m.call_id : undefined;
      const server = m.execution === 'server';
      if (id === undefined) return assistant([part({ kind: Kind.Opaque, text: json(m), label: String(type) })]);
      if (type === 'tool_search_call') return assistant([part({ kind: server ? Kind.ServerCall : Kind.Call, text: json(m.arguments), label: 'tool_search', id, path: 'arguments' })]);
      const result = part({ kind: Kind.Result, text: json(m.tools), label: 'tool_search', id, path: 'tools', idPath: 'call_id' });
      return server ? assistant([result]) : tool([result]);
    }
    case 'reasoning': {
      // Bound to its model, not to the prefix: an edit before it does not void it, so it is
      // passed through whole, its summary counted and its encrypted reasoning by the stated rule.
      const said = [m.summary, m.content].flatMap((l) => (Array.isArray(l) ? l : [])).map((s) => (typeof (s as Bag)?.text === 'string' ? (s as Bag).text : '')).join('\n');
      return assistant([part({ kind: Kind.Opaque, text: said, label: 'reasoning', tokens: opaque(m.encrypted_content) })]);
    }
    case 'compaction':
      return assistant([part({ kind: Kind.Compaction, text: '', label: 'compaction', tokens: opaque(text(`${field}.encrypted_content`, m.encrypted_content)) })]);
    case 'item_reference':
      // An item the provider holds: what it holds is not in the request, the stated figure.
      return assistant([part({ kind: Kind.Opaque, text: '', label: 'item_reference', tokens: OPAQUE_TOKENS })]);
    default:
      if (typeof type !== 'string') throw shapeError(`${field}.type`, 'a string', type);
      // The tool list of an MCP server, tools added, a compaction trigger, …: passed
      // through as they are, counted as the JSON they are.
      return { role: type === 'additional_tools' ? Role.System : Role.Assistant, parts: [part({ kind: Kind.Opaque, text: json(m), label: type })], source: item };
  }
}
