// mini-SWE-agent `.traj.json` (`messages`): the action is the one fenced bash block of each
// assistant message, its result the next user message. Later versions call tools: those
// are read as OpenAI messages.
import { hasOpenAiTools, openAi } from './openai.js';
import type { ReplaySession } from './session.js';
import { blockText, Builder, isBag, num } from './shared.js';
import type { Bag, RawCall, Status } from './shared.js';

/** mini-SWE-agent: fenced bash blocks in assistant text answered by `<returncode>` messages. */
export function looksMini(messages: unknown[]): boolean {
  let bash = false;
  let code = false;
  for (const m of messages.slice(0, 12)) {
    if (!isBag(m) || typeof m.content !== 'string') continue;
    if (m.role === 'assistant' && m.content.includes('```bash')) bash = true;
    if (m.role === 'user' && m.content.includes('<returncode>')) code = true;
  }
  return bash && code && !hasOpenAiTools(messages);
}

export function miniSweAgent(doc: Bag, name: string): ReplaySession {
  const messages = Array.isArray(doc.messages) ? doc.messages : [];
  if (hasOpenAiTools(messages)) return openAi(messages, name, 'mini-swe-agent'); // later versions call tools
  const b = new Builder();
  let pending: RawCall | undefined;
  for (const m of messages) {
    if (!isBag(m)) continue;
    const content = blockText(m.content);
    if (m.role === 'assistant') {
      const step = b.step();
      const usage = isBag(m.extra) && isBag(m.extra.response) && isBag(m.extra.response.usage) ? m.extra.response.usage : isBag(m.usage) ? m.usage : undefined;
      if (usage) step.tokens = num(usage.prompt_tokens);
      const blocks = [...content.matchAll(/```bash\s*\n([\s\S]*?)\n```/g)];
      const thought = content.split('```')[0]?.replace(/^THOUGHT:\s*/, '').trim() ?? '';
      if (thought) step.text.push(thought);
      // Not exactly one action: mini-SWE-agent ran nothing, and its format error is the next input.
      pending = blocks.length === 1 ? b.call(step, 'bash', { command: blocks[0]?.[1] ?? '' }) : undefined;
      if (blocks.length > 1) step.text.push(content.slice(content.indexOf('```')));
    } else if (m.role === 'user') {
      if (pending) {
        const code = /<returncode>(-?\d+)<\/returncode>/.exec(content.slice(0, 200));
        const status: Status = /^\s*The last command <command>[\s\S]*?timed out/.test(content.slice(0, 2000)) ? 'timeout'
          : code && code[1] !== '0' ? 'error' : 'success';
        pending.result = { status, output: content };
        pending = undefined;
      } else {
        b.input(content);
      }
    }
  }
  return b.finish(name, 'mini-swe-agent', 'mini-swe-agent');
}
