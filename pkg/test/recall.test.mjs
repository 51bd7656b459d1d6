// The recall tool, end to end. A scripted model reads each request, picks a store id the
// request names, and calls the recall tool in each of the five formats, on a real session
// replayed under a small budget; the host answers with `recall(call)` and appends the
// result. Checked: the answer is the stored text, page after page, contiguous to its end,
// each page within a part's share of the budget; the same page asked again while its
// answer is in the request gets a note (the loop guard); bad inputs and unknown ids get a
// refusal the model can read, never an exception; every build stays valid and bounded;
// and a session never reads another session's texts (SQLite and a real PostgreSQL), also
// after it is opened again.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ContextManager, MemoryStateRepository, recallSpec } from '@devs/context';
import { PostgresStateRepository } from '@devs/context/postgres';
import { parseTranscript } from '@devs/context/replay';
import { SqliteStateRepository } from '@devs/context/sqlite';
import { createTokenCounter } from '@devs/context/tokenizers';
import { rejected, thrown } from './helpers.mjs';
import { startPostgres } from './postgres.mjs';
import { fakeVscode, providerTurns } from './provider-sessions.mjs';
import { modelCall, namedIds, parsePage, parseQuery, toolResult } from './recall-model.mjs';
import { PROBLEMS, requestText } from './validity.mjs';
import { FORMATS } from './formats.mjs';

const o200k = createTokenCounter('o200k_base');
const modelMessages = (await import('ai')).modelMessageSchema.array();
const BUDGET = 20_000;
// A page stays within a part's share of the budget (partShare, 15% by default).
const PAGE_CAP = Math.floor(BUDGET * 0.15);
const [session] = parseTranscript(readFileSync(new URL('./fixtures/sessions/claude-code-session.jsonl', import.meta.url), 'utf8'), 'claude-code-session.jsonl');
const summarizer = (prompt) => `Earlier: ${prompt.slice(0, 1500)}`;

const REFUSED_ID = (id) => `[recall: ${JSON.stringify(id)} is not the id of a text stored in this conversation`;
const BAD_INPUT = '[recall: the input is not what the tool takes: ';
const REPEAT = (id) => `[recall: this page of stored text ${id} is already in the conversation`;

/** What a provider would refuse in `request`; for the AI SDK also its own schema. */
function problems(format, request) {
  const found = PROBLEMS[format](request);
  if (format === 'ai-sdk') {
    const parsed = modelMessages.safeParse(request.messages);
    if (!parsed.success) found.push(`the AI SDK's modelMessageSchema: ${parsed.error.message.slice(0, 300)}`);
  }
  return found;
}

/**
 * The host's side of the loop around `context` (a ContextManager or a session): every
 * build checked valid and within the budget, and the model's recall calls appended,
 * answered with `recall(call)`, the answer checked to be that format's result of that
 * call, appended, and the next request built, as a host does before the model's next turn.
 */
/** Call ids across every host of the file: a session opened again goes on with new ones, as a model's do. */
let calls = 0;
function host(context, format, budget) {
  const self = {
    context,
    request: undefined,
    async build() {
      const request = await context.build();
      assert.deepEqual(problems(format, request), [], `${format}: the request is valid`);
      assert.ok(request.tokens <= budget, `${format}: ${request.tokens} tokens within ${budget}`);
      self.request = request;
      return request;
    },
    /** The model calls the recall tool with `input`; resolves to the text of the answer. */
    async ask(input, options) {
      const callId = `call_recall_${++calls}`;
      const { message, call } = modelCall(format, callId, input, options);
      await context.append(message);
      const answer = await context.recall(call);
      const result = toolResult(format, answer);
      // Gemini's call has no id here: its answer names the tool, and pairs by name and order.
      assert.equal(result.callId, format === 'gemini' ? undefined : callId, 'the answer is the result of that call');
      if (format === 'ai-sdk' || format === 'gemini') assert.equal(result.toolName, 'recall');
      await context.append(answer);
      await self.build();
      return result.text;
    },
  };
  return self;
}

/** ASCII case folding, as the rules match a query. */
const fold = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const escaped = (text) => JSON.stringify(text).slice(1, -1);

