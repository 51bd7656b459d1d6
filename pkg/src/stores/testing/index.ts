/**
 * `@devs/context/testing`: the cases every `SessionStore` passes, for a host's own store.
 * `SqliteStateRepository` and `PostgresStateRepository` run these same cases in the
 * package's tests. Each case makes a fresh store, drives the contract directly (commits,
 * conflicts, texts, checkpoints, claims, summaries, the queue) and then through
 * `ContextManager.open`: a session that lost a call's row (deleted by `options.dropCall`)
 * refused, and one closed and opened again against one run straight through. A case
 * that fails throws an `Error` naming the case and what differed.
 * @example
 * import { it } from 'node:test';
 * import { sessionStoreConformance } from '@devs/context/testing';
 * import { SqliteStateRepository } from '@devs/context/sqlite';
 *
 * for (const c of sessionStoreConformance(() => new SqliteStateRepository(':memory:'))) it(c.name, c.run);
 */
import { ContextManager, type SessionCommit, type SessionRows } from '@devs/context';
import { endToEnd } from './end-to-end.js';
import { lostCall } from './lost-call.js';
import { check, same } from './check.js';
import type { ConformanceCase, ConformanceOptions, ConformingStore } from './types.js';

export type { ConformanceCase, ConformanceOptions, ConformingStore } from './types.js';

const commit = (sessionId: string, version: number, changes: string, extra: Partial<SessionCommit> = {}): SessionCommit => ({
  sessionId, version, format: 'openai-chat', config: '{"budget":1000}', changes, outputs: [], ...extra,
});
const conflict = (error: unknown) => (error as { code?: unknown } | null)?.code === 'ERR_SESSION_CONFLICT';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function rejects(what: string, promise: () => unknown, test: (error: unknown) => boolean, expected: string): Promise<void> {
  let failed = false;
  try {
    await promise();
  } catch (error) {
    failed = true;
    check(test(error), `${what}: threw ${String(error)}, not ${expected}`);
  }
  check(failed, `${what}: did not throw ${expected}`);
}

/**
 * The cases a store passes to keep `ContextManager.open`'s sessions. `makeStore` gives a
 * new, empty store each time (it may be async).
 */
