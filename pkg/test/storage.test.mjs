// A durable session's store grows with what it holds (issue 48, item 5): a screenshot
// named by the journal, by a checkpoint and by the text the engine stores when it masks it
// is stored once (`context/session/stored-once.ts`), and checkpoints are spaced by what
// the rows since weigh (`spacing.ts`). The figures at 1,000 and 10,000 turns are the
// bench's (bench/storage.mjs); this holds a shorter session to the same bound.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { driveStorage, storageOptions, storageTurn } from './storage-session.mjs';

const require = createRequire(import.meta.url);
const { ContextManager } = require('@devs/context');
const { SqliteStateRepository } = require('@devs/context/sqlite');

const TURNS = 200;
const fresh = () => new SqliteStateRepository(join(mkdtempSync(join(tmpdir(), 'storage-')), 'state.sqlite'));
/** UTF-8 bytes of the session's rows, checkpoints and stored texts, as SQLite holds them. */
const stored = (store, id) => store.db.prepare(`SELECT
  (SELECT SUM(LENGTH(CAST(changes AS BLOB))) + COALESCE(SUM(LENGTH(CAST(checkpoint AS BLOB))), 0) FROM context_changes WHERE session_id = ?) +
  (SELECT COALESCE(SUM(LENGTH(CAST(raw_content AS BLOB))), 0) FROM raw_tool_outputs WHERE session_id = ?)`).pluck().get(id, id);
const request = (r) => JSON.stringify({ system: r.system, messages: r.messages });

describe('a durable session with a screenshot every 5 turns', () => {
  it(`holds at most 1.5 times what it was given, at ${TURNS} turns`, async () => {
    const store = fresh();
    const context = await ContextManager.open(storageOptions('ratio', store));
    const raw = await driveStorage(context, 0, TURNS);
    await context.close();
    const bytes = stored(store, 'ratio');
    assert.ok(bytes <= 1.5 * raw, `the store holds ${bytes} bytes for ${raw} given: ${(bytes / raw).toFixed(2)}x`);
    store.close();
  });

  it('stores each screenshot once, however many times it is named', async () => {
    const store = fresh();
    const context = await ContextManager.open(storageOptions('once', store));
    await driveStorage(context, 0, 120);
    await context.close();
    const texts = store.db.prepare("SELECT raw_content FROM raw_tool_outputs WHERE session_id = 'once'").pluck().all();
    const rows = store.db.prepare("SELECT changes || COALESCE(checkpoint, '') FROM context_changes WHERE session_id = 'once'").pluck().all();
    for (const t of [4, 9, 59, 114]) {
      const data = storageTurn(t)[1].content[0].content[1].source.data;
      const holding = texts.filter((x) => x.includes(data)).length;
      assert.equal(holding, 1, `turn ${t}'s screenshot is in ${holding} stored texts`);
      assert.equal(rows.filter((x) => x.includes(data)).length, 0, `turn ${t}'s screenshot is written into rows`);
    }
    store.close();
  });

  it('a string that starts with NUL, or looks like a reference, short or long, reads back as written', async () => {
    const store = fresh();
    const texts = ['\u0000', '\u0000\u0000ab', '\u00001/0/3/abc', `\u0000${'x'.repeat(2_000)}`, `\u00001/0/3/${'y'.repeat(2_000)}`, 'z'.repeat(1_024)];
    const a = await ContextManager.open(storageOptions('nul-a', store));
    const b = await ContextManager.open(storageOptions('nul-b', store));
    for (const c of [a, b]) {
      await c.append(texts.map((text, i) => ({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text }] })));
      await c.build();
    }
    await a.close();
    const opened = await ContextManager.open(storageOptions('nul-a', store));
    const [x, y] = [await opened.build(), await b.build()];
    assert.ok(request(x) === request(y).replaceAll('nul-b:', 'nul-a:'), 'the same request');
    for (const text of texts) assert.ok(request(x).includes(JSON.stringify(text)), `${JSON.stringify(text.slice(0, 12))}… is sent as written`);
    await opened.close();
    await b.close();
    store.close();
  });

  it('opened again at any turn, builds what one never closed builds', async () => {
    const store = fresh();
    const a = await ContextManager.open(storageOptions('stop-a', store));
    const b = await ContextManager.open(storageOptions('stop-b', store));
    let opened = a;
    for (let t = 0; t < 100; t++) {
      // Closed and opened again every 23 turns: from a checkpoint, and between them.
      if (t % 23 === 22) {
        await opened.close();
        opened = await ContextManager.open(storageOptions('stop-a', store));
      }
      await driveStorage(opened, t, t + 1);
      await driveStorage(b, t, t + 1);
    }
    const [x, y] = [await opened.build(), await b.build()];
    assert.ok(request(x) === request(y).replaceAll('stop-b:', 'stop-a:'), 'the same request');
    await opened.close();
    await b.close();
    store.close();
  });
});
