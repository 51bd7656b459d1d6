// Random VALID provider items of every format, drawn from the block, part and item types the
// SDKs define (test/fixtures/provider-block-types.json): one maker per type, each making
// the shape its SDK's type definition gives, placed where the provider takes it (a server
// tool's result beside its call, a client call's result in the message after it). A
// conversation model keeps the calls waiting for results, so every sequence is one a real
// host could append.
import { base64, pdf, png } from './media-bytes.mjs';
import { fakeVscode } from './provider-sessions.mjs';

/** A small seeded generator (xorshift): a seed replays its sequence. */
export class Rng {
  constructor(seed) {
    this.s = (seed * 2654435761) >>> 0 || 1;
  }
  next() {
    let s = this.s;
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    this.s = s >>> 0;
    return this.s;
  }
  below(n) {
    return this.next() % Math.max(1, n);
  }
  pick(list) {
    return list[this.below(list.length)];
  }
  chance(p) {
    return this.below(1000) < p * 1000;
  }
}

const WORDS = ['src/main.rs', 'the parser', 'fn run() {}', 'error[E0308]', 'ok', '𝄞é', '\n'];
/** A text: mostly short, some long, a few large, some empty. */
export function text(rng) {
  const r = rng.below(100);
  const n = r < 4 ? 0 : r < 70 ? 1 + rng.below(200) : r < 95 ? 200 + rng.below(4_000) : 20_000 + rng.below(80_000);
  let out = '';
  while (out.length < n) out += `${rng.pick(WORDS)} `;
  return out;
}
const nonEmpty = (rng) => text(rng) || 'ok';
const TOOLS = ['bash', 'read_file', 'todo', 'edit'];
const PNG = base64(png(64, 48));
const PNG_LARGE = base64(png(2400, 1600));
const PDF = base64(pdf());

/** What the conversation holds so far: the calls waiting for results, and ids. */
export class Model {
  constructor() {
    this.n = 0;
    this.open = [];
    this.last = undefined;
  }
  id(prefix) {
    return `${prefix}${++this.n}`;
  }
  call(prefix, rng, withId = true) {
    const c = { id: withId ? this.id(prefix) : undefined, name: rng.pick(TOOLS) };
    this.open.push(c);
    return c;
  }
  /** The open calls, taken: most get a result, a few are left open (the request marks them). */
  answering(rng) {
    const open = this.open;
    this.open = [];
    return open.filter(() => !rng.chance(0.08));
  }
}

// Anthropic: `ContentBlockParam` and the beta blocks. Server tools' results come right after
// their call, in the same assistant message.
const serverResult = {
  web_search_tool_result: (rng, id) => ({ type: 'web_search_tool_result', tool_use_id: id, content: rng.chance(0.2) ? { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } : [{ type: 'web_search_result', url: 'https://example.org/a', title: nonEmpty(rng), encrypted_content: 'ZW5j'.repeat(1 + rng.below(200)), page_age: null }] }),
  web_fetch_tool_result: (rng, id) => ({ type: 'web_fetch_tool_result', tool_use_id: id, content: { type: 'web_fetch_result', url: 'https://example.org/doc', retrieved_at: '2026-01-01T00:00:00Z', content: rng.chance(0.3) ? { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } } : { type: 'document', source: { type: 'text', media_type: 'text/plain', data: nonEmpty(rng) } } } }),
  code_execution_tool_result: (rng, id) => ({ type: 'code_execution_tool_result', tool_use_id: id, content: rng.chance(0.2) ? { type: 'encrypted_code_execution_result', encrypted_stdout: 'ZW5j', stderr: '', return_code: 0, content: [] } : { type: 'code_execution_result', stdout: text(rng), stderr: '', return_code: 0, content: [] } }),
  bash_code_execution_tool_result: (rng, id) => ({ type: 'bash_code_execution_tool_result', tool_use_id: id, content: { type: 'bash_code_execution_result', stdout: text(rng), stderr: text(rng), return_code: 1, content: [] } }),
  text_editor_code_execution_tool_result: (rng, id) => ({ type: 'text_editor_code_execution_tool_result', tool_use_id: id, content: { type: 'text_editor_code_execution_view_result', content: text(rng), file_type: 'text', num_lines: 3, start_line: 1, total_lines: 3 } }),
  tool_search_tool_result: (rng, id) => ({ type: 'tool_search_tool_result', tool_use_id: id, content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: rng.pick(TOOLS) }] } }),
  advisor_tool_result: (rng, id) => ({ type: 'advisor_tool_result', tool_use_id: id, content: rng.chance(0.3) ? { type: 'advisor_redacted_result', encrypted_content: 'ZW5j' } : { type: 'advisor_result', text: nonEmpty(rng) } }),
};
const SERVER_TOOL = { web_search_tool_result: 'web_search', web_fetch_tool_result: 'web_fetch', code_execution_tool_result: 'code_execution', bash_code_execution_tool_result: 'bash_code_execution', text_editor_code_execution_tool_result: 'text_editor_code_execution', tool_search_tool_result: 'tool_search_tool_regex', advisor_tool_result: 'advisor' };

