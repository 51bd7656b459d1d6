//! The seeds' calls as they cross the boundary: each seed's object takes its calls through
//! one `op(code, …numbers)` of the binding, its free rules through one `seed(code, …)`,
//! so a call the shell makes per turn is a code here, not an export of its own. The codes
//! are written once, here; `crates/protocol` writes the shell's side of them.

crate::codes! {
    /// `TokenThresholdMonitor`'s calls (`Monitor.op`).
    pub enum MonitorOp {
        Threshold = 0,
        Accumulated = 1,
        /// `(tokens)`: the total that crossed the threshold, or -1.
        Record = 2,
        /// `(total)`: the tokens of a crossing whose callback failed, put back.
        Rollback = 3,
        Reset = 4,
    }
}

crate::codes! {
    /// `ContextRefresher`'s calls (`Refresher.op`).
    pub enum RefresherOp {
        Threshold = 0,
        Turns = 1,
        Node = 2,
        /// `(turnIndex)`: -1 when no refresh is due, else the ticket to roll back with.
        Tick = 3,
        /// `(ticket)`.
        Rollback = 4,
        ResetNode = 5,
        /// `(turns, node)`.
        Restore = 6,
    }
}

crate::codes! {
    /// `TurnTracker`'s calls (`Tracker.op`).
    pub enum TrackerOp {
        Index = 0,
        Next = 1,
        Reset = 2,
        /// `(index)`.
        Restore = 3,
    }
}

crate::codes! {
    /// `AgentLogStore`'s calls (`LogSlots.op`).
    pub enum LogOp {
        MaxSize = 0,
        Size = 1,
        /// `(agent, turnIndex)`: the slot, plus `2^32 * (key + 1)` of an agent key released.
        Append = 2,
        /// `(turnIndex)`: the slot, or -1.
        ByTurnIndex = 3,
        Clear = 4,
    }
}

crate::codes! {
    /// The runner's index of its pending outputs (`PendingIndex.op`).
    pub enum PendingOp {
        Clear = 0,
        Tick = 1,
        Untick = 2,
        /// `(byteSize, units, tokens, age, capturedAtMs)`: the tick it was born at, or NaN.
        PushWhole = 3,
        /// `(units, tokens)`.
        PushTruncated = 4,
        /// `(i, units, tokens)`.
        Truncated = 5,
    }
}

crate::codes! {
    /// `WindowComposer`'s calls (`Composer.op`).
    pub enum ComposerOp {
        MaxRecent = 0,
        /// `(slot, count, approx)`: its tokens, or `-1 - n` when it must be cut to `n` units.
        SlotCut = 1,
        /// `(frameTokens)`.
        OutputRoom = 2,
        /// `(goal, map, recentPast)`: the total, or `-1 - total` when over the budget.
        Totals = 3,
    }
}

crate::codes! {
    /// `AgentRunner`'s turn machine (`RunnerCore.op`).
    pub enum RunnerOp {
        TurnCount = 0,
        Accumulated = 1,
        /// `(hasInput)`: the turn's number.
        Begin = 2,
        /// The steps planned and not yet handed out, packed (`runner::pack_steps`).
        Steps = 3,
        /// `(responseTokens, contextTokens, hasEnvelope)`: the steps that planned, packed.
        Record = 4,
        Commit = 5,
        Rollback = 6,
    }
}

crate::codes! {
    /// `applyContextManagement`'s machine (`Management.op`): each answer returns the next
    /// need (`Need::encode`).
    pub enum ManagementOp {
        Start = 0,
        /// `(totalTokensUsed, pruneRatio or NaN, totalBudget)`.
        Composed = 1,
        /// `(yes)`.
        ShouldPrune = 2,
        /// `(summaryTokens)`.
        Pruned = 3,
        Kept = 4,
        /// `(yes)`.
        ShouldTruncate = 5,
        /// `(ok)`.
        Persisted = 6,
        Warned = 7,
        Truncated = 8,
        /// `(turnTokens, outputTokens)`.
        Recounted = 9,
        /// The tokens `shouldPrune` is asked about; once done, the window's used tokens.
        Tokens = 10,
        /// The share of each turn the loop guard cuts, after a `Keep` cut.
        Share = 11,
    }
}

crate::codes! {
    /// The seeds' free rules over numbers (`seed`); a yes or no is 1 or 0.
    pub enum SeedFn {
        /// `(length)`: `Math.ceil(length / 4)`.
        ApproxTokens = 0,
        /// `(count)`: a host counter's answer, checked.
        CheckedCount = 1,
        /// `(count)`: a provider's reported input tokens, checked.
        CheckInputTokens = 2,
        /// `(value, given)`: `ContextPruner`'s `saturationRatio`, checked (`given` 0: the default).
        SaturationRatio = 3,
        /// `(value, given)`: the ratio the loop guard uses, the pruner's own when valid.
        LoopGuardRatio = 4,
        /// `(tokens, totalBudget, ratio)`.
        ShouldPrune = 5,
        /// `(byteSize, turnAge, capturedAtMs)`: whether the entry's numbers pass.
        ToolOutputOk = 6,
        /// `(length)`: a host's raw location, checked.
        CheckRawLocation = 7,
        /// `(turnAge, byteSize)`.
        ShouldTruncate = 8,
        /// `(turnCount)`.
        SpecDue = 9,
        /// `(total, maxTurns)`.
        WindowStart = 10,
        /// `(total, maxTurns, turnCount)`: the window's first turn, `-(start + 1)` when the specs are due.
        ComposePlan = 11,
        /// `(historyLength, windowTurns)`.
        RecentStart = 12,
    }
}
