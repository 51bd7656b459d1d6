// SWE-agent `.traj`: its `history` of OpenAI-style messages, or only its `trajectory`. An
// older trajectory's last `submit` has no observation: its output is `info.submission`.
import { openAi } from './openai.js';
import type { ReplaySession } from './session.js';
import { Builder, isBag, str } from './shared.js';
import type { Bag } from './shared.js';

export function sweAgent(doc: Bag, name: string): ReplaySession {
  const submission = isBag(doc.info) && typeof doc.info.submission === 'string' ? doc.info.submission : undefined;
  if (Array.isArray(doc.history) && doc.history.length > 0) return openAi(doc.history, name, 'swe-agent', submission);
  // Only the trajectory: one step per action.
  const b = new Builder();
  for (const t of Array.isArray(doc.trajectory) ? doc.trajectory : []) {
    if (!isBag(t)) continue;
    const step = b.step();
    const thought = str(t.thought ?? t.response);
    if (thought) step.text.push(thought);
    if (typeof t.action === 'string' && t.action.trim() !== '') {
      b.call(step, 'bash', { command: t.action }).result = { status: 'success', output: str(t.observation) };
    }
  }
  return b.finish(name, 'swe-agent', 'swe-agent');
}
