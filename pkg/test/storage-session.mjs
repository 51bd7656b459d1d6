// A long computer-use session for measuring what a durable session's store holds against
// what was given to it (pkg/test/storage.test.mjs, bench/storage.mjs): each turn a sentence,
// a tool call and its result, a 2 KB command output, or every 5th turn a screenshot (a
// 1,280 × 800 JPEG of Chromium's, made distinct per turn). Anthropic's shapes.
import { base64, jpeg } from './media-bytes.mjs';

/** Every turn's command output, about `kb` KB, distinct per turn. */
function output(t, kb = 2) {
  let s = '';
  for (let i = 0; s.length < kb * 1024; i++) s += `test parser::case_${t}_${i} ... ${(t * 31 + i) % 7 ? 'ok' : 'FAILED'}\n`;
  return s;
}

/** Turn `t`'s messages: the assistant's call, and the user's message with its result. */
export function storageTurn(t) {
  const id = `toolu_${t}`;
  const shot = t % 5 === 4;
  const call = shot ? { name: 'computer', input: { action: 'screenshot' } } : { name: 'bash', input: { command: `cargo test parser -- case_${t}` } };
  const content = shot
    ? [{ type: 'text', text: `turn ${t}: the screen` }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: base64(jpeg(t)) } }]
    : [{ type: 'text', text: output(t) }];
  return [
    { role: 'assistant', content: [{ type: 'text', text: `Turn ${t}: ${shot ? 'I look at the screen' : 'I run the parser tests again'}.` }, { type: 'tool_use', id, ...call }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
  ];
}

/** A summarizer whose answer is a function of its prompt alone. */
export const storageSummarizer = async (prompt) => `Earlier: ${prompt.length} characters of work on the parser tests.`;

/** `ContextManager.open`'s options for the session `sessionId` on `store`. */
export function storageOptions(sessionId, store) {
  return { sessionId, store, format: 'anthropic', budget: 50_000, system: 'You are a coding agent.', summarizer: storageSummarizer };
}

/**
 * Drives `context` from turn `from` to turn `to`: each turn an append, a build and its usage.
 * Resolves the raw data given: the UTF-8 bytes of every message appended, as JSON, the images
 * as their base64 text.
 */
export async function driveStorage(context, from, to) {
  let raw = 0;
  for (let t = from; t < to; t++) {
    const messages = storageTurn(t);
    raw += Buffer.byteLength(JSON.stringify(messages));
    await context.append(messages);
    const built = await context.build();
    await context.recordUsage({ input_tokens: Math.round(built.tokens * 1.05) + 40 });
  }
  return raw;
}
