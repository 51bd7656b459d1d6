// The recall tool's name, once, for every adapter that gives the tool or reads its calls.

/** The recall tool's name: `ContextManager.recallTool` gives it as `'recall'` in every format. */
export const RECALL = 'recall';
