// The codes the rules' machine speaks in, as plain constants: defined in the rules
// (`codes!` in crates/rules/src/base/codes.rs), and checked against their tables by
// crates/rules/tests/codes.rs, so a code added, removed or renumbered on one side only
// fails it. Plain objects, not the wasm's: a build reads them per part, and the shell may
// read them before an entry has provided the rules.

/** What the shell must do next: the first number of a need (`context::NeedKind`). */
export const NeedKind = {
  Persist: 0,
  Placeholder: 1,
  Cut: 2,
  Summarize: 3,
  Done: 4,
  PersistSpan: 5,
  PersistGroup: 6,
  MergeSpans: 7,
  TooLarge: 8,
} as const;

/** What a step of an encoded plan is (`render::Op`). */
export const Op = {
  Fixed: 0,
  Summary: 1,
  Message: 2,
  Tail: 3,
  LeftOut: 4,
} as const;

/** How a part is shown in a plan (`render::ShownCode`). */
export const ShownCode = {
  Whole: 0,
  Cut: 1,
  Placeholder: 2,
  Dropped: 3,
} as const;

/** What a part of a message is (`history::Kind`). */
export const Kind = {
  Text: 0,
  Thinking: 1,
  Call: 2,
  Result: 3,
  Opaque: 4,
  Image: 5,
  Document: 6,
  ServerCall: 7,
  Compaction: 8,
} as const;

/** Who a message is from (`history::Role`). */
export const Role = {
  User: 0,
  Assistant: 1,
  System: 2,
  Tool: 3,
} as const;

/** Bits of a part's kind byte beside its kind (`history::PART_FLAGS`). */
export const PartFlag = {
  Protected: 128,
} as const;
