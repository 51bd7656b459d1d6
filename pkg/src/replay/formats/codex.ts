// Codex CLI rollout JSONL (`session_meta`, `response_item`, `event_msg`, `compacted`,
// `turn_context` lines; also the older form without `payload`). Calls and outputs are
// matched by `call_id`; `event_msg` `token_count` gives the input tokens.
import type { ReplaySession } from './session.js';
import { blockText, Builder, forEachJsonLine, isBag, num, str, timeOf } from './shared.js';
import type { Bag, RawCall, RawStep, Status } from './shared.js';

/** The `type`s of a rollout's lines, and of its items (the older form has no wrapper). */
export const CODEX_LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
export const CODEX_ITEM_TYPES = new Set([
  'message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call',
  'custom_tool_call_output', 'local_shell_call', 'web_search_call',
]);

/** The exit code a Codex shell output reports, if any. */
function codexExitCode(output: string): number | undefined {
  const head = output.slice(0, 400);
  if (head.startsWith('{') && head.includes('"exit_code"')) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isBag(parsed) && isBag(parsed.metadata) && typeof parsed.metadata.exit_code === 'number') return parsed.metadata.exit_code;
    } catch {
      // not the JSON form
    }
  }
  const m = /^Exit code: (-?\d+)/m.exec(head) ?? /Process exited with code (-?\d+)/.exec(head);
  return m ? Number(m[1]) : undefined;
}

function codexResult(out: unknown): { status: Status; output: string } {
  let status: Status = 'success';
  let output: string;
  if (typeof out === 'string') output = out;
  else if (Array.isArray(out)) output = blockText(out);
  else if (isBag(out)) {
    output = typeof out.content === 'string' ? out.content : Array.isArray(out.content_items) ? blockText(out.content_items) : str(out.output ?? out);
    if (out.success === false) status = 'error';
  } else output = str(out);
  const code = codexExitCode(output);
  if (code !== undefined && code !== 0) status = 'error';
  return { status, output };
}

export function codex(text: string, name: string): ReplaySession {
  const b = new Builder();
  const byCall = new Map<string, RawCall>();
  let open: RawStep | undefined; // the model turn whose output items are arriving
  let contextTokens: number | undefined; // the last reported size of the context
  // Codex CLI writes a user's message twice, as a `message` item and as an `event_msg`
  // `user_message`; Codex Desktop writes only the event. A text is an input once per gap
  // between model turns.
  const said = new Set<string>();
  let at: number | undefined; // the time of the line being read
  const turn = () => {
    if (open === undefined) {
      said.clear();
      open = b.step();
      open.time = at;
    }
    return open;
  };
  const user = (t: string) => {
    const key = t.trim();
    if (key === '' || said.has(key)) return;
    said.add(key);
    b.input(t);
    open = undefined;
  };

  const item = (p: Bag) => {
    switch (p.type) {
      case 'message': {
        const t = blockText(p.content);
        if (p.role === 'assistant') {
          if (t) turn().text.push(t);
        } else if (p.role === 'user') user(t);
        return;
      }
      case 'reasoning': {
        const parts = [blockText(p.summary), Array.isArray(p.content) ? blockText(p.content) : ''].filter((s) => s.trim() !== '');
        const step = turn();
        if (parts.length) step.text.push(parts.join('\n\n'));
        return;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call':
      case 'web_search_call': {
        const args = p.type === 'function_call' ? p.arguments : p.type === 'custom_tool_call' ? { input: str(p.input) } : p.action;
        const toolName = p.type === 'local_shell_call' ? 'local_shell' : p.type === 'web_search_call' ? 'web_search' : p.name;
        const call = b.call(turn(), toolName, args);
        // A web search runs on OpenAI's side: its item is the whole call, and the rollout
        // keeps no output for it. Answered here, so that no call is left open before the
        // conversation goes on.
        if (p.type === 'web_search_call') {
          const query = isBag(p.action) ? str(p.action.query) : '';
          call.result = { status: p.status === 'failed' ? 'error' : 'success', output: `web search${query ? ` for ${query}` : ''}: its results are not in the rollout` };
          return;
        }
        const id = str(p.call_id ?? p.id);
        if (id) byCall.set(id, call);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const call = byCall.get(str(p.call_id));
        if (call) call.result = codexResult(p.output);
        else b.orphan();
        open = undefined;
        return;
      }
      case 'compaction':
      case 'compaction_summary':
      case 'context_compaction':
        b.compact(undefined, contextTokens);
        open = undefined;
        return;
      default:
        return; // ghost snapshots and anything newer
    }
  };

  forEachJsonLine(text, b.warnings, (r) => {
    if (!isBag(r)) return;
    at = timeOf(r.timestamp);
    const p = isBag(r.payload) ? r.payload : undefined;
    if (r.type === 'response_item' && p) item(p);
    else if (r.type === 'compacted' && p) {
      b.compact(typeof p.message === 'string' ? p.message : undefined, contextTokens);
      open = undefined;
    } else if (r.type === 'event_msg' && p) {
      if (p.type === 'token_count') {
        const info = isBag(p.info) ? p.info : undefined;
        const last = info && isBag(info.last_token_usage) ? info.last_token_usage : num(p.input_tokens) !== undefined ? p : undefined;
        const input = last ? num(last.input_tokens) : undefined;
        if (last && input !== undefined) {
          const target = open ?? b.last;
          if (target && target.tokens === undefined) {
            target.tokens = input;
            target.cache = { read: num(last.cached_input_tokens) ?? 0, write: 0, pricing: 'openai' };
          }
          contextTokens = num(last.total_tokens) ?? input + (num(last.output_tokens) ?? 0);
          open = undefined; // the response is complete
        }
      } else if (p.type === 'user_message' && typeof p.message === 'string') {
        user(p.message);
      } else if (p.type === 'context_compacted') {
        b.compact(undefined, contextTokens);
        open = undefined;
      }
    } else if (p === undefined && typeof r.type === 'string' && CODEX_ITEM_TYPES.has(r.type)) {
      item(r); // the older form: items without the { type, payload } wrapper
    }
  });
  return b.finish(name, 'codex', 'codex');
}
