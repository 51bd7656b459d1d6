// A parallel fan-out in each provider's own shapes: one assistant turn of `n` calls
// answered together, as Claude Code, Codex and the AI SDK issue them (issue 49). Each
// output is `kb` kilobytes, distinct per call, and opens with its marker (`output k of
// turn t`), so a request can be searched for every output of the turn.

/** The marker that opens output `k` of turn `t`. */
export const fanMarker = (t, k) => `output ${k} of turn ${t}`;

/** Output `k` of turn `t`: `kb` kilobytes of numbered lines, as a file read or a log. */
export function fanOutput(t, k, kb) {
  const lines = [fanMarker(t, k)];
  for (let i = 0; lines.join('\n').length < kb * 1024; i++) lines.push(`${i}: turn ${t} read ${k} line ${i}, section ${(i * 7) % 23} of src/module_${k}.ts`);
  return lines.join('\n');
}

/**
 * Turn `t`: the assistant's `n` parallel calls and the results answering them, in `format`.
 * Reads (the default): each input a path, each output `kb` KB. Writes (`writes: true`):
 * each input a path and `kb` KB of content, each output a line.
 */
export function fanOut(format, t, n, kb, vscode, { writes = false } = {}) {
  const ids = Array.from({ length: n }, (_, k) => `call_${t}_${k}`);
  const name = writes ? 'write_file' : 'read_file';
  const input = (t, k) => (writes ? { path: `src/module_${k}.ts`, content: fanOutput(t, k, kb) } : { path: `src/module_${k}.ts`, turn: t });
  const out = (k) => (writes ? `wrote src/module_${k}.ts` : fanOutput(t, k, kb));
  switch (format) {
    case 'anthropic':
      return [
        { role: 'assistant', content: [{ type: 'text', text: `Turn ${t}: reading ${n} files.` }, ...ids.map((id, k) => ({ type: 'tool_use', id, name, input: input(t, k) }))] },
        { role: 'user', content: ids.map((id, k) => ({ type: 'tool_result', tool_use_id: id, content: out(k) })) },
      ];
    case 'openai-chat':
      return [
        { role: 'assistant', content: `Turn ${t}: reading ${n} files.`, tool_calls: ids.map((id, k) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(input(t, k)) } })) },
        ...ids.map((id, k) => ({ role: 'tool', tool_call_id: id, content: out(k) })),
      ];
    case 'openai-responses':
      return [
        { role: 'assistant', content: `Turn ${t}: reading ${n} files.` },
        ...ids.map((id, k) => ({ type: 'function_call', call_id: id, name, arguments: JSON.stringify(input(t, k)) })),
        ...ids.map((id, k) => ({ type: 'function_call_output', call_id: id, output: out(k) })),
      ];
    case 'gemini':
      return [
        { role: 'model', parts: [{ text: `Turn ${t}: reading ${n} files.` }, ...ids.map((id, k) => ({ functionCall: { id, name, args: input(t, k) } }))] },
        { role: 'user', parts: ids.map((id, k) => ({ functionResponse: { id, name, response: { output: out(k) } } })) },
      ];
    case 'ai-sdk':
      return [
        { role: 'assistant', content: [{ type: 'text', text: `Turn ${t}: reading ${n} files.` }, ...ids.map((id, k) => ({ type: 'tool-call', toolCallId: id, toolName: name, input: input(t, k) }))] },
        { role: 'tool', content: ids.map((id, k) => ({ type: 'tool-result', toolCallId: id, toolName: name, output: { type: 'text', value: out(k) } })) },
      ];
    case 'vscode':
      return [
        vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelTextPart(`Turn ${t}: reading ${n} files.`), ...ids.map((id, k) => new vscode.LanguageModelToolCallPart(id, name, input(t, k)))]),
        vscode.LanguageModelChatMessage.User(ids.map((id, k) => new vscode.LanguageModelToolResultPart(id, [new vscode.LanguageModelTextPart(out(k))]))),
      ];
    default:
      throw new Error(`no fan-out for ${format}`);
  }
}

/** The fan-outs issue 49 measured: `n` parallel outputs of `kb` KB at `budget`. */
export const FAN_OUTS = Object.freeze([
  { n: 20, kb: 8, budget: 20_000 },
  { n: 40, kb: 4, budget: 20_000 },
  { n: 60, kb: 2, budget: 20_000 },
  { n: 30, kb: 32, budget: 200_000 },
]);
