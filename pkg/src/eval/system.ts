/** A coding agent's system prompt of about 2,000 tokens, the same for every strategy (the benches' too). */
export const DEFAULT_SYSTEM = Array.from({ length: 40 }, (_, i) => `Rule ${i + 1}: work in small verified steps; read a file before editing it, run the tests after each change, and report what you changed and why in one short paragraph.`).join('\n');
