// What each provider refuses in a request, as its docs and observed errors state it. Each
// function returns the problems of one request; an empty list means valid. The eval counts
// a strategy's invalid requests with these; the tests check the package's own with them.

// Requests are plain JSON of each provider's shape: read loosely, field by field.
type Loose = any;
/** A request of any provider format, as the checks read it. */
export type CheckedRequest = { system?: unknown; messages: readonly unknown[] };

const blocks = (content: Loose): Loose[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : content);

/** Anthropic Messages: alternating roles from a user turn; each tool_use answered first in the next user message; no orphan result; no empty content; at most 4 cache breakpoints. */
export function anthropicProblems(request: CheckedRequest): string[] {
  const system = request.system as Loose;
  const messages = request.messages as readonly Loose[];
  const problems: string[] = [];
  if (!messages.length) problems.push('no message');
  let marks = Array.isArray(system) ? system.filter((b: Loose) => b.cache_control).length : 0;
  // On-demand compaction's block may open the request as its own assistant message; the turns alternate from it.
  const opensWithCompaction = messages[0]?.role === 'assistant' && blocks(messages[0].content)[0]?.type === 'compaction' && blocks(messages[0].content)[0].signature !== undefined;
  const first = opensWithCompaction ? 'assistant' : 'user';
  messages.forEach((m: Loose, i: number) => {
    if (m.role !== (i % 2 === 0 ? first : first === 'user' ? 'assistant' : 'user')) problems.push(`messages[${i}]: role ${m.role} out of turn`);
    const content = blocks(m.content);
    if (!content.length) problems.push(`messages[${i}]: empty content`);
    marks += content.filter((b: Loose) => b.cache_control).length;
    for (const b of content) if (b.type === 'text' && b.text === '' && b.cache_control) problems.push(`messages[${i}]: a cache breakpoint on an empty text`);
    const calls = m.role === 'assistant' ? content.filter((b: Loose) => b.type === 'tool_use').map((b: Loose) => b.id) : [];
    const next = messages[i + 1] ? blocks(messages[i + 1].content) : [];
    if (calls.length) {
      const results = next.filter((b: Loose) => b.type === 'tool_result').map((b: Loose) => b.tool_use_id);
      for (const c of calls) if (!results.includes(c)) problems.push(`messages[${i}]: tool_use ${c} has no tool_result in the next message`);
      const firstText = next.findIndex((b: Loose) => b.type !== 'tool_result');
      const lastResult = next.map((b: Loose) => b.type === 'tool_result').lastIndexOf(true);
      if (firstText >= 0 && firstText < lastResult) problems.push(`messages[${i + 1}]: text before a tool_result`);
    }
    if (m.role === 'user') {
      const prev = i > 0 ? blocks(messages[i - 1].content).filter((b: Loose) => b.type === 'tool_use').map((b: Loose) => b.id) : [];
      for (const b of content) if (b.type === 'tool_result' && !prev.includes(b.tool_use_id)) problems.push(`messages[${i}]: tool_result ${b.tool_use_id} answers no tool_use of the message before`);
    }
  });
  if (marks > 4) problems.push(`${marks} cache breakpoints`);
  // Server tools: their results beside their calls, in the assistant message; never a client result for one.
  const server = new Set();
  messages.forEach((m: Loose, i: number) => {
    const content = blocks(m.content);
    for (const b of content) if (b.type === 'server_tool_use' || b.type === 'mcp_tool_use') server.add(b.id);
    if (m.role === 'assistant') {
      const here = new Set(content.filter((b: Loose) => b.type === 'server_tool_use' || b.type === 'mcp_tool_use').map((b: Loose) => b.id));
      for (const b of content) if (/_tool_result$/.test(b.type) && b.type !== 'tool_result' && !here.has(b.tool_use_id)) problems.push(`messages[${i}]: ${b.type} ${b.tool_use_id} is not beside its server_tool_use`);
    }
    for (const b of content) if (b.type === 'tool_result' && server.has(b.tool_use_id)) problems.push(`messages[${i}]: a client tool_result for server tool ${b.tool_use_id}`);
    // On-demand compaction: first in messages, exactly once.
    content.forEach((b, k) => {
      if (b.type === 'compaction' && b.signature !== undefined && (i !== 0 || k !== 0)) problems.push(`messages[${i}].content[${k}]: a signed compaction block not first in messages`);
    });
  });
  return problems;
}

