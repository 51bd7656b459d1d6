// Reads the rules' plan of a request (`render::Plan::encode` in crates/rules/src/context/render.rs):
// the numbers say, in order, what the request holds, and this walks them once, telling a
// reader each step. Nothing else: what a step becomes is the reader's (`render.ts`).
// pkg/test/fixtures/plan/golden.json is a plan the rules encoded; the Rust decoder
// (`Plan::decode`) and this one read it the same way (crates/rules/tests/plan.rs,
// pkg/test/plan-golden.test.mjs).
import { Op } from './codes.js';

/** What a plan's steps are told to, in order. `mark`: the step's last block carries a cache breakpoint. */
export interface PlanReader {
  fixed(mark: boolean): void;
  summary(mark: boolean): void;
  /** The note for turns dropped with no summary in their place. */
  leftOut(mark: boolean): void;
  tail(mark: boolean): void;
  /** Message `index`; `part` then follows for each part it shows otherwise than whole, and `unanswered` for each call given a marked result. */
  message(index: number, mark: boolean): void;
  /** Part `part` of the message just told is shown as `shown` (a `ShownCode`). */
  part(part: number, shown: number): void;
  /** Call `call` of the message just told gets a marked result. */
  unanswered(call: number): void;
}

/**
 * Tells `reader` each step of `encoded`, in one pass: `[breakpoints, emit index*, emits,
 * (op …)*]`, a message's op followed by `index, changed, (part, shown)*, unanswered,
 * call*`. Breakpoints are few (four at most), so they are looked up by a scan.
 */
export function readPlan(encoded: Float64Array | readonly number[], reader: PlanReader): void {
  const marks = encoded[0];
  let at = 1 + marks;
  let nextMark = marks > 0 ? 1 : 0;
  for (let e = 0, emits = encoded[at++]; e < emits; e++) {
    // The breakpoints are in emit order: the next one is the only one to compare.
    const mark = nextMark > 0 && nextMark <= marks && encoded[nextMark] === e;
    if (mark) nextMark++;
    const op = encoded[at++];
    if (op === Op.Message) {
      reader.message(encoded[at], mark);
      for (let n = encoded[at + 1], p = at + 2; n > 0; n--, p += 2) reader.part(encoded[p], encoded[p + 1]);
      at += 2 + 2 * encoded[at + 1];
      for (let n = encoded[at++]; n > 0; n--) reader.unanswered(encoded[at++]);
    } else if (op === Op.Fixed) reader.fixed(mark);
    else if (op === Op.Summary) reader.summary(mark);
    else if (op === Op.LeftOut) reader.leftOut(mark);
    else if (op === Op.Tail) reader.tail(mark);
    else throw Object.assign(new Error(`context plan: unknown op ${op} at ${at - 1}`), { code: 'ERR_INTERNAL' });
  }
  if (at !== encoded.length) throw Object.assign(new Error(`context plan: ${encoded.length - at} numbers after the plan`), { code: 'ERR_INTERNAL' });
}
