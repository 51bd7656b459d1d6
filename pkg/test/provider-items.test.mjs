// Issue 34: the providers' own items, counted for what they hold and kept valid. Server
// tools (Anthropic's web fetch and web search, their results beside their calls), OpenAI's
// built-in tools (mcp_call, shell_call and its output, apply_patch_call), calls with large
// inputs, a recall with a 1 MB query, and the providers' own compaction (Anthropic's
// threshold and on-demand blocks, OpenAI's compaction item), in loops at small budgets:
// every request within the budget by the package's count and as billed, valid as the
// provider checks it, the newest output in it, and every compaction kept byte for byte.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextManager, MemoryStateRepository } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
import { billed } from './media-loops.mjs';
import { PROBLEMS } from './validity.mjs';

const o200k = createTokenCounter('o200k_base');
/** A page of text that reads as a fetched document or a build log: `kb` kilobytes, distinct per `t`. */
const page = (t, kb) => Array.from({ length: Math.ceil((kb * 1024) / 64) }, (_, i) => `line ${i} of output ${t}: the parser reads section ${i % 17}.`).join('\n');

async function run(format, budget, steps, step, check = () => {}) {
  const cm = new ContextManager({ format, budget, countTokens: o200k, store: new MemoryStateRepository(), recall: true, system: 'You are a research agent.' });
  cm.append({ role: 'user', content: 'Find out why the parser fails, and fix it.' });
  const requests = [];
  for (let t = 0; t < steps; t++) {
    cm.append(step(t));
    const r = await cm.build();
    assert.ok(r.tokens <= budget, `request ${t}: ${r.tokens} by the package's count`);
    const bill = billed(r, format === 'anthropic' ? 'anthropic' : 'openai').tokens;
    assert.ok(bill <= budget, `request ${t}: ${bill} as billed`);
    assert.ok(r.tokens >= bill, `request ${t}: counted ${r.tokens}, billed ${bill}`);
    assert.deepEqual(PROBLEMS[format](r), [], `request ${t}`);
    check(r, t);
    requests.push(r);
  }
  return { cm, requests };
}

describe("Anthropic's server tools: their results beside their calls, never a client tool_result for one", () => {
  it('web fetch of 30 KB pages, 40 steps at 30,000 tokens: valid, bounded, the newest fetch in every request', async () => {
    await run('anthropic', 30_000, 40, (t) => ({
      role: 'assistant', content: [
        { type: 'text', text: `Fetching the docs, step ${t}.` },
        { type: 'server_tool_use', id: `srvtoolu_${t}`, name: 'web_fetch', input: { url: `https://docs.example.com/parser/${t}` } },
        { type: 'web_fetch_tool_result', tool_use_id: `srvtoolu_${t}`, content: { type: 'web_fetch_result', url: `https://docs.example.com/parser/${t}`, retrieved_at: '2026-12-01T00:00:00Z', content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: page(t, 30) } } } },
        { type: 'text', text: `Read page ${t}.` },
      ],
    }), (r, t) => {
      const last = r.messages.at(-1);
      assert.equal(last.role, 'assistant');
      const result = last.content.findLast((b) => b.type === 'web_fetch_tool_result');
      assert.ok(result && result.tool_use_id === `srvtoolu_${t}`, `request ${t}: the newest fetch is in the request`);
      assert.ok(result.content.content.source.data.startsWith(`line 0 of output ${t}`), 'its head, at least');
    });
  });

  it('web search with encrypted results, 30 steps at 20,000 tokens: the results counted by the stated rule, older ones stored and named', async () => {
    const { requests } = await run('anthropic', 20_000, 30, (t) => ({
      role: 'assistant', content: [
        { type: 'server_tool_use', id: `srvtoolu_${t}`, name: 'web_search', input: { query: `parser error ${t}` } },
        { type: 'web_search_tool_result', tool_use_id: `srvtoolu_${t}`, content: Array.from({ length: 5 }, (_, k) => ({ type: 'web_search_result', title: `Result ${k}`, url: `https://example.com/${t}/${k}`, encrypted_content: `Eq${'A'.repeat(3000)}${t}${k}` })) },
        { type: 'text', text: `Searched ${t}.` },
      ],
    }));
    const text = JSON.stringify(requests.at(-1).messages);
    assert.match(text, /stored as/, 'older results stored and named');
    assert.match(text, /web_search_tool_result_error/, 'a stored result stays a result the API takes');
  });
});

