// The suite's case of a lost row: a session whose newest call's row (or one in the middle)
// is gone must be refused when opened, naming the session and the call. The session's own
// version is what tells: a store that counts it from the rows it still has loses a call in
// silence, and the rows before it replay as a session one call short.
import type { ContextManager as Manager, SessionRows } from '@devs/context';
import { check, same } from './check.js';
import type { ConformanceOptions, ConformingStore } from './types.js';

const CALLS = 5;

/** Writes a session of `CALLS` calls through `ContextManager.open`. */
async function write(store: ConformingStore, ContextManager: typeof Manager, sessionId: string): Promise<void> {
  const session = await ContextManager.open({ sessionId, store, format: 'openai-chat', budget: 2_000 });
  await session.append({ role: 'user', content: 'Make the parser tests pass.' });
  await session.build();
  await session.recordUsage({ prompt_tokens: 40 });
  await session.append([{ role: 'assistant', content: 'Reading the parser.' }, { role: 'user', content: 'Go on.' }]);
  await session.build();
  same(session.version, CALLS, `the version of session ${sessionId} after its calls`);
  await session.close();
}

/** `store`, its `loadSession` leaving out the rows of `lost` (session id to version), as a store that lost them gives them. */
function leaving(store: ConformingStore, lost: Map<string, number>): ConformingStore {
  const load = async (sessionId: string, after?: number): Promise<SessionRows | undefined> => {
    const rows = await store.loadSession(sessionId, after);
    const version = lost.get(sessionId);
    if (!rows || version === undefined) return rows;
    const at = rows.versions ? rows.versions.indexOf(version) : version - (rows.version - rows.changes.length) - 1;
    if (at < 0 || at >= rows.changes.length) return rows;
    const drop = <T>(list: T[]) => list.filter((_, i) => i !== at);
    return { ...rows, changes: drop(rows.changes), versions: rows.versions && drop(rows.versions) };
  };
  return {
    loadSession: load,
    commitSession: (commit) => store.commitSession(commit),
    readSummary: (sessionId, key) => store.readSummary(sessionId, key),
    claim: (sessionId, key, owner, ttlMs) => store.claim(sessionId, key, owner, ttlMs),
    release: (sessionId, key, owner) => store.release(sessionId, key, owner),
    writeSummary: (sessionId, key, text) => store.writeSummary(sessionId, key, text),
    enqueue: (sessionId, messages, appendId) => store.enqueue(sessionId, messages, appendId),
    insertRawToolOutput: (entry) => store.insertRawToolOutput(entry),
    getRawToolOutput: (id) => store.getRawToolOutput?.(id),
  };
}

export async function lostCall(store: ConformingStore, ContextManager: typeof Manager, options: ConformanceOptions): Promise<void> {
  const lost = new Map([['lost-newest', CALLS], ['lost-middle', 3]]);
  for (const sessionId of [...lost.keys(), 'whole']) await write(store, ContextManager, sessionId);
  let opened: ConformingStore = store;
  if (options.dropCall) for (const [sessionId, version] of lost) await options.dropCall(store, sessionId, version);
  else opened = leaving(store, lost);
  for (const [sessionId, version] of lost) {
    let refused: unknown;
    try {
      const session = await ContextManager.open({ sessionId, store: opened, format: 'openai-chat', budget: 2_000 });
      await session.close();
    } catch (error) {
      refused = error;
    }
    const what = `session ${sessionId}, which lost the row of call ${version} of ${CALLS}`;
    check(refused !== undefined, `${what}, was opened: a lost call goes unseen (is the session's version counted from its rows?)`);
    const e = refused as { code?: unknown; message?: unknown };
    check(e.code === 'ERR_STORE_CORRUPT', `${what}: opening it threw ${String(refused)} (code ${String(e.code)}), not ERR_STORE_CORRUPT`);
    const message = String(e.message);
    check(message.startsWith(`store: session ${sessionId}, `), `${what}: the error does not name the session: ${message}`);
    // A store that gives each row's version has the call named; one that does not, the calls counted.
    const named = (await opened.loadSession(sessionId))?.versions !== undefined;
    check(!named || message.includes(`version ${version} is missing`), `${what}: the error does not name the call: ${message}`);
  }
  const whole = await ContextManager.open({ sessionId: 'whole', store: opened, format: 'openai-chat', budget: 2_000 });
  same(whole.version, CALLS, 'the version of the session that lost nothing, opened');
  await whole.close();
}
