import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseTranscript, providerTurns } from '@devs/context/replay';
import { ContextManager } from '@devs/context';
import { createTokenCounter } from '@devs/context/tokenizers';
const counter = createTokenCounter('o200k_base');
const file = process.argv[2];
const budget = Number(process.argv[3] ?? 50000);
const format = process.argv[4] ?? 'anthropic';
const sessions = parseTranscript(readFileSync(file, 'utf8'), basename(file));
for (const session of sessions.slice(0, 1)) {
  let over = 0, n = 0, compactions = 0;
  const sizes = new Set();
  const m = new ContextManager({ format, budget, countTokens: counter, summarizer: async () => 'Nothing kept.', onCompaction: (c) => { compactions++; if (process.env.SHOW) console.log(JSON.stringify(c.actions)); } });
  for (const turn of providerTurns(session, format)) {
    if (turn.input.length) await m.append(turn.input);
    const b = await m.build();
    n++;
    if (b.tokens > budget) over++;
    sizes.add(m.workingState);
    await m.append([...turn.response, ...turn.results]);
  }
  const ws = m.workingState;
  console.log(JSON.stringify({ session: session.name, requests: n, over, compactions, distinctStates: sizes.size, chars: ws.length, tokens: ws ? counter(ws) : 0 }));
  console.log(ws);
  m.free();
}
