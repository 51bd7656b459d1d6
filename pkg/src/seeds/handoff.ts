// `SummarizationHandoff`: a window of turns becomes a `MediumTermSummary`.
import { SummarizationError, checked, UseAfterFreeError } from '../errors/index.js';
import { FrameReader } from '../core/frame.js';
import { LIMITS } from '../core/limits.js';
import { array, callMethod, holder, joinProbes, joinTexts, nonEmptyString, number, object, string, type Bag } from '../core/read.js';
import type { MediumTermSummary, SummarizationHandoffOptions, TurnEntry } from './types.js';
import { rules } from '../core/wasm.js';

/**
 * Summarizes an agent's recent turns through the host's LLM client, for re-injection as a
 * `[CONTEXT REFRESH]` turn, when the context reaches 800,000 tokens (requirement 4_USER_FEATURES-REQ-083, listed in docs/guides/seeds.md, "Requirement IDs").
 * @example
 * import { SummarizationHandoff } from '@devs/context';
 *
 * const handoff = new SummarizationHandoff({ llmClient: { summarize: (prompt) => llm.generate(prompt) } });
 * const summary = await handoff.transfer('dev-agent', turns.slice(-20)); // null for an empty window
 */
export class SummarizationHandoff {
  #llm: Bag | null;
  readonly #store: Bag | undefined;

  /** @throws {TypeError} when `llmClient.summarize` (or a given `store.save`) is not a function. */
  constructor(options: SummarizationHandoffOptions) {
    const opts = object('options', options);
    this.#llm = holder('options.llmClient', opts.llmClient, ['summarize']);
    this.#store = opts.store === undefined ? undefined : holder('options.store', opts.store, ['save']);
  }

  /**
   * Asks `llmClient.summarize(prompt)` for a summary of `turns`: each cut to 1500 UTF-16
   * units, `tool` turns left out. Resolves `null`, without calling the LLM, when there is
   * nothing to summarize. Saves the summary to `store` when one was given.
   * @throws {SummarizationError} (as a rejection) when the LLM answers with an empty text.
   */
  transfer(agentId: string, turns: TurnEntry[]): Promise<MediumTermSummary | null> {
    let called: unknown;
    let range: [number, number];
    try {
      if (this.#llm === null) throw new UseAfterFreeError('SummarizationHandoff');
      const id = nonEmptyString('agentId', agentId);
      const plan = prompt(id, turns);
      if (plan === null) return Promise.resolve(null);
      range = [plan.start, plan.end];
      // Called now, as the seed's async function would before its first await.
      called = callMethod(this.#llm, 'summarize', 'llmClient.summarize', [plan.prompt]);
    } catch (error) {
      return Promise.reject(error);
    }
    const store = this.#store;
    return Promise.resolve(called).then(async (answer) => {
      const text = string('llmClient.summarize()', answer);
      if (rules.isBlank(text)) {
        throw new SummarizationError(`the summarizer returned an empty summary for agent ${agentId}`, { agentId, code: 'ERR_EMPTY_SUMMARY' });
      }
      const summary: MediumTermSummary = { agentId, summaryText: text, turnRangeStart: range[0], turnRangeEnd: range[1], createdAt: new Date() };
      if (store) await callMethod(store, 'save', 'store.save', [summary]);
      return summary;
    });
  }

  /** Marks the handoff freed (it holds no wasm state of its own). */
  free(): void {
    this.#llm = null;
  }
}

/** The summarizer prompt for `turns`, or `null` when there is nothing to summarize. */
function prompt(agentId: string, turns: unknown): { prompt: string; start: number; end: number } | null {
  const list = array('turns', turns);
  const indexes = new Float64Array(list.length);
  const roles: string[] = [];
  const contents: string[] = [];
  list.forEach((turn, i) => {
    const t = object(`turns[${i}]`, turn);
    indexes[i] = number(`turns[${i}].turnIndex`, t.turnIndex);
    roles.push(string(`turns[${i}].role`, t.role));
    contents.push(string(`turns[${i}].content`, t.content));
  });
  const [roleText, roleLens] = joinTexts(roles);
  const [probes, probeLens, from] = joinProbes(contents, LIMITS.handoffTurnChars);
  const frame = new FrameReader(checked(() => rules.handoffPrompt(indexes, roleText, roleLens, probes, probeLens, from)));
  if (!frame.flag()) return null;
  const start = frame.num();
  const end = frame.num();
  return { start, end, prompt: frame.text([agentId, ...contents]) };
}
