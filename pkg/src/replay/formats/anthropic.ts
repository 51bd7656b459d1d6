// An Anthropic Messages array, bare or `{ messages }`, and Cline's history (Anthropic
// messages in Cline's dialect, cline.ts): `tool_use` / `tool_result` blocks, thinking, and
// the usage (`metrics.tokens` in Cline's).
import type { ReplaySession } from './session.js';
import { blockText, Builder, checkMessage, isBag, num, str, timeOf } from './shared.js';
import type { Bag, RawCall, RawStep } from './shared.js';
import { CLINE_COMPACTIONS, CLINE_ERROR, CLINE_SKIPPED, CLINE_USER_TEXT, clineHeader, clineName, parseClineText } from './cline.js';

const ANTHROPIC_ROLES = ['user', 'assistant'];

export function claudeUsage(usage: unknown): number | undefined {
  if (!isBag(usage)) return undefined;
  const input = num(usage.input_tokens);
  if (input === undefined) return undefined;
  return input + (num(usage.cache_read_input_tokens) ?? 0) + (num(usage.cache_creation_input_tokens) ?? 0);
}

/** What an Anthropic usage says the cache did. */
export function claudeCache(usage: unknown): RawStep['cache'] {
  if (!isBag(usage) || num(usage.input_tokens) === undefined) return undefined;
  return { read: num(usage.cache_read_input_tokens) ?? 0, write: num(usage.cache_creation_input_tokens) ?? 0, pricing: 'anthropic' };
}

function anthropicUsage(m: Bag): number | undefined {
  const fromUsage = claudeUsage(m.usage);
  if (fromUsage !== undefined) return fromUsage;
  const tokens = isBag(m.metrics) && isBag(m.metrics.tokens) ? m.metrics.tokens : undefined; // Cline
  return tokens ? num(tokens.prompt) : undefined;
}

export function anthropic(messages: unknown[], name: string, format: 'anthropic-messages' | 'cline'): ReplaySession {
  const b = new Builder();
  const byId = new Map<string, RawCall>();
  const cline = format === 'cline';
  let waiting: RawCall[] = []; // Cline's XML calls of the last assistant message, in order

  for (const [i, m] of messages.entries()) {
    checkMessage(m, i, ANTHROPIC_ROLES, format === 'cline' ? "Cline's history" : 'Anthropic messages');
    const blocks: unknown[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (m.role === 'assistant') {
      const step = b.step();
      step.tokens = anthropicUsage(m);
      step.cache = claudeCache(m.usage);
      step.time = timeOf(m.ts ?? m.timestamp); // Cline's `ts`
      const metrics = isBag(m.metrics) && isBag(m.metrics.tokens) ? m.metrics.tokens : undefined; // Cline
      if (!step.cache && metrics && num(metrics.cached) !== undefined) step.cache = { read: num(metrics.cached) ?? 0, write: 0, pricing: 'anthropic' };
      waiting = [];
      let summary: string | undefined;
      for (const block of blocks) {
        if (!isBag(block)) continue;
        if (block.type === 'text' && typeof block.text === 'string') {
          if (cline) {
            const parsed = parseClineText(block.text);
            if (parsed.text) step.text.push(parsed.text);
            for (const tool of parsed.tools) {
              waiting.push(b.call(step, tool.name, tool.params));
              if (CLINE_COMPACTIONS.has(tool.name)) summary = tool.params.context ?? '';
            }
          } else if (block.text) step.text.push(block.text);
        } else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) {
          step.text.push(block.thinking);
        } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          const call = b.call(step, block.name, block.input);
          if (typeof block.id === 'string') byId.set(block.id, call);
          // Cline with native tool calling answers most providers' calls with text blocks
          // headed `[read_file for 'x'] Result:`, in call order, not with tool_result blocks.
          if (cline) waiting.push(call);
          if (cline && CLINE_COMPACTIONS.has(str(block.name))) summary = isBag(block.input) ? str(block.input.context) : '';
        } else if (typeof block.type === 'string' && block.type.endsWith('_tool_result') && typeof block.tool_use_id === 'string') {
          const call = byId.get(block.tool_use_id);
          if (call) call.result = { status: 'success', output: blockText(block.content) };
        }
      }
      if (summary !== undefined) b.compact(summary);
      continue;
    }
    if (m.role !== 'user') continue; // a system prompt is not replayed
    let current: RawCall | undefined;
    let parts: string[] = [];
    const settle = () => {
      if (current) {
        const output = parts.join('\n');
        current.result = { status: CLINE_ERROR.test(output.trimStart()) ? 'error' : 'success', output };
      }
      current = undefined;
      parts = [];
    };
    const next = (toolName?: string): RawCall | undefined => {
      const i = toolName === undefined ? 0 : waiting.findIndex((c) => clineName(c.name) === toolName);
      if (i < 0 || i >= waiting.length) return undefined;
      return waiting.splice(i, 1)[0];
    };
    for (const block of blocks) {
      if (!isBag(block)) continue;
      if (block.type === 'tool_result') {
        settle();
        const call = byId.get(str(block.tool_use_id));
        if (call) {
          call.result = { status: block.is_error === true ? 'error' : 'success', output: blockText(block.content) };
          const at = waiting.indexOf(call);
          if (at >= 0) waiting.splice(at, 1);
        } else b.orphan();
        continue;
      }
      const text = block.type === 'text' && typeof block.text === 'string' ? block.text
        : block.type === 'image' || block.type === 'document' ? `[${block.type}]` : undefined;
      if (text === undefined) continue;
      if (!cline) {
        b.input(text);
        continue;
      }
      const header = clineHeader(text);
      const lead = text.trimStart();
      if (header) {
        settle();
        // Some labels are not their call's name (`[subagents] Result:` answers `use_subagents`).
        // Results come in call order, so a label that names no pending call answers the next
        // unanswered one; dropping it would hide a result the model saw.
        current = next(header.name) ?? next();
        const rest = text.slice(header.rest).replace(/^[ \t]*\r?\n/, '');
        if (current) {
          if (rest.trim() !== '') parts.push(rest);
        } else {
          b.orphan();
        }
      } else if (lead.startsWith('<function_results>')) {
        settle();
        current = next();
        if (current) parts.push(lead.replace(/^<function_results>\r?\n?/, '').replace(/\r?\n?<\/function_results>\s*$/, ''));
        else b.orphan();
        settle();
      } else if (CLINE_USER_TEXT.test(lead)) {
        // Cline's own additions after the results, and feedback the user gave before one.
        settle();
        b.input(text);
      } else if (CLINE_SKIPPED.test(lead)) {
        settle();
        const sm = CLINE_SKIPPED.exec(lead) as RegExpExecArray;
        const call = next(sm[1] ?? sm[2] ?? sm[3]);
        if (call) call.result = { status: 'error', output: text };
        else b.input(text);
      } else if (current) {
        parts.push(text);
      } else {
        b.input(text);
      }
    }
    settle();
  }
  return b.finish(name, format, format);
}
