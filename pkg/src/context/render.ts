// The request, written from the rules' plan (crates/rules/src/context/render.rs): the
// plan says what the request holds, in order (read by `readPlan`), and this fills in the
// host's texts, the manager's own words and the parts shown otherwise, as the provider's
// adapter takes them. Also the words of a cut, from the rules' frame.
import { FrameReader } from '../core/frame.js';
import { rules } from '../core/wasm.js';
import { type NeutralMessage, type Plan, WHOLE } from '../providers/neutral.js';
import { ShownCode } from './codes.js';
import { type History, RELEASED } from './history.js';
import { readPlan } from './plan.js';
import { CUT_WINDOW, MANAGER_TEXTS } from '../core/protocol.js';

/** The manager's own words (`render::own_texts`): 0 the summary message over `summary`, 1 an unanswered call's result, 2 the note for dropped turns. */
export function ownText(n: 0 | 1 | 2, summary = ''): string {
  const reader = new FrameReader(MANAGER_TEXTS);
  let text = '';
  for (let i = 0; i <= n; i++) text = reader.text(i === 0 ? [summary] : []);
  return text;
}

/** `whole` cut to about `head` and `tail` units (`render::cut_text`), naming `id` when it is stored. */
export function cutText(whole: string, head: number, tail: number, id: string | undefined): string {
  const tailStart = Math.max(0, whole.length - tail);
  const w = CUT_WINDOW;
  const frame = new FrameReader(rules.cutText(whole.length, head, whole.slice(Math.max(0, head - w), head + 1), tail,
    whole.slice(Math.max(0, tailStart - 1), tailStart + w), id !== undefined));
  frame.num();
  frame.num();
  return frame.text([whole, id ?? '']);
}

/**
 * A call's input shortened as the JSON its tool takes (`shorten.rs`): cut to about `keep`
 * units, or (NaN) each long string replaced by a mark naming `id`. `undefined` when the
 * input is not JSON: it is shortened as a text then.
 */
export function shortenedCall(input: string, keep: number, id: string | undefined): string | undefined {
  const frame = new FrameReader(rules.shortenCall(input, keep, id));
  return frame.flag() ? frame.text([input]) : undefined;
}

/** What the request is written from besides the plan. */
export interface RenderParts {
  system: string | undefined;
  pinned: string[];
  cacheControl: boolean;
  tail: string;
  /** The summary and the index after it, as the summary step shows them. */
  summary: () => string | undefined;
  /** The rules hold a summary (not only an index): asked only when a step needs it. */
  hasSummary: () => boolean;
}

/** A message entry of a plan that differs from the kept message. */
type Entry = { source: unknown; neutral: NeutralMessage; shown: Array<string | null | undefined>; breakpoint: boolean; unanswered: Array<{ id: string; name: string }> };

/** The rules' plan (`render::Plan::encode`), with the host's texts, read in one pass. */
export function planOf(encoded: Float64Array, history: History, parts: RenderParts): Plan {
  const cache = parts.cacheControl;
  const plan: Plan = {
    system: parts.system, pinned: parts.pinned, fixedBreakpoint: false, summary: undefined, summaryBreakpoint: false,
    messages: [], summaryAt: 0, tail: parts.tail, leftOut: false,
    unansweredText: ownText(1), leftOutText: ownText(2), cacheControl: cache,
  };
  const { messages, callIds, callNames } = history;
  let m = RELEASED;
  // Most messages are sent as they are kept (parts written into them count as whole):
  // the kept message is the entry, made a full one only when a part or a call says so.
  let entry: Entry | null = null;
  const full = (mark: boolean): Entry => (entry = { source: m.source, neutral: m, shown: WHOLE as Array<undefined>, breakpoint: mark, unanswered: [] });
  readPlan(encoded, {
    fixed: (mark) => {
      plan.fixedBreakpoint = cache && mark;
    },
    summary: (mark) => {
      plan.summaryAt = plan.messages.length;
      plan.summary = parts.summary();
      plan.summaryBreakpoint = cache && mark;
    },
    leftOut: () => {
      plan.leftOut = true;
      plan.summaryAt = plan.messages.length;
    },
    // The tail is the host's text, written last by the adapter (`plan.tail`).
    tail: () => {},
    message: (index, mark) => {
      m = messages[index];
      entry = null;
      plan.messages.push(cache && mark ? full(true) : m);
    },
    part: (k, shown) => {
      if (shown === ShownCode.Whole || m.parts[k].baked) return;
      const e = entry ?? (plan.messages[plan.messages.length - 1] = full(false));
      if (e.shown === WHOLE) e.shown = m.parts.map(() => undefined);
      e.shown[k] = shown === ShownCode.Dropped ? null : m.display?.[k];
    },
    unanswered: (c) => {
      const e = entry ?? (plan.messages[plan.messages.length - 1] = full(false));
      e.unanswered.push({ id: callIds[c], name: callNames[c] });
    },
  });
  // Turns dropped with no summary, but an index: the note opens it, in one message.
  if (plan.leftOut && plan.summary !== undefined && !parts.hasSummary()) {
    plan.summary = `${plan.leftOutText}\n\n${plan.summary}`;
    plan.leftOut = false;
  }
  return plan;
}
