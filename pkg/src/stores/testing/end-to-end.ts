// The suite's last case: a session written into the store, closed and opened again every
// few calls, must give every request of the same session run straight through in another
// store of the same kind (a stored text's id names its session, so the requests of a plain
// manager, whose ids are numbers, differ from a session's). The
// conversation is made up here (a coding agent reading files), long enough at its budget to
// store outputs and summarize several times, so every part of the contract is used.
import type { ContextManager as Manager, ContextSession } from '@devs/context';
import { check, same } from './check.js';
import type { ConformingStore } from './types.js';

type Message = Record<string, unknown>;

/** The calls of the conversation, each on a manager or a session. */
function calls(): Array<(m: Manager<Message> | ContextSession<Message>) => Promise<string | void> | void> {
  const out: Array<(m: Manager<Message> | ContextSession<Message>) => Promise<string | void> | void> = [];
  out.push((m) => m.append([{ role: 'user', content: 'Make the parser tests pass.' }]));
  for (let turn = 0; turn < 24; turn++) {
    out.push(async (m) => {
      const built = await m.build();
      return JSON.stringify([built.system, built.messages]);
    });
    out.push((m) => m.recordUsage({ prompt_tokens: 900 + turn * 37 }));
    const id = `call_${turn}`;
    const file = `src/module_${turn}.rs`;
    const text = Array.from({ length: 40 }, (_, i) => `${file}:${i + 1}: fn item_${turn}_${i}() -> u32 { ${turn * 1000 + i} }`).join('\n');
    out.push((m) => m.append([
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: JSON.stringify({ path: file }) } }] },
      { role: 'tool', tool_call_id: id, content: text },
    ]));
  }
  return out;
}

const options = (summarizer: (prompt: string) => Promise<string>) => ({
  format: 'openai-chat' as const, budget: 2_500, system: 'You are a coding agent.', summarizer,
});
/** A summarizer whose answer is a function of its prompt; `asked` counts its calls. */
function summarizer(asked: string[]) {
  return async (prompt: string) => {
    asked.push(prompt);
    return `Earlier: ${prompt.length} characters read.`;
  };
}

/** Runs the conversation on a session of `store`, closed and opened again every `every` calls (never, with 0); its build requests and the summaries it asked for. */
async function run(store: ConformingStore, ContextManager: typeof Manager, every: number) {
  const list = calls();
  const asked: string[] = [];
  const requests: Array<string | void> = [];
  const open = () => ContextManager.open<Message>({ ...options(summarizer(asked)), sessionId: 'conformance-e2e', store });
  let session = await open();
  for (let k = 0; k < list.length; k++) {
    if (every > 0 && k > 0 && k % every === 0) {
      await session.close();
      session = await open();
      same(session.version, k, `the version opened again after call ${k}`);
    }
    requests.push(await list[k](session));
  }
  await session.close();
  return { requests, asked };
}

export async function endToEnd(store: ConformingStore, straight: ConformingStore, ContextManager: typeof Manager): Promise<void> {
  const whole = await run(straight, ContextManager, 0);
  check(whole.asked.length > 0, 'the conversation was to be summarized at its budget (a suite error, not the store\'s)');
  const resumed = await run(store, ContextManager, 7);
  for (const [k, request] of whole.requests.entries()) {
    if (typeof request === 'string') check(resumed.requests[k] === request, `call ${k}: the request differs from one run straight through`);
  }
  same(resumed.asked.length, whole.asked.length, 'the summaries asked for (none twice)');
}
