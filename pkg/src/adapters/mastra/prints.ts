// A prompt message's print, as the AI SDK adapter makes it, less what Mastra stamps on
// messages and parts: `providerOptions.mastra` (`createdAt`), which no provider reads, and
// which a message sent again in a later run gets anew. Without this, a history sent again
// would share nothing with the conversation it continues.
import { print } from '../ai-sdk/conversations.js';

type Bag = Record<string, unknown>;

const isBag = (v: unknown): v is Bag => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `value` without `providerOptions.mastra`, on itself and its parts; the same object when it has none. */
function unstamped(value: unknown): unknown {
  if (!isBag(value)) return value;
  let out = value;
  const options = value.providerOptions;
  if (isBag(options) && 'mastra' in options) {
    const { mastra: _, ...rest } = options;
    out = { ...value, providerOptions: Object.keys(rest).length ? rest : undefined };
  }
  const content = value.content;
  if (Array.isArray(content)) {
    const parts = content.map(unstamped);
    if (parts.some((p, i) => p !== content[i])) out = { ...out, content: parts };
  }
  return out;
}

/** The print the conversations compare a prompt message by. */
export function printOf(message: unknown): string {
  return print(unstamped(message));
}
