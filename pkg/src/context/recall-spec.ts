// The recall tool's definition, as the rules give it, in no provider's shape: a module of
// its own so that the public declarations of `recallSpec` name no internal type.
import { frameTexts } from '../core/frame.js';
import type { ToolSpec } from './types.js';
import { RECALL_TOOL } from '../core/protocol.js';

let spec: ToolSpec | undefined;
/**
 * The recall tool as the rules define it, in no provider's shape: its name, description and
 * JSON Schema, for a framework the package has no adapter for. A fresh copy each time:
 * change it as you like. Answer its calls with `manager.recall(id, { offset, length, query })`.
 * @example
 * import { ContextManager, recallSpec } from '@devs/context';
 *
 * const manager = new ContextManager({ format: 'openai-chat', budget: 128_000 });
 * const { name, description, parameters } = recallSpec();
 * // Registered as the framework registers a tool; its input is `{ id, offset?, length?, query? }`.
 * const tools = { [name]: { description, inputSchema: parameters, execute: (input: { id: string; offset?: number; length?: number; query?: string }) => manager.recall(input.id, input) } };
 * console.log(Object.keys(tools)); // ['recall']
 */
export function recallSpec(): ToolSpec {
  if (!spec) {
    const [name, description, parameters] = frameTexts(RECALL_TOOL);
    spec = { name, description, parameters: JSON.parse(parameters) as Record<string, unknown> };
  }
  return JSON.parse(JSON.stringify(spec)) as ToolSpec;
}