/** Checks `text` is the page of `raw` from `offset`, stored as `id` with `label`; returns the parsed page. */
function assertPage(text, { id, label, raw, offset }) {
  const page = parsePage(text);
  assert.ok(page, `a page of ${id}: ${text.slice(0, 200)}`);
  assert.equal(page.id, id);
  assert.equal(page.label, label);
  assert.equal(page.total, raw.length, 'the heading names the whole length');
  assert.equal(page.start, offset, 'the page starts where it was asked to');
  assert.ok(page.end > page.start || page.end === raw.length, 'a page moves on');
  assert.equal(page.body, raw.slice(page.start, page.end), 'the page is the stored text, byte for byte');
  assert.equal(page.next, page.end < raw.length ? page.end : undefined, 'the offset to ask for next is where the page ends');
  const tokens = o200k(text);
  assert.ok(tokens <= PAGE_CAP, `a page of ${id} at ${offset} is ${tokens} tokens, over a part's share (${PAGE_CAP})`);
  return page;
}

/** Whether `request` names a stored text longer than a page (a page is at most a part's share, at 3 characters a token). */
function namesLongText(request, store) {
  return namedIds(request).some((id) => (store.getRawToolOutput(id)?.rawContent.length ?? 0) > (PAGE_CAP - 80) * 3);
}

/**
 * The model's recall episode right after a compaction: it reads the longest text the
 * request names, asks for the same page again (the loop note), pages to the end, then
 * searches it. Returns the texts of the answers that held stored text.
 */
async function recallEpisode(h, store, format) {
  const ids = namedIds(h.request);
  // Every id the request names reads back: the model may pick any of them.
  const rows = new Map(ids.map((id) => [id, store.getRawToolOutput(id)]));
  for (const [id, row] of rows) assert.ok(row && typeof row.rawContent === 'string', `${format}: the named id ${id} is in the store`);
  // The longest, so the answer comes in pages.
  const [id, row] = [...rows].sort((a, b) => b[1].rawContent.length - a[1].rawContent.length)[0];
  const raw = row.rawContent;
  const want = { id, label: row.toolName, raw };
  const answers = [];

  const first = await h.ask({ id });
  const page = assertPage(first, { ...want, offset: 0 });
  answers.push(first);
  assert.ok(page.next !== undefined, `${format}: stored text ${id} (${raw.length} characters) takes more than one page`);

  // The loop: the same input, a new call, while the first answer is still in the request.
  assert.ok(requestText(h.request).includes(escaped(page.heading + page.body.slice(0, 200))), 'the first answer is in the request');
  const again = await h.ask({ id });
  assert.ok(again.startsWith(REPEAT(id)), `${format}: the same page again gets the note, got ${again.slice(0, 200)}`);
  assert.ok(!again.includes(page.body.slice(0, 100)), 'the note holds none of the text');

  // Paging: from the offset each heading names, to the end.
  const bodies = [page.body];
  for (let offset = page.next, n = 0; offset !== undefined; n++) {
    assert.ok(n < 50, 'paging ends');
    const text = await h.ask({ id, offset });
    const next = assertPage(text, { ...want, offset });
    answers.push(text);
    bodies.push(next.body);
    offset = next.next;
  }
  assert.equal(bodies.join(''), raw, `${format}: the pages put together are the stored text`);

  // A query: the lines holding a word of the text's middle line, with their numbers.
  const lines = raw.split('\n');
  const word = lines.slice(Math.floor(lines.length / 2)).join(' ').match(/[A-Za-z_]{6,}/)?.[0];
  assert.ok(word, 'the text has a word to search');
  const found = parseQuery(await h.ask({ id, query: word }));
  assert.ok(found, `${format}: a query's answer`);
  const holding = lines.map((l, i) => [i + 1, l]).filter(([, l]) => fold(l).includes(fold(word)));
  assert.deepEqual([found.id, found.label, found.query, found.of], [id, row.toolName, word, holding.length]);
  assert.ok(found.shown >= 1 && found.lines.length === found.shown);
  for (const line of found.lines) {
    const whole = lines[line.n - 1];
    assert.ok(line.text === whole || (line.text.endsWith(' …') && whole.startsWith(line.text.slice(0, -2))), `line ${line.n} as stored`);
    assert.ok(fold(whole).includes(fold(word)), `line ${line.n} holds ${word}`);
  }

  // The host reads it too, by id: a page of at most `length` characters from `offset`.
  const direct = parsePage(await h.context.recall(id, { offset: page.end, length: 100 }));
  assert.ok(direct && direct.start === page.end && direct.end <= page.end + 100 && direct.end > page.end);
  assert.equal(direct.body, raw.slice(direct.start, direct.end));
  return answers;
}