describe("OpenAI's built-in tools: each output with its call, counted for what it holds", () => {
  it('mcp_call, shell_call and apply_patch_call with 24 KB outputs, 40 steps at 30,000 tokens', async () => {
    await run('openai-responses', 30_000, 40, (t) => {
      if (t % 3 === 0) return [{ type: 'mcp_call', id: `mcp_${t}`, server_label: 'deepwiki', name: 'ask_question', arguments: JSON.stringify({ question: `parser ${t}` }), output: page(t, 24) }];
      if (t % 3 === 1) {
        return [
          { type: 'shell_call', call_id: `sh_${t}`, action: { commands: ['cargo test'] }, status: 'completed' },
          { type: 'shell_call_output', call_id: `sh_${t}`, output: [{ stdout: page(t, 24), stderr: '', outcome: { type: 'exit', exit_code: 1 } }] },
        ];
      }
      return [
        { type: 'apply_patch_call', call_id: `ap_${t}`, status: 'completed', operation: { type: 'update_file', path: 'src/parse.rs', diff: page(t, 12) } },
        { type: 'apply_patch_call_output', call_id: `ap_${t}`, status: 'completed', output: 'Done' },
      ];
    }, (r, t) => {
      const out = r.messages.filter((m) => m.type === 'mcp_call' || m.type === 'shell_call_output' || m.type === 'apply_patch_call').at(-1);
      const id = out.id ?? out.call_id;
      assert.ok(id.endsWith(`_${t}`), `request ${t}: the newest output is in the request (${id})`);
    });
  });
});

describe("a call's own input, shortened like an output; a recall's query echoed only so far", () => {
  const file = 'export function double(x) {\n  return x * 2; // doubled\n}\n'.repeat(3_300);
  const step = {
    anthropic: (t, input) => [
      { role: 'assistant', content: [{ type: 'tool_use', id: `w${t}`, name: 'write_file', input }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `w${t}`, content: 'written' }] },
    ],
    'openai-chat': (t, input) => [
      { role: 'assistant', content: null, tool_calls: [{ id: `w${t}`, type: 'function', function: { name: 'write_file', arguments: JSON.stringify(input) } }] },
      { role: 'tool', tool_call_id: `w${t}`, content: 'written' },
    ],
    'openai-responses': (t, input) => [
      { type: 'function_call', call_id: `w${t}`, name: 'write_file', arguments: JSON.stringify(input) },
      { type: 'function_call_output', call_id: `w${t}`, output: 'written' },
    ],
    'ai-sdk': (t, input) => [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `w${t}`, toolName: 'write_file', input }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: `w${t}`, toolName: 'write_file', output: { type: 'text', value: 'written' } }] },
    ],
  };
  const inputOf = {
    anthropic: (r) => r.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_use').map((b) => b.input),
    'openai-chat': (r) => r.messages.flatMap((m) => m.tool_calls ?? []).map((c) => JSON.parse(c.function.arguments)),
    'openai-responses': (r) => r.messages.filter((m) => m.type === 'function_call').map((m) => JSON.parse(m.arguments)),
    'ai-sdk': (r) => r.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p) => p.type === 'tool-call').map((p) => p.input),
  };
  for (const format of Object.keys(step)) {
    it(`${format}: a 172 KB write at 20,000 tokens keeps its keys and is valid JSON, cut when first sent, masked later`, async () => {
      await run(format, 20_000, 12, (t) => step[format](t, { file_path: `src/m${t}.ts`, content: t % 4 === 0 ? file : `// small ${t}` }), (r, t) => {
        const inputs = inputOf[format](r);
        for (const input of inputs) assert.deepEqual(Object.keys(input), ['file_path', 'content']);
        if (t % 4 === 0) assert.match(inputs.at(-1).content, /characters cut, the whole input is stored as/);
      });
    });
  }

  it('a recall with a 1 MB query: the answer echoes a few hundred characters of it, and the next request is within the budget', async () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 20_000, countTokens: o200k, recall: true });
    cm.append({ role: 'user', content: 'go' });
    for (let t = 0; t < 8; t++) {
      cm.append({ role: 'assistant', content: [{ type: 'tool_use', id: `r${t}`, name: 'read', input: { path: `f${t}` } }] });
      cm.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `r${t}`, content: page(t, 12) }] });
      await cm.build();
    }
    const query = 'q'.repeat(1 << 20);
    const call = { type: 'tool_use', id: 'rc', name: 'recall', input: { id: '1', query } };
    cm.append({ role: 'assistant', content: [call] });
    const answer = await cm.recall(call);
    const text = answer.content[0].content;
    assert.ok(text.length < 1_000, `the answer is ${text.length} characters`);
    cm.append(answer);
    const r = await cm.build();
    assert.ok(r.tokens <= 20_000, `${r.tokens}`);
    // The call's own input (the 1 MB query) is shortened too.
    assert.ok(JSON.stringify(r.messages).length < 200_000);
  });
});

