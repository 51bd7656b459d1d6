import { ContextManager } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { PROBLEMS } from './validity.mjs';
const count = createTokenCounter('o200k_base');
const file = 'export function f(x) {\n  return x * 2; // doubled\n}\n'.repeat(3400);
console.log('file', file.length);
for (const format of ['anthropic', 'openai-chat', 'openai-responses', 'ai-sdk']) {
  const cm = new ContextManager({ format, budget: 20_000, countTokens: count, recall: true });
  cm.append({ role: 'user', content: 'Write the module.' });
  let max = 0; const probs = [];
  for (let t = 0; t < 12; t++) {
    const id = `call_${t}`; const input = { file_path: `/src/m${t}.ts`, content: t % 4 === 0 ? file : `// small ${t}` };
    if (format === 'anthropic') { cm.append({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'write_file', input }] }); cm.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] }); }
    else if (format === 'openai-chat') { cm.append({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'write_file', arguments: JSON.stringify(input) } }] }); cm.append({ role: 'tool', tool_call_id: id, content: 'ok' }); }
    else if (format === 'openai-responses') { cm.append({ type: 'function_call', call_id: id, name: 'write_file', arguments: JSON.stringify(input) }); cm.append({ type: 'function_call_output', call_id: id, output: 'ok' }); }
    else { cm.append({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'write_file', input }] }); cm.append({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'write_file', output: { type: 'text', value: 'ok' } }] }); }
    const r = await cm.build();
    max = Math.max(max, r.tokens);
    probs.push(...PROBLEMS[format](r));
    const text = JSON.stringify(r.messages);
    if (t === 0) console.log(format, 'first', r.tokens, text.includes('stored as') ? 'cut/marked' : 'whole', text.length);
  }
  console.log(format, 'max', max, probs.slice(0, 3));
}