const anthropicImageBlock = (rng) => ({ type: 'image', source: rng.pick([{ type: 'base64', media_type: 'image/png', data: PNG }, { type: 'base64', media_type: 'image/png', data: PNG_LARGE }, { type: 'url', url: 'https://example.org/i.png' }, { type: 'file', file_id: 'file_013' }]) });
const anthropicDocument = (rng) => ({ type: 'document', source: rng.pick([{ type: 'base64', media_type: 'application/pdf', data: PDF }, { type: 'text', media_type: 'text/plain', data: nonEmpty(rng) }, { type: 'url', url: 'https://example.org/d.pdf' }, { type: 'content', content: [{ type: 'text', text: nonEmpty(rng) }] }]), title: 'notes' });

/** Anthropic's blocks by type: `(rng, model, out)` pushes the block (and what must come with it). */
export const ANTHROPIC = {
  user: {
    text: (rng) => [{ type: 'text', text: nonEmpty(rng) }],
    image: (rng) => [anthropicImageBlock(rng)],
    document: (rng) => [anthropicDocument(rng)],
    search_result: (rng) => [{ type: 'search_result', source: 'https://example.org/s', title: 'S', content: [{ type: 'text', text: nonEmpty(rng) }] }],
    container_upload: () => [{ type: 'container_upload', file_id: 'file_011' }],
  },
  assistant: {
    text: (rng) => [{ type: 'text', text: nonEmpty(rng) }],
    thinking: (rng) => [{ type: 'thinking', thinking: nonEmpty(rng), signature: 'c2ln'.repeat(1 + rng.below(50)) }],
    redacted_thinking: (rng) => [{ type: 'redacted_thinking', data: 'cmVk'.repeat(1 + rng.below(50)) }],
    tool_use: (rng, model) => {
      const c = model.call('toolu_', rng);
      return [{ type: 'tool_use', id: c.id, name: c.name, input: { command: text(rng) } }];
    },
    server_tool_use: (rng, model) => {
      const kind = rng.pick(Object.keys(serverResult));
      const id = model.id('srvtoolu_');
      return [{ type: 'server_tool_use', id, name: SERVER_TOOL[kind], input: { query: text(rng) } }, serverResult[kind](rng, id)];
    },
    ...Object.fromEntries(Object.keys(serverResult).map((kind) => [kind, (rng, model) => {
      const id = model.id('srvtoolu_');
      return [{ type: 'server_tool_use', id, name: SERVER_TOOL[kind], input: {} }, serverResult[kind](rng, id)];
    }])),
    mcp_tool_use: (rng, model) => {
      const id = model.id('mcptoolu_');
      return [{ type: 'mcp_tool_use', id, name: 'ask', server_name: 'wiki', input: { q: text(rng) } }, { type: 'mcp_tool_result', tool_use_id: id, is_error: false, content: [{ type: 'text', text: text(rng) }] }];
    },
    compaction: (rng) => [{ type: 'compaction', content: rng.chance(0.8) ? nonEmpty(rng) : null, ...(rng.chance(0.5) ? { encrypted_content: 'ZW5j'.repeat(1 + rng.below(100)) } : {}) }],
    container_upload: () => [{ type: 'container_upload', file_id: 'file_012' }],
    tool_addition: () => [{ type: 'tool_addition', tool: { type: 'tool_reference', tool_name: 'bash' } }],
    tool_removal: () => [{ type: 'tool_removal', tool: { type: 'tool_reference', tool_name: 'bash' } }],
    mcp_tool_listing: () => [{ type: 'mcp_tool_listing', mcp_server_name: 'wiki', tools: [{ name: 'ask', input_schema: { type: 'object' } }] }],
    fallback: () => [{ type: 'fallback', from: { model: 'a' }, to: { model: 'b' } }],
  },
};
ANTHROPIC.assistant.mcp_tool_result = ANTHROPIC.assistant.mcp_tool_use;

