// OpenHands event streams: the evaluation `output.jsonl` (one instance with its `history`
// per line, one session each), a JSON array of events, or `{ history }`. Actions of one
// model response (same `model_response.id`) are one step; observations are matched by
// `cause`; a `condensation` action marks a compaction. The older resolver output has events
// with no ids: an action's arguments beside its `action`, its observation the event after it.
import type { ReplaySession } from './session.js';
import { blockText, Builder, forEachJsonLine, isBag, num, str, timeOf } from './shared.js';
import type { Bag, RawCall, RawStep, Status } from './shared.js';

export function isOpenHandsEvent(v: unknown): boolean {
  return isBag(v) && (typeof v.action === 'string' || typeof v.observation === 'string') && ('id' in v || 'source' in v || 'cause' in v);
}

export function isOpenHandsInstance(v: unknown): boolean {
  return isBag(v) && Array.isArray(v.history) && (v.history.some(isOpenHandsEvent) || isLegacyInstance(v));
}

/** The resolver's older output: an `issue` or `instance_id`, and events with neither ids nor `source`. */
function isLegacyInstance(v: Bag): boolean {
  const history = v.history as unknown[];
  return ('issue' in v || 'instance_id' in v) && history.some((e) => isBag(e) && typeof e.action === 'string')
    && history.every((e) => isBag(e) && !('id' in e) && !('source' in e));
}

export function openHands(doc: unknown, text: string, name: string): ReplaySession[] {
  if (Array.isArray(doc)) return [openHandsEvents(doc, name)];
  if (isBag(doc)) return [openHandsInstance(doc, name)];
  // JSON Lines: an evaluation output.jsonl (one instance per line), or one event per line.
  const warnings: string[] = [];
  const sessions: ReplaySession[] = [];
  const events: unknown[] = [];
  forEachJsonLine(text, warnings, (r) => {
    if (isOpenHandsInstance(r)) sessions.push(openHandsInstance(r as Bag, name));
    else if (isOpenHandsEvent(r)) events.push(r);
  });
  if (events.length > 0) sessions.push(openHandsEvents(events, name));
  if (sessions.length === 0) sessions.push({ name, format: 'openhands', steps: [], warnings: [], unmatchedResults: 0 });
  // The file's warnings (a truncated last line) belong to the last session read.
  (sessions[sessions.length - 1] as ReplaySession).warnings.push(...warnings);
  return sessions;
}

/** One evaluation instance: its `history`, named `file#instance_id`. */
function openHandsInstance(doc: Bag, name: string): ReplaySession {
  const id = doc.instance_id;
  const issue = isBag(doc.issue) ? `${str(doc.issue.owner)}/${str(doc.issue.repo)}#${str(doc.issue.number)}` : undefined;
  const label = id !== undefined && id !== null ? `${name}#${str(id)}` : issue !== undefined ? `${name}#${issue}` : name;
  const history = Array.isArray(doc.history) ? doc.history : [];
  return isLegacyInstance(doc) ? openHandsLegacy(history, label) : openHandsEvents(history, label);
}

/** The legacy events' fields that are OpenHands' bookkeeping, not the action's arguments. */
const LEGACY_INTERNAL = new Set(['action', 'thought', 'action_risk', 'is_confirmed', 'keep_prompt', 'kernel_init_code', 'security_risk']);

function openHandsLegacy(events: unknown[], name: string): ReplaySession {
  const b = new Builder();
  let pending: RawCall | undefined;
  events.forEach((e, i) => {
    if (!isBag(e)) return;
    if (e.action === 'message') {
      // The task, and the user's later messages (which carry `images_urls`), are inputs.
      if (i === 0 || 'images_urls' in e) b.input(str(e.content));
      else b.step().text.push(str(e.content));
    } else if (typeof e.action === 'string') {
      const step = b.step();
      step.text.push(str(e.thought));
      const args: Bag = {};
      for (const key of Object.keys(e)) if (!LEGACY_INTERNAL.has(key)) args[key] = e[key];
      pending = b.call(step, e.action, args);
      if (e.action === 'finish') pending.result = { status: 'success', output: e.thought !== undefined ? str(e.thought) : str(e.outputs ?? {}) };
    } else if (typeof e.observation === 'string' && pending && !pending.result) {
      const failed = e.observation === 'error' || (typeof e.exit_code === 'number' && e.exit_code !== 0);
      pending.result = { status: failed ? 'error' : 'success', output: str(e.content) };
    }
  });
  return b.finish(name, 'openhands', 'openhands');
}

