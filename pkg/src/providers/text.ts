// The one-string prompt of `AgentRunner`'s `bounded` option, laid out stable first: the
// goal and the pinned texts, the summary, the conversation in order, and the plan, which
// changes every turn, last. Its messages are the runner's own, never a host's.
import type { Bag } from '../core/read.js';
import { type Adapter, type Plan, Kind, Role, slot } from './neutral.js';

/** A message of the runner's conversation. */
export interface TextMessage {
  role: 'user' | 'assistant' | 'tool';
  turn: number;
  text?: string;
  calls?: Array<{ id: string; name: string; args: string }>;
  results?: Array<{ id: string; name: string; output: string; status: string }>;
}

/**
 * The prompt `write` made last, with its pieces. A prompt is a concatenation, which V8
 * copies whole (flattens) when it is first read by index; the replay previews every turn's
 * prompt by its sections, and reads the pieces instead, which the history holds anyway.
 */
let written: { prompt: string; pieces: readonly string[] } | null = null;

/** The pieces of `prompt`, in order, when `write` made it last; undefined otherwise. */
export function writtenPieces(prompt: string): readonly string[] | undefined {
  const last = written;
  return last !== null && last.prompt === prompt ? last.pieces : undefined;
}

export const textFormat: Adapter = {
  format: 'text',
  // Headings: `## output of read_file (turn 12)` per part, `# Goal` … `# Plan` per request
  // (19 tokens by o200k and by length / 4), counted generously so the sum of parts never
  // falls below a count of the whole text.
  framing: { message: 2, part: 14, request: 24 },

  read(message) {
    const m = message as TextMessage;
    if (m.role === 'tool') {
      return { role: Role.Tool, source: m, parts: (m.results ?? []).map((r, k) => ({ kind: Kind.Result, text: r.output, label: r.name, id: r.id, path: slot('results', k) })) };
    }
    const parts = m.text ? [{ kind: Kind.Text, text: m.text, label: '', path: 'text' }] : [];
    for (const [k, c] of (m.calls ?? []).entries()) parts.push({ kind: Kind.Call, text: c.args, label: c.name, id: c.id, path: slot('calls', k) } as never);
    return { role: m.role === 'user' ? Role.User : Role.Assistant, source: m, parts };
  },

  write(plan: Plan) {
    // The prompt is written as pieces, then joined: a reader that must not copy the whole
    // prompt (the replay's preview of each turn's sections) reads them (`writtenPieces`).
    const pieces = ['# Goal\n', plan.system ?? '', '\n'];
    if (plan.pinned.length) pieces.push('\n# Pinned\n', plan.pinned.join('\n\n'), '\n');
    if (plan.summary !== undefined) pieces.push('\n# Summary of earlier turns\n', plan.summary, '\n');
    pieces.push('\n# Conversation\n');
    if (plan.leftOut) pieces.push(plan.leftOutText, '\n');
    for (const pm of plan.messages) {
      const m = pm.source as TextMessage;
      const shown = (k: number, whole: string) => {
        const s = pm.shown[k];
        return s === undefined ? whole : s ?? '';
      };
      let k = 0;
      if (m.role === 'tool') {
        for (const r of m.results ?? []) pieces.push(`\n## output of ${r.name} (turn ${m.turn}, ${r.status})\n`, shown(k++, r.output), '\n');
        continue;
      }
      if (m.text) pieces.push(`\n## ${m.role} (turn ${m.turn})\n`, shown(k++, m.text), '\n');
      for (const c of m.calls ?? []) pieces.push(`\n## call ${c.name} (turn ${m.turn})\n`, shown(k++, c.args), '\n');
      for (const c of pm.unanswered) pieces.push(`\n## output of ${c.name} (turn ${m.turn})\n`, plan.unansweredText, '\n');
    }
    if (plan.tail !== '') pieces.push('\n# Plan\n', plan.tail, '\n');
    let out = '';
    for (const piece of pieces) out += piece;
    written = { prompt: out, pieces };
    return { messages: [out] };
  },

  rewrite(source, _neutral, shown) {
    const m = source as TextMessage;
    const at = (k: number, whole: string) => (typeof shown[k] === 'string' ? (shown[k] as string) : whole);
    if (m.role === 'tool') return { ...m, results: (m.results ?? []).map((r, k) => ({ ...r, output: at(k, r.output) })) };
    let k = 0;
    const out: TextMessage = { ...m };
    if (m.text) out.text = at(k++, m.text);
    if (m.calls) out.calls = m.calls.map((c) => ({ ...c, args: at(k++, c.args) }));
    return out;
  },

  usage(usage) {
    return { input: (usage as Bag).inputTokens as number };
  },
};
