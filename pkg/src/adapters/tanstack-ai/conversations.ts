// One `ContextManager` per conversation, by the chat's `threadId` (every iteration of one
// `chat()` run shares it; pass the same `threadId` to the next run of the conversation, and
// its manager goes on from where it was). A conversation's operations (its builds, the usage
// it records, its recall tool's reads) run one at a time, in call order. At most
// `maxConversations` stay in memory; the least recently used, and idle, is let go.
import { ContextManager } from '@devs/context';
import type { CompactionEvent, ContextManagerOptions, ContextWarning, LedgerRecord } from '@devs/context';
import { type ChatMessage, ChatLists } from './messages.js';
import type { Settings } from './options.js';
import { Queue, Registry } from '../kit/registry.js';

/** One conversation: its manager, the system prompt it was made with, its queue. */
export class Conversation {
  /** The recall tool, as TanStack AI runs it; made once, so the chat's tool list keeps one object. */
  tool: unknown;
  /** The chat's lists as the manager's messages; the last call's are reused, message by message. */
  readonly lists = new ChatLists();
  /** Set once the conversation is let go: its manager is freed. */
  closed = false;
  readonly queue: Queue;

  constructor(readonly manager: ContextManager<ChatMessage>, readonly system: string, after?: Promise<unknown>) {
    this.queue = new Queue(after);
  }

  /** Runs `fn` after every operation queued before it. */
  run<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.queue.run(fn);
  }

  /** Frees the manager (once what was queued before has run, when the registry lets it go). */
  release(): void {
    if (this.closed) return;
    this.closed = true;
    this.manager.free();
  }
}

export class Conversations {
  /** By thread id. */
  readonly #all: Registry<string, Conversation>;

  constructor(readonly settings: Settings, readonly makeTool: (conversation: Conversation) => unknown) {
    this.#all = new Registry(settings.maxConversations);
  }

  get(threadId: string): Conversation | undefined {
    return this.#all.get(threadId);
  }

  /** The thread's conversation, with `system` as its system prompt: one with another system prompt is let go and made anew, with a warning. */
  open(threadId: string, system: string): Conversation {
    const s = this.settings;
    const found = this.#all.get(threadId);
    if (found && found.system !== system) {
      void this.#all.delete(threadId);
      s.onWarning?.({ request: 1, code: 'history-rebuilt', message: 'the system prompts changed, so the conversation is taken in anew' }, threadId);
    }
    return this.#all.use(threadId, (after) => {
      const options: ContextManagerOptions = {
        ...s.manager,
        system: system === '' ? undefined : system,
        onLedger: s.onLedger && ((r: LedgerRecord) => s.onLedger!(r, threadId)),
        onWarning: s.onWarning && ((w: ContextWarning) => s.onWarning!(w, threadId)),
        onCompaction: s.onCompaction && ((e: CompactionEvent) => s.onCompaction!(e, threadId)),
        beforeCompaction: s.beforeCompaction && ((n) => s.beforeCompaction!(n, threadId)),
      };
      const made = new Conversation(new ContextManager<ChatMessage>(options), system, after);
      made.tool = s.recall ? this.makeTool(made) : undefined;
      return made;
    });
  }

  /** Lets every conversation go, once its operations have ended. */
  close(): Promise<void> {
    return this.#all.close();
  }
}
