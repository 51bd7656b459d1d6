// A host that loads both copies of the package (its CommonJS and its ES module entries, as a
// CJS dependency beside ESM code does) has two of each error class. `instanceof` answers by
// a registered brand, so an error of either copy is an instance of both copies' classes, and
// the package itself tells its errors apart by `code`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const cjs = require('@devs/context');
const esm = await import('@devs/context');
const cjsSqlite = require('@devs/context/sqlite');
const esmSqlite = await import('@devs/context/sqlite');

const CLASSES = ['SummarizationError', 'UseAfterFreeError', 'ReentrantCallError', 'SessionConflictError', 'CallbackTimeoutError'];
const make = {
  SummarizationError: (m) => new m.SummarizationError('empty', { code: 'ERR_EMPTY_SUMMARY' }),
  UseAfterFreeError: (m) => new m.UseAfterFreeError('TurnTracker'),
  ReentrantCallError: (m) => new m.ReentrantCallError('ContextManager.build'),
  SessionConflictError: (m) => new m.SessionConflictError('s', 1, 2),
  CallbackTimeoutError: (m) => new m.CallbackTimeoutError('llm.complete', 10),
};

describe('errors across the CommonJS and ES module copies', () => {
  it('the two copies are two sets of classes', () => {
    for (const name of CLASSES) assert.notEqual(cjs[name], esm[name], name);
  });

  it("each class's errors are instances of the other copy's class, and of no other class", () => {
    for (const name of CLASSES) {
      for (const [from, to] of [[cjs, esm], [esm, cjs]]) {
        const error = make[name](from);
        assert.ok(error instanceof to[name], `${name}: one copy's error is the other's`);
        assert.ok(error instanceof from[name]);
        assert.ok(error instanceof Error);
        assert.equal(typeof error.code, 'string', `${name} has a code`);
        for (const other of CLASSES.filter((n) => n !== name)) assert.ok(!(error instanceof to[other]), `${name} is not a ${other}`);
      }
    }
    assert.ok(!({ code: 'ERR_SESSION_CONFLICT' } instanceof esm.SessionConflictError), 'a look-alike is not one');
    assert.ok(!(null instanceof cjs.UseAfterFreeError));
  });

  it('errors thrown by one copy are caught with the other copy\'s class', async () => {
    const tracker = new esm.TurnTracker('dev-agent', 'implement');
    tracker.free();
    assert.throws(() => tracker.nextIndex(), cjs.UseAfterFreeError);
    // A session conflict raised by a CommonJS store inside an ES module session: the session
    // tells it by its code, and the host catches it with either class.
    const file = join(mkdtempSync(join(tmpdir(), 'copies-')), 'state.sqlite');
    const first = await esm.ContextManager.open({ sessionId: 'task', store: new cjsSqlite.SqliteStateRepository(file), format: 'openai-chat', budget: 10_000 });
    const second = await cjs.ContextManager.open({ sessionId: 'task', store: new esmSqlite.SqliteStateRepository(file), format: 'openai-chat', budget: 10_000 });
    await first.append({ role: 'user', content: 'one' });
    const error = await second.append({ role: 'user', content: 'two' }).catch((e) => e);
    assert.ok(error instanceof esm.SessionConflictError && error instanceof cjs.SessionConflictError, String(error));
    assert.equal(error.code, 'ERR_SESSION_CONFLICT');
    // Lost, as a conflict makes it (not retried as a failed write): the same error again.
    assert.equal(await second.append({ role: 'user', content: 'three' }).catch((e) => e), error);
    await first.close();
  });
});
