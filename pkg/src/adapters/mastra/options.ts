// The processor's options, read by the kit (`readPromptOptions`): a bad option is a TypeError
// or RangeError naming its field, thrown by `contextProcessor` itself.
import { argumentError } from '../kit/options.js';
import { type PromptSettings, readPromptOptions } from '../kit/ai-sdk-options.js';
import { RECALL } from '../kit/recall.js';
import type { ContextProcessorOptions } from './types.js';

export { argumentError, RECALL };

/** The recall tool as the AI SDK shapes one (`description`, `inputSchema` as `jsonSchema()` makes it), which Mastra takes as a tool. */
export interface RecallDefinition {
  description: string;
  inputSchema: unknown;
}

/** What the processor runs with: the kit's settings, with the recall tool in its own shape. */
export type Settings = Omit<PromptSettings, 'recallTool'> & { recall: RecallDefinition | undefined };

export function readOptions(options: ContextProcessorOptions): Settings {
  const { manager, recallTool, maxConversations } = readPromptOptions(options, 'contextProcessor', "is set by the processor: Mastra's model prompt is format 'ai-sdk'");
  return { manager, recall: recallTool, maxConversations };
}