function openHandsStatus(e: Bag): Status {
  if (e.observation === 'error' || e.observation === 'user_rejected') return 'error';
  const exit = isBag(e.extras) && isBag(e.extras.metadata) ? e.extras.metadata.exit_code : undefined;
  if (exit === -1) return 'timeout'; // still running when the soft timeout hit
  return typeof exit === 'number' && exit !== 0 ? 'error' : 'success';
}

/** OpenHands-internal fields of an action's `args`, not the tool's arguments. */
const OPENHANDS_INTERNAL = new Set(['thought', 'blocking', 'is_static', 'cwd', 'hidden', 'confirmation_state', 'security_risk', 'is_input']);

function openHandsEvents(events: unknown[], name: string): ReplaySession {
  const b = new Builder();
  const byEvent = new Map<unknown, RawCall>();
  const byResponse = new Map<string, RawStep>();
  for (const e of events) {
    if (!isBag(e)) continue;
    const args = isBag(e.args) ? e.args : {};
    if (e.action === 'system' || e.action === 'recall' || e.action === 'change_agent_state') continue;
    if (e.action === 'condensation') {
      b.compact(typeof args.summary === 'string' ? args.summary : undefined);
      continue;
    }
    if (e.observation === 'agent_condensation' || e.observation === 'condense') {
      b.compact(str(e.content) || undefined);
      continue;
    }
    if (typeof e.action === 'string') {
      if (e.source === 'user') {
        if (e.action === 'message') b.input(str(args.content ?? e.message));
        continue;
      }
      const meta = isBag(e.tool_call_metadata) ? e.tool_call_metadata : undefined;
      if (meta) {
        const response = isBag(meta.model_response) ? meta.model_response : {};
        const choice = Array.isArray(response.choices) && isBag(response.choices[0]) ? response.choices[0] : {};
        const message = isBag(choice.message) ? choice.message : {};
        const responseId = typeof response.id === 'string' ? response.id : undefined;
        let step = responseId === undefined ? undefined : byResponse.get(responseId);
        if (!step) {
          step = b.step();
          step.time = timeOf(e.timestamp);
          if (responseId !== undefined) byResponse.set(responseId, step);
          const said = blockText(message.content) || str(args.thought);
          if (said) step.text.push(said);
          if (isBag(response.usage)) step.tokens = num(response.usage.prompt_tokens);
        }
        const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        const tc = toolCalls.find((c) => isBag(c) && c.id === meta.tool_call_id) as Bag | undefined;
        const fn = tc && isBag(tc.function) ? tc.function : undefined;
        const call = b.call(step, fn?.name ?? meta.function_name ?? e.action, fn ? fn.arguments : withoutInternal(args));
        byEvent.set(e.id, call);
      } else if (e.action === 'message') {
        const step = b.step();
        step.time = timeOf(e.timestamp);
        const said = str(args.content ?? e.message);
        if (said) step.text.push(said);
      } else {
        // An agent without function calling: the action itself is the call.
        const step = b.step();
        step.time = timeOf(e.timestamp);
        const said = str(args.thought);
        if (said) step.text.push(said);
        byEvent.set(e.id, b.call(step, e.action, withoutInternal(args)));
      }
      continue;
    }
    if (typeof e.observation === 'string') {
      const call = e.cause === undefined || e.cause === null ? undefined : byEvent.get(e.cause);
      if (call) {
        call.result = { status: openHandsStatus(e), output: str(e.content) };
      } else if (e.observation === 'error' && e.source === 'agent') {
        // A tool call the runtime rejected before it became an action: a model turn too.
        const step = b.step();
        step.time = timeOf(e.timestamp);
        b.call(step, 'rejected_tool_call', {}).result = { status: 'error', output: str(e.content ?? e.message) };
      }
    }
  }
  return b.finish(name, 'openhands', 'openhands');
}

function withoutInternal(args: Bag): Bag {
  const out: Bag = {};
  for (const key of Object.keys(args)) if (!OPENHANDS_INTERNAL.has(key)) out[key] = args[key];
  return out;
}
