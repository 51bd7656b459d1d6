/**
 * A deterministic stand-in for an LLM summary, the same for every strategy: the head and
 * tail of what it is given, about 1,500 tokens. It carries no more information than those,
 * so a strategy's recall after a summary is what it kept, not what a model inferred.
 */
export function standInSummary(text: string): string {
  const head = text.slice(0, 3000);
  const tail = text.length > 6000 ? text.slice(-3000) : text.slice(3000, 6000);
  return `Summary of the work so far:\n${head}\n…\n${tail}`;
}