/** Block types of the list that sit inside others, or go where the model puts them. */
export const ANTHROPIC_RESULT = 'tool_result';

function anthropicResults(rng, model) {
  return model.answering(rng).map((c) => ({
    type: 'tool_result', tool_use_id: c.id,
    content: rng.chance(0.7) ? text(rng) : [{ type: 'text', text: text(rng) }, ...(rng.chance(0.5) ? [anthropicImageBlock(rng)] : [anthropicDocument(rng)])],
    ...(rng.chance(0.1) ? { is_error: true } : {}),
  }));
}

/** The next message(s) of `format` (what a host appends in one call), and who sent them. */
export function nextItems(format, rng, model) {
  const answer = model.open.length > 0 && !rng.chance(0.1);
  const turn = answer ? 'answer' : model.last !== 'assistant' && rng.chance(0.6) ? 'assistant' : 'user';
  const items = MAKERS[format](rng, model, turn);
  if (items.length) model.last = turn === 'answer' ? 'user' : turn;
  return items;
}

/** `n` blocks of random types of `table`, each with what must come with it. */
function blocks(table, rng, n, model) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(...rng.pick(Object.values(table))(rng, model));
  return out;
}

const MAKERS = {
  anthropic(rng, model, turn) {
    if (turn === 'answer') {
      const content = anthropicResults(rng, model);
      if (rng.chance(0.3)) content.push({ type: 'text', text: nonEmpty(rng) });
      return content.length ? [{ role: 'user', content }] : [];
    }
    model.open = [];
    const content = turn === 'assistant' ? blocks(ANTHROPIC.assistant, rng, 1 + rng.below(4), model) : blocks(ANTHROPIC.user, rng, 1 + rng.below(3), model);
    if (turn === 'user' && rng.chance(0.3)) return [{ role: 'user', content: nonEmpty(rng) }];
    return [{ role: turn, content }];
  },
  'openai-chat'(rng, model, turn) {
    if (turn === 'answer') return model.answering(rng).map((c) => ({ role: 'tool', tool_call_id: c.id, content: rng.chance(0.7) ? text(rng) : [{ type: 'text', text: text(rng) }] }));
    model.open = [];
    if (turn === 'assistant') {
      const calls = rng.chance(0.5) ? Array.from({ length: 1 + rng.below(3) }, () => {
        const c = model.call('call_', rng);
        return rng.chance(0.2) ? { id: c.id, type: 'custom', custom: { name: c.name, input: text(rng) } } : { id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify({ cmd: text(rng) }) } };
      }) : undefined;
      const content = calls && rng.chance(0.5) ? null : rng.chance(0.1) ? undefined : nonEmpty(rng);
      const m = { role: 'assistant', content: content === undefined ? null : content };
      if (content === undefined) m.refusal = 'no';
      if (calls) m.tool_calls = calls;
      if (!calls && m.content === null) m.content = 'ok';
      return [m];
    }
    return [CHAT[rng.pick(Object.keys(CHAT))](rng)];
  },
  'openai-responses'(rng, model, turn) {
    if (turn === 'answer') return model.answering(rng).map((c) => RESPONSES_OUTPUT[c.kind](rng, c));
    model.open = [];
    const pool = turn === 'assistant' ? RESPONSES_ASSISTANT : RESPONSES_USER;
    return Array.from({ length: 1 + rng.below(3) }, () => rng.pick(Object.values(pool))(rng, model));
  },
  'ai-sdk'(rng, model, turn) {
    if (turn === 'answer') {
      const content = model.answering(rng).map((c) => AI_SDK_RESULT(rng, c));
      return content.length ? [{ role: 'tool', content }] : [];
    }
    model.open = [];
    if (turn === 'user' && rng.chance(0.15)) return [{ role: 'system', content: nonEmpty(rng) }];
    const table = turn === 'assistant' ? AI_SDK.assistant : AI_SDK.user;
    return [{ role: turn, content: blocks(table, rng, 1 + rng.below(3), model) }];
  },
  vscode(rng, model, turn) {
    const V = fakeVscode;
    if (turn === 'answer') {
      const parts = model.answering(rng).map((c) => new V.LanguageModelToolResultPart(c.id, [new V.LanguageModelTextPart(text(rng)), ...(rng.chance(0.2) ? [V.LanguageModelDataPart.image(png(40, 30), 'image/png')] : [])]));
      return parts.length ? [V.LanguageModelChatMessage.User(parts)] : [];
    }
    model.open = [];
    if (turn === 'assistant') {
      const parts = [new V.LanguageModelTextPart(nonEmpty(rng))];
      if (rng.chance(0.5)) for (let i = 0; i <= rng.below(3); i++) {
        const c = model.call('vs_', rng);
        parts.push(new V.LanguageModelToolCallPart(c.id, c.name, { cmd: text(rng) }));
      }
      return [V.LanguageModelChatMessage.Assistant(parts)];
    }
    const parts = [new V.LanguageModelTextPart(nonEmpty(rng))];
    if (rng.chance(0.2)) parts.push(new V.LanguageModelDataPart(new TextEncoder().encode(text(rng)), 'text/plain'));
    if (rng.chance(0.2)) parts.push(V.LanguageModelDataPart.image(png(50, 50), 'image/png'));
    return [V.LanguageModelChatMessage.User(parts)];
  },
  gemini(rng, model, turn) {
    if (turn === 'answer') {
      const parts = model.answering(rng).map((c) => ({ functionResponse: { ...(c.id ? { id: c.id } : {}), name: c.name, response: rng.chance(0.7) ? { output: text(rng) } : { result: text(rng) } } }));
      return parts.length ? [{ role: 'user', parts }] : [];
    }
    model.open = [];
    const table = turn === 'assistant' ? GEMINI.model : GEMINI.user;
    return [{ role: turn === 'assistant' ? 'model' : 'user', parts: blocks(table, rng, 1 + rng.below(3), model) }];
  },
};

