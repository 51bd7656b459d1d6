// Real agent sessions (pkg/test/fixtures/sessions/) as scripted LLM answers: each tool call and
// its result become one SAOP envelope, returned with the model's text as `{ text, envelope }`.
//
//   loadSession(path) → [{ name, format, steps: [{ text, envelope, input? }] }]
//
// One file holds one session, except the OpenHands `output.jsonl` files (one per line). `text`
// is what the model wrote before the call (its reasoning / thinking / message text); a step's
// `input`, when present, is the user's message that came before it (the task, a follow-up,
// a compaction summary), for `runTurn(input)`. Model text after the last tool call becomes
// a last step with no envelope. The envelope:
//   { schema_version: '1.0.0', turn_index, agent_id, phase: 'replay',
//     thought: { reasoning, plan: '' }, action: { tool_name, arguments },
//     observation: { status: 'success' | 'error', output } }
//
// Formats, detected from the file:
//   - Claude Code session JSONL: `tool_use` blocks in assistant messages (one API message
//     may span several lines), `tool_result` blocks (with `is_error`) in user messages; a
//     sub-agent's own transcript (every record `isSidechain`) is read the same way;
//   - SWE-agent `.traj`: `history` with OpenAI-style `tool_calls` and `tool` messages, or
//     (older, no function calling) an `action` string on each assistant message, its result
//     the next user message;
//   - mini-SWE-agent `.traj.json`: `messages`, the command as the fenced bash block of each
//     assistant message, the result in the next user message (`<returncode>`);
//   - OpenHands `output.jsonl`: `history` events, actions with `tool_call_metadata`, their
//     observations linked by `cause`; a rejected call's `error` observation is a step too.
//     The same events as a bare JSON array (a trajectory saved from the GUI) are read alike;
//     older `history` events (no ids: the resolver's output) pair each action with the
//     observation after it;
//   - Codex CLI rollout JSONL: `response_item` records (`function_call` / `custom_tool_call`
//     and their `*_output` by `call_id`, `web_search_call`, `reasoning` summaries, messages);
//   - Gemini CLI session JSON: `messages` of type `user` / `gemini`, each `toolCalls` entry
//     with its own `result` (`functionResponse.response.output`);
//   - Anthropic-style message arrays (Cline's SDK `*.messages.json`, Cline's
//     `api_conversation_history.json`, an Anthropic Messages array): `tool_use` and
//     `tool_result` blocks;
//   - OpenAI Chat Completions message arrays: `tool_calls` and `tool` messages;
//   - Moatless `trajectory.json`: `transitions`, each action's `request` (the call, its
//     `scratch_pad` the text) and `response` (`output`, or `retry_message` when rejected);
//   - Aider `.aider.chat.history.md`: `#### ` lines are the user's, `> ` lines aider's own
//     notes, the rest the model's replies. Aider has no tool calls: a reply that edits files
//     or runs commands is one `apply_reply` call whose result is aider's notes after it
//     (applied edits, commits, command output); other replies are text steps.
//
// Images in tool results (Claude Code, Anthropic-style arrays) become a line of text in the
// output naming the media type and the size of the data, which is left out.
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
  return readdirSync(SESSIONS).filter((f) => /\.(jsonl|json|traj)$|\.chat\.history\.md$/.test(f)).sort().map((f) => join(SESSIONS, f));
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

/** An image block as one line of text: its media type and data size, the data left out. */
function imageText(block) {
  const source = block.source ?? {};
  const data = source.data ?? block.data ?? '';
  const type = source.media_type ?? block.mimeType ?? block.media_type ?? 'image';
  return `[image ${type}, ${data.length} base64 characters left out]`;
}

