// SAOP envelopes, one per line (a JSON array of them is read too): each is a step with one
// call, keeping its agent, plan, uncertainty and error detail.
import type { ReplaySession } from './session.js';
import { Builder, forEachJsonLine, isBag, STATUSES, str } from './shared.js';
import type { Bag, Status } from './shared.js';

export function isSaopEnvelope(v: unknown): boolean {
  return isBag(v) && typeof v.schema_version === 'string' && isBag(v.action) && isBag(v.observation) && isBag(v.thought);
}

export function saop(doc: unknown, text: string, name: string): ReplaySession {
  const b = new Builder();
  const add = (r: unknown, where: string) => {
    if (!isSaopEnvelope(r)) {
      b.warnings.push(`${where}: not a SAOP envelope, skipped`);
      return;
    }
    const e = r as Bag;
    const thought = e.thought as Bag;
    const action = e.action as Bag;
    const observation = e.observation as Bag;
    const step = b.step();
    const reasoning = str(thought.reasoning);
    if (reasoning) step.text.push(reasoning);
    const call = b.call(step, action.tool_name, action.arguments);
    if (typeof e.agent_id === 'string' && e.agent_id) call.agentId = e.agent_id;
    if (typeof thought.plan === 'string') call.plan = thought.plan;
    if (typeof thought.uncertainty === 'string') call.uncertainty = thought.uncertainty;
    const status = typeof observation.status === 'string' && STATUSES.includes(observation.status) ? (observation.status as Status) : 'error';
    call.result = { status, output: str(observation.output) };
    if (typeof observation.error_detail === 'string') call.result.errorDetail = observation.error_detail;
  };
  if (Array.isArray(doc)) doc.forEach((r, i) => add(r, `element ${i}`));
  else forEachJsonLine(text, b.warnings, (r, line) => add(r, `line ${line}`));
  return b.finish(name, 'saop-jsonl', 'saop');
}
