// The seeds' TypeScript for seeds 001 and 003, transcribed to plain JS: the baseline our
// wasm rules are measured against. Kept as literal as the seeds are.

export class SlidingRelevanceWindow {
  constructor(config = {}) {
    this.maxTurns = config.maxTurns ?? 20;
  }
  compose(turns, taskGoal) {
    return { taskGoal, turns: turns.slice(-this.maxTurns), specInjected: false };
  }
  static shouldInjectSpec(turnCount) {
    return turnCount > 0 && turnCount % 10 === 0;
  }
}

export class SpecRefreshProtocol {
  buildInjectionTurn(specDocuments) {
    let content = '[SPEC REFRESH]\n\n';
    for (const doc of specDocuments) content += `## ${doc.name}\n${doc.content.slice(0, 3000)}\n`;
    return { turnIndex: -1, agentId: 'system', role: 'user', content, createdAt: new Date() };
  }
  inject(window, specDocuments, turnCount) {
    if (!SlidingRelevanceWindow.shouldInjectSpec(turnCount)) return window;
    return { ...window, turns: [this.buildInjectionTurn(specDocuments), ...window.turns], specInjected: true };
  }
}

export class ContextComposer {
  constructor(specs, maxTurns = 20) {
    this.specs = specs;
    this.window = new SlidingRelevanceWindow({ maxTurns });
    this.refresh = new SpecRefreshProtocol();
  }
  compose(allTurns, taskGoal, turnCount) {
    return this.refresh.inject(this.window.compose(allTurns, taskGoal), this.specs, turnCount);
  }
}

export const countTokens = (text) => Math.ceil(text.length / 4);

export class TokenThresholdMonitor {
  constructor({ thresholdTokens = 800_000, onThresholdExceeded }) {
    this.accumulated = 0;
    this.thresholdTokens = thresholdTokens;
    this.onThresholdExceeded = onThresholdExceeded;
  }
  async record(tokens) {
    this.accumulated += tokens;
    if (this.accumulated >= this.thresholdTokens) {
      const event = { totalTokens: this.accumulated, triggeredAt: new Date() };
      this.accumulated = 0;
      await this.onThresholdExceeded(event);
    }
  }
}

/** The seed's AgentRunner wiring, written the obvious way in JS. */
export class AgentRunner {
  constructor({ agentId, taskGoal, llm, composer, handoff, thresholdTokens }) {
    Object.assign(this, { agentId, taskGoal, llm, composer, handoff });
    this.turns = [];
    this.turnCount = 0;
    this.monitor = new TokenThresholdMonitor({
      thresholdTokens,
      onThresholdExceeded: async () => {
        const recent = this.turns.slice(-20);
        const summary = await this.handoff.transfer(this.agentId, recent);
        if (summary) this.push('user', `[CONTEXT REFRESH]\n${summary.summaryText}`);
      },
    });
  }
  push(role, content) {
    this.turns.push({ turnIndex: this.turnCount, agentId: this.agentId, role, content, createdAt: new Date() });
  }
  async runTurn(input) {
    this.turnCount += 1;
    if (input !== undefined) this.push('user', input);
    const window = this.composer.compose(this.turns, this.taskGoal, this.turnCount);
    let prompt = `# Goal\n${window.taskGoal}\n`;
    for (const t of window.turns) prompt += `\n## ${t.role}${t.turnIndex >= 0 ? ` (turn ${t.turnIndex})` : ''}\n${t.content}\n`;
    const response = await this.llm.complete({ agentId: this.agentId, turnIndex: this.turnCount, prompt, window });
    this.push('assistant', response.text);
    await this.monitor.record(countTokens(response.text));
    return { turnIndex: this.turnCount, response, window };
  }
}
