// The recall tool as a LangChain tool, registered by the middleware (`createMiddleware({
// tools })`), so the agent's tool node runs it like any other. Its name, description and
// JSON schema are the rules' own; its answer comes from the manager of the thread that
// called it, which reads only its own stored texts.
import { tool } from 'langchain';
import type { RecallOptions } from '@devs/context';
import type { Settings } from './options.js';

/** What the tool is given by the agent's tool node: the run's config, with the graph's state. */
interface ToolConfig {
  configurable?: Record<string, unknown>;
  state?: unknown;
}

/** The tool's input, as the rules' schema has it. */
interface RecallInput {
  id: string;
  offset?: number;
  length?: number;
  query?: string;
}

/** The text a thread's manager gives for a stored text, or `undefined` when the thread has none in memory. */
export type Answer = (config: ToolConfig, id: string, options: RecallOptions) => Promise<string | undefined>;

/** Said when the thread's context is not in memory (a process restarted between the model's call and its tool's run). */
const NOT_OPEN = 'The stored texts of this conversation are not open yet: they open with your next step, whose request names what you can read back. Ask again then.';

export function recallTool(spec: Settings['recallSpec'], answer: Answer) {
  return tool(
    async (input: RecallInput, config: ToolConfig) => {
      const options: RecallOptions = {};
      if (typeof input.offset === 'number') options.offset = input.offset;
      if (typeof input.length === 'number') options.length = input.length;
      if (typeof input.query === 'string') options.query = input.query;
      return (await answer(config, String(input.id), options)) ?? NOT_OPEN;
    },
    { name: spec.name, description: spec.description, schema: spec.parameters },
  );
}
