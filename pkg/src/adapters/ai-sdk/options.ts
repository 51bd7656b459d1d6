// The middleware's options, read by the kit (`readPromptOptions`), with the recall tool as a
// provider-level function tool carries it.
import { type PromptSettings, readPromptOptions } from '../kit/ai-sdk-options.js';
import { RECALL } from '../kit/recall.js';
import type { ContextMiddlewareOptions } from './types.js';

export { RECALL };

/** The recall tool as the rules define it, and as a provider-level function tool carries it. */
export interface RecallSpec {
  type: 'function';
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What the middleware runs with: the kit's settings, with the recall tool in its own shape. */
export type Settings = Omit<PromptSettings, 'recallTool'> & { recall: RecallSpec | undefined };

export function readOptions(options: ContextMiddlewareOptions): Settings {
  const { manager, recallTool, maxConversations } = readPromptOptions(options, 'contextMiddleware', "is set by the middleware: the AI SDK's prompt is format 'ai-sdk'");
  const schema = (recallTool?.inputSchema as { jsonSchema: Record<string, unknown> } | undefined)?.jsonSchema;
  return {
    manager,
    recall: recallTool && { type: 'function', name: RECALL, description: recallTool.description, inputSchema: schema! },
    maxConversations,
  };
}