function blockText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content);
  return content.map((b) => (b.type === 'text' ? b.text : b.type === 'image' ? imageText(b) : JSON.stringify(b))).join('\n');
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
  // A sub-agent's own transcript has only sidechain records: read them; elsewhere skip them.
  const subagent = !records.some((r) => !r.isSidechain && (r.type === 'user' || r.type === 'assistant'));
  for (const r of records) {
    if ((r.isSidechain && !subagent) || (r.type !== 'user' && r.type !== 'assistant') || !r.message) continue;
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
  let pending = null; // an older trajectory's action, waiting for its observation
  for (const m of doc.history) {
    if (m.role === 'user' && pending) {
      pending.result = { status: 'success', output: blockText(m.content) };
      pending = null;
    } else if (m.role === 'user') inputs.push(blockText(m.content));
    else if (m.role === 'assistant') {
      const calls = m.tool_calls ?? [];
      const text = blockText(m.thought ?? m.content);
      if (calls.length === 0 && typeof m.action === 'string' && m.action.trim()) {
        // No function calling: the command is the action string, its output the next user message.
        const command = m.action.replace(/\n$/, '');
        pending = { text, input: inputs.join('\n\n'), call: { name: command.trim().split(/\s+/)[0], args: { command } } };
        raw.push(pending);
        inputs = [];
        continue;
      }
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
  // An older trajectory's last `submit` has no observation in `history`: its output is the submission.
  if (pending && pending.call.name === 'submit' && typeof doc.info?.submission === 'string') {
    pending.result = { status: 'success', output: doc.info.submission };
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

/** OpenHands V0 events (actions with `tool_call_metadata`, observations by `cause`) as raw steps. */
function openHandsEvents(events) {
  const raw = [];
  const byEvent = new Map();
  let inputs = [];
  for (const e of events) {
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
    } else if (e.source === 'agent' && e.action === 'message') {
      // The agent's reply with no tool call (the last message of a GUI session).
      raw.push({ text: e.args?.content ?? e.message ?? '', input: inputs.join('\n\n') });
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
  return raw;
}

/**
 * Older OpenHands events (the resolver's output): no ids and no `source`, an action's arguments
 * beside its `action` and `thought`, its observation the event after it.
 */
function openHandsLegacyEvents(events) {
  const raw = [];
  let inputs = [];
  let pending = null;
  const bookkeeping = new Set(['action', 'thought', 'action_risk', 'is_confirmed', 'keep_prompt', 'kernel_init_code', 'security_risk']);
  events.forEach((e, i) => {
    if (e.action === 'message') {
      if (i === 0 || e.images_urls !== undefined) {
        inputs.push(e.content ?? '');
      } else {
        raw.push({ text: e.content ?? '', input: inputs.join('\n\n') });
        inputs = [];
      }
    } else if (e.action) {
      const args = Object.fromEntries(Object.entries(e).filter(([k]) => !bookkeeping.has(k)));
      pending = { text: e.thought ?? '', input: inputs.join('\n\n'), call: { name: e.action, args } };
      if (e.action === 'finish') pending.result = { status: 'success', output: e.thought ?? JSON.stringify(e.outputs ?? {}) };
      raw.push(pending);
      inputs = [];
    } else if (e.observation && pending && !pending.result) {
      const failed = e.observation === 'error' || (typeof e.exit_code === 'number' && e.exit_code !== 0);
      pending.result = { status: failed ? 'error' : 'success', output: String(e.content ?? '') };
    }
  });
  return raw;
}

function openHands(name, text) {
  return text.split('\n').filter((l) => l.trim()).map((line) => {
    const doc = JSON.parse(line);
    const legacy = doc.history.every((e) => e.id === undefined && e.source === undefined);
    const label = doc.instance_id ?? (doc.issue ? `${doc.issue.owner}/${doc.issue.repo}#${doc.issue.number}` : '');
    return finish(`${name}#${label}`, 'OpenHands output.jsonl', 'openhands', legacy ? openHandsLegacyEvents(doc.history) : openHandsEvents(doc.history));
  });
}

/** A Codex CLI rollout: `response_item` records, calls paired with outputs by `call_id`. */
function codexRollout(name, text) {
  const records = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const items = records.filter((r) => r.type === 'response_item').map((r) => r.payload);
  // Desktop rollouts keep the user's messages only as `event_msg` records.
  const userItems = items.some((p) => p.type === 'message' && p.role === 'user');
  const raw = [];
  const byId = new Map();
  let thoughts = [];
  let inputs = [];
  const call = (callName, args, id) => {
    const step = { text: thoughts.join('\n\n'), input: inputs.join('\n\n'), call: { name: callName, args } };
    raw.push(step);
    if (id) byId.set(id, step);
    thoughts = [];
    inputs = [];
    return step;
  };
  for (const r of records) {
    const p = r.payload ?? {};
    if (r.type === 'event_msg' && p.type === 'user_message' && !userItems) inputs.push(p.message ?? '');
    if (r.type !== 'response_item') continue;
    if (p.type === 'message') {
      const textOf = (p.content ?? []).map((c) => c.text ?? (c.type === 'input_image' ? '[image left out]' : '')).filter(Boolean).join('\n');
      if (p.role === 'user') inputs.push(textOf);
      else if (p.role === 'assistant') thoughts.push(textOf);
      // `developer` messages are the harness's instructions, not the user's.
    } else if (p.type === 'reasoning') {
      const summary = (p.summary ?? []).map((x) => x.text).filter(Boolean).join('\n');
      if (summary) thoughts.push(summary); // encrypted reasoning is left out
    } else if (p.type === 'function_call' || p.type === 'local_shell_call') {
      call(p.name ?? 'local_shell', asArguments(p.arguments ?? p.action), p.call_id);
    } else if (p.type === 'custom_tool_call') {
      call(p.name, { input: p.input }, p.call_id);
    } else if (p.type === 'web_search_call') {
      const step = call('web_search', asArguments(p.action ?? {}), null);
      step.result = { status: p.status === 'completed' ? 'success' : 'error', output: '[the rollout records no results of a web search]' };
    } else if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') {
      const step = byId.get(p.call_id);
      if (!step) continue;
      let output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output);
      let failed = typeof p.output === 'object' && p.output?.success === false;
      const exit = /Process exited with code (-?\d+)/.exec(output) ?? /"exit_code":\s*(-?\d+)/.exec(output);
      if (exit) failed = exit[1] !== '0';
      step.result = { status: failed ? 'error' : 'success', output };
    }
  }
  if (thoughts.length) raw.push({ text: thoughts.join('\n\n'), input: inputs.join('\n\n') });
  return [finish(name, 'Codex CLI rollout JSONL', 'codex', raw)];
}

/** A Gemini CLI session: each `gemini` message's `toolCalls` carry their own results. */
function geminiCli(name, doc) {
  const raw = [];
  let inputs = [];
  for (const m of doc.messages) {
    const content = typeof m.content === 'string' ? m.content : blockText(m.content);
    if (m.type === 'user') {
      inputs.push(content);
      continue;
    }
    if (m.type !== 'gemini') continue;
    const thoughts = (m.thoughts ?? []).map((t) => [t.subject, t.description].filter(Boolean).join(': '));
    const text = [...thoughts, content].filter(Boolean).join('\n\n');
    const calls = m.toolCalls ?? [];
    if (calls.length === 0) {
      raw.push({ text, input: inputs.join('\n\n') });
      inputs = [];
    }
    calls.forEach((c, i) => {
      const output = (c.result ?? []).map((x) => {
        const response = x.functionResponse?.response ?? {};
        return response.output ?? response.error ?? JSON.stringify(response);
      }).join('\n');
      raw.push({
        text: i === 0 ? text : '',
        input: i === 0 ? inputs.join('\n\n') : '',
        call: { name: c.name, args: asArguments(c.args) },
        result: { status: c.status === 'success' ? 'success' : 'error', output },
      });
    });
    if (calls.length) inputs = [];
  }
  return [finish(name, 'Gemini CLI session JSON', 'gemini-cli', raw)];
}

/** Messages with Anthropic content blocks (`tool_use` / `tool_result`), as Cline writes them. */
function anthropicMessages(name, messages, format, agentId) {
  const raw = [];
  const byId = new Map();
  let thoughts = [];
  let inputs = [];
  const blocks = (content) => (Array.isArray(content) ? content : [{ type: 'text', text: String(content ?? '') }]);
  for (const m of messages) {
    if (m.role === 'assistant') {
      for (const b of blocks(m.content)) {
        if (b.type === 'text' && b.text) thoughts.push(b.text);
        else if ((b.type === 'thinking' || b.type === 'reasoning') && (b.thinking ?? b.text)) thoughts.push(b.thinking ?? b.text);
        else if (b.type === 'tool_use') {
          const step = { text: thoughts.join('\n\n'), input: inputs.join('\n\n'), call: { name: b.name, args: asArguments(b.input) } };
          raw.push(step);
          byId.set(b.id, step);
          thoughts = [];
          inputs = [];
        }
      }
      if (thoughts.length && !blocks(m.content).some((b) => b.type === 'tool_use')) {
        raw.push({ text: thoughts.join('\n\n'), input: inputs.join('\n\n') });
        thoughts = [];
        inputs = [];
      }
    } else if (m.role === 'user') {
      for (const b of blocks(m.content)) {
        if (b.type === 'tool_result') {
          const step = byId.get(b.tool_use_id);
          if (step) step.result = { status: b.is_error ? 'error' : 'success', output: blockText(b.content) };
        } else if (b.type === 'text') inputs.push(b.text);
        else if (b.type === 'file') inputs.push(`[file ${b.path}]\n${b.content ?? ''}`);
        else if (b.type === 'image') inputs.push(imageText(b));
      }
    }
  }
  if (thoughts.length) raw.push({ text: thoughts.join('\n\n'), input: inputs.join('\n\n') });
  return [finish(name, format, agentId, raw)];
}

/** An OpenAI Chat Completions message array: `tool_calls`, answered by `tool` messages. */
function openaiChat(name, messages) {
  const raw = [];
  const byId = new Map();
  let inputs = [];
  for (const m of messages) {
    if (m.role === 'user') inputs.push(blockText(m.content));
    else if (m.role === 'assistant') {
      const calls = m.tool_calls ?? [];
      const text = blockText(m.content);
      if (calls.length === 0) raw.push({ text, input: inputs.join('\n\n') });
      calls.forEach((c, i) => {
        const step = { text: i === 0 ? text : '', input: i === 0 ? inputs.join('\n\n') : '', call: { name: c.function.name, args: asArguments(c.function.arguments) } };
        raw.push(step);
        byId.set(c.id, step);
      });
      inputs = [];
    } else if (m.role === 'tool') {
      const step = byId.get(m.tool_call_id);
      if (step) step.result = { status: 'success', output: blockText(m.content) };
    }
  }
  return [finish(name, 'OpenAI Chat Completions messages', 'openai-chat', raw)];
}

/** A Moatless trajectory: per transition (state), its actions' request and response. */
function moatless(name, doc) {
  const raw = [];
  let input = typeof doc.initial_message === 'string' ? doc.initial_message : '';
  for (const t of doc.transitions ?? []) {
    for (const a of t.actions ?? []) {
      const { scratch_pad: scratchPad, ...args } = a.request ?? {};
      const response = a.response ?? {};
      const failed = ['retry', 'reject', 'error'].includes(response.trigger);
      const output = response.retry_message ?? (typeof response.output === 'string' ? response.output : JSON.stringify(response.output ?? {}));
      raw.push({ text: scratchPad ?? '', input, call: { name: t.name, args: asArguments(args) }, result: { status: failed ? 'error' : 'success', output } });
      input = '';
    }
  }
  return [finish(name, 'Moatless trajectory.json', 'moatless', raw)];
}

/** An Aider chat history: the user's `#### ` lines, aider's `> ` notes, the model's replies. */
function aider(name, text) {
  // Blocks of consecutive lines of one kind; a blank line belongs to the block it is in.
  const blocks = [];
  for (const line of text.split('\n')) {
    const kind = line.startsWith('# aider chat started at') ? 'start' : /^####( |$)/.test(line) ? 'user' : /^>( |$)/.test(line) ? 'note' : line.trim() === '' ? 'blank' : 'reply';
    const body = kind === 'user' ? line.replace(/^####\s?/, '') : kind === 'note' ? line.replace(/^>\s?/, '') : line;
    const last = blocks[blocks.length - 1];
    if (kind === 'blank') {
      if (last) last.lines.push('');
    } else if (last && last.kind === kind && kind !== 'start') last.lines.push(body.replace(/ {2}$/, ''));
    else blocks.push({ kind, lines: [body.replace(/ {2}$/, '')] });
  }
  const raw = [];
  let inputs = [];
  blocks.forEach((b, i) => {
    const content = b.lines.join('\n').trim();
    if (b.kind === 'user') inputs.push(content);
    if (b.kind !== 'reply') return;
    const notes = blocks[i + 1]?.kind === 'note' ? blocks[i + 1].lines.join('\n').trim() : '';
    // The files a reply edits: named above its SEARCH/REPLACE blocks, or in aider's notes.
    const files = [...content.matchAll(/^(\S[^\n]*)\n```[^\n]*\n<<<<<<< SEARCH/gm), ...notes.matchAll(/^Applied edit to (.+)$/gm)].map((m) => m[1].trim());
    const acted = files.length > 0 || /^(Applied edit to|Running |Commit |Failed to apply|The LLM did not conform)/m.test(notes);
    const step = { text: content, input: inputs.join('\n\n') };
    if (acted) {
      const failed = /Failed to apply|did not conform|SearchReplaceNoExactMatch/.test(notes);
      step.call = { name: 'apply_reply', args: { files: [...new Set(files)] } };
      step.result = { status: failed ? 'error' : 'success', output: notes };
    }
    raw.push(step);
    inputs = [];
  });
  return [finish(name, 'Aider chat history', 'aider', raw)];
}

/** The sessions in `path`, in the file's own format. */
export function loadSession(path) {
  const text = readFileSync(path, 'utf8');
  const name = basename(path);
  if (name.endsWith('.md') && text.includes('# aider chat started at')) return aider(name, text);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined; // JSONL: one record per line
  }
  const first = doc ?? JSON.parse(text.slice(0, text.indexOf('\n')));
  if (doc === undefined && first.type === 'session_meta' && first.payload) return codexRollout(name, text);
  if (Array.isArray(first.history) && (first.instance_id !== undefined || first.issue !== undefined)) return openHands(name, text);
  if (doc === undefined) return claudeCode(name, text);
  if (Array.isArray(doc)) {
    if (doc.some((e) => e.source !== undefined && (e.action !== undefined || e.observation !== undefined))) {
      return [finish(name, 'OpenHands trajectory JSON', 'openhands', openHandsEvents(doc))];
    }
    const anthropic = doc.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
    return anthropic ? anthropicMessages(name, doc, 'Anthropic messages', 'anthropic') : openaiChat(name, doc);
  }
  if (Array.isArray(doc.transitions) && doc.initial_message !== undefined) return moatless(name, doc);
  if (Array.isArray(doc.messages) && doc.projectHash !== undefined) return geminiCli(name, doc);
  if (Array.isArray(doc.messages) && doc.messages.some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_use'))) {
    return anthropicMessages(name, doc.messages, 'Cline session messages JSON', 'cline');
  }
  if (Array.isArray(doc.messages)) return miniSweAgent(name, doc);
  if (Array.isArray(doc.history)) return sweAgent(name, doc);
  throw new Error(`${path}: not a transcript in a format this loader reads (see bench/transcripts.mjs)`);
}
