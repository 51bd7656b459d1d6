// OpenHands event streams: the evaluation `output.jsonl` (one instance with its `history`
// per line, one session each), a JSON array of events, or `{ history }`. Actions of one
// model response (same `model_response.id`) are one step; observations are matched by
// `cause`; a `condensation` action marks a compaction.
import type { ReplaySession } from './session.js';
import { blockText, Builder, forEachJsonLine, isBag, num, str } from './shared.js';
import type { Bag, RawCall, RawStep, Status } from './shared.js';

export function isOpenHandsEvent(v: unknown): boolean {
  return isBag(v) && (typeof v.action === 'string' || typeof v.observation === 'string') && ('id' in v || 'source' in v || 'cause' in v);
}

export function isOpenHandsInstance(v: unknown): boolean {
  return isBag(v) && Array.isArray(v.history) && v.history.some(isOpenHandsEvent);
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
  const label = id !== undefined && id !== null ? `${name}#${str(id)}` : name;
  return openHandsEvents(Array.isArray(doc.history) ? doc.history : [], label);
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
        const said = str(args.content ?? e.message);
        if (said) step.text.push(said);
      } else {
        // An agent without function calling: the action itself is the call.
        const step = b.step();
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
