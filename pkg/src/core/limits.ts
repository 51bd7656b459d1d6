// The lengths at which the rules cut texts, read from the rules once. The shell uses them
// only to send a rule the probe of a text (its first `limit + 1` units), never to cut.
import { rules } from './wasm.js';

const [specChars, handoffTurnChars, summaryChars, observationChars] = rules.probeLimits();

export const LIMITS = { specChars, handoffTurnChars, summaryChars, observationChars } as const;