describe('the recall tool on a real session, in every format', () => {
  for (const format of FORMATS) {
    it(`${format}: the answer is the stored text, a page at a time to its end, and the same page again gets the loop note`, async () => {
      const store = new MemoryStateRepository();
      const cm = new ContextManager({ format, budget: BUDGET, recall: true, countTokens: o200k, store, summarizer, system: 'You are a coding agent.', vscode: fakeVscode });
      const h = host(cm, format, BUDGET);
      let answers;
      for (const turn of providerTurns(session, format)) {
        if (turn.input.length) cm.append(turn.input);
        await h.build();
        // After the first compaction that names a text longer than a page (a compaction may
        // mask only outputs and calls of a page or less), the model reads back what it no
        // longer sees.
        if (!answers && cm.ledger.at(-1).compaction && namesLongText(h.request, store)) answers = await recallEpisode(h, store, format);
        if (turn.response.length) cm.append(turn.response);
        if (turn.results.length) cm.append(turn.results);
      }
      assert.ok(answers, `${format}: a compaction named stored texts`);
      // The session went on past later compactions, which folded the answers away: an
      // answer is a page of a text stored already, so none is ever stored again.
      assert.ok(cm.ledger.filter((r) => r.compaction).length >= 2, 'compactions after the recalls');
      const stored = new Set(store.getRawToolOutputs().map((r) => r.rawContent));
      for (const text of answers) assert.ok(!stored.has(text), `an answer is not stored again: ${text.slice(0, 80)}`);
    });
  }
});

// A page is sized at an assumed 3 characters a token, then counted with the host's counter
// and asked for again, smaller, when it is over a part's share. Dense text (base64, CJK,
// digits) holds fewer characters a token: uncounted, a page of 8,760 characters came to
// 6,000-7,200 o200k tokens at a 20,000 budget, twice the share (3,000); the next build cut
// its middle, so "recall it with offset N" skipped characters the model never saw.
describe('a page of dense text within a part\'s share', () => {
  const blob = Array.from({ length: 700 }, (_, i) => createHash('sha256').update(String(i)).digest('base64')).join('');
  const japanese = Array.from({ length: 400 }, (_, i) => `行 ${i}: ` + 'ログの出力テキストの例です。'.repeat(12)).join('\n');
  for (const [what, output, query] of [['base64', blob, undefined], ['Japanese log', japanese, '行']]) {
    it(`${what}: the answer is at most ${PAGE_CAP} tokens, and the next request holds it whole`, async () => {
      const store = new MemoryStateRepository();
      const cm = new ContextManager({ format: 'anthropic', budget: BUDGET, recall: true, countTokens: o200k, store });
      const h = host(cm, 'anthropic', BUDGET);
      cm.append({ role: 'user', content: 'Read the dump.' });
      cm.append({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat dump' } }] });
      cm.append({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: output }] });
      await h.build();
      const [id] = namedIds(h.request);
      assert.equal(store.getRawToolOutput(id)?.rawContent, output, 'the output is stored, and the request names it');
      const text = await h.ask({ id });
      const page = parsePage(text);
      assert.equal(page?.body, output.slice(0, page?.end));
      assert.ok(o200k(text) <= PAGE_CAP, `a page of ${what} is ${o200k(text)} tokens, over a part's share (${PAGE_CAP})`);
      assert.ok(requestText(h.request).includes(escaped(text)), 'the next request holds the page whole, not cut');
      if (query) {
        const found = await cm.recall(id, { query });
        assert.ok(o200k(found) <= PAGE_CAP, `a query's answer over ${what} is ${o200k(found)} tokens, over a part's share (${PAGE_CAP})`);
      }
    });
  }
});

