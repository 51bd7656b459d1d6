// The built-in summarizing instruction, as the rules hold it (written into core/protocol.ts): a module of its own so that a
// host can start its own `summaryPrompt` from it without loading a manager.
import { DEFAULT_SUMMARY_PROMPT } from '../core/protocol.js';

/**
 * The instruction a summarizer is given when `summaryPrompt` is left out: sections for the
 * task in the user's own words, decisions, files and artifacts, errors met, and next steps.
 * @example
 * import { ContextManager, defaultSummaryPrompt } from '@devs/context';
 *
 * const manager = new ContextManager({
 *   format: 'openai-chat', budget: 128_000,
 *   summarizer: async (prompt) => prompt.slice(0, 2_000),
 *   summaryPrompt: `${defaultSummaryPrompt()}\n### Open questions\nWhat the user has not answered yet.`,
 * });
 * console.log(defaultSummaryPrompt().includes('### Next steps')); // true
 */
export function defaultSummaryPrompt(): string {
  return DEFAULT_SUMMARY_PROMPT;
}
