// The seeds' prompt for `AgentRunner`: the host's texts read once, in JS; its headings and
// order are the rules' (`devs_context_rules::seeds::prompt`).
import { checked } from '../errors/index.js';
import { frameText } from '../core/frame.js';
import { array, isObject, number, object, string, type Bag } from '../core/read.js';
import type { Applied } from './context-management.js';
import { shownText, type PendingOutputs } from './pending.js';
import type { ContextWindow } from './types.js';
import { rules } from '../core/wasm.js';

/** The seeds' prompt, built by the rules from the window. */
export function buildPrompt(taskGoal: string, pending: PendingOutputs | null, context: Bag | null, window: ContextWindow, applied: Applied | null): string {
  const field = 'composer.compose().turns';
  const turns = array(field, (window as unknown as Bag).turns);
  const hosts: string[] = [];
  if (applied) {
    const slots = array('composer.compose().slots', (applied.composed as unknown as Bag).slots);
    for (let i = 0; i < 3; i++) hosts.push(string('composed slot content', object('composed slot', slots[i]).content));
  } else {
    hosts.push(taskGoal, '', '');
  }
  // Each turn's index and its role's length, one after the other, over the roles joined: one array and one string cross.
  const metas = new Float64Array(2 * turns.length);
  let roles = '';
  // Each field is named only for a bad value: names made per turn per prompt are most of the walk.
  turns.forEach((t, i) => {
    const turn = isObject(t) ? t : object(`${field}[${i}]`, t);
    const role = turn.role;
    const r = typeof role === 'string' ? role : string(`${field}[${i}].role`, role);
    roles += r;
    metas[2 * i + 1] = r.length;
    const index = turn.turnIndex;
    metas[2 * i] = typeof index === 'number' ? index : number(`${field}[${i}].turnIndex`, index);
    const content = turn.content;
    hosts.push(typeof content === 'string' ? content : string(`${field}[${i}].content`, content));
  });
  const kept = applied && pending && pending.array === context?.pendingToolOutputs ? pending : null;
  if (kept) return kept.prompt(metas, roles, hosts);
  let tools = 0;
  if (applied && context) {
    const outputs = array('context.pendingToolOutputs', context.pendingToolOutputs);
    for (const o of outputs) {
      const name = (o as Bag).toolName;
      hosts.push(typeof name === 'string' ? name : '', string('pendingToolOutputs[].rawContent', shownText(o)));
      tools++;
    }
  }
  const values = checked(() => rules.promptText(applied !== null, metas, roles, tools));
  return frameText(values, hosts);
}
