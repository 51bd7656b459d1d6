// @ts-check
// Each step of a scripted loop (loops.mjs) in each provider's own shapes, typed with the
// providers' SDKs: `npm test` type-checks this file against @anthropic-ai/sdk, openai and
// ai, the versions in the lockfile and the newest (pkg/test/packaging/bench-types.test.mjs),
// so a shape the SDK does not define fails there, not at the provider.
//
// Where a format has the provider's own item for a step (Anthropic's server tools and
// compaction, OpenAI's computer, MCP, shell and patch items), the step is that item; where
// it has none (Chat Completions, the AI SDK, VS Code, Gemini), it is the client tool a host
// would declare in its place.

/** @typedef {import('@anthropic-ai/sdk/resources/messages').MessageParam} AnthropicMessage */
/** @typedef {import('@anthropic-ai/sdk/resources/beta/messages').BetaMessageParam} AnthropicBetaMessage */
/** @typedef {import('@anthropic-ai/sdk/resources/messages').ToolResultBlockParam['content']} AnthropicResultContent */
/** @typedef {import('openai/resources/responses/responses').ResponseInputItem} ResponsesItem */
/** @typedef {import('openai/resources/responses/responses').ResponseFunctionCallOutputItemList} ResponsesOutput */
/** @typedef {import('openai/resources/chat/completions').ChatCompletionMessageParam} ChatMessage */
/** @typedef {import('ai').ModelMessage} AiSdkMessage */
/** @typedef {import('ai').ToolResultPart['output']} AiSdkOutput */
/** @typedef {import('@google/genai').Content} GeminiContent */
/** @typedef {import('@google/genai').FunctionResponsePart} GeminiResponsePart */
/** @typedef {typeof import('vscode')} Vscode */
/** @typedef {import('vscode').LanguageModelChatMessage} VscodeMessage */

/**
 * One model turn of a loop: the assistant's `say`, then its call, then what answers it.
 * @typedef {object} Step
 * @property {number} t
 * @property {'call' | 'computer' | 'mcp' | 'fetch' | 'search' | 'execute' | 'shell' | 'patch' | 'attach' | 'compaction'} kind
 * @property {string} say     the assistant's text before its call
 * @property {string} name    the tool's name
 * @property {Record<string, unknown>} input
 * @property {string} text    the result's text; its first line is the step's marker
 * @property {{ bytes: Buffer, type: string }} [image]
 * @property {Buffer} [pdf]
 * @property {string} [opaque] a compaction's encrypted content
 */

const b64 = (/** @type {Buffer} */ bytes) => bytes.toString('base64');
const dataUrl = (/** @type {string} */ type, /** @type {Buffer} */ bytes) => `data:${type};base64,${b64(bytes)}`;
const id = (/** @type {Step} */ s) => `call_${s.t}`;

/** @param {Step} s @returns {AnthropicResultContent} */
function anthropicResult(s) {
  /** @type {Exclude<AnthropicResultContent, string | undefined>} */
  const content = [{ type: 'text', text: s.text }];
  if (s.image) content.push({ type: 'image', source: { type: 'base64', media_type: /** @type {'image/png' | 'image/jpeg'} */ (s.image.type), data: b64(s.image.bytes) } });
  if (s.pdf) content.push({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: b64(s.pdf) } });
  return content;
}

/** @param {Step} s @returns {Array<AnthropicMessage | AnthropicBetaMessage>} */
export function anthropic(s) {
  const srv = `srvtoolu_${s.t}`;
  switch (s.kind) {
    case 'attach':
      return [{ role: 'user', content: [{ type: 'text', text: s.text }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: b64(/** @type {Buffer} */ (s.pdf)) } }] }];
    case 'compaction':
      // Threshold compaction's block opens the assistant's turn (beta `compact_20260112`).
      return [
        { role: 'assistant', content: [{ type: 'compaction', content: s.text, encrypted_content: s.opaque }, { type: 'text', text: s.say }] },
        { role: 'user', content: 'Go on.' },
      ];
    case 'mcp':
      // The MCP connector's call and result, both in the assistant's turn (beta `mcp-client`).
      return [{ role: 'assistant', content: [
        { type: 'text', text: s.say },
        { type: 'mcp_tool_use', id: `mcptoolu_${s.t}`, name: s.name, server_name: 'playwright', input: s.input },
        { type: 'mcp_tool_result', tool_use_id: `mcptoolu_${s.t}`, content: [{ type: 'text', text: s.text }], is_error: false },
      ] }];
    case 'fetch':
      return [{ role: 'assistant', content: [
        { type: 'text', text: s.say },
        { type: 'server_tool_use', id: srv, name: 'web_fetch', input: s.input },
        { type: 'web_fetch_tool_result', tool_use_id: srv, content: { type: 'web_fetch_result', url: String(s.input.url), retrieved_at: '2026-12-01T09:00:00Z', content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: s.text } } } },
      ] }];
    case 'search':
      return [{ role: 'assistant', content: [
        { type: 'text', text: s.say },
        { type: 'server_tool_use', id: srv, name: 'web_search', input: s.input },
        { type: 'web_search_tool_result', tool_use_id: srv, content: searchResults(s).map((r) => ({ type: 'web_search_result', ...r })) },
        { type: 'text', text: `Read the results of step ${s.t}.` },
      ] }];
    case 'execute':
      return [{ role: 'assistant', content: [
        { type: 'text', text: s.say },
        { type: 'server_tool_use', id: srv, name: 'bash_code_execution', input: s.input },
        { type: 'bash_code_execution_tool_result', tool_use_id: srv, content: { type: 'bash_code_execution_result', stdout: s.text, stderr: '', return_code: 1, content: [] } },
      ] }];
    default:
      return [
        { role: 'assistant', content: [{ type: 'text', text: s.say }, { type: 'tool_use', id: id(s), name: s.name, input: s.input }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id(s), content: anthropicResult(s) }] },
      ];
  }
}