/** Replays the session up to its first compaction that names stored texts. */
async function compacted(format) {
  const store = new MemoryStateRepository();
  const cm = new ContextManager({ format, budget: BUDGET, recall: true, countTokens: o200k, store, summarizer, vscode: fakeVscode });
  const h = host(cm, format, BUDGET);
  for (const turn of providerTurns(session, format)) {
    if (turn.input.length) cm.append(turn.input);
    await h.build();
    if (cm.ledger.at(-1).compaction && namedIds(h.request).length) return { cm, store, h };
    if (turn.response.length) cm.append(turn.response);
    if (turn.results.length) cm.append(turn.results);
  }
  assert.fail(`${format}: no compaction named a stored text`);
}

describe('what the recall tool refuses, as a result the model reads', () => {
  for (const format of FORMATS) {
    it(`${format}: an unknown id and bad inputs get a [recall: …] note, never an exception, and the requests stay valid`, async () => {
      const { store, h } = await compacted(format);
      const [own] = namedIds(h.request);
      assert.equal(store.getRawToolOutput('999999'), undefined);
      const unknown = await h.ask({ id: '999999' });
      assert.ok(unknown.startsWith(REFUSED_ID('999999')), unknown);

      const bad = [
        [{}, 'no id'],
        [{ id: '' }, 'an empty id'],
        [{ id: own, offset: -1 }, 'a negative offset'],
        [{ id: own, offset: 1.5 }, 'an offset not whole'],
        [{ id: own, length: 0 }, 'a length of 0'],
        [{ id: own, query: 7 }, 'a query not a string'],
        ['3', 'an input not an object'],
      ];
      if (format === 'openai-chat' || format === 'openai-responses') bad.push([undefined, 'arguments not JSON', { rawArguments: `{"id": "${own}", "offset":` }]);
      for (const [input, what, options] of bad) {
        const text = await h.ask(input, options);
        assert.ok(text.startsWith(BAD_INPUT), `${format}, ${what}: ${text}`);
        assert.ok(!text.includes(store.getRawToolOutput(own).rawContent.slice(0, 50)), `${format}, ${what}: no stored text`);
      }
      // After all that, a good call still reads the text.
      const row = store.getRawToolOutput(own);
      assertPage(await h.ask({ id: own }), { id: own, label: row.toolName, raw: row.rawContent, offset: 0 });
    });
  }
});

describe('the recall tool\'s definition, and calls that are not its own', () => {
  // The tool as each SDK takes it: the AI SDK keys its tools by name, so its tool has none.
  const NAME = {
    anthropic: (t) => t.name,
    'openai-chat': (t) => t.type === 'function' && t.function.name,
    'openai-responses': (t) => t.type === 'function' && t.name,
    'ai-sdk': () => 'recall',
    vscode: (t) => t.name,
    gemini: (t) => t.functionDeclarations.length === 1 && t.functionDeclarations[0].name,
  };
  const SCHEMA = {
    anthropic: (t) => t.input_schema,
    'openai-chat': (t) => t.function.parameters,
    'openai-responses': (t) => t.parameters,
    'ai-sdk': (t) => t.inputSchema.jsonSchema,
    vscode: (t) => t.inputSchema,
    gemini: (t) => t.functionDeclarations[0].parametersJsonSchema ?? t.functionDeclarations[0].parameters,
  };
  for (const format of FORMATS) {
    it(`${format}: recallTool is the provider's tool; a call of another tool is a TypeError; without recall: true it is ERR_RECALL_OFF`, async () => {
      const cm = new ContextManager({ format, budget: BUDGET, recall: true, countTokens: o200k, vscode: fakeVscode });
      const tool = cm.recallTool;
      assert.equal(NAME[format](tool), 'recall');
      const schema = SCHEMA[format](tool);
      assert.deepEqual([schema.type, schema.required, Object.keys(schema.properties).sort()], ['object', ['id'], ['id', 'length', 'offset', 'query']]);

      cm.append(modelCall(format, 'call_1', { command: 'ls' }, { name: 'Bash' }).message);
      const other = await rejected(cm.recall(modelCall(format, 'call_1', { command: 'ls' }, { name: 'Bash' }).call));
      assert.ok(other instanceof TypeError && other.field === 'call' && /"Bash"/.test(other.message), String(other));
      for (const notACall of [42, null, { type: 'text', text: 'recall 3' }]) {
        const error = await rejected(cm.recall(notACall));
        assert.ok(error instanceof TypeError && /^call/.test(error.field ?? ''), `${JSON.stringify(notACall)}: ${error}`);
      }

      const off = new ContextManager({ format, budget: BUDGET, vscode: fakeVscode });
      const error = thrown(() => off.recallTool);
      assert.equal(error.code, 'ERR_RECALL_OFF');
    });
  }
});

