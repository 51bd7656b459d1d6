// The pieces of the prompt a bounded runner wrote last (`providers/text.ts`, `writtenPieces`),
// handed out as a hook on `AgentRunner` for the replay, which is bundled apart from the
// runner and so has its own copy of every module it imports.
export const WRITTEN_PIECES: unique symbol = Symbol.for('@devs/context: written pieces');
