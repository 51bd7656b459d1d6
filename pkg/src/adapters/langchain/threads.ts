// One context per thread: a `ContextManager` in memory, or a `ContextSession` in the store
// (`sessions.ts`). A thread's calls (its model calls and its recall tool's) run one at a
// time, in call order: a manager's build and the usage it records belong together. At most
// `maxThreads` threads stay in memory; the one used least recently, and idle, is let go,
// and taken in anew (or reopened from the store) if it comes back.
import { ContextManager } from '@devs/context';
import type { ContextBuild, ContextSession, RecallOptions } from '@devs/context';
import type { BaseMessage } from '@langchain/core/messages';
import type { ChatMessageParam } from './messages.js';
import type { Settings } from './options.js';
import { type HeldSession, openSession, takeIn } from './sessions.js';
import { Queue, Registry } from '../kit/registry.js';

/** What a thread's calls need of its context, whether in memory or in a store. */
export interface ThreadContext {
  build(): Promise<ContextBuild<ChatMessageParam>>;
  recordUsage(usage: unknown): Promise<void> | void;
  recall(id: string, options?: RecallOptions): Promise<string>;
}

type Held = { kind: 'memory'; manager: ContextManager<ChatMessageParam>; system: string | undefined } | ({ kind: 'session' } & HeldSession);

class Thread {
  readonly queue: Queue;
  held: Held | null = null;

  constructor(after?: Promise<unknown>) {
    this.queue = new Queue(after);
  }

  get context(): ContextManager<ChatMessageParam> | ContextSession<ChatMessageParam> | undefined {
    return this.held?.kind === 'memory' ? this.held.manager : this.held?.session;
  }

  /** Lets the context go: frees the manager, or closes the session (it stays in the store). */
  async release(): Promise<void> {
    const held = this.held;
    this.held = null;
    if (held?.kind === 'memory') held.manager.free();
    else if (held) await held.session.close();
  }
}

export class Threads {
  readonly #settings: Settings;
  /** By thread id: at most `maxThreads`, the least recently used idle one let go. */
  readonly #threads: Registry<string, Thread>;

  constructor(settings: Settings) {
    this.#settings = settings;
    this.#threads = new Registry(settings.maxThreads);
  }

  /** The thread's manager or session, if it is in memory. */
  context(threadId: string): ContextManager<ChatMessageParam> | ContextSession<ChatMessageParam> | undefined {
    return this.#threads.get(threadId)?.context;
  }

  /**
   * Runs `body` with the thread's context, after the thread's calls before it, once the
   * context holds `list` (`chat`, as OpenAI messages) with `system`.
   */
  withList<T>(threadId: string, system: string | undefined, list: readonly BaseMessage[], chat: readonly ChatMessageParam[], body: (context: ThreadContext) => Promise<T>): Promise<T> {
    const thread = this.#threads.use(threadId, (after) => new Thread(after));
    return thread.queue.run(async () => body(await this.#takeIn(thread, threadId, system, list, chat)));
  }

  /** Runs `body` with the thread's context as it is, after the thread's calls before it; `undefined` if it has none in memory. */
  withContext<T>(threadId: string, body: (context: ThreadContext) => Promise<T>): Promise<T | undefined> {
    const thread = this.#threads.get(threadId);
    if (!thread) return Promise.resolve(undefined);
    return thread.queue.run(async () => {
      const held = thread.held;
      return held ? body(held.kind === 'memory' ? held.manager : held.session) : undefined;
    });
  }

  /** Lets every thread go, once its calls have ended. */
  close(): Promise<void> {
    return this.#threads.close();
  }

  /** The thread's context, holding `list`: what is new taken in, or the list taken in anew. */
  async #takeIn(thread: Thread, threadId: string, system: string | undefined, list: readonly BaseMessage[], chat: readonly ChatMessageParam[]): Promise<ThreadContext> {
    const s = this.#settings;
    const manager = {
      ...s.manager,
      // Summaries by a chat model are written with this thread's model call in flight.
      ...(s.summarize ? { summarizer: (prompt: string, request?: { messages: unknown[] }) => s.summarize!(threadId, prompt, request) } : {}),
      onWarning: s.onWarning && ((w: Parameters<NonNullable<Settings['onWarning']>>[0]) => s.onWarning!(w, threadId)),
      onLedger: s.onLedger && ((r: Parameters<NonNullable<Settings['onLedger']>>[0]) => s.onLedger!(r, threadId)),
      onCompaction: s.onCompaction && ((e: Parameters<NonNullable<Settings['onCompaction']>>[0]) => s.onCompaction!(e, threadId)),
      beforeCompaction: s.beforeCompaction && ((n: Parameters<NonNullable<Settings['beforeCompaction']>>[0]) => s.beforeCompaction!(n, threadId)),
    };
    const rebuilt = (why: string, request: number) => s.onWarning?.({ request, code: 'history-rebuilt', message: why }, threadId);
    let held = thread.held;
    if (s.store) {
      if (held?.kind === 'session' && held.system === system && (await takeIn(held, chat, list))) return held.session;
      const from = held?.kind === 'session' ? held.generation + 1 : 0;
      const why = held && held.system !== system ? 'the system prompt changed, so the thread is taken in anew' : "the thread's messages no longer begin with those its session holds (the state was rewritten), so the thread is taken in anew";
      const had = held !== null;
      await thread.release();
      if (had) rebuilt(why, 1);
      const opened = await openSession({ threadId, store: s.store, system, manager, rebuilt: (w) => rebuilt(w, 1) }, chat, list, from);
      thread.held = { kind: 'session', ...opened };
      return opened.session;
    }
    if (held?.kind === 'memory' && held.system !== system) {
      await thread.release();
      rebuilt('the system prompt changed, so the thread is taken in anew', 1);
      held = null;
    }
    if (!held || held.kind !== 'memory') {
      const made = new ContextManager<ChatMessageParam>({ ...manager, system } as unknown as ConstructorParameters<typeof ContextManager>[0]);
      held = { kind: 'memory', manager: made, system };
      thread.held = held;
    }
    // What is new is appended; a list another middleware rewrote is taken in anew, with a `history-rebuilt` warning.
    held.manager.sync(chat);
    return held.manager;
  }
}
