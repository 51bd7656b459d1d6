// Real agent sessions (pkg/test/fixtures/sessions/) as scripted LLM answers: each tool call and
// its result become one SAOP envelope, returned with the model's text as `{ text, envelope }`.
//
//   loadSession(path) → [{ name, format, steps: [{ text, envelope, input? }] }]
//
// One file holds one session, except OpenHands' output.jsonl (one per line). `text` is
// what the model wrote before the call (its reasoning / thinking / message text); a step's
// `input`, when present, is the user's message that came before it (the task, a follow-up,
// a compaction summary), for `runTurn(input)`. Model text after the last tool call becomes
// a last step with no envelope. The envelope:
//   { schema_version: '1.0.0', turn_index, agent_id, phase: 'replay',
//     thought: { reasoning, plan: '' }, action: { tool_name, arguments },
//     observation: { status: 'success' | 'error', output } }
//
// Formats, detected from the file:
//   - Claude Code session JSONL: `tool_use` blocks in assistant messages (one API message
//     may span several lines), `tool_result` blocks (with `is_error`) in user messages;
//   - SWE-agent `.traj`: `history` with OpenAI-style `tool_calls` and `tool` messages;
//   - mini-SWE-agent `.traj.json`: `messages`, the command as the fenced bash block of each
//     assistant message, the result in the next user message (`<returncode>`);
//   - OpenHands `output.jsonl`: `history` events, actions with `tool_call_metadata`, their
//     observations linked by `cause`; a rejected call's `error` observation is a step too.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real sessions, copied into the repository with their licence. */
export const SESSIONS = fileURLToPath(new URL('../pkg/test/fixtures/sessions/', import.meta.url));

/**
 * The four sessions the tests and benchmarks were written against: their counts, timings and
 * published figures are of these, and the package's own reader (`parseTranscript`) reads each.
 * Every test and benchmark that iterates the sessions iterates these (`originalSessionFiles()`),
 * so that adding sessions to the folder changes neither what they check nor how long they take.
 */
export const ORIGINAL_SESSIONS = Object.freeze([
  'claude-code-session.jsonl',
  'mini-swe-agent-django-11138.traj.json',
  'openhands-multi-swe-bench-output.jsonl',
  'swe-agent-marshmallow-1867.traj',
]);

/** Paths of every session file in the folder (not its README or licence), sorted. */
export function sessionFiles() {
  return readdirSync(SESSIONS).filter((f) => /\.(jsonl|json|traj)$/.test(f)).sort().map((f) => join(SESSIONS, f));
}

/** Paths of the four original session files (`ORIGINAL_SESSIONS`), sorted. */
export function originalSessionFiles() {
  return ORIGINAL_SESSIONS.map((f) => join(SESSIONS, f));
}

const PHASE = 'replay';

function envelope(agentId, turnIndex, reasoning, toolName, args, status, output) {
  return {
    schema_version: '1.0.0',
    turn_index: turnIndex,
    agent_id: agentId,
    phase: PHASE,
    thought: { reasoning, plan: '' },
    action: { tool_name: toolName, arguments: args },
    observation: { status, output },
  };
}

/** JSON arguments as an object: strings are parsed, anything else is wrapped. */
function asArguments(value) {
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { raw: value };
    }
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) return JSON.parse(JSON.stringify(value));
  return value === undefined || value === null ? {} : { value };
}

function blockText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content);
  return content.map((b) => (b.type === 'text' ? b.text : b.type === 'image' ? '[image]' : JSON.stringify(b))).join('\n');
}

function finish(name, format, agentId, raw) {
  // raw: [{ text, input?, call?: { name, args }, result?: { status, output } }]
  const steps = raw.map((s, i) => {
    const step = { text: s.text };
    if (s.input !== undefined && s.input !== '') step.input = s.input;
    if (s.call) {
      const result = s.result ?? { status: 'error', output: '[no result recorded]' };
      step.envelope = envelope(agentId, i + 1, s.text, s.call.name, s.call.args, result.status, result.output);
    }
    return step;
  });
  return { name, format, steps };
}

function claudeCode(name, text) {
  const records = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const raw = [];
  const byId = new Map();
  let thoughts = [];
  let inputs = [];
  for (const r of records) {
    if (r.isSidechain || (r.type !== 'user' && r.type !== 'assistant') || !r.message) continue;
    const content = r.message.content;
    if (r.type === 'assistant') {
      for (const block of Array.isArray(content) ? content : [{ type: 'text', text: String(content) }]) {
        if (block.type === 'text' && block.text) thoughts.push(block.text);
        else if (block.type === 'thinking' && block.thinking) thoughts.push(block.thinking);
        else if (block.type === 'tool_use') {
          const step = { text: thoughts.join('\n\n'), input: inputs.join('\n\n'), call: { name: block.name, args: asArguments(block.input) } };
          raw.push(step);
          byId.set(block.id, step);
          thoughts = [];
          inputs = [];
        }
      }
    } else if (typeof content === 'string') {
      inputs.push(content);
    } else if (Array.isArray(content)) {
      for (const block of content) {
        if (block.type === 'tool_result') {
          const step = byId.get(block.tool_use_id);
          if (step) step.result = { status: block.is_error ? 'error' : 'success', output: blockText(block.content) };
        } else if (block.type === 'text') {
          inputs.push(block.text);
        }
      }
    }
  }
  if (thoughts.length) raw.push({ text: thoughts.join('\n\n'), input: inputs.join('\n\n') });
  return [finish(name, 'Claude Code JSONL', 'claude-code', raw)];
}