/** OpenAI Chat Completions: each tool_calls id answered by a tool message before the next other message; no tool message without its call; content present unless tool_calls. */
export function openaiChatProblems(request: CheckedRequest): string[] {
  const messages = request.messages as readonly Loose[];
  const problems: string[] = [];
  if (!messages.some((m) => m.role !== 'system' && m.role !== 'developer')) problems.push('no message');
  let open = new Set<string>();
  messages.forEach((m: Loose, i: number) => {
    if (m.role === 'tool') {
      if (!open.has(m.tool_call_id)) problems.push(`messages[${i}]: tool message ${m.tool_call_id} answers no open call`);
      open.delete(m.tool_call_id);
      return;
    }
    if (open.size) problems.push(`messages[${i}]: calls ${[...open].join(', ')} unanswered before a ${m.role} message`);
    open = new Set<string>();
    if (m.role === 'assistant') {
      for (const c of m.tool_calls ?? []) open.add(c.id);
      if ((m.content === null || m.content === undefined || m.content === '') && !(m.tool_calls ?? []).length) problems.push(`messages[${i}]: an assistant message with no content and no tool_calls`);
    } else if (m.content === undefined || m.content === null) {
      problems.push(`messages[${i}]: no content`);
    }
  });
  if (open.size) problems.push(`calls ${[...open].join(', ')} unanswered at the end`);
  return problems;
}

/** The Responses items a client answers, and the output item of each, with the field that names the call. */
const RESPONSES_PAIRS: Record<string, [string, string]> = {
  function_call: ['function_call_output', 'call_id'], custom_tool_call: ['custom_tool_call_output', 'call_id'],
  computer_call: ['computer_call_output', 'call_id'], shell_call: ['shell_call_output', 'call_id'],
  local_shell_call: ['local_shell_call_output', 'id'], apply_patch_call: ['apply_patch_call_output', 'call_id'],
  mcp_approval_request: ['mcp_approval_response', 'approval_request_id'],
};

/** OpenAI Responses input: each call (a function's, a built-in tool's) answered by its output item, after it; no output without its call. */
export function openaiResponsesProblems(request: CheckedRequest): string[] {
  const messages = request.messages as readonly Loose[];
  const problems: string[] = [];
  const calls = new Map<string, boolean>();
  const outputs = new Map(Object.values(RESPONSES_PAIRS));
  if (!messages.length) problems.push('no item');
  messages.forEach((item: Loose, i: number) => {
    const pair = RESPONSES_PAIRS[item.type];
    if (pair) calls.set(item.type === 'mcp_approval_request' ? item.id : item.call_id, false);
    if (outputs.has(item.type)) {
      const id = item[outputs.get(item.type) as string];
      if (!calls.has(id)) problems.push(`input[${i}]: ${item.type} ${id} before or without its call`);
      else calls.set(id, true);
    }
  });
  for (const [callId, answered] of calls) if (!answered) problems.push(`call ${callId} has no output`);
  return problems;
}

/** AI SDK ModelMessages: each tool-call answered by a tool-result in a tool message after it, before the next user or assistant message. */
export function aiSdkProblems(request: CheckedRequest): string[] {
  const messages = request.messages as readonly Loose[];
  const problems: string[] = [];
  if (!messages.some((m) => m.role !== 'system')) problems.push('no message');
  let open = new Set<string>();
  messages.forEach((m: Loose, i: number) => {
    if (m.role === 'tool') {
      for (const p of m.content) {
        if (!open.has(p.toolCallId)) problems.push(`messages[${i}]: tool-result ${p.toolCallId} answers no open call`);
        open.delete(p.toolCallId);
      }
      return;
    }
    if (open.size) problems.push(`messages[${i}]: calls ${[...open].join(', ')} unanswered before a ${m.role} message`);
    open = new Set<string>();
    if (m.role === 'assistant' && Array.isArray(m.content)) for (const p of m.content) if (p.type === 'tool-call') open.add(p.toolCallId);
    if (Array.isArray(m.content) ? !m.content.length : m.content === '') problems.push(`messages[${i}]: empty content`);
  });
  if (open.size) problems.push(`calls ${[...open].join(', ')} unanswered at the end`);
  return problems;
}

