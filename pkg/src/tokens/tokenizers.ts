/**
 * `@devs/context/tokenizers`: exact token counters for `o200k_base` and `cl100k_base`,
 * equal to the tiktoken npm package's `encode_ordinary` counts (text such as
 * `<|endoftext|>` is ordinary text).
 *
 * A separate entry so that hosts which count approximately never load the vocabularies.
 * Its wasm is inlined like the rules' but decoded and compiled only on the first
 * `createTokenCounter` call, not at import.
 */
import wasmBase64 from '../../dist/tokenizers/devs_context_tokenizer_bg.wasm';
import { countBytesWith, countWith, initSync, loadEncoding } from '../../dist/tokenizers/devs_context_tokenizer.js';
import { decodeBase64 } from '../core/base64.js';
import { argumentError as invalid, fromReport } from '../errors/index.js';
import { JOINS_JSON } from './joins.js';

/** The encodings this entry counts exactly. */
export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

/** Same shape as `countTokens`: pass it anywhere a rule takes `countTokens`. */
export type ExactTokenCounter = (text: string) => number;

let loaded = false;

/**
 * The most a counter takes: 2^27 bytes (128 MiB) of UTF-8. Counting is linear in time and
 * memory on any text, but wasm memory never shrinks, so a call must not grow it far: at the
 * limit it holds the text's bytes, the vocabulary and the long-piece tables, under 200 MiB.
 */
const MAX_TEXT_BYTES = 2 ** 27;

/**
 * Texts of up to this many UTF-16 code units cross into wasm as strings, the fastest way
 * for the short texts that most counts are; wasm-bindgen reserves 3 bytes a unit for a
 * string, at most 24 MiB here. Longer texts are encoded here, at the size they need,
 * which keeps a call's wasm memory near the text's size (wasm-bindgen would reserve
 * 384 MiB for 2^27 units). Whole 4 MB corpora count 7% faster as strings.
 */
const STRING_MAX = 2 ** 23;

const encoder = new TextEncoder();

function tooLong(text: string): RangeError {
  return invalid(RangeError, 'text', `must be at most ${MAX_TEXT_BYTES} bytes (128 MiB) of UTF-8, got ${text.length} UTF-16 code units, which encode to more`);
}

/**
 * A counter for `encoding`: `(text) => number`, exact, deterministic, and usable as
 * `countTokens` by `TokenThresholdMonitor`, `WindowComposer`, `applyContextManagement`
 * and `AgentRunner`. The first call for an encoding builds its tables (about 150 ms);
 * later calls and counters for it are immediate.
 *
 * A counter takes texts of up to 2^27 bytes (128 MiB) of UTF-8, in time and wasm memory
 * linear in the text whatever it holds: 100 MB of one letter repeated, or of text with no
 * whitespace at all, is a single piece for the tokenizer and still counts in seconds
 * (docs/adr/0005-linear-token-counting.md). A longer text throws a `RangeError` (field
 * `text`) before any of it reaches the wasm module, and the counter stays usable.
 * @throws {RangeError} for an encoding other than 'o200k_base' or 'cl100k_base'; from the
 * counter, for a text of more than 2^27 bytes of UTF-8.
 * @example
 * import { TokenThresholdMonitor } from '@devs/context';
 * import { createTokenCounter } from '@devs/context/tokenizers';
 *
 * const countTokens = createTokenCounter('o200k_base');
 * countTokens('hello world'); // 2
 * const monitor = new TokenThresholdMonitor({ countTokens, onThresholdExceeded: () => {} });
 */
export function createTokenCounter(encoding: TokenizerEncoding): ExactTokenCounter {
  if (typeof encoding !== 'string') throw invalid(TypeError, 'encoding', `must be a string, got ${typeof encoding}`);
  if (!loaded) {
    initSync({ module: decodeBase64(wasmBase64) });
    loaded = true;
  }
  const report = loadEncoding(encoding);
  if (!/^\d+$/.test(report)) throw fromReport(report);
  const id = Number(report);
  const counter = (text: string): number => {
    if (typeof text !== 'string') throw invalid(TypeError, 'text', `must be a string, got ${typeof text}`);
    if (text.length <= STRING_MAX) return countWith(id, text);
    // A unit is at least one byte of UTF-8 and at most three.
    if (text.length > MAX_TEXT_BYTES) throw tooLong(text);
    const bytes = new Uint8Array(Math.min(3 * text.length, MAX_TEXT_BYTES + 1));
    const { read, written } = encoder.encodeInto(text, bytes);
    if (read < text.length || written > MAX_TEXT_BYTES) throw tooLong(text);
    return countBytesWith(id, bytes.subarray(0, written));
  };
  Object.defineProperty(counter, 'name', { value: `count_${encoding}` });
  Object.defineProperty(counter, JOINS_JSON, { value: true });
  return counter;
}