/** A web search's results: the first one's title carries the step's marker. */
function searchResults(/** @type {Step} */ s) {
  return Array.from({ length: 5 }, (_, k) => ({
    title: k === 0 ? s.text.split('\n')[0] : `Result ${k} for step ${s.t}`,
    url: `https://example.com/${s.t}/${k}`,
    encrypted_content: `Eq${Buffer.from(s.text.slice(k * 600, k * 600 + 2400)).toString('base64')}`,
    page_age: null,
  }));
}

/** @param {Step} s @returns {ResponsesOutput} */
function responsesOutput(s) {
  /** @type {ResponsesOutput} */
  const out = [{ type: 'input_text', text: s.text }];
  if (s.image) out.push({ type: 'input_image', image_url: dataUrl(s.image.type, s.image.bytes), detail: 'high' });
  if (s.pdf) out.push({ type: 'input_file', filename: `${s.name}-${s.t}.pdf`, file_data: dataUrl('application/pdf', s.pdf) });
  return out;
}

/** @param {Step} s @returns {ResponsesItem[]} */
export function responses(s) {
  const say = /** @type {ResponsesItem} */ ({ role: 'assistant', content: s.say });
  switch (s.kind) {
    case 'attach':
      return [{ role: 'user', content: [{ type: 'input_text', text: s.text }, { type: 'input_file', filename: 'spec.pdf', file_data: dataUrl('application/pdf', /** @type {Buffer} */ (s.pdf)) }] }];
    case 'compaction':
      return [{ type: 'compaction', id: `cmp_${s.t}`, encrypted_content: /** @type {string} */ (s.opaque) }, { role: 'user', content: 'Go on.' }];
    case 'computer':
      return [
        say,
        { type: 'computer_call', id: `cu_${s.t}`, call_id: id(s), action: { type: 'click', button: 'left', x: Number(s.input.x ?? 10), y: Number(s.input.y ?? 10) }, pending_safety_checks: [], status: 'completed' },
        { type: 'computer_call_output', call_id: id(s), output: { type: 'computer_screenshot', image_url: dataUrl(s.image?.type ?? 'image/png', /** @type {Buffer} */ (s.image?.bytes)) } },
      ];
    case 'mcp':
      if (s.image) break;
      return [say, { type: 'mcp_call', id: `mcp_${s.t}`, server_label: 'playwright', name: s.name, arguments: JSON.stringify(s.input), output: s.text, status: 'completed' }];
    case 'fetch':
    case 'search':
      // The search's results reach the model in its answer, not in the item.
      return [
        { type: 'web_search_call', id: `ws_${s.t}`, status: 'completed', action: s.kind === 'search' ? { type: 'search', query: String(s.input.query) } : { type: 'open_page', url: String(s.input.url) } },
        { role: 'assistant', content: s.text },
      ];
    case 'execute':
    case 'shell':
      return [
        say,
        { type: 'shell_call', call_id: id(s), action: { commands: [String(s.input.command)] }, status: 'completed' },
        { type: 'shell_call_output', call_id: id(s), output: [{ stdout: s.text, stderr: '', outcome: { type: 'exit', exit_code: 1 } }] },
      ];
    case 'patch':
      return [
        say,
        { type: 'apply_patch_call', call_id: id(s), status: 'completed', operation: { type: 'update_file', path: String(s.input.path), diff: String(s.input.diff) } },
        { type: 'apply_patch_call_output', call_id: id(s), status: 'completed', output: s.text },
      ];
    default:
  }
  return [
    say,
    { type: 'function_call', call_id: id(s), name: s.name, arguments: JSON.stringify(s.input) },
    { type: 'function_call_output', call_id: id(s), output: responsesOutput(s) },
  ];
}