describe("the providers' own compaction, kept byte for byte in every later request", () => {
  const longStep = (t) => [
    { role: 'assistant', content: [{ type: 'tool_use', id: `c${t}`, name: 'bash', input: { command: `make step${t}` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${t}`, content: page(t, 6) }] },
  ];

  it("Anthropic's threshold compaction: what came before it leaves once, the block first in every later request, unchanged", async () => {
    const block = { type: 'compaction', content: 'Summary: the parser fails on empty headers; tests in tests/parse.rs.', encrypted_content: `Ez${'k'.repeat(800)}` };
    const { requests } = await run('anthropic', 30_000, 40, (t) => (t === 15
      ? [{ role: 'assistant', content: [block, { type: 'text', text: 'Continuing from the summary.' }] }, { role: 'user', content: 'go on' }]
      : longStep(t)));
    for (const r of requests.slice(15)) {
      const holding = r.messages.findIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'compaction'));
      assert.ok(holding >= 0 && holding <= 1, 'the block is at the start');
      assert.deepEqual(r.messages[holding].content[0], block, 'byte for byte');
      assert.ok(!JSON.stringify(r.messages.slice(0, holding)).includes('make step'), 'nothing of before it');
    }
    assert.equal(requests[15].ledger.compaction.trigger, 'provider');
  });

  it("Anthropic's on-demand compaction: its signed block first in messages, exactly once, from then on", async () => {
    const block = { type: 'compaction', content: 'Summary of the work so far.', signature: 'EuYBCkQYAiJA9dXD' };
    const { requests } = await run('anthropic', 30_000, 40, (t) => (t === 15 ? [{ role: 'assistant', content: [block] }, { role: 'user', content: 'go on' }] : longStep(t)));
    for (const r of requests.slice(15)) assert.deepEqual(r.messages[0].content[0], block);
  });

  it('an on-demand block after another block of its message is refused at append, naming it', () => {
    const cm = new ContextManager({ format: 'anthropic', budget: 30_000 });
    assert.throws(() => cm.append({ role: 'assistant', content: [{ type: 'text', text: 'x' }, { type: 'compaction', content: 's', signature: 'z' }] }),
      (e) => e instanceof TypeError && e.field === 'message.content[1]');
  });

  it("OpenAI's compaction item: the newest kept byte for byte in every later request, the items before it dropped", async () => {
    const item = { type: 'compaction', id: 'cmp_1', encrypted_content: `gAAAA${'x'.repeat(1200)}` };
    const { requests } = await run('openai-responses', 30_000, 40, (t) => (t === 15
      ? [item, { role: 'user', content: 'go on' }]
      : [{ type: 'function_call', call_id: `c${t}`, name: 'bash', arguments: JSON.stringify({ command: `make step${t}` }) }, { type: 'function_call_output', call_id: `c${t}`, output: page(t, 6) }]));
    for (const r of requests.slice(15)) {
      const at = r.messages.findIndex((m) => m.type === 'compaction');
      assert.ok(at >= 0, 'kept');
      assert.deepEqual(r.messages[at], item);
      assert.ok(!JSON.stringify(r.messages.slice(0, at)).includes('make step'), 'nothing of before it');
    }
  });
});
