// A thread's context kept in a store (`options.store`): a `ContextSession` per thread, so a
// thread resumed after a restart goes on from its last written call. A session takes its
// messages by `append`, so what `ContextManager.sync` does in memory is done here: only
// what is new since the last call is appended, and a list that no longer begins with what
// the session holds (another middleware rewrote the state, or the system prompt or budget
// changed) is taken in by a new session of the thread, with a `history-rebuilt` warning.
// The session the thread goes on with is its latest: `thread_id`, then `thread_id` + "\x1f2",
// "\x1f3", … (a separator no thread id holds, so two threads never share a session).
import { ContextManager } from '@devs/context';
import type { ContextSession, SessionStore } from '@devs/context';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatMessageParam } from './messages.js';
import { sameMessage } from '../kit/messages.js';

/** A thread's session and what it holds: the messages taken in, in order. */
export interface HeldSession {
  session: ContextSession<ChatMessageParam>;
  generation: number;
  system: string | undefined;
  /** Each message held, as last compared (`null`: released, or changed by the manager, so not compared). */
  messages: Array<unknown | null>;
  /** The agent's message each was last compared with: the same object is not compared again. */
  objects: Array<BaseMessage | undefined>;
}

/** The session id of a thread's `generation`-th session. */
export const sessionIdOf = (threadId: string, generation: number) => (generation === 1 ? threadId : `${threadId}\u001f${generation}`);

/** Whether the store holds session `id` (asked for no rows: only whether it is there). */
async function exists(store: SessionStore, id: string): Promise<boolean> {
  return (await store.loadSession(id, Number.MAX_SAFE_INTEGER)) !== undefined;
}

/** A session opened with options that differ from those it was made with (budget, shares, system prompt). */
const madeOtherwise = (error: unknown) => error instanceof TypeError && ['options', 'options.format'].includes((error as { field?: unknown }).field as string);

export interface OpenOptions {
  threadId: string;
  store: SessionStore;
  system: string | undefined;
  /** `ContextManager`'s options, `onWarning` and `onLedger` bound to the thread. */
  manager: Record<string, unknown>;
  /** Says that the thread's list was taken in anew, and why. */
  rebuilt: (why: string) => void;
}

/**
 * The thread's session that holds the start of `chat` (the agent's `list` as OpenAI
 * messages), with the rest appended: its latest session if it does, else a new one.
 * `from`: the generation to start looking at (after one that did not hold it).
 */
export async function openSession(o: OpenOptions, chat: readonly ChatMessageParam[], list: readonly BaseMessage[], from = 0): Promise<HeldSession> {
  let generation = from;
  if (generation === 0) {
    generation = 1;
    while (await exists(o.store, sessionIdOf(o.threadId, generation + 1))) generation++;
  }
  for (;; generation++) {
    let session: ContextSession<ChatMessageParam>;
    try {
      session = await ContextManager.open<ChatMessageParam>({ ...o.manager, system: o.system, sessionId: sessionIdOf(o.threadId, generation), store: o.store } as unknown as Parameters<typeof ContextManager.open>[0]);
    } catch (error) {
      if (!madeOtherwise(error)) throw error;
      o.rebuilt(`session ${JSON.stringify(sessionIdOf(o.threadId, generation))} was made with other options (the system prompt, the budget or the shares changed), so the thread is taken in anew`);
      continue;
    }
    // A run of released messages is their count.
    const kept = session.snapshot().messages.flatMap((m) => (typeof m === 'number' ? new Array<null>(m).fill(null) : [m]));
    const held: HeldSession = {
      session, generation, system: o.system,
      // A message released behind a summary, or whose masked output was baked into it, is no longer the one taken in: not compared.
      messages: kept.map((m) => (m === null || m.baked?.length ? null : m.source)),
      objects: kept.map(() => undefined),
    };
    if (await takeIn(held, chat, list)) return held;
    await session.close();
    o.rebuilt(`the thread's messages no longer begin with those session ${JSON.stringify(sessionIdOf(o.threadId, generation))} holds (the state was rewritten), so the thread is taken in anew`);
  }
}

/**
 * Appends what `chat` has past what the session holds, if `chat` begins with it; false,
 * with nothing appended, if it does not.
 */
export async function takeIn(held: HeldSession, chat: readonly ChatMessageParam[], list: readonly BaseMessage[]): Promise<boolean> {
  const count = held.messages.length;
  if (chat.length < count) return false;
  for (let i = 0; i < count; i++) {
    if (list[i] === held.objects[i]) continue;
    const was = held.messages[i];
    if (was !== null && !sameMessage(chat[i], was)) return false;
    held.objects[i] = list[i];
  }
  const fresh = chat.slice(count);
  if (fresh.length === 0) return true;
  await held.session.append(fresh);
  held.messages.push(...fresh);
  held.objects.push(...list.slice(count));
  return true;
}