function sweAgent(name, doc) {
  const raw = [];
  const byId = new Map();
  let inputs = [];
  for (const m of doc.history) {
    if (m.role === 'user') inputs.push(blockText(m.content));
    else if (m.role === 'assistant') {
      const calls = m.tool_calls ?? [];
      const text = blockText(m.thought ?? m.content);
      if (calls.length === 0) {
        raw.push({ text, input: inputs.join('\n\n') });
        inputs = [];
      }
      calls.forEach((c, i) => {
        const step = { text: i === 0 ? text : '', input: i === 0 ? inputs.join('\n\n') : '', call: { name: c.function.name, args: asArguments(c.function.arguments) } };
        raw.push(step);
        byId.set(c.id, step);
      });
      inputs = [];
    } else if (m.role === 'tool') {
      for (const id of m.tool_call_ids ?? [m.tool_call_id]) {
        const step = byId.get(id);
        if (step) step.result = { status: 'success', output: blockText(m.content) };
      }
    }
  }
  return [finish(name, 'SWE-agent .traj', 'swe-agent', raw)];
}

function miniSweAgent(name, doc) {
  const raw = [];
  let inputs = [];
  let pending = null;
  for (const m of doc.messages) {
    if (m.role === 'assistant') {
      const content = blockText(m.content);
      const blocks = [...content.matchAll(/```bash\s*\n([\s\S]*?)\n```/g)];
      const thought = content.split('```')[0].replace(/^THOUGHT:\s*/, '').trim();
      pending = { text: thought, input: inputs.join('\n\n'), call: { name: 'bash', args: { command: blocks[0]?.[1] ?? '' } } };
      raw.push(pending);
      inputs = [];
    } else if (m.role === 'user') {
      const content = blockText(m.content);
      if (pending) {
        const code = /<returncode>(-?\d+)<\/returncode>/.exec(content);
        // No return code: a format error (not exactly one bash block) or the final diff.
        const ok = code ? code[1] === '0' : pending.call.args.command !== '' && !/EXACTLY ONE|format/i.test(content.slice(0, 300));
        pending.result = { status: ok ? 'success' : 'error', output: content };
        pending = null;
      } else {
        inputs.push(content);
      }
    }
  }
  return [finish(name, 'mini-SWE-agent .traj.json', 'mini-swe-agent', raw)];
}

function openHands(name, text) {
  return text.split('\n').filter((l) => l.trim()).map((line) => {
    const doc = JSON.parse(line);
    const raw = [];
    const byEvent = new Map();
    let inputs = [];
    for (const e of doc.history) {
      if (e.source === 'user' && e.action === 'message') inputs.push(e.message ?? e.args?.content ?? '');
      else if (e.action && e.tool_call_metadata) {
        const meta = e.tool_call_metadata;
        const message = meta.model_response?.choices?.[0]?.message ?? {};
        const call = (message.tool_calls ?? []).find((c) => c.id === meta.tool_call_id);
        const thought = e.args?.thought || message.content || (e.action === 'think' || e.action === 'finish' ? e.message : '') || '';
        const step = {
          text: thought,
          input: inputs.join('\n\n'),
          call: { name: call?.function?.name ?? meta.function_name, args: asArguments(call?.function?.arguments ?? {}) },
        };
        // `finish` and `think` have no observation of their own.
        if (e.action === 'finish') step.result = { status: 'success', output: e.args?.final_thought || e.message || '' };
        raw.push(step);
        byEvent.set(e.id, step);
        inputs = [];
      } else if (e.observation && e.cause !== undefined && byEvent.has(e.cause)) {
        const exit = e.extras?.metadata?.exit_code;
        const failed = e.observation === 'error' || (typeof exit === 'number' && exit !== 0);
        byEvent.get(e.cause).result = { status: failed ? 'error' : 'success', output: String(e.content ?? '') };
      } else if (e.observation === 'error') {
        // A tool call the runtime rejected before it became an action.
        raw.push({ text: '', input: inputs.join('\n\n'), call: { name: 'rejected_tool_call', args: {} }, result: { status: 'error', output: String(e.content ?? e.message ?? '') } });
        inputs = [];
      }
    }
    return finish(`${name}#${doc.instance_id}`, 'OpenHands output.jsonl', 'openhands', raw);
  });
}

/** The sessions in `path`, in the file's own format. */
export function loadSession(path) {
  const text = readFileSync(path, 'utf8');
  const name = basename(path);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined; // JSONL: one record per line
  }
  const first = doc ?? JSON.parse(text.slice(0, text.indexOf('\n')));
  if (Array.isArray(first.history) && first.instance_id !== undefined) return openHands(name, text);
  if (doc === undefined) return claudeCode(name, text);
  if (Array.isArray(doc.messages)) return miniSweAgent(name, doc);
  if (Array.isArray(doc.history)) return sweAgent(name, doc);
  throw new Error(`${path}: not a Claude Code, SWE-agent, mini-SWE-agent or OpenHands transcript`);
}
