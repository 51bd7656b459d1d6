// Seeds 000 (context refresh) and 004 (turn_index tracking) transcribed to plain JS, plus
// the summarization handoff that seed 003's AgentRunner calls: the baseline for
// bench/boundary.mjs. As literal as the seeds are.

export class ContextRefresher {
  constructor(options) {
    this.options = { threshold: 5, ...options };
    this.turnsInCurrentNode = 0;
  }
  async onTurn(turnIndex) {
    this.turnsInCurrentNode++;
    if (this.turnsInCurrentNode < this.options.threshold) return { refreshed: false };
    // The seed resets after the provider answers; the refresh decision is the same.
    const { tasSummary, prdSummary } = await this.options.summaryProvider.getSummary();
    this.turnsInCurrentNode = 0;
    return { refreshed: true, injectedSummary: `[CONTEXT REFRESH]\n## TAS Summary\n${tasSummary}\n\n## PRD Summary\n${prdSummary}` };
  }
  resetNode() {
    this.turnsInCurrentNode = 0;
  }
}

export class OrchestratorContextInjector {
  constructor(refresher) {
    this.refresher = refresher;
  }
  async injectIfNeeded(envelope, turnIndex) {
    const result = await this.refresher.onTurn(turnIndex);
    if (result.refreshed === false) return envelope;
    return { ...envelope, thought: { ...envelope.thought, reasoning: `${result.injectedSummary}\n\n${envelope.thought.reasoning}` } };
  }
}

export class TurnTracker {
  #index = 0;
  constructor(agentId, phase) {
    this.agentId = agentId;
    this.phase = phase;
  }
  get currentIndex() {
    return this.#index;
  }
  nextIndex() {
    return ++this.#index;
  }
  reset() {
    this.#index = 0;
  }
  attach(envelope) {
    return { ...envelope, turn_index: this.#index };
  }
  toLogEntry() {
    return { turn_index: this.#index, agent_id: this.agentId, phase: this.phase, timestamp_ns: process.hrtime.bigint() };
  }
}

export class AgentLogStore {
  constructor(maxSize = 1000) {
    this.maxSize = maxSize;
    this.log = [];
  }
  append(entry) {
    this.log.push(entry);
    if (this.log.length > this.maxSize) this.log.shift();
  }
  getAll() {
    return [...this.log];
  }
  getByAgent(agentId) {
    return this.log.filter((e) => e.agent_id === agentId);
  }
  getByTurnIndex(index) {
    return this.log.find((e) => e.turn_index === index);
  }
  clear() {
    this.log = [];
  }
}

/** Recent turns (each cut to 1,500 characters, `tool` turns left out) to the summarizer. */
export class SummarizationHandoff {
  constructor({ llmClient }) {
    this.llmClient = llmClient;
  }
  async transfer(agentId, turns) {
    const kept = turns.filter((t) => t.role !== 'tool');
    if (kept.length === 0) return null;
    let prompt = `Summarize the conversation of agent ${agentId} below into a medium-term memory it can continue from. ` +
      'Keep the decisions made, the files touched, the errors seen, the current plan and the open questions. Tool output is omitted.\n';
    for (const t of kept) prompt += `\n[turn ${t.turnIndex}] ${t.role}:\n${t.content.slice(0, 1500)}\n`;
    const summaryText = await this.llmClient.summarize(prompt);
    return { agentId, summaryText, turnRange: { start: kept[0].turnIndex, end: kept.at(-1).turnIndex }, createdAt: new Date() };
  }
}
