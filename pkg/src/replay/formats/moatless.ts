// Moatless Tools `trajectory.json` (`{ initial_message, transitions }`): each transition (a
// state, its `name` the tool) lists its actions, each a `request` (the arguments, its
// `scratch_pad` the model's text) and a `response` (`output`, or `retry_message` when the
// action was rejected: `trigger` retry, reject or error).
import type { ReplaySession } from './session.js';
import { Builder, isBag, str } from './shared.js';
import type { Bag } from './shared.js';

export function isMoatless(doc: unknown): boolean {
  return isBag(doc) && Array.isArray(doc.transitions) && 'initial_message' in doc;
}

const REJECTED = new Set(['retry', 'reject', 'error']);

export function moatless(doc: Bag, name: string): ReplaySession {
  const b = new Builder();
  b.input(str(doc.initial_message));
  for (const t of doc.transitions as unknown[]) {
    if (!isBag(t)) continue;
    for (const a of Array.isArray(t.actions) ? t.actions : []) {
      if (!isBag(a)) continue;
      const { scratch_pad: scratchPad, ...args } = isBag(a.request) ? a.request : {};
      const response = isBag(a.response) ? a.response : {};
      const step = b.step();
      step.text.push(str(scratchPad));
      const output = response.retry_message !== undefined && response.retry_message !== null ? str(response.retry_message) : str(response.output ?? {});
      const status = typeof response.trigger === 'string' && REJECTED.has(response.trigger) ? 'error' : 'success';
      b.call(step, t.name, args).result = { status, output };
    }
  }
  return b.finish(name, 'moatless', 'moatless');
}
