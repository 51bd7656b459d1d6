// The real sessions (fixtures/sessions), as the messages a host of each provider would
// append: per model turn, the user's input, the assistant's response (text and tool
// calls), and the tool results. Read with the package's own transcript parser.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { callId, parseTranscript, providerTurns as replayTurns } from '@devs/context/replay';
import { originalSessionFiles } from './sessions.mjs';

/** Every real session: `{ name, steps }` (see `ReplaySession`). */
export function realSessions() {
  return originalSessionFiles().flatMap((file) => parseTranscript(readFileSync(file, 'utf8'), basename(file)));
}

const id = (turn, k, format) => callId(format === 'vscode' ? 'openai-chat' : format, turn, k);
const args = (call) => call.envelope.action.arguments;
const output = (call) => call.envelope.observation.output;

/** Fake `vscode` classes with the API's shape, for tests outside an extension host. */
export const fakeVscode = (() => {
  class LanguageModelTextPart { constructor(value) { this.value = value; } }
  class LanguageModelToolCallPart { constructor(callId, name, input) { Object.assign(this, { callId, name, input }); } }
  class LanguageModelToolResultPart { constructor(callId, content) { Object.assign(this, { callId, content }); } }
  class LanguageModelDataPart {
    constructor(data, mimeType) { Object.assign(this, { data, mimeType }); }
    static image(data, mimeType) { return new LanguageModelDataPart(data, mimeType); }
  }
  class LanguageModelChatMessage {
    constructor(role, content, name) { Object.assign(this, { role, content, name }); }
    static User(content) { return new LanguageModelChatMessage(1, typeof content === 'string' ? [new LanguageModelTextPart(content)] : content); }
    static Assistant(content) { return new LanguageModelChatMessage(2, typeof content === 'string' ? [new LanguageModelTextPart(content)] : content); }
  }
  return { LanguageModelChatMessage, LanguageModelChatMessageRole: { User: 1, Assistant: 2 }, LanguageModelTextPart, LanguageModelToolCallPart, LanguageModelToolResultPart, LanguageModelDataPart };
})();

/**
 * The session's turns in `format`: `[{ input, response, results }]`, each a list of
 * messages (Responses API: items) to append in that order; `input` comes before the
 * request for that turn, the rest after it. The replay's own conversion, plus `vscode`,
 * which needs the host's classes.
 */
export function providerTurns(session, format, vscode = fakeVscode) {
  if (format !== 'vscode') return replayTurns(session, format);
  return session.steps.map((step, t) => {
    const calls = step.calls.map((c, k) => ({ c, id: id(t, k, format) }));
    const answered = calls.filter(({ c }) => !c.unanswered);
    const input = step.input === undefined ? [] : [vscode.LanguageModelChatMessage.User(step.input)];
    const content = [];
    if (step.text) content.push(new vscode.LanguageModelTextPart(step.text));
    for (const { c, id: callId } of calls) content.push(new vscode.LanguageModelToolCallPart(callId, c.envelope.action.tool_name, args(c)));
    if (!content.length) content.push(new vscode.LanguageModelTextPart('(no text)'));
    const parts = answered.map(({ c, id: callId }) => new vscode.LanguageModelToolResultPart(callId, [new vscode.LanguageModelTextPart(output(c))]));
    return { input, response: [vscode.LanguageModelChatMessage.Assistant(content)], results: parts.length ? [vscode.LanguageModelChatMessage.User(parts)] : [] };
  });
}

/** The inputs of a session's calls as each format's messages hold them, as JSON: what a call's stored text is. */
export function callInputs(session) {
  return session.steps.flatMap((step) => step.calls.map((c) => JSON.stringify(args(c))));
}

/** The raw outputs of a session's turns, by the call id each format gives them. */
export function outputsById(session, format) {
  const out = new Map();
  session.steps.forEach((step, t) => step.calls.forEach((c, k) => { if (!c.unanswered) out.set(id(t, k, format), output(c)); }));
  return out;
}
