// Seed 002 and the spec's default deps, transcribed to plain JS: the baseline for
// bench/context-management.mjs and bench/boundary.mjs. As literal as the seed, with the
// spec's decisions (new arrays instead of mutation) so both sides do the same work. Like
// ours, the composer and applyContextManagement take an optional `countTokens` (seed 003
// makes the counter an injection point), so an exact counter can be swapped in.

export const countTokens = (text) => Math.ceil(text.length / 4);
const defaultCount = countTokens;

export function createDefaultWindowBudget(total = 800_000) {
  return { totalBudget: total, goalBudget: Math.floor(total * 0.3), mapBudget: Math.floor(total * 0.2), recentPastBudget: Math.floor(total * 0.5) };
}

function cutAtSpace(text, budget) {
  const max = budget * 4;
  if (text.length <= max) return [text, false];
  const head = text.slice(0, max);
  const space = head.lastIndexOf(' ');
  return [space > 0 ? head.slice(0, space) : head, true];
}

export class WindowComposer {
  constructor(budget, { maxRecentEnvelopes = 10, countTokens: count = countTokens } = {}) {
    this.budget = budget;
    this.max = Math.min(10, Math.max(1, maxRecentEnvelopes));
    this.countTokens = count;
  }
  compose(goal, map, envelopes) {
    const countTokens = this.countTokens;
    const now = Date.now();
    const slot = (kind, text, budget) => {
      const [content, truncated] = countTokens(text) > budget ? cutAtSpace(text, budget) : [text, false];
      return { kind, content, tokenCount: countTokens(content), timestampMs: now, truncated };
    };
    const newest = [...envelopes].sort((a, b) => b.turn_index - a.turn_index).slice(0, this.max);
    const taken = [];
    let used = 0;
    let truncated = false;
    for (const e of newest) {
      const text = JSON.stringify(e);
      const tokens = countTokens(text + '\n');
      if (used + tokens > this.budget.recentPastBudget) { truncated = true; break; }
      used += tokens;
      taken.unshift(text);
    }
    const recent = taken.join('\n');
    const slots = [slot('goal', goal, this.budget.goalBudget), slot('map', map, this.budget.mapBudget),
      { kind: 'recent_past', content: recent, tokenCount: countTokens(recent), timestampMs: now, truncated }];
    const totalTokensUsed = slots.reduce((s, x) => s + x.tokenCount, 0);
    return { slots, totalTokensUsed, budgetExceeded: totalTokensUsed > this.budget.totalBudget };
  }
}

export class ContextPruner {
  constructor(summarizer, { saturationRatio = 0.9 } = {}) {
    this.summarizer = summarizer;
    this.saturationRatio = saturationRatio;
  }
  shouldPrune(tokens, budget) {
    return tokens >= budget.totalBudget * this.saturationRatio;
  }
  async prune(turns, plan, tas, currentObservation) {
    const prompt = `Keep the Plan, the TAS and the current failing Observation verbatim.\n${plan}\n${tas}\n${currentObservation}\n${turns.map((t) => t.content).join('\n')}`;
    const summary = await this.summarizer.summarize(prompt);
    return { summary, plan, tas, currentObservation, originalTurnCount: turns.length, prunedAt: Date.now() };
  }
}

export class ToolOutputPruner {
  shouldTruncate(entry) {
    return entry.turnAge >= 2 && entry.byteSize > 51_200;
  }
  truncate(entry) {
    return {
      toolName: entry.toolName,
      summary: `${entry.rawContent.slice(0, 500)}\n\n[truncated: the output of ${entry.toolName} was ${entry.byteSize} bytes; the raw output is stored in state.sqlite, table raw_tool_outputs]`,
      rawStoredAt: new Date().toISOString(),
      originalByteSize: entry.byteSize,
    };
  }
  async persistRaw(entry, repo) {
    await repo.insertRawToolOutput(entry);
  }
}

export async function applyContextManagement(context, deps) {
  return (await manageContext(context, deps)).result;
}

/** applyContextManagement, also returning the composed window (the runner's prompt shows its slots). */
export async function manageContext(context, deps) {
  const countTokens = deps.countTokens ?? defaultCount;
  const currentTokenCount = context.turns.reduce((sum, turn) => sum + countTokens(turn.content), 0);
  const composed = deps.composer.compose(context.goal, context.map, context.envelopes);
  let turns = [...context.turns];
  let prunedOccurred = false;
  if (deps.pruner.shouldPrune(currentTokenCount, context.budget)) {
    const pruned = await deps.pruner.prune(context.turns, context.plan, context.tas, context.currentObservation);
    turns = [{ role: 'user', content: pruned.summary, timestampMs: Date.now() }];
    prunedOccurred = true;
  }
  const outputs = [];
  let truncatedOutputCount = 0;
  for (const entry of context.pendingToolOutputs) {
    if (entry.rawContent !== undefined && deps.toolOutputPruner.shouldTruncate(entry)) {
      try {
        await deps.toolOutputPruner.persistRaw(entry, deps.stateRepository);
      } catch (error) {
        console.warn(`persistRaw failed for ${entry.toolName}`, error);
        outputs.push(entry);
        continue;
      }
      outputs.push(deps.toolOutputPruner.truncate(entry));
      truncatedOutputCount++;
    } else {
      outputs.push(entry);
    }
  }
  const windowUsedTokens = composed.totalTokensUsed + turns.reduce((s, t) => s + countTokens(t.content), 0) +
    outputs.reduce((s, o) => s + countTokens(o.summary ?? o.rawContent), 0);
  context.turns = turns;
  context.pendingToolOutputs = outputs;
  return { result: { windowUsedTokens, prunedOccurred, truncatedOutputCount }, composed };
}