// Session `tag`'s turns: a task, then `n` calls of Bash whose outputs are each past a
// part's share of the budget, so they are stored and cut (or masked) from the start.
function sessionTurns(tag, n) {
  const line = (k, i) => `SESSION-${tag.toUpperCase()} file ${k} line ${String(i).padStart(3, '0')}: ${tag}-value-${(k * 7919 + i * 104729) % 1000003}`;
  return [
    { role: 'user', content: `Task of session ${tag}: read the logs.` },
    ...Array.from({ length: n }, (_, k) => [
      { role: 'assistant', content: [{ type: 'text', text: `Reading log ${k}.` }, { type: 'tool_use', id: `toolu_${tag}_${k}`, name: 'Bash', input: { command: `cat ${tag}-${k}.log` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${tag}_${k}`, content: Array.from({ length: 250 }, (_, i) => line(k, i)).join('\n') }] },
    ]).flat(),
  ];
}

const SESSION_BUDGET = 10_000;
const sessionOptions = (sessionId, store, extra = {}) => ({ sessionId, store, format: 'anthropic', budget: SESSION_BUDGET, recall: true, countTokens: o200k, summarizer, ...extra });

/** Opens session `sessionId`, drives its turns with a build before each model turn; returns it, its host and the ids its requests named. */
async function driven(store, sessionId, turns) {
  const context = await ContextManager.open(sessionOptions(sessionId, store));
  const h = host(context, 'anthropic', SESSION_BUDGET);
  const ids = new Set();
  for (const message of turns) {
    if (message.role === 'assistant') for (const id of namedIds(await h.build())) ids.add(id);
    await context.append(message);
  }
  for (const id of namedIds(await h.build())) ids.add(id);
  return { context, h, ids: [...ids] };
}

const sqliteFile = () => join(mkdtempSync(join(tmpdir(), 'recall-')), 'state.sqlite');
let server;
const STORES = {
  sqlite: async () => {
    const store = new SqliteStateRepository(sqliteFile());
    return { store, end: async () => store.close() };
  },
  postgres: async () => {
    server ??= await startPostgres();
    const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
    pool.on('error', () => {});
    return { store: new PostgresStateRepository(pool), end: () => pool.end() };
  },
};
after(async () => {
  await server?.destroy();
});

describe('a session reads only its own stored texts', () => {
  for (const [kind, make] of Object.entries(STORES)) {
    it(`${kind}: session a is refused each id of session b in the same store, reads its own, and still does once opened again`, async () => {
      const { store, end } = await make();
      try {
        const a = await driven(store, 'a', sessionTurns('a', 6));
        const b = await driven(store, 'b', sessionTurns('b', 6));
        const aIds = a.ids.filter((id) => id.startsWith('a:'));
        const bIds = b.ids.filter((id) => id.startsWith('b:'));
        assert.ok(aIds.length >= 2 && bIds.length >= 2, `both sessions stored texts: a ${a.ids}, b ${b.ids}`);
        assert.deepEqual([...a.ids, ...b.ids].filter((id) => !aIds.includes(id) && !bIds.includes(id)), [], 'a request names only its own session\'s ids');

        // b's texts are in the store, readable by b; a is told they are not its own.
        const refuseAll = async (h) => {
          for (const id of bIds) {
            const raw = (await store.getRawToolOutput(id)).rawContent;
            const text = await h.ask({ id });
            assert.ok(text.startsWith(REFUSED_ID(id)), `${kind}: a recalling ${id}: ${text.slice(0, 200)}`);
            assert.ok(!text.includes('SESSION-B') && !text.includes(raw.slice(0, 40)), 'none of b\'s text');
            const direct = await h.context.recall(id);
            assert.ok(direct.startsWith(REFUSED_ID(id)), `${kind}: a.recall(${id}): ${direct.slice(0, 200)}`);
          }
        };
        await refuseAll(a.h);
        const bOwn = bIds[0];
        const bRow = await store.getRawToolOutput(bOwn);
        assertPage(await b.h.ask({ id: bOwn }), { id: bOwn, label: bRow.toolName, raw: bRow.rawContent, offset: 0 });

        // a's own text, the longest, so that it comes in pages.
        const rows = await Promise.all(aIds.map(async (id) => [id, await store.getRawToolOutput(id)]));
        const [own, row] = rows.sort((x, y) => y[1].rawContent.length - x[1].rawContent.length)[0];
        const want = { id: own, label: row.toolName, raw: row.rawContent };
        assert.ok(!row.rawContent.includes('SESSION-B'));
        const first = assertPage(await a.h.ask({ id: own }), { ...want, offset: 0 });
        assert.ok(first.next !== undefined, `a's text ${own} takes more than one page`);

        // Closed and opened again: the ids, and the answers in the request, are the session's state.
        await a.context.close();
        await b.context.close();
        const reopened = await ContextManager.open(sessionOptions('a', store));
        const h = host(reopened, 'anthropic', SESSION_BUDGET);
        await h.build();
        assert.ok(requestText(h.request).includes(escaped(first.heading)), 'the first answer is in the reopened session\'s request');
        const again = await h.ask({ id: own });
        assert.ok(again.startsWith(REPEAT(own)), `${kind}: the same page after reopening gets the note: ${again.slice(0, 200)}`);
        assertPage(await h.ask({ id: own, offset: first.next }), { ...want, offset: first.next });
        const head = parsePage(await reopened.recall(own, { offset: 0, length: 50 }));
        assert.ok(head && head.end <= 50 && head.end >= 40, 'at most length characters, ending on a line in its last fifth');
        assert.equal(head.body, row.rawContent.slice(0, head.end));
        await refuseAll(h);
        await reopened.close();

        // A session opened without recall: true has no tool to give.
        const plain = await ContextManager.open({ ...sessionOptions('c', store), recall: undefined });
        assert.equal(thrown(() => plain.recallTool).code, 'ERR_RECALL_OFF');
        await plain.close();
      } finally {
        await end();
      }
    });
  }

  it('memory: two managers on one MemoryStateRepository read only their own ids', async () => {
    const store = new MemoryStateRepository();
    const managers = ['a', 'b'].map((tag) => {
      const cm = new ContextManager({ format: 'anthropic', budget: SESSION_BUDGET, recall: true, countTokens: o200k, store, summarizer });
      return { cm, h: host(cm, 'anthropic', SESSION_BUDGET), turns: sessionTurns(tag, 5), ids: new Set() };
    });
    for (const m of managers) {
      for (const message of m.turns) {
        if (message.role === 'assistant') for (const id of namedIds(await m.h.build())) m.ids.add(id);
        m.cm.append(message);
      }
      for (const id of namedIds(await m.h.build())) m.ids.add(id);
    }
    const [a, b] = managers;
    assert.ok(a.ids.size && b.ids.size && [...a.ids].every((id) => !b.ids.has(id)), 'each stored texts of its own');
    for (const id of b.ids) {
      assert.ok(store.getRawToolOutput(id).rawContent.length > 0);
      const text = await a.h.ask({ id });
      assert.ok(text.startsWith(REFUSED_ID(id)) && !text.includes('SESSION-B'), `a recalling ${id}: ${text.slice(0, 200)}`);
    }
    for (const id of a.ids) {
      const row = store.getRawToolOutput(id);
      assertPage(await a.h.ask({ id }), { id, label: row.toolName, raw: row.rawContent, offset: 0 });
    }
  });
});
