// Scripted agent loops of the kinds browser, computer-use and MCP agents run, in each
// provider's own shapes, and what each provider bills for a request, reckoned here apart
// from the package (text by o200k, images by the provider's rule from their bytes, a PDF
// by its pages, encrypted fields by the stated rule): the tests hold the package's count
// against it. Each step of a loop is the assistant's call and the messages that answer
// it; `output(t)` is the step's own text, `image(t)` its image bytes.
import { createTokenCounter } from '@devs/context/tokenizers';
import { PAGE, anthropicImage, base64, openaiImage, sizeOf } from './media-bytes.mjs';

const o200k = createTokenCounter('o200k_base');

/** A screenshot tool's step in `format`: the call, then its result holding the image (`bytes`, `mediaType`) and a line of text. */
export function screenshotStep(format, t, bytes, mediaType, vscode) {
  const id = `call_${t}`;
  const text = `screenshot ${t}: the review page, after scrolling`;
  const data = base64(bytes);
  switch (format) {
    case 'anthropic':
      return [
        { role: 'assistant', content: [{ type: 'text', text: `Step ${t}.` }, { type: 'tool_use', id, name: 'computer', input: { action: 'screenshot' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text }, { type: 'image', source: { type: 'base64', media_type: mediaType, data } }] }] },
      ];
    case 'openai-responses':
      return t % 2
        ? [
          { type: 'computer_call', id: `cu_${t}`, call_id: id, action: { type: 'screenshot' }, pending_safety_checks: [], status: 'completed' },
          { type: 'computer_call_output', call_id: id, output: { type: 'computer_screenshot', image_url: `data:${mediaType};base64,${data}` } },
        ]
        : [
          { type: 'function_call', call_id: id, name: 'screenshot', arguments: '{}' },
          { type: 'function_call_output', call_id: id, output: [{ type: 'input_text', text }, { type: 'input_image', image_url: `data:${mediaType};base64,${data}`, detail: 'high' }] },
        ];
    case 'openai-chat':
      // A tool message holds text only: agents put the screenshot in a user message after it.
      return [
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'screenshot', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: id, content: text },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:${mediaType};base64,${data}`, detail: 'high' } }] },
      ];
    case 'ai-sdk':
      return [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'computer', input: { action: 'screenshot' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'computer', output: { type: 'content', value: [{ type: 'text', text }, { type: 'image-data', data, mediaType }] } }] },
      ];
    case 'vscode':
      return [
        vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelToolCallPart(id, 'computer', { action: 'screenshot' })]),
        vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(id, [new vscode.LanguageModelTextPart(text), new vscode.LanguageModelDataPart(bytes, mediaType)])]),
      ];
    case 'gemini':
      return geminiStep(id, 'computer', { action: 'screenshot' }, text, mediaType, data);
    default:
      throw new Error(format);
  }
}

/** Gemini's call and its response, the bytes inline in the response's own parts (`FunctionResponsePart`). */
function geminiStep(id, name, args, text, mimeType, data) {
  return [
    { role: 'model', parts: [{ functionCall: { id, name, args } }] },
    { role: 'user', parts: [{ functionResponse: { id, name, response: { output: text }, parts: [{ inlineData: { mimeType, data } }] } }] },
  ];
}

/** A tool that reads a PDF: its result holds the document. */
export function pdfStep(format, t, bytes, vscode) {
  const id = `call_${t}`;
  const data = base64(bytes);
  const text = `read review-${t}.pdf`;
  switch (format) {
    case 'anthropic':
      return [
        { role: 'assistant', content: [{ type: 'tool_use', id, name: 'read_pdf', input: { path: `review-${t}.pdf` } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text }, { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } }] }] },
      ];
    case 'openai-responses':
      return [
        { type: 'function_call', call_id: id, name: 'read_pdf', arguments: JSON.stringify({ path: `review-${t}.pdf` }) },
        { type: 'function_call_output', call_id: id, output: [{ type: 'input_text', text }, { type: 'input_file', filename: `review-${t}.pdf`, file_data: `data:application/pdf;base64,${data}` }] },
      ];
    case 'openai-chat':
      return [
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_pdf', arguments: JSON.stringify({ path: `review-${t}.pdf` }) } }] },
        { role: 'tool', tool_call_id: id, content: text },
        { role: 'user', content: [{ type: 'file', file: { filename: `review-${t}.pdf`, file_data: `data:application/pdf;base64,${data}` } }] },
      ];
    case 'ai-sdk':
      return [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'read_pdf', input: { path: `review-${t}.pdf` } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_pdf', output: { type: 'content', value: [{ type: 'text', text }, { type: 'file-data', data, mediaType: 'application/pdf' }] } }] },
      ];
    case 'vscode':
      return [
        vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelToolCallPart(id, 'read_pdf', { path: `review-${t}.pdf` })]),
        vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(id, [new vscode.LanguageModelTextPart(text), new vscode.LanguageModelDataPart(bytes, 'application/pdf')])]),
      ];
    case 'gemini':
      return geminiStep(id, 'read_pdf', { path: `review-${t}.pdf` }, text, 'application/pdf', data);
    default:
      throw new Error(format);
  }
}

/** Fields that say what a block is and whose it is, not what it holds: billed as framing, as the package counts them. */
const STRUCTURE = new Set(['cache_control', 'providerOptions', 'type', 'role', 'media_type', 'mediaType', 'mimeType', 'detail', 'status', 'is_error']);

/** Every image and PDF a request holds, by its bytes, and every text, and what fields no counter reads take. */
function walk(value, found) {
  if (Array.isArray(value)) {
    for (const v of value) walk(v, found);
    return;
  }
  if (value instanceof Uint8Array) {
    found.bytes.push(value);
    return;
  }
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string') {
      const inline = /^data:([^;]+);base64,(.*)$/s.exec(value);
      if (inline) found.bytes.push(Buffer.from(inline[2], 'base64'));
      else found.texts.push(value);
    }
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    // Structure, not content: what the provider's own framing of a message and a block is.
    if (STRUCTURE.has(key)) continue;
    // An AI SDK result names its tool for the SDK; no provider is sent the name with it.
    if (key === 'toolName' && value.type === 'tool-result') continue;
    if (key === 'encrypted_content' || key === 'signature' || key === 'data' && typeof v === 'string' && (value.type === 'base64' || value.mediaType || value.mimeType || value.type === 'image-data' || value.type === 'file-data' || value.type === 'redacted_thinking')) {
      if (key === 'data' && value.type !== 'redacted_thinking') found.bytes.push(Buffer.from(v, 'base64'));
      else found.opaque += Math.ceil(v.length / 4);
      continue;
    }
    if (key === 'file_data' && typeof v === 'string' && !v.startsWith('data:')) {
      found.bytes.push(Buffer.from(v, 'base64'));
      continue;
    }
    // A call's input object is read as the JSON it is sent as, keys and all.
    if (key === 'input' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      found.texts.push(JSON.stringify(v));
      continue;
    }
    walk(v, found);
  }
}

/** Pages of a PDF the tests made (Chromium's: its page tree's count in plain text; qpdf's: 6). */
function pagesOf(bytes) {
  const text = Buffer.from(bytes).toString('latin1');
  const counts = [...text.matchAll(/\/Type\s*\/Pages[^>]*?\/Count\s+(\d+)/g)].map((m) => Number(m[1]));
  return counts.length ? Math.max(...counts) : 6;
}

/**
 * The tokens a provider adds around each message: OpenAI's documented 3 (the cookbook's
 * `num_tokens_from_messages`, `tokens_per_message = 3`); Anthropic publishes none, and is
 * taken to add as many.
 */
export const FRAMING = 3;

/**
 * What `provider` bills for `request` (`{ system?, messages }`): its texts by o200k, each
 * image by the provider's rule (Anthropic's current one; OpenAI's high-detail tiles;
 * Gemini's 258 a tile; for a format naming no provider, Anthropic's), each PDF at 1,500 a
 * page (Gemini's at 258), encrypted fields and
 * signatures at a token a 4 characters, a call's input object as its JSON, and `FRAMING`
 * a message. A stripped image (no bytes left) bills nothing.
 */
export function billed(request, provider) {
  const found = { texts: [], bytes: [], opaque: 0 };
  walk(request.system, found);
  walk(request.messages, found);
  // Each text by itself: where one ends and the next begins is the framing's.
  let tokens = found.texts.reduce((n, text) => n + o200k(text), 0) + found.opaque + FRAMING * request.messages.length;
  let images = 0;
  for (const b of found.bytes) {
    if (b.length === 0) continue;
    if (b[0] === 0x25 && b[1] === 0x50) tokens += (provider === 'gemini' ? GEMINI_TILE : PAGE) * pagesOf(b);
    else if (b[0] === 0x89 || (b[0] === 0xff && b[1] === 0xd8)) {
      const size = sizeOf(b);
      // A 1 × 1 stand-in for a stored screenshot is no screenshot.
      if (size[0] > 1) images++;
      tokens += provider === 'openai' ? openaiImage(size) : provider === 'gemini' ? geminiImage(size) : anthropicImage(size);
    }
  }
  return { tokens, images };
}

/** Gemini's tokens for an image, a tile of one, or a PDF's page ("Token counting"). */
const GEMINI_TILE = 258;

/** Gemini's rule: 258 for an image within 384 px both ways, else 258 a tile of its shorter side ÷ 1.5 (256 to 768 px). */
function geminiImage([w, h]) {
  if (w <= 384 && h <= 384) return GEMINI_TILE;
  const tile = Math.min(768, Math.max(256, Math.floor(Math.min(w, h) / 1.5)));
  return GEMINI_TILE * Math.ceil(w / tile) * Math.ceil(h / tile);
}

/** The provider a format bills as, for `billed`. */
export const PROVIDER = { anthropic: 'anthropic', 'openai-chat': 'openai', 'openai-responses': 'openai', 'ai-sdk': 'anthropic', vscode: 'anthropic', gemini: 'gemini' };

/** The bytes of every image a request holds whole (a data URL's, a base64 field's, a data part's), in order. */
export function imagesIn(request) {
  const found = { texts: [], bytes: [], opaque: 0 };
  walk(request.messages, found);
  return found.bytes.filter((b) => b.length > 8 && (b[0] === 0x89 || (b[0] === 0xff && b[1] === 0xd8)) && sizeOf(b)[0] > 1);
}

/** The usage object of `format` for a request billed `tokens`. */
export function usageOf(format, tokens) {
  return format === 'anthropic' ? { input_tokens: tokens } : format === 'openai-chat' ? { prompt_tokens: tokens }
    : format === 'openai-responses' ? { input_tokens: tokens } : format === 'gemini' ? { promptTokenCount: tokens } : { inputTokens: tokens };
}

/** The model's call of the recall tool in `format`, for stored `id`. */
export function recallCall(format, id, vscode) {
  const input = { id: String(id) };
  switch (format) {
    case 'anthropic': return { type: 'tool_use', id: 'recall_1', name: 'recall', input };
    case 'openai-responses': return { type: 'function_call', call_id: 'recall_1', name: 'recall', arguments: JSON.stringify(input) };
    case 'openai-chat': return { id: 'recall_1', type: 'function', function: { name: 'recall', arguments: JSON.stringify(input) } };
    case 'ai-sdk': return { type: 'tool-call', toolCallId: 'recall_1', toolName: 'recall', input };
    case 'gemini': return { functionCall: { id: 'recall_1', name: 'recall', args: input } };
    default: return new vscode.LanguageModelToolCallPart('recall_1', 'recall', input);
  }
}
