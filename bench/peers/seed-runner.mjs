// The orchestrator's turn loop of seeds 002 and 003 with every rule on, written the obvious
// way in plain JS: the baseline for `AgentRunner` with `contextManagement`, `tracker`, `log`
// and `injector` in bench/boundary.mjs. Each turn does what ours does, in the same order:
// add the input; age the pending tool outputs and run applyContextManagement; compose the
// window and build the prompt (Goal, Map, Recent Past, Conversation, Tool outputs); call the
// LLM; record the response's tokens and hand off at 800k; then inject, stamp, log and keep
// the response's envelope in the context. Unlike ours it neither validates the envelope
// nor rolls a failed turn back.
import { countTokens as approx, TokenThresholdMonitor } from './seed-memory.mjs';
import { manageContext } from './seed-management.mjs';

const OBSERVATION_CHARS = 4000;
const utf8Length = (text) => Buffer.byteLength(text, 'utf8');

export class AgentRunner {
  constructor({ agentId, taskGoal, llm, composer, handoff, thresholdTokens, countTokens, contextManagement, tracker, log, injector }) {
    Object.assign(this, { agentId, taskGoal, llm, composer, handoff, tracker, log, injector });
    this.countTokens = countTokens ?? approx;
    this.management = contextManagement;
    this.turns = [];
    this.turnCount = 0;
    this.monitor = new TokenThresholdMonitor({ thresholdTokens, onThresholdExceeded: () => {} });
  }

  entry(turn, role, content) {
    return { turnIndex: turn, agentId: this.agentId, role, content, createdAt: new Date() };
  }

  async runTurn(input) {
    const turn = this.turnCount + 1;
    const ctx = this.management?.context;
    if (input !== undefined) {
      this.turns.push(this.entry(turn, 'user', input));
      if (ctx) ctx.turns = [...ctx.turns, { role: 'user', content: input, timestampMs: Date.now() }];
    }

    let managed = null;
    if (ctx) {
      ctx.pendingToolOutputs = ctx.pendingToolOutputs.map((o) => (typeof o.turnAge === 'number' ? { ...o, turnAge: o.turnAge + 1 } : o));
      managed = await manageContext(ctx, this.management.deps);
      if (managed.result.prunedOccurred) {
        this.turns = ctx.turns.map((t) => this.entry(turn, t.role === 'model' ? 'assistant' : 'user', t.content));
      }
    }

    const window = this.composer.compose(this.turns, this.taskGoal, turn);
    let prompt;
    if (managed) {
      const [goal, map, recent] = managed.composed.slots.map((s) => s.content);
      prompt = `# Goal\n${goal}\n\n# Map\n${map}\n\n# Recent Past\n${recent}\n\n# Conversation\n`;
    } else {
      prompt = `# Goal\n${this.taskGoal}\n`;
    }
    for (const t of window.turns) prompt += `\n## ${t.role}${t.turnIndex >= 0 ? ` (turn ${t.turnIndex})` : ''}\n${t.content}\n`;
    if (ctx && ctx.pendingToolOutputs.length > 0) {
      prompt += '\n# Tool outputs\n';
      for (const o of ctx.pendingToolOutputs) prompt += `\n## ${o.toolName}\n${o.summary ?? o.rawContent}\n`;
    }

    const response = await this.llm.complete({ agentId: this.agentId, turnIndex: turn, prompt, window });
    const tokens = this.countTokens(response.text);
    this.turns.push(this.entry(turn, 'assistant', response.text));
    if (ctx) ctx.turns = [...ctx.turns, { role: 'model', content: response.text, timestampMs: Date.now() }];

    let contextRefresh = null;
    this.monitor.onThresholdExceeded = async () => {
      const recent = this.turns.slice(-Math.max(1, window.turns.length));
      const summary = await this.handoff.transfer(this.agentId, recent);
      if (summary) {
        this.turns.push(this.entry(turn, 'user', `[CONTEXT REFRESH]\n${summary.summaryText}`));
        contextRefresh = summary;
      }
    };
    await this.monitor.record(tokens);

    let envelope = response.envelope ?? null;
    if (envelope) {
      if (this.injector) envelope = await this.injector.injectIfNeeded(envelope, turn);
      if (this.tracker) {
        this.tracker.nextIndex();
        envelope = this.tracker.attach(envelope);
        if (this.log) this.log.append(this.tracker.toLogEntry());
      }
      if (ctx) keepEnvelope(ctx, envelope);
    }
    this.turnCount = turn;
    return { turnIndex: turn, response, window, tokensRecorded: tokens, contextRefresh, envelope, contextManagement: managed?.result ?? null };
  }
}

/** The envelope's plan and observation go to the context; its whole output to the pending tool outputs. */
function keepEnvelope(ctx, envelope) {
  ctx.plan = envelope.thought.plan;
  const { status, output } = envelope.observation;
  const head = output.slice(0, OBSERVATION_CHARS);
  ctx.currentObservation = `${status}: ${head}`;
  const kept = output.length > OBSERVATION_CHARS
    ? { ...envelope, observation: { ...envelope.observation, output: `${head}\n[${output.length - head.length} more characters: the whole output is under Tool outputs]` } }
    : envelope;
  ctx.envelopes = [...ctx.envelopes, kept];
  if (output.length > 0) {
    ctx.pendingToolOutputs = [...ctx.pendingToolOutputs,
      { toolName: envelope.action.tool_name, rawContent: output, byteSize: utf8Length(output), turnAge: 0, capturedAt: Date.now() }];
  }
}