// OpenAI Chat: the message roles, and the content parts of a user message.
const chatPart = {
  text: (rng) => ({ type: 'text', text: nonEmpty(rng) }),
  image_url: (rng) => ({ type: 'image_url', image_url: { url: rng.chance(0.5) ? `data:image/png;base64,${PNG}` : 'https://example.org/i.png', detail: rng.pick(['low', 'high', 'auto']) } }),
  input_audio: () => ({ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }),
  file: (rng) => ({ type: 'file', file: rng.chance(0.5) ? { file_data: `data:application/pdf;base64,${PDF}`, filename: 'a.pdf' } : { file_id: 'file-1' } }),
};
export const CHAT_PARTS = chatPart;
const CHAT = {
  developer: (rng) => ({ role: 'developer', content: nonEmpty(rng) }),
  system: (rng) => ({ role: 'system', content: [{ type: 'text', text: nonEmpty(rng) }] }),
  user: (rng) => ({ role: 'user', content: rng.chance(0.4) ? nonEmpty(rng) : Array.from({ length: 1 + rng.below(3) }, () => rng.pick(Object.values(chatPart))(rng)) }),
  function: (rng) => ({ role: 'function', name: 'old_tool', content: text(rng) }),
};
export const CHAT_ROLES = [...Object.keys(CHAT), 'assistant', 'tool'];