/** @param {Step} s @returns {ChatMessage[]} */
export function chat(s) {
  if (s.kind === 'attach') return [{ role: 'user', content: [{ type: 'text', text: s.text }, { type: 'file', file: { filename: 'spec.pdf', file_data: dataUrl('application/pdf', /** @type {Buffer} */ (s.pdf)) } }] }];
  /** @type {ChatMessage[]} */
  const out = [
    { role: 'assistant', content: s.say, tool_calls: [{ id: id(s), type: 'function', function: { name: s.name, arguments: JSON.stringify(s.input) } }] },
    { role: 'tool', tool_call_id: id(s), content: s.text },
  ];
  // A tool message holds text only: agents send the image or PDF in a user message after it.
  if (s.image) out.push({ role: 'user', content: [{ type: 'image_url', image_url: { url: dataUrl(s.image.type, s.image.bytes), detail: 'high' } }] });
  if (s.pdf) out.push({ role: 'user', content: [{ type: 'file', file: { filename: `${s.name}-${s.t}.pdf`, file_data: dataUrl('application/pdf', s.pdf) } }] });
  return out;
}

/** @param {Step} s @returns {AiSdkOutput} */
function aiSdkOutput(s) {
  if (!s.image && !s.pdf) return { type: 'text', value: s.text };
  /** @type {Extract<AiSdkOutput, { type: 'content' }>['value']} */
  const value = [{ type: 'text', text: s.text }];
  if (s.image) value.push({ type: 'image-data', data: b64(s.image.bytes), mediaType: s.image.type });
  if (s.pdf) value.push({ type: 'file-data', data: b64(s.pdf), mediaType: 'application/pdf', filename: `${s.name}-${s.t}.pdf` });
  return { type: 'content', value };
}

/** @param {Step} s @returns {AiSdkMessage[]} */
export function aiSdk(s) {
  if (s.kind === 'attach') return [{ role: 'user', content: [{ type: 'text', text: s.text }, { type: 'file', data: b64(/** @type {Buffer} */ (s.pdf)), mediaType: 'application/pdf', filename: 'spec.pdf' }] }];
  return [
    { role: 'assistant', content: [{ type: 'text', text: s.say }, { type: 'tool-call', toolCallId: id(s), toolName: s.name, input: s.input }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: id(s), toolName: s.name, output: aiSdkOutput(s) }] },
  ];
}

/** @param {Step} s @param {Vscode} vscode @returns {VscodeMessage[]} */
export function vscodeMessages(s, vscode) {
  const { LanguageModelChatMessage: M, LanguageModelTextPart: Text, LanguageModelDataPart: Data } = vscode;
  if (s.kind === 'attach') return [M.User([new Text(s.text), new Data(/** @type {Buffer} */ (s.pdf), 'application/pdf')])];
  /** @type {Array<import('vscode').LanguageModelTextPart | import('vscode').LanguageModelDataPart>} */
  const parts = [new Text(s.text)];
  if (s.image) parts.push(new Data(s.image.bytes, s.image.type));
  if (s.pdf) parts.push(new Data(s.pdf, 'application/pdf'));
  return [
    M.Assistant([new Text(s.say), new vscode.LanguageModelToolCallPart(id(s), s.name, s.input)]),
    M.User([new vscode.LanguageModelToolResultPart(id(s), parts)]),
  ];
}

/**
 * Gemini's contents: the call, then its response with the image or PDF inline in the
 * response's own parts (`FunctionResponsePart`), as `generateContent` takes it.
 * @param {Step} s @returns {GeminiContent[]}
 */
export function gemini(s) {
  if (s.kind === 'attach') return [{ role: 'user', parts: [{ text: s.text }, { inlineData: { mimeType: 'application/pdf', data: b64(/** @type {Buffer} */ (s.pdf)) } }] }];
  /** @type {GeminiResponsePart[]} */
  const inline = [];
  if (s.image) inline.push({ inlineData: { mimeType: s.image.type, data: b64(s.image.bytes) } });
  if (s.pdf) inline.push({ inlineData: { mimeType: 'application/pdf', data: b64(s.pdf) } });
  return [
    { role: 'model', parts: [{ text: s.say }, { functionCall: { id: id(s), name: s.name, args: s.input } }] },
    { role: 'user', parts: [{ functionResponse: { id: id(s), name: s.name, response: { output: s.text }, ...(inline.length ? { parts: inline } : {}) } }] },
  ];
}

/** The formats a step can be rendered in, and how. */
export const FORMATS = ['anthropic', 'openai-responses', 'openai-chat', 'ai-sdk', 'vscode', 'gemini'];

/**
 * Step `s` in `format`'s messages (`vscode`: the host's module, for its classes).
 * @param {string} format @param {Step} s @param {Vscode} vscode
 * @returns {Array<AnthropicMessage | AnthropicBetaMessage | ResponsesItem | ChatMessage | AiSdkMessage | VscodeMessage | GeminiContent>}
 */
export function render(format, s, vscode) {
  switch (format) {
    case 'anthropic': return anthropic(s);
    case 'openai-responses': return responses(s);
    case 'openai-chat': return chat(s);
    case 'ai-sdk': return aiSdk(s);
    case 'vscode': return vscodeMessages(s, vscode);
    case 'gemini': return gemini(s);
    default: throw new RangeError(`format: ${format} is not one of ${FORMATS.join(', ')}`);
  }
}
