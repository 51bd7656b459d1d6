// A recorded session as the messages a host of each provider would have appended: per
// model turn, the user's input, the response (text and tool calls), and the results. The
// replay feeds them to a `ContextManager` in that format.
import type { ContextFormat } from '@devs/context';
import type { ReplayCall, ReplaySession } from './formats/index.js';

/** The provider formats a replay can build requests in (`vscode` needs an extension host). */
export type ReplayFormat = Exclude<ContextFormat, 'vscode'>;

/** One model turn's messages: `input` before its request, `response` and `results` after. */
export interface ProviderTurn {
  input: unknown[];
  response: unknown[];
  results: unknown[];
}

const args = (c: ReplayCall) => c.envelope.action.arguments;
const output = (c: ReplayCall) => c.envelope.observation.output;
const failed = (c: ReplayCall) => c.envelope.observation.status === 'error';
const name = (c: ReplayCall) => c.envelope.action.tool_name;

/** The id a format gives the `k`th call of turn `t`. */
export function callId(format: ReplayFormat, t: number, k: number): string {
  return format === 'anthropic' ? `toolu_${t}_${k}` : `call_${t}_${k}`;
}

type Call = { c: ReplayCall; id: string };
type Step = ReplaySession['steps'][number];
/** One turn's response and results in one format, from its text and its calls (`answered`: those with a result). */
type TurnWriter = (step: Step, calls: Call[], answered: Call[]) => Omit<ProviderTurn, 'input'>;

/** Each format's turn writer: the one list of the formats a replay builds requests in (a format missing here does not compile). */
const WRITERS: Record<ReplayFormat, TurnWriter> = {
  anthropic: (step, calls, answered) => {
    const content: unknown[] = [];
    if (step.text) content.push({ type: 'text', text: step.text });
    for (const { c, id } of calls) content.push({ type: 'tool_use', id, name: name(c), input: args(c) });
    if (!content.length) content.push({ type: 'text', text: '(no text)' });
    const results = answered.map(({ c, id }) => ({ type: 'tool_result', tool_use_id: id, content: output(c), is_error: failed(c) }));
    return { response: [{ role: 'assistant', content }], results: results.length ? [{ role: 'user', content: results }] : [] };
  },
  'openai-chat': (step, calls, answered) => {
    const response: Record<string, unknown> = { role: 'assistant', content: step.text || (calls.length ? null : '(no text)') };
    if (calls.length) response.tool_calls = calls.map(({ c, id }) => ({ id, type: 'function', function: { name: name(c), arguments: JSON.stringify(args(c)) } }));
    return { response: [response], results: answered.map(({ c, id }) => ({ role: 'tool', tool_call_id: id, content: output(c) })) };
  },
  'openai-responses': (step, calls, answered) => {
    const response: unknown[] = [];
    if (step.text || !calls.length) response.push({ role: 'assistant', content: step.text || '(no text)' });
    for (const { c, id } of calls) response.push({ type: 'function_call', call_id: id, name: name(c), arguments: JSON.stringify(args(c)) });
    return { response, results: answered.map(({ c, id }) => ({ type: 'function_call_output', call_id: id, output: output(c) })) };
  },
  // Gemini's calls carry no id here: their responses pair by name and order, as the API's do.
  gemini: (step, calls, answered) => {
    const parts: unknown[] = [];
    if (step.text) parts.push({ text: step.text });
    for (const { c } of calls) {
      const a: unknown = args(c);
      parts.push({ functionCall: { name: name(c), args: a !== null && typeof a === 'object' && !Array.isArray(a) ? a : { input: a } } });
    }
    if (!parts.length) parts.push({ text: '(no text)' });
    const responses = answered.map(({ c }) => ({ functionResponse: { name: name(c), response: failed(c) ? { error: output(c) } : { output: output(c) } } }));
    return { response: [{ role: 'model', parts }], results: responses.length ? [{ role: 'user', parts: responses }] : [] };
  },
  'ai-sdk': (step, calls, answered) => {
    const content: unknown[] = [];
    if (step.text) content.push({ type: 'text', text: step.text });
    for (const { c, id } of calls) content.push({ type: 'tool-call', toolCallId: id, toolName: name(c), input: args(c) });
    if (!content.length) content.push({ type: 'text', text: '(no text)' });
    const parts = answered.map(({ c, id }) => ({ type: 'tool-result', toolCallId: id, toolName: name(c), output: { type: failed(c) ? 'error-text' : 'text', value: output(c) } }));
    return { response: [{ role: 'assistant', content }], results: parts.length ? [{ role: 'tool', content: parts }] : [] };
  },
};

/** The provider formats a replay can build requests in, in order. */
export const REPLAY_FORMATS = Object.freeze(Object.keys(WRITERS) as ReplayFormat[]);

/** The session's turns as `format` messages (Responses API: input items). */
export function providerTurns(session: ReplaySession, format: ReplayFormat): ProviderTurn[] {
  const write = WRITERS[format];
  return session.steps.map((step, t) => {
    const calls = step.calls.map((c, k) => ({ c, id: callId(format, t, k) }));
    const answered = calls.filter(({ c }) => !c.unanswered);
    const input = step.input === undefined ? [] : [format === 'gemini' ? { role: 'user', parts: [{ text: step.input }] } : { role: 'user', content: step.input }];
    return { input, ...write(step, calls, answered) };
  });
}

/** The provider shape a transcript's agent spoke. */
export function nativeFormat(transcript: string): ReplayFormat {
  switch (transcript) {
    case 'claude-code':
    case 'cline':
    case 'anthropic-messages':
      return 'anthropic';
    case 'codex':
      return 'openai-responses';
    default:
      return 'openai-chat';
  }
}
