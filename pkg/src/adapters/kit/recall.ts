// The recall tool as every adapter gives it: its one name, and the refusal of a host tool
// that would shadow it.
import { argumentError } from '../../errors/index.js';

/** The recall tool's name: `ContextManager.recallTool` gives it as `'recall'` in every format. */
export const RECALL = 'recall';

/** A TypeError naming `field` when the host's own tool is named `RECALL`. */
export function refuseShadowing(field: string, name: unknown, option: string): void {
  if (name === RECALL) throw Object.assign(argumentError(TypeError, field, `is '${RECALL}', the name of the context's recall tool: rename your tool, or make the ${option} with recall: false`), { code: 'ERR_INVALID_ARG_VALUE' });
}
