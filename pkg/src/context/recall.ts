// The recall tool: the agent reads back, by the id the request names, a text stored whole
// (`devs_context_rules::context::recall`). The rules say what the tool is, which ids may be
// read (only the manager's own), how a text is paged or searched, and when the same page
// is answered with a note; this reads the store, and speaks each provider's tool shape
// through its adapter (`providers/`). Whatever the model asks, it gets a tool result it
// can read: a bad input, an unknown id or a failed store is said in the result, never
// thrown at the host.
import type { Engine } from './engine.js';
import { argumentError, errorText } from '../errors/index.js';
import { frameText } from '../core/frame.js';
import type { Adapter, MediaRef, ToolCall } from '../providers/neutral.js';
import { mediaPart, storedRef } from '../providers/media.js';
import { recallSpec } from './recall-spec.js';
import { callMethod, isObject, object, optionalNumber, optionalString, type Bag } from '../core/read.js';
import { within } from '../core/timeout.js';
import { rules } from '../core/wasm.js';
import { RecallCheck, Refusal } from '../core/protocol.js';

import type { RecallOptions } from './types.js';


/** The recall tool in `adapter`'s provider shape. */
export function recallTool(adapter: Adapter): unknown {
  return adapter.tool!(recallSpec());
}

// The model's own input is echoed only so far (`recall::MAX_ECHO`): the rules cut it.
const refusal = (why: Refusal, id: string, detail = '') => frameText(rules.recallRefusal(why, id.length, detail.length), [id, detail]);

/** A recall's answer: its text, and the image or document it gives back whole, where the stored text is one. */
export interface Recalled {
  text: string;
  media?: MediaRef;
}

/** What the host asked for, checked: a RangeError or TypeError naming the field. */
export function readOptions(value: unknown, field: string): RecallOptions {
  if (value === undefined) return {};
  const o = object(field, value);
  const whole = (key: 'offset' | 'length', least: number) => {
    const v = optionalNumber(`${field}.${key}`, o[key]);
    if (v !== undefined && !(Number.isInteger(v) && v >= least)) throw argumentError(RangeError, `${field}.${key}`, `must be a whole number >= ${least}, got ${v}`);
    return v;
  };
  return { offset: whole('offset', 0), length: whole('length', 1), query: optionalString(`${field}.query`, o.query) };
}

/** The model's input, or what to tell it is wrong with it. */
function askOf(input: unknown): { id: string; ask: RecallOptions } | string {
  if (!isObject(input)) return input === undefined ? 'its arguments are not JSON' : 'it must be an object';
  const id = typeof input.id === 'number' ? String(input.id) : input.id;
  if (typeof id !== 'string' || id === '') return 'id must be a string, the store id';
  const ask: RecallOptions = {};
  for (const key of ['offset', 'length'] as const) {
    const v = input[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < (key === 'length' ? 1 : 0)) return `${key} must be a whole number${key === 'length' ? ' >= 1' : ' >= 0'}`;
    ask[key] = v;
  }
  if (input.query !== undefined && input.query !== null) {
    if (typeof input.query !== 'string') return 'query must be a string';
    ask.query = input.query;
  }
  return { id, ask };
}

/**
 * The text stored as `id`, as the agent reads it back: a page, or the lines holding the
 * query, or a note saying why not. `callId`: the call that asked, so the same page asked
 * again while its answer is in the request gets a note instead.
 */
export async function recallText(engine: Engine, id: string, ask: RecallOptions, callId?: string): Promise<string> {
  return (await recalled(engine, id, ask, callId)).text;
}

/** What a recall of `id` gives back: a page of a text, or an image or a document whole (with its heading). */
async function recalled(engine: Engine, id: string, ask: RecallOptions, callId?: string, carried = true, tool?: string): Promise<Recalled> {
  const core = engine.core;
  const offset = ask.offset ?? NaN;
  const length = ask.length ?? NaN;
  const query = ask.query ?? '';
  const [code, n] = core.recall_check(id, offset, length, query);
  if (code === RecallCheck.Unknown) return { text: refusal(Refusal.Unknown, id) };
  if (code === RecallCheck.Repeat) return { text: refusal(Refusal.Repeat, id) };
  const store = engine.store;
  if (typeof store.getRawToolOutput !== 'function') return { text: refusal(Refusal.Unreadable, id) };
  let row: unknown;
  try {
    row = await within(engine.callbackTimeoutMs, Promise.resolve(callMethod(store, 'getRawToolOutput', 'store.getRawToolOutput', [id])), 'store.getRawToolOutput');
  } catch (error) {
    return { text: refusal(Refusal.Failed, id, errorText(error)) };
  }
  const found = row as Bag | undefined;
  if (!isObject(found) || typeof found.rawContent !== 'string') return { text: refusal(Refusal.Missing, id) };
  // An image or a document comes back as itself, not as its base64 text.
  const at = rules.storedMedia(found.rawContent.slice(0, 256));
  // The call that asked, found after the store's answer: an id-less call is the first not yet told.
  const call = callId === undefined ? undefined : engine.callOf(callId, tool);
  if (at.length) return recalledMedia(engine, id, storedRef(found.rawContent, Array.from(at)), call, ask, carried);
  const label = typeof found.toolName === 'string' ? found.toolName : 'text';
  let text = '';
  // Dense text (digests, CJK) holds more tokens per character than a page assumes: counted
  // with the host's counter, a page over its share is asked for again, smaller.
  for (let units = n, tries = 0; units > 0 && tries < 6; tries++) {
    text = frameText(rules.recallAnswer(found.rawContent, offset, length, query, units), [found.rawContent, id, label]);
    units = core.recall_fit(units, engine.count(text, 'recall'));
  }
  if (call !== undefined) core.recalled(call, id, offset, length, query);
  return { text };
}

/** A stored image or document, given back whole with its heading when it fits an answer's share of the budget. */
function recalledMedia(engine: Engine, id: string, ref: MediaRef, call: number | undefined, ask: RecallOptions, carried = true): Recalled {
  const part = mediaPart(ref, 'recall');
  engine.measure(part);
  const m = part.measured!;
  const core = engine.core;
  const heading = core.recall_media(part.tokens ?? 0, ref.kind === 'image', m.width, m.height, m.pages, carried);
  if (heading === undefined) {
    return { text: refusal(Refusal.TooLarge, id, `${ref.kind === 'image' ? 'an image' : 'a document'} of ${Math.ceil(part.tokens ?? 0)} tokens`) };
  }
  const text = frameText(heading, [id, ref.mediaType]);
  if (call !== undefined) core.recalled(call, id, ask.offset ?? NaN, ask.length ?? NaN, ask.query ?? '');
  return { text, media: ref };
}

/**
 * The answer to the model's call of the recall tool (`call` as its provider's response
 * holds it), as the message to append. A call of another tool is a TypeError naming it.
 */
export async function recallAnswer(engine: Engine, adapter: Adapter, call: unknown): Promise<unknown> {
  const c: ToolCall = adapter.toolCall!(call, 'call');
  const name = recallSpec().name;
  if (c.name !== name) throw argumentError(TypeError, 'call', `calls ${JSON.stringify(c.name)}, not the ${name} tool: answer it with your own tool`);
  const ask = askOf(c.input);
  const answer = typeof ask === 'string' ? { text: refusal(Refusal.BadInput, '', ask) } : await recalled(engine, ask.id, ask.ask, c.id, adapter.carriesMedia !== false, c.name);
  return adapter.toolResult!(c, answer.text, answer.media);
}
