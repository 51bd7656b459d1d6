// The real sessions (fixtures/sessions), as the messages a host of each provider would
// append: per model turn, the user's input, the assistant's response (text and tool
// calls), and the tool results. Read with the package's own transcript parser.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseTranscript } from '@devs/context/replay';
import { sessionFiles } from '../../bench/transcripts.mjs';

/** Every real session: `{ name, steps }` (see `ReplaySession`). */
export function realSessions() {
  return sessionFiles().flatMap((file) => parseTranscript(readFileSync(file, 'utf8'), basename(file)));
}

const id = (turn, k, format) => (format === 'anthropic' ? `toolu_${turn}_${k}` : `call_${turn}_${k}`);
const args = (call) => call.envelope.action.arguments;
const output = (call) => call.envelope.observation.output;
const failed = (call) => call.envelope.observation.status === 'error';

/** Fake `vscode` classes with the API's shape, for tests outside an extension host. */
export const fakeVscode = (() => {
  class LanguageModelTextPart { constructor(value) { this.value = value; } }
  class LanguageModelToolCallPart { constructor(callId, name, input) { Object.assign(this, { callId, name, input }); } }
  class LanguageModelToolResultPart { constructor(callId, content) { Object.assign(this, { callId, content }); } }
  class LanguageModelChatMessage {
    constructor(role, content, name) { Object.assign(this, { role, content, name }); }
    static User(content) { return new LanguageModelChatMessage(1, typeof content === 'string' ? [new LanguageModelTextPart(content)] : content); }
    static Assistant(content) { return new LanguageModelChatMessage(2, typeof content === 'string' ? [new LanguageModelTextPart(content)] : content); }
  }
  return { LanguageModelChatMessage, LanguageModelChatMessageRole: { User: 1, Assistant: 2 }, LanguageModelTextPart, LanguageModelToolCallPart, LanguageModelToolResultPart };
})();

/**
 * The session's turns in `format`: `[{ input, response, results }]`, each a list of
 * messages (Responses API: items) to append in that order; `input` comes before the
 * request for that turn, the rest after it.
 */
export function providerTurns(session, format, vscode = fakeVscode) {
  return session.steps.map((step, t) => {
    const calls = step.calls.map((c, k) => ({ c, id: id(t, k, format) }));
    const answered = calls.filter(({ c }) => !c.unanswered);
    const input = step.input === undefined ? [] : [userText(format, step.input, vscode)];
    switch (format) {
      case 'anthropic': {
        const content = [];
        if (step.text) content.push({ type: 'text', text: step.text });
        for (const { c, id: callId } of calls) content.push({ type: 'tool_use', id: callId, name: c.envelope.action.tool_name, input: args(c) });
        if (!content.length) content.push({ type: 'text', text: '(no text)' });
        const results = answered.map(({ c, id: callId }) => ({ type: 'tool_result', tool_use_id: callId, content: output(c), is_error: failed(c) }));
        return { input, response: [{ role: 'assistant', content }], results: results.length ? [{ role: 'user', content: results }] : [] };
      }
      case 'openai-chat': {
        const response = { role: 'assistant', content: step.text || null };
        if (calls.length) response.tool_calls = calls.map(({ c, id: callId }) => ({ id: callId, type: 'function', function: { name: c.envelope.action.tool_name, arguments: JSON.stringify(args(c)) } }));
        if (!calls.length && !step.text) response.content = '(no text)';
        return { input, response: [response], results: answered.map(({ c, id: callId }) => ({ role: 'tool', tool_call_id: callId, content: output(c) })) };
      }
      case 'openai-responses': {
        const response = [];
        if (step.text || !calls.length) response.push({ role: 'assistant', content: step.text || '(no text)' });
        for (const { c, id: callId } of calls) response.push({ type: 'function_call', call_id: callId, name: c.envelope.action.tool_name, arguments: JSON.stringify(args(c)) });
        return { input, response, results: answered.map(({ c, id: callId }) => ({ type: 'function_call_output', call_id: callId, output: output(c) })) };
      }
      case 'ai-sdk': {
        const content = [];
        if (step.text) content.push({ type: 'text', text: step.text });
        for (const { c, id: callId } of calls) content.push({ type: 'tool-call', toolCallId: callId, toolName: c.envelope.action.tool_name, input: args(c) });
        if (!content.length) content.push({ type: 'text', text: '(no text)' });
        const parts = answered.map(({ c, id: callId }) => ({ type: 'tool-result', toolCallId: callId, toolName: c.envelope.action.tool_name, output: { type: failed(c) ? 'error-text' : 'text', value: output(c) } }));
        return { input, response: [{ role: 'assistant', content }], results: parts.length ? [{ role: 'tool', content: parts }] : [] };
      }
      case 'vscode': {
        const content = [];
        if (step.text) content.push(new vscode.LanguageModelTextPart(step.text));
        for (const { c, id: callId } of calls) content.push(new vscode.LanguageModelToolCallPart(callId, c.envelope.action.tool_name, args(c)));
        if (!content.length) content.push(new vscode.LanguageModelTextPart('(no text)'));
        const parts = answered.map(({ c, id: callId }) => new vscode.LanguageModelToolResultPart(callId, [new vscode.LanguageModelTextPart(output(c))]));
        return { input, response: [vscode.LanguageModelChatMessage.Assistant(content)], results: parts.length ? [vscode.LanguageModelChatMessage.User(parts)] : [] };
      }
      default:
        throw new Error(`no such format ${format}`);
    }
  });
}

function userText(format, text, vscode) {
  if (format === 'vscode') return vscode.LanguageModelChatMessage.User(text);
  return { role: 'user', content: text };
}

/** The raw outputs of a session's turns, by the call id each format gives them. */
export function outputsById(session, format) {
  const out = new Map();
  session.steps.forEach((step, t) => step.calls.forEach((c, k) => { if (!c.unanswered) out.set(id(t, k, format), output(c)); }));
  return out;
}
