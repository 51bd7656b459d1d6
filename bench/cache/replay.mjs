// One session through one strategy: each request built, converted to Anthropic's form,
// checked, serialized and measured against the one before.
import { fromOpenAIChat } from './messages.mjs';
import { measure, serialize, spend } from './serialize.mjs';
import { anthropicProblems, isEmpty, openaiChatProblems } from './validity.mjs';

export async function replay(session, strategy, counter) {
  const requests = [];
  let previous = '';
  for (const end of session.ends) {
    const start = performance.now();
    const built = await strategy.build(session.messages.slice(0, end));
    const ms = performance.now() - start;
    const chat = strategy.format === 'openai-chat';
    const request = chat ? fromOpenAIChat(built) : built;
    const empty = chat ? isEmpty(built) : isEmpty(request.messages);
    const problems = chat ? openaiChatProblems(built) : anthropicProblems(request);
    const text = serialize(request);
    const m = measure(text, previous, counter);
    previous = text;
    strategy.observe?.(m);
    requests.push({ ...m, ms, empty, invalid: !empty && problems.length > 0, problem: problems[0] });
  }
  strategy.free?.();
  return requests;
}

/** The figures of a list of requests: sums, the largest, counts and build-time percentiles. */
export function figures(requests) {
  const sum = (f) => requests.reduce((n, r) => n + f(r), 0);
  const ms = requests.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)] ?? 0;
  return {
    requests: requests.length,
    tokens: sum((r) => r.tokens),
    prefix: sum((r) => r.prefix),
    spend: sum(spend),
    largest: Math.max(0, ...requests.map((r) => r.tokens)),
    invalid: sum((r) => r.invalid),
    empty: sum((r) => r.empty),
    msP50: at(0.5),
    msP95: at(0.95),
  };
}
