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

/** What a thread's calls need of its context, whether in memory or in a store. */
export interface ThreadContext {
  build(): Promise<ContextBuild<ChatMessageParam>>;
  recordUsage(usage: unknown): Promise<void> | void;
  recall(id: string, options?: RecallOptions): Promise<string>;
}

type Held = { kind: 'memory'; manager: ContextManager<ChatMessageParam>; system: string | undefined } | ({ kind: 'session' } & HeldSession);

/** Runs each call after the one before it; `after`: what must end before the first (the release of the thread's previous holder). */
class Queue {
  #tail: Promise<unknown>;
  busy = 0;

  constructor(after: Promise<unknown> = Promise.resolve()) {
    this.#tail = after;
  }

  run<T>(body: () => Promise<T>): Promise<T> {
    this.busy++;
    const run = this.#tail.then(body).finally(() => this.busy--);
    this.#tail = run.catch(() => undefined);
    return run;
  }
}

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
  /** By thread id, least recently used first. */
  readonly #threads = new Map<string, Thread>();
  /** Threads let go whose release has not ended: a thread that comes back waits for it. */
  readonly #releasing = new Map<string, Promise<unknown>>();

  constructor(settings: Settings) {
    this.#settings = settings;
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
    const thread = this.#thread(threadId);
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
  async close(): Promise<void> {
    const threads = [...this.#threads.values()];
    this.#threads.clear();
    await Promise.all([...threads.map((t) => t.queue.run(() => t.release())), ...this.#releasing.values()]);
  }

  #thread(threadId: string): Thread {
    let thread = this.#threads.get(threadId);
    if (thread) {
      // Most recently used: last.
      this.#threads.delete(threadId);
      this.#threads.set(threadId, thread);
      return thread;
    }
    thread = new Thread(this.#releasing.get(threadId));
    this.#threads.set(threadId, thread);
    this.#evict();
    return thread;
  }

  /** Lets the least recently used idle threads go while there are more than `maxThreads`. */
  #evict(): void {
    for (const [id, thread] of this.#threads) {
      if (this.#threads.size <= this.#settings.maxThreads) return;
      if (thread.queue.busy > 0) continue;
      this.#threads.delete(id);
      const released = thread.queue.run(() => thread.release()).catch(() => undefined).finally(() => {
        if (this.#releasing.get(id) === released) this.#releasing.delete(id);
      });
      this.#releasing.set(id, released);
    }
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