/** VS Code: alternating User/Assistant from a User message; each tool call answered first in the next User message. */
export function vscodeProblems(request: CheckedRequest): string[] {
  const messages = request.messages as readonly Loose[];
  const problems: string[] = [];
  if (!messages.length) problems.push('no message');
  messages.forEach((m: Loose, i: number) => {
    if (m.role !== (i % 2 === 0 ? 1 : 2)) problems.push(`messages[${i}]: role ${m.role} out of turn`);
    if (!m.content.length) problems.push(`messages[${i}]: empty content`);
    const calls = m.content.filter((p: Loose) => typeof p.callId === 'string' && 'input' in p).map((p: Loose) => p.callId);
    const next = messages[i + 1]?.content ?? [];
    const results = next.filter((p: Loose) => typeof p.callId === 'string' && Array.isArray(p.content));
    for (const c of calls) if (!results.some((r: Loose) => r.callId === c)) problems.push(`messages[${i}]: call ${c} has no result in the next message`);
    const isResult = (p: Loose): boolean => typeof p.callId === 'string' && Array.isArray(p.content);
    const firstOther = next.findIndex((p: Loose) => !isResult(p));
    const lastResult = next.map(isResult).lastIndexOf(true);
    if (calls.length && firstOther >= 0 && firstOther < lastResult) problems.push(`messages[${i + 1}]: text before a result`);
  });
  return problems;
}

/**
 * Gemini generateContent: roles `user` and `model` alternating from a user content; no
 * empty content or part; each model content's functionCalls answered by the next user
 * content, the same count and names (and ids, where the calls have them); no response
 * without its call. `signatures` (optional): each thoughtSignature given, which a request
 * must carry unchanged, on the part it came on.
 */
export function geminiProblems(request: CheckedRequest, signatures?: Set<unknown>): string[] {
  const messages = request.messages as readonly Loose[];
  const problems: string[] = [];
  if (!messages.length) problems.push('no content');
  messages.forEach((m: Loose, i: number) => {
    if (m.role !== (i % 2 === 0 ? 'user' : 'model')) problems.push(`contents[${i}]: role ${m.role} out of turn`);
    if (!Array.isArray(m.parts) || !m.parts.length) problems.push(`contents[${i}]: no parts`);
    for (const [k, p] of (m.parts ?? []).entries()) {
      const keys = Object.keys(p).filter((key) => !['thought', 'thoughtSignature', 'mediaResolution', 'videoMetadata', 'partMetadata'].includes(key));
      if (keys.length !== 1) problems.push(`contents[${i}].parts[${k}]: ${keys.length} data fields (${keys.join(', ')})`);
      if (p.thoughtSignature !== undefined && signatures && !signatures.has(p.thoughtSignature)) problems.push(`contents[${i}].parts[${k}]: a thoughtSignature not given by the model`);
      if (p.functionResponse && m.role !== 'user') problems.push(`contents[${i}].parts[${k}]: a functionResponse in a model content`);
      if (p.functionCall && m.role !== 'model') problems.push(`contents[${i}].parts[${k}]: a functionCall in a user content`);
    }
    const calls = (m.parts ?? []).filter((p: Loose) => p.functionCall).map((p: Loose) => p.functionCall);
    const prev = i > 0 ? (messages[i - 1].parts ?? []).filter((p: Loose) => p.functionCall).map((p: Loose) => p.functionCall) : [];
    const responses = (m.parts ?? []).filter((p: Loose) => p.functionResponse).map((p: Loose) => p.functionResponse);
    if (m.role === 'user') {
      const names = (list: Loose[]): string => list.map((c: Loose) => c.name).sort().join(',');
      if (prev.length !== responses.length || names(prev) !== names(responses)) problems.push(`contents[${i}]: ${responses.length} functionResponses (${names(responses)}) for ${prev.length} functionCalls (${names(prev)})`);
      for (const r of responses) if (r.id !== undefined && !prev.some((c: Loose) => c.id === r.id)) problems.push(`contents[${i}]: functionResponse ${r.id} answers no call of the content before`);
    }
    if (calls.length && i === messages.length - 1) problems.push(`contents[${i}]: functionCalls unanswered at the end`);
  });
  return problems;
}

/** Each provider format's checker. */
export const PROBLEMS: Record<'gemini' | 'anthropic' | 'openai-chat' | 'openai-responses' | 'ai-sdk' | 'vscode', (request: CheckedRequest, signatures?: Set<unknown>) => string[]> = {
  gemini: geminiProblems,
  anthropic: anthropicProblems,
  'openai-chat': openaiChatProblems,
  'openai-responses': openaiResponsesProblems,
  'ai-sdk': aiSdkProblems,
  vscode: vscodeProblems,
};

/** The request as one text, as a provider would read it: to count it whole. */
export function requestText(request: CheckedRequest): string {
  const system = request.system as Loose;
  const messages = request.messages as readonly Loose[];
  const parts: string[] = [];
  if (system !== undefined) parts.push(typeof system === 'string' ? system : system.map((b: Loose) => b.text).join('\n'));
  for (const m of messages) parts.push(JSON.stringify(m));
  return parts.join('\n');
}
