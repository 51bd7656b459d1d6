// An OpenAI Chat Completions `messages` array, bare or `{ messages }`; also SWE-agent's
// history and mini-SWE-agent's later trajectories, which have the same shape.
import type { ReplaySession } from './session.js';
import { blockText, Builder, checkMessage, isBag, num, str } from './shared.js';
import type { RawCall } from './shared.js';

const OPENAI_ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

export function hasOpenAiTools(messages: unknown[]): boolean {
  return messages.some((m) => isBag(m) && (Array.isArray(m.tool_calls) || m.role === 'tool' || m.role === 'function' || isBag(m.function_call)));
}

/** `submission`: SWE-agent's `info.submission`, the output of a last `submit` that has no observation. */
export function openAi(messages: unknown[], name: string, format: 'openai-messages' | 'swe-agent' | 'mini-swe-agent', submission?: string): ReplaySession {
  const b = new Builder();
  const byId = new Map<string, RawCall>();
  let legacy: RawCall | undefined; // the last `function_call` (the API before tool_calls)
  let bare: RawCall | undefined; // SWE-agent without function calling: the action awaiting its observation
  for (const [i, m] of messages.entries()) {
    if (isBag(m) && m.is_demo === true) continue;
    checkMessage(m, i, OPENAI_ROLES, 'OpenAI messages');
    if (m.role === 'assistant') {
      const step = b.step();
      const usage = isBag(m.usage) ? m.usage : isBag(m.extra) && isBag(m.extra.response) && isBag(m.extra.response.usage) ? m.extra.response.usage : undefined;
      if (usage) step.tokens = num(usage.prompt_tokens);
      const reasoning = typeof m.reasoning_content === 'string' ? m.reasoning_content : typeof m.reasoning === 'string' ? m.reasoning : '';
      if (reasoning) step.text.push(reasoning);
      const said = format === 'swe-agent' && typeof m.thought === 'string' ? m.thought : blockText(m.content);
      if (said) step.text.push(said);
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      for (const c of calls) {
        if (!isBag(c)) continue;
        const fn = isBag(c.function) ? c.function : {};
        const call = b.call(step, fn.name, fn.arguments);
        if (typeof c.id === 'string') byId.set(c.id, call);
      }
      if (isBag(m.function_call)) legacy = b.call(step, m.function_call.name, m.function_call.arguments);
      bare = undefined;
      if (calls.length === 0 && format === 'swe-agent' && typeof m.action === 'string' && m.action.trim() !== '') {
        bare = b.call(step, 'bash', { command: m.action });
      }
    } else if (m.role === 'tool') {
      const ids = Array.isArray(m.tool_call_ids) ? m.tool_call_ids : [m.tool_call_id];
      const output = blockText(m.content);
      let matched = false;
      for (const id of ids) {
        const call = byId.get(str(id));
        if (call) {
          call.result = { status: 'success', output };
          matched = true;
        }
      }
      if (!matched && bare) {
        bare.result = { status: 'success', output };
        bare = undefined;
      } else if (!matched) b.orphan();
    } else if (m.role === 'function') {
      if (legacy) legacy.result = { status: 'success', output: blockText(m.content) };
      else b.orphan();
      legacy = undefined;
    } else if (m.role === 'user') {
      // SWE-agent marks an observation `message_type: 'observation'`; its 0.x trajectories
      // mark nothing, and there the user message after an action is always its output.
      if (bare && (m.message_type === 'observation' || m.message_type === undefined)) {
        bare.result = { status: 'success', output: blockText(m.content) };
        bare = undefined;
      } else b.input(blockText(m.content));
    }
    // system / developer prompts are not replayed
  }
  if (bare && !bare.result && submission !== undefined && str(bare.args.command).trim() === 'submit') bare.result = { status: 'success', output: submission };
  return b.finish(name, format, format);
}
