// A model's stream with the recall tool answered inside it. Chunks pass on as they come,
// with three exceptions:
// - the recall tool's chunks (`tool-input-*` of its id, its `tool-call`) are left out: the
//   SDK would fail on a tool the host does not have;
// - the other tools' `tool-call` chunks are held until the response's `finish`: the SDK
//   runs a tool as soon as its call arrives, and a response that also calls `recall` is
//   answered by a second response, in which the model calls them again. Their
//   `tool-input-*` chunks, and all text and reasoning, stream as they come;
// - a response that called `recall` does not finish: its `finish` is held, the calls are
//   answered, and the model's next response follows in the same stream, whose `finish`
//   carries both responses' usage.
// Nothing else is buffered: a response with no recall call costs the held tool calls only.

type Chunk = Record<string, unknown> & { type: string };

/** What the stream asks of the middleware. */
export interface StreamHooks {
  /** The recall tool's name; `undefined` when the model has no recall tool, and nothing is held. */
  recall: string | undefined;
  /** Records a response's usage with the conversation's manager. */
  usage(usage: unknown): Promise<void>;
  /** Answers the response's recall calls: the next response's stream, or `undefined` to finish with this one. */
  answer(content: unknown[], calls: Chunk[]): Promise<ReadableStream<unknown> | undefined>;
  /** Two responses' usage as one. */
  sum(a: unknown, b: unknown): unknown;
}

/** One response's texts and reasoning, in order, as the assistant message of a recall turn needs them. */
class Said {
  readonly parts: Array<{ type: string; text: string; providerMetadata?: unknown }> = [];
  readonly #open = new Map<string, { type: string; text: string; providerMetadata?: unknown }>();

  take(chunk: Chunk): void {
    const kind = chunk.type.startsWith('text-') ? 'text' : chunk.type.startsWith('reasoning-') ? 'reasoning' : undefined;
    if (!kind) return;
    const key = `${kind}:${String(chunk.id)}`;
    let part = this.#open.get(key);
    if (!part) {
      part = { type: kind, text: '' };
      this.#open.set(key, part);
      this.parts.push(part);
    }
    if (typeof chunk.delta === 'string') part.text += chunk.delta;
    // The SDK keeps the last metadata a part's chunks carry (a reasoning signature comes last).
    if (chunk.providerMetadata !== undefined) part.providerMetadata = chunk.providerMetadata;
    if (chunk.type.endsWith('-end')) this.#open.delete(key);
  }
}

/** `first`, with the recall tool's calls answered in between, as one stream. */
export function recallStream(first: ReadableStream<unknown>, hooks: StreamHooks): ReadableStream<unknown> {
  let reader = first.getReader();
  let said = new Said();
  let held: Chunk[] = [];
  let calls: Chunk[] = [];
  let recallInputs = new Set<unknown>();
  let usage: unknown;
  let continued = false;

  /** Puts in `out` what `chunk` passes on; at a `finish` with recall calls, goes on with the next response. */
  async function take(chunk: Chunk, out: Chunk[]): Promise<void> {
    switch (chunk.type) {
      case 'tool-input-start':
        if (hooks.recall !== undefined && chunk.toolName === hooks.recall && chunk.providerExecuted !== true) recallInputs.add(chunk.id);
        else out.push(chunk);
        return;
      case 'tool-input-delta':
      case 'tool-input-end':
        if (!recallInputs.has(chunk.id)) out.push(chunk);
        return;
      case 'tool-call':
        if (chunk.providerExecuted === true || hooks.recall === undefined) out.push(chunk);
        else if (chunk.toolName === hooks.recall) calls.push(chunk);
        else held.push(chunk);
        return;
      case 'stream-start':
        // The next response's start would reset the warnings the first one gave.
        if (!continued) out.push(chunk);
        return;
      case 'finish': {
        await hooks.usage(chunk.usage);
        usage = usage === undefined ? chunk.usage : hooks.sum(usage, chunk.usage);
        if (calls.length) {
          const next = await hooks.answer(said.parts, calls);
          if (next) {
            // The held calls go: the model calls them again, after reading what it asked for.
            void reader.cancel().catch(() => undefined);
            reader = next.getReader();
            said = new Said();
            held = [];
            calls = [];
            recallInputs = new Set();
            continued = true;
            return;
          }
        }
        out.push(...held, { ...chunk, usage });
        held = [];
        return;
      }
      default:
        said.take(chunk);
        out.push(chunk);
    }
  }

  return new ReadableStream<unknown>({
    async pull(controller) {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            // A stream that ends without `finish` (the provider broke off): what it called still goes on.
            for (const c of held) controller.enqueue(c);
            held = [];
            controller.close();
            return;
          }
          const out: Chunk[] = [];
          await take(value as Chunk, out);
          for (const c of out) controller.enqueue(c);
          if (out.length) return;
        }
      } catch (error) {
        // The SDK's way to report a failure inside a stream; the stream then ends.
        controller.enqueue({ type: 'error', error });
        controller.close();
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