export function sessionStoreConformance(makeStore: () => ConformingStore | Promise<ConformingStore>, options: ConformanceOptions = {}): ConformanceCase[] {
  if (typeof makeStore !== 'function') throw new TypeError('makeStore must be a function that returns a new store');
  if (typeof options !== 'object' || options === null) throw new TypeError('options must be an object');
  if (options.dispose !== undefined && typeof options.dispose !== 'function') throw new TypeError('options.dispose must be a function');
  if (options.dropCall !== undefined && typeof options.dropCall !== 'function') throw new TypeError('options.dropCall must be a function');
  const ttl = options.claimTtlMs ?? 200;
  if (typeof ttl !== 'number' || !(ttl > 0 && ttl <= 60_000)) throw new RangeError(`options.claimTtlMs must be a number of ms in (0, 60000], got ${String(ttl)}`);
  const withStore = (name: string, body: (store: ConformingStore) => Promise<void>): ConformanceCase => ({
    name,
    run: async () => {
      const store = await makeStore();
      try {
        await body(store);
      } catch (error) {
        if (error instanceof Error) error.message = `[${name}] ${error.message}`;
        throw error;
      } finally {
        await options.dispose?.(store);
      }
    },
  });
  return [
    withStore('a session never committed loads as undefined', async (store) => {
      same(await store.loadSession('conformance-none'), undefined, 'loadSession of a new session');
    }),
    withStore('commits are versions, in order, with what was written', async (store) => {
      await store.commitSession(commit('s', 0, '["a"]'));
      await store.commitSession(commit('s', 1, '["b"]'));
      const rows = await store.loadSession('s') as SessionRows;
      same([rows.version, rows.format, rows.config, rows.changes, rows.outputs, rows.inbox], [2, 'openai-chat', '{"budget":1000}', ['["a"]', '["b"]'], 0, []], 'the session after two commits');
      if (rows.versions !== undefined) same(rows.versions, [1, 2], 'the versions of the two commits');
      const later = await store.loadSession('s', 1);
      same(later?.changes, ['["b"]'], 'loadSession after version 1');
      if (later?.versions !== undefined) same(later.versions, [2], 'the versions after version 1');
    }),
    withStore('a commit on a version the store has moved past is a SessionConflictError, and writes nothing', async (store) => {
      await store.commitSession(commit('s', 0, '["a"]'));
      await store.commitSession(commit('s', 1, '["b"]'));
      const before = await store.loadSession('s');
      await rejects('a commit at version 1 of a session at 2', () => store.commitSession(commit('s', 1, '["late"]', { outputs: [{ seq: 1, toolName: 't', rawContent: 'late', byteSize: 4, turnAge: 0, capturedAt: 0 }] })), conflict, 'ERR_SESSION_CONFLICT');
      await rejects('a commit at version 0 of a session that exists', () => store.commitSession(commit('s', 0, '["again"]')), conflict, 'ERR_SESSION_CONFLICT');
      same(await store.loadSession('s'), before, 'the session after the refused commits');
    }),
    withStore('texts are kept whole, each once, read back by `<sessionId>:<seq>`', async (store) => {
      check(typeof store.getRawToolOutput === 'function', 'the store has no getRawToolOutput: the recall tool cannot read texts back');
      const texts = ['plain', 'é 😀 \u0000 nul and \uD800 a lone surrogate', 'x'.repeat(1 << 20)];
      const outputs = texts.map((rawContent, i) => ({ seq: i + 1, toolName: 'read', rawContent, byteSize: new TextEncoder().encode(rawContent).length, turnAge: 0, capturedAt: 1_700_000_000_000 }));
      await store.commitSession(commit('s', 0, '["a"]', { outputs }));
      same((await store.loadSession('s'))?.outputs, 3, 'the count of texts stored');
      for (const [i, text] of texts.entries()) {
        const row = await store.getRawToolOutput!(`s:${i + 1}`);
        check(row?.rawContent === text, `text s:${i + 1} read back is not the one stored (${row === undefined ? 'none' : `${row.rawContent.length} characters`})`);
      }
      same(await store.getRawToolOutput!('other:1'), undefined, 'a text of another session');
    }),
    withStore('sessions are apart', async (store) => {
      await store.commitSession(commit('a', 0, '["a"]'));
      await store.commitSession(commit('b', 0, '["b"]'));
      same([(await store.loadSession('a'))?.changes, (await store.loadSession('b'))?.changes], [['["a"]'], ['["b"]']], 'two sessions');
    }),
    withStore('the newest checkpoint comes with the calls from it on', async (store) => {
      await store.commitSession(commit('s', 0, '["a"]'));
      await store.commitSession(commit('s', 1, '["b"]', { checkpoint: '{"state":1}' }));
      await store.commitSession(commit('s', 2, '["c"]'));
      await store.commitSession(commit('s', 3, '["d"]', { checkpoint: '{"state":3}' }));
      await store.commitSession(commit('s', 4, '["e"]'));
      const rows = await store.loadSession('s') as SessionRows;
      if (rows.checkpoint === undefined) {
        same(rows.changes, ['["a"]', '["b"]', '["c"]', '["d"]', '["e"]'], 'every call, for a store that keeps no checkpoints');
      } else {
        // Written with the call on version 3, it is the state before call 4 (the fourth call's changes on).
        same([rows.checkpoint, rows.changes], [{ version: 4, state: '{"state":3}' }, ['["d"]', '["e"]']], 'the newest checkpoint and the calls from it on');
      }
      if (rows.versions !== undefined) same(rows.versions, rows.checkpoint ? [4, 5] : [1, 2, 3, 4, 5], 'the versions of the calls given');
    }),
    withStore('a key is claimed by one owner at a time, until released or its time runs out', async (store) => {
      await store.commitSession(commit('s', 0, '["a"]'));
      check(await store.claim('s', 'k', 'one', ttl) === true, 'the first claim of a key');
      check(await store.claim('s', 'k', 'two', ttl) === false, 'a second owner claimed a live claim');
      await store.release('s', 'k', 'one');
      check(await store.claim('s', 'k', 'two', ttl) === true, 'a released key could not be claimed');
      await sleep(ttl * 2);
      check(await store.claim('s', 'k', 'three', ttl) === true, 'a claim past its time could not be taken over');
    }),
    withStore('a summary is kept the moment it is written, and ends its claim', async (store) => {
      await store.commitSession(commit('s', 0, '["a"]'));
      same(await store.readSummary('s', 'k'), undefined, 'a summary never written');
      check(await store.claim('s', 'k', 'one', 60_000) === true, 'the claim of a summary key');
      await store.writeSummary('s', 'k', 'the summary');
      same(await store.readSummary('s', 'k'), 'the summary', 'the summary written');
      check(await store.claim('s', 'k', 'two', 60_000) === false, 'a key whose summary is kept was claimed again');
    }),
    withStore('appends are queued in order, once per id, and leave the queue with the commit that takes them in', async (store) => {
      await store.commitSession(commit('s', 0, '["a"]'));
      await store.enqueue('s', '[1]', 'first');
      await store.enqueue('s', '[2]', 'second');
      await store.enqueue('s', '[1]', 'first');
      const inbox = (await store.loadSession('s'))?.inbox ?? [];
      same(inbox.map(([, messages]) => messages), ['[1]', '[2]'], 'the queue (an append retried under its id is queued once)');
      check(inbox[0][0] < inbox[1][0], 'queue numbers rise in queue order');
      await store.commitSession(commit('s', 1, '["b"]', { inbox: [inbox[0][0]] }));
      same((await store.loadSession('s'))?.inbox.map(([, messages]) => messages), ['[2]'], 'the queue after a commit took the first in');
    }),
    withStore('a session that lost the row of its newest call, or of one in the middle, is refused when opened, naming the session and the call', async (store) => {
      await lostCall(store, ContextManager, options);
    }),
    withStore('ContextManager.open on the store, closed and opened again, gives the requests of one run straight through', async (store) => {
      const straight = await makeStore();
      try {
        await endToEnd(store, straight, ContextManager);
      } finally {
        await options.dispose?.(straight);
      }
    }),
  ];
}
