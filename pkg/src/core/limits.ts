// The lengths at which the rules cut texts, generated from the rules (`core/protocol.ts`).
// The shell uses them only to send a rule the probe of a text (its first `limit + 1`
// units), never to cut.
export { LIMITS } from './protocol.js';