// OpenAI Responses: `ResponseInputItem`, one item a message.
const input = (rng) => rng.pick([{ type: 'input_text', text: nonEmpty(rng) }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' }, { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'a.pdf' }, { type: 'input_file', file_id: 'file-2' }]);
const call = (kind, prefix) => (rng, model) => Object.assign(model.call(prefix, rng), { kind });
const RESPONSES_USER = {
  message: (rng) => rng.chance(0.5) ? { role: rng.pick(['user', 'system', 'developer']), content: nonEmpty(rng) } : { type: 'message', role: 'user', content: [input(rng), input(rng)] },
  additional_tools: () => ({ type: 'additional_tools', tools: [{ type: 'function', name: 'extra', parameters: {} }] }),
  configuration_update: () => ({ type: 'configuration_update', id: 'cu_1' }),
  compaction_trigger: () => ({ type: 'compaction_trigger' }),
  item_reference: () => ({ type: 'item_reference', id: 'msg_0' }),
};
const RESPONSES_ASSISTANT = {
  message: (rng) => ({ type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: nonEmpty(rng), annotations: [] }] }),
  reasoning: (rng) => ({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: text(rng) }], encrypted_content: 'ZW5j'.repeat(1 + rng.below(100)) }),
  compaction: (rng) => ({ type: 'compaction', encrypted_content: 'ZW5j'.repeat(1 + rng.below(300)) }),
  function_call: (rng, model) => { const c = call('function', 'fc_')(rng, model); return { type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify({ cmd: text(rng) }) }; },
  custom_tool_call: (rng, model) => { const c = call('custom', 'ct_')(rng, model); return { type: 'custom_tool_call', call_id: c.id, name: c.name, input: text(rng) }; },
  computer_call: (rng, model) => { const c = call('computer', 'cc_')(rng, model); return { type: 'computer_call', id: 'cu_2', call_id: c.id, action: { type: 'click', button: 'left', x: 1, y: 2 }, pending_safety_checks: [], status: 'completed' }; },
  shell_call: (rng, model) => { const c = call('shell', 'sh_')(rng, model); return { type: 'shell_call', call_id: c.id, action: { commands: [text(rng)] }, status: 'completed' }; },
  local_shell_call: (rng, model) => { const c = call('local_shell', 'ls_')(rng, model); return { type: 'local_shell_call', id: 'lsc_1', call_id: c.id, action: { type: 'exec', command: ['ls'], env: {} }, status: 'completed' }; },
  apply_patch_call: (rng, model) => { const c = call('apply_patch', 'ap_')(rng, model); return { type: 'apply_patch_call', call_id: c.id, operation: { type: 'update_file', path: 'src/a.rs', diff: text(rng) }, status: 'completed' }; },
  program: (rng, model) => { const c = call('program', 'pg_')(rng, model); return { type: 'program', call_id: c.id, code: nonEmpty(rng) }; },
  mcp_approval_request: (rng, model) => { const c = call('mcp_approval', 'mcpr_')(rng, model); return { type: 'mcp_approval_request', id: c.id, name: c.name, arguments: '{}', server_label: 'wiki' }; },
  tool_search_call: (rng, model) => { const c = call('tool_search', 'tsc_')(rng, model); return { type: 'tool_search_call', call_id: c.id, arguments: { query: 'x' }, execution: 'client' }; },
  mcp_call: (rng, model) => ({ type: 'mcp_call', id: model.id('mcp_'), name: 'ask', arguments: '{}', server_label: 'wiki', output: text(rng) }),
  code_interpreter_call: (rng, model) => ({ type: 'code_interpreter_call', id: model.id('ci_'), code: text(rng), container_id: 'c', status: 'completed', outputs: [{ type: 'logs', logs: text(rng) }, ...(rng.chance(0.3) ? [{ type: 'image', url: `data:image/png;base64,${PNG}` }] : [])] }),
  file_search_call: (rng, model) => ({ type: 'file_search_call', id: model.id('fs_'), queries: ['q'], status: 'completed', results: [{ filename: 'a.md', text: text(rng) }] }),
  web_search_call: (rng, model) => ({ type: 'web_search_call', id: model.id('ws_'), status: 'completed', action: { type: 'search', query: 'q' } }),
  image_generation_call: (rng) => ({ type: 'image_generation_call', id: 'ig_1', status: 'completed', result: rng.chance(0.7) ? PNG : null }),
  mcp_list_tools: () => ({ type: 'mcp_list_tools', id: 'ml_1', server_label: 'wiki', tools: [] }),
};
const RESPONSES_OUTPUT = {
  function: (rng, c) => ({ type: 'function_call_output', call_id: c.id, output: rng.chance(0.8) ? text(rng) : [{ type: 'input_text', text: text(rng) }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] }),
  custom: (rng, c) => ({ type: 'custom_tool_call_output', call_id: c.id, output: text(rng) }),
  computer: (rng, c) => ({ type: 'computer_call_output', call_id: c.id, output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${PNG}` } }),
  shell: (rng, c) => ({ type: 'shell_call_output', call_id: c.id, output: [{ stdout: text(rng), stderr: '', outcome: { type: 'exit', exit_code: 0 } }] }),
  local_shell: (rng, c) => ({ type: 'local_shell_call_output', id: c.id, output: text(rng) }),
  apply_patch: (rng, c) => ({ type: 'apply_patch_call_output', call_id: c.id, status: 'completed', output: text(rng) }),
  program: (rng, c) => ({ type: 'program_output', call_id: c.id, result: text(rng) }),
  mcp_approval: (rng, c) => ({ type: 'mcp_approval_response', approval_request_id: c.id, approve: rng.chance(0.5) }),
  tool_search: (rng, c) => ({ type: 'tool_search_output', call_id: c.id, tools: [], execution: 'client' }),
};
/** Each `ResponseInputItem` type, by the table that makes it. */
export const RESPONSES_TYPES = new Set([...Object.keys(RESPONSES_USER), ...Object.keys(RESPONSES_ASSISTANT), 'function_call_output', 'custom_tool_call_output', 'computer_call_output', 'shell_call_output', 'local_shell_call_output', 'apply_patch_call_output', 'program_output', 'mcp_approval_response', 'tool_search_output']);

// The AI SDK's `ModelMessage` parts (v6 and v7), by role.
const aiFile = (rng) => rng.pick([{ type: 'file', data: PDF, mediaType: 'application/pdf' }, { type: 'file', data: new TextEncoder().encode(text(rng)), mediaType: 'text/plain' }, { type: 'file', data: 'https://example.org/a.mp3', mediaType: 'audio/mpeg' }]);
export const AI_SDK = {
  user: {
    text: (rng) => [{ type: 'text', text: nonEmpty(rng) }],
    image: (rng) => [{ type: 'image', image: rng.chance(0.5) ? PNG : new URL('https://example.org/i.png'), mediaType: 'image/png' }],
    file: (rng) => [aiFile(rng)],
  },
  assistant: {
    text: (rng) => [{ type: 'text', text: nonEmpty(rng) }],
    reasoning: (rng) => [{ type: 'reasoning', text: nonEmpty(rng) }],
    'reasoning-file': () => [{ type: 'reasoning-file', data: PNG, mediaType: 'image/png' }],
    custom: () => [{ type: 'custom', kind: 'x', data: {} }],
    file: (rng) => [aiFile(rng)],
    'tool-call': (rng, model) => {
      if (rng.chance(0.3)) {
        const id = model.id('pe_');
        return [{ type: 'tool-call', toolCallId: id, toolName: 'web_search', input: { q: 'x' }, providerExecuted: true }, { type: 'tool-result', toolCallId: id, toolName: 'web_search', output: { type: 'json', value: { hits: [text(rng)] } } }];
      }
      const c = model.call('aic_', rng);
      return [{ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: { cmd: text(rng) } }];
    },
    'tool-approval-request': (rng, model) => {
      const c = model.call('apr_', rng);
      c.approval = true;
      const call = model.id('aic_');
      return [{ type: 'tool-call', toolCallId: call, toolName: 'bash', input: {} }, { type: 'tool-approval-request', approvalId: c.id, toolCallId: call }];
    },
  },
};
AI_SDK.assistant['tool-result'] = AI_SDK.assistant['tool-call'];
function AI_SDK_RESULT(rng, c) {
  if (c.approval) return { type: 'tool-approval-response', approvalId: c.id, approved: rng.chance(0.5), ...(rng.chance(0.5) ? { reason: 'ok' } : {}) };
  const output = rng.pick([
    { type: 'text', value: text(rng) }, { type: 'json', value: { out: text(rng) } }, { type: 'error-text', value: text(rng) }, { type: 'execution-denied', reason: 'no' },
    { type: 'content', value: [{ type: 'text', text: text(rng) }, { type: 'image-data', data: PNG, mediaType: 'image/png' }] },
  ]);
  return { type: 'tool-result', toolCallId: c.id, toolName: c.name, output };
}
export const AI_SDK_TOOL = ['tool-result', 'tool-approval-response'];

// Gemini: `Part`'s fields, by the role that sends them.
export const GEMINI = {
  user: {
    text: (rng) => [{ text: nonEmpty(rng) }],
    inlineData: (rng) => [{ inlineData: rng.pick([{ mimeType: 'image/png', data: PNG }, { mimeType: 'application/pdf', data: PDF }, { mimeType: 'audio/wav', data: 'UklGRg==' }]) }],
    fileData: () => [{ fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/a.pdf' } }],
    videoMetadata: () => [{ fileData: { mimeType: 'video/mp4', fileUri: 'gs://b/v.mp4' }, videoMetadata: { startOffset: '0s' } }],
    mediaResolution: () => [{ inlineData: { mimeType: 'image/png', data: PNG }, mediaResolution: { level: 'MEDIA_RESOLUTION_LOW' } }],
    partMetadata: (rng) => [{ text: nonEmpty(rng), partMetadata: { k: 'v' } }],
    documentMetadata: () => [{ inlineData: { mimeType: 'application/pdf', data: PDF }, documentMetadata: { startPage: 1, endPage: 2 } }],
    spreadsheetMetadata: () => [{ fileData: { mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', fileUri: 'gs://b/s.xlsx' }, spreadsheetMetadata: { sheetIndex: 1 } }],
    audioMetadata: () => [{ inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' }, audioMetadata: { startOffset: '0s' } }],
  },
  model: {
    text: (rng) => [{ text: nonEmpty(rng) }],
    thought: (rng) => [{ text: nonEmpty(rng), thought: true }],
    thoughtSignature: (rng) => [{ text: nonEmpty(rng), thoughtSignature: 'c2ln'.repeat(1 + rng.below(30)) }],
    functionCall: (rng, model) => {
      const c = model.call('gem_', rng, rng.chance(0.5));
      return [{ functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: { cmd: text(rng) } }, ...(rng.chance(0.3) ? { thoughtSignature: 'c2ln' } : {}) }];
    },
    executableCode: (rng) => [{ executableCode: { language: 'PYTHON', code: text(rng) } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: text(rng) } }],
    toolCall: () => [{ toolCall: { id: 't1', toolType: 'GOOGLE_SEARCH' } }, { toolResponse: { id: 't1', response: {} } }],
    audioTranscription: (rng) => [{ audioTranscription: { text: text(rng) } }],
    speechMetadata: () => [{ speechMetadata: {} }],
    mediaProcessing: () => [{ mediaProcessing: {} }],
  },
};
GEMINI.model.codeExecutionResult = GEMINI.model.executableCode;
GEMINI.model.toolResponse = GEMINI.model.toolCall;
export const GEMINI_RESPONSE = 'functionResponse';
export const VSCODE_PARTS = ['LanguageModelTextPart', 'LanguageModelToolResultPart', 'LanguageModelToolCallPart', 'LanguageModelDataPart'];

/** The output item types of the Responses calls, by the call's kind. */
const OUTPUT_OF = { function_call_output: 'function_call', custom_tool_call_output: 'custom_tool_call', computer_call_output: 'computer_call', shell_call_output: 'shell_call', local_shell_call_output: 'local_shell_call', apply_patch_call_output: 'apply_patch_call', program_output: 'program', mcp_approval_response: 'mcp_approval_request', tool_search_output: 'tool_search_call' };

/**
 * A short valid conversation of `format` that holds an item, block or part of `type`: the
 * appends, in order (a user's message first; a call's result after it).
 */
export function itemsOfType(format, type, rng, model) {
  const answer = () => (model.open.length ? [MAKERS[format](rng, model, 'answer')] : []);
  const done = (turns) => [...turns, ...answer()].filter((t) => t.length);
  const V = fakeVscode;
  switch (format) {
    case 'anthropic': {
      const first = [{ role: 'user', content: 'Fix the parser.' }];
      if (type === ANTHROPIC_RESULT) return done([first, [{ role: 'assistant', content: ANTHROPIC.assistant.tool_use(rng, model) }]]);
      if (ANTHROPIC.assistant[type]) return done([first, [{ role: 'assistant', content: ANTHROPIC.assistant[type](rng, model) }]]);
      return [[{ role: 'user', content: ANTHROPIC.user[type](rng, model) }]];
    }
    case 'openai-chat': {
      const first = [{ role: 'user', content: 'Fix the parser.' }];
      if (CHAT_PARTS[type]) return [[{ role: 'user', content: [CHAT_PARTS[type](rng)] }]];
      if (type === 'assistant' || type === 'tool') {
        const c = model.call('call_', rng);
        return done([first, [{ role: 'assistant', content: null, tool_calls: [{ id: c.id, type: 'function', function: { name: c.name, arguments: '{}' } }] }]]);
      }
      return [first, [CHAT[type](rng)]];
    }
    case 'openai-responses': {
      const first = [{ role: 'user', content: 'Fix the parser.' }];
      const maker = RESPONSES_USER[type] ?? RESPONSES_ASSISTANT[type] ?? RESPONSES_ASSISTANT[OUTPUT_OF[type]];
      return done([first, [maker(rng, model)]]);
    }
    case 'gemini': {
      const first = [{ role: 'user', parts: [{ text: 'Fix the parser.' }] }];
      if (GEMINI.user[type]) return [[{ role: 'user', parts: GEMINI.user[type](rng, model) }]];
      const maker = GEMINI.model[type] ?? GEMINI.model.functionCall;
      return done([first, [{ role: 'model', parts: maker(rng, model) }]]);
    }
    case 'ai-sdk': {
      const first = [{ role: 'user', content: 'Fix the parser.' }];
      if (AI_SDK.user[type]) return [[{ role: 'user', content: AI_SDK.user[type](rng, model) }]];
      const maker = AI_SDK.assistant[type] ?? (type === 'tool-approval-response' ? AI_SDK.assistant['tool-approval-request'] : AI_SDK.assistant['tool-call']);
      const content = maker(rng, model);
      if (type === 'tool-result' && !model.open.length) content.push(...AI_SDK.assistant['tool-call'](new Rng(7), model));
      return done([first, [{ role: 'assistant', content }]]);
    }
    case 'vscode': {
      const first = [V.LanguageModelChatMessage.User('Fix the parser.')];
      if (type === 'LanguageModelToolCallPart' || type === 'LanguageModelToolResultPart') {
        const c = model.call('vs_', rng);
        return done([first, [V.LanguageModelChatMessage.Assistant([new V.LanguageModelToolCallPart(c.id, c.name, {})])]]);
      }
      if (type === 'LanguageModelDataPart') return [[V.LanguageModelChatMessage.User([new V.LanguageModelTextPart('see'), V.LanguageModelDataPart.image(png(20, 20), 'image/png')])]];
      return [first];
    }
    default:
      throw new Error(`no format ${format}`);
  }
}
