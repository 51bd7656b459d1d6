// Gemini CLI session JSON (`{ sessionId, projectHash, messages }`): messages of type `user`
// and `gemini`; each `toolCalls` entry of a `gemini` message carries its own `result`
// (`functionResponse.response.output`, or `.error`) and `status`.
import type { ReplaySession } from './session.js';
import { blockText, Builder, isBag, num, str, timeOf } from './shared.js';
import type { Bag } from './shared.js';

export function isGeminiCli(doc: unknown): boolean {
  return isBag(doc) && Array.isArray(doc.messages) && typeof doc.projectHash === 'string';
}

export function geminiCli(doc: Bag, name: string): ReplaySession {
  const b = new Builder();
  for (const m of Array.isArray(doc.messages) ? doc.messages : []) {
    if (!isBag(m)) continue;
    const content = blockText(m.content);
    if (m.type === 'user') {
      b.input(content);
      continue;
    }
    if (m.type !== 'gemini') continue; // `info`, `error`: the CLI's own notes
    const step = b.step();
    step.time = timeOf(m.timestamp);
    for (const t of Array.isArray(m.thoughts) ? m.thoughts : []) {
      if (isBag(t)) step.text.push([str(t.subject), str(t.description)].filter(Boolean).join(': '));
    }
    step.text.push(content);
    if (isBag(m.tokens)) step.tokens = num(m.tokens.input);
    for (const c of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
      if (!isBag(c)) continue;
      const output = (Array.isArray(c.result) ? c.result : []).map((x) => {
        const response = isBag(x) && isBag(x.functionResponse) && isBag(x.functionResponse.response) ? x.functionResponse.response : {};
        return str(response.output ?? response.error ?? response);
      }).join('\n');
      b.call(step, c.name, c.args).result = { status: c.status === 'success' ? 'success' : 'error', output };
    }
  }
  return b.finish(name, 'gemini-cli', 'gemini-cli');
}
