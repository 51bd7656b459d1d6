//! The seeds' calls as they cross the boundary: each seed's object takes its calls over
//! numbers through one `op(code, …numbers)` of the binding, and the seeds' rules over
//! numbers go through one `seed(code, a, b, c)`, so a call the shell makes per turn is a
//! code here, not an export of its own. A yes or no crosses as 1 or 0. The codes are
//! written once, here; `crates/protocol` writes the shell's side of them.

crate::codes! {
    /// `Monitor.op`: `Record(tokens)` returns the total that crossed the threshold, or -1;
    /// `Rollback(total)` puts back the tokens of a crossing whose callback failed.
    pub enum MonitorOp { Threshold = 0, Accumulated = 1, Record = 2, Rollback = 3, Reset = 4, }
}

crate::codes! {
    /// `Refresher.op`: `Tick(turnIndex)` returns -1 when no refresh is due, else the ticket
    /// for `Rollback(ticket)`; `Restore(turns, node)` takes back what `Turns` and `Node` read.
    pub enum RefresherOp {
        Threshold = 0, Turns = 1, Node = 2, Tick = 3, Rollback = 4, ResetNode = 5, Restore = 6,
    }
}

crate::codes! {
    /// `Tracker.op`: `Restore(index)`.
    pub enum TrackerOp { Index = 0, Next = 1, Reset = 2, Restore = 3, }
}

crate::codes! {
    /// `LogSlots.op`: `Append(agent, turnIndex)` returns the slot, plus `2^32 * (key + 1)`
    /// of an agent key released; `ByTurnIndex(turnIndex)` the slot, or -1.
    pub enum LogOp { MaxSize = 0, Size = 1, Append = 2, ByTurnIndex = 3, Clear = 4, }
}

crate::codes! {
    /// `PendingIndex.op`: `PushWhole(byteSize, units, tokens, age, capturedAtMs)` returns the
    /// tick it was born at, or NaN; `PushTruncated(units, tokens)`; `Truncated(i, units, tokens)`.
    pub enum PendingOp { Clear = 0, Tick = 1, Untick = 2, PushWhole = 3, PushTruncated = 4, Truncated = 5, }
}

crate::codes! {
    /// `Composer.op`: `SlotCut(slot, count, approx)` returns the tokens, or `-1 - n` when it
    /// must be cut to `n` units; `OutputRoom(frameTokens)`; `Totals(goal, map, recentPast)`
    /// the total, or `-1 - total` over the budget.
    pub enum ComposerOp { MaxRecent = 0, SlotCut = 1, OutputRoom = 2, Totals = 3, }
}

crate::codes! {
    /// `RunnerCore.op`: `Begin(hasInput)` returns the turn's number; `Steps`, and
    /// `Record(responseTokens, contextTokens, hasEnvelope)`, the steps planned, packed.
    pub enum RunnerOp {
        TurnCount = 0, Accumulated = 1, Begin = 2, Steps = 3, Record = 4, Commit = 5, Rollback = 6,
    }
}

crate::codes! {
    /// `Management.op`: each answer returns the next need (`Need::encode`):
    /// `Composed(totalTokensUsed, pruneRatio or NaN, totalBudget)`, `ShouldPrune(yes)`,
    /// `Pruned(summaryTokens)`, `ShouldTruncate(yes)`, `Persisted(ok)`,
    /// `Recounted(turnTokens, outputTokens)`; `Tokens` and `Share` read what a need holds.
    pub enum ManagementOp {
        Start = 0, Composed = 1, ShouldPrune = 2, Pruned = 3, Kept = 4, ShouldTruncate = 5,
        Persisted = 6, Warned = 7, Truncated = 8, Recounted = 9, Tokens = 10, Share = 11,
    }
}

crate::codes! {
    /// `seed(code, a, b, c)`: `ApproxTokens(length)`, `CheckedCount(count)`,
    /// `CheckInputTokens(count)`, `SaturationRatio(value, given)` and
    /// `LoopGuardRatio(value, given)` (`given` 0: none), `ShouldPrune(tokens, totalBudget,
    /// ratio)`, `ToolOutputOk(byteSize, turnAge, capturedAtMs)`, `CheckRawLocation(length)`,
    /// `ShouldTruncate(turnAge, byteSize)`, `SpecDue(turnCount)`, `WindowStart(total,
    /// maxTurns)`, `ComposePlan(total, maxTurns, turnCount)` (the start, `-(start + 1)` when
    /// the specs are due), `RecentStart(historyLength, windowTurns)`.
    pub enum SeedFn {
        ApproxTokens = 0, CheckedCount = 1, CheckInputTokens = 2, SaturationRatio = 3,
        LoopGuardRatio = 4, ShouldPrune = 5, ToolOutputOk = 6, CheckRawLocation = 7,
        ShouldTruncate = 8, SpecDue = 9, WindowStart = 10, ComposePlan = 11, RecentStart = 12,
    }
}
