/**
 * `@devs/context/tokenizers`: exact token counters for `o200k_base` and `cl100k_base`,
 * equal to the tiktoken npm package's `encode_ordinary` counts (text such as
 * `<|endoftext|>` is ordinary text).
 *
 * A separate entry so that hosts which count approximately never load the vocabularies.
 * Its wasm is inlined like the rules' but decoded and compiled only on the first
 * `createTokenCounter` call, not at import.
 */
import wasmBase64 from '../dist/tokenizers/devs_context_tokenizer_bg.wasm';
import { countWith, initSync, loadEncoding } from '../dist/tokenizers/devs_context_tokenizer.js';
import { decodeBase64 } from './base64.js';
import { argumentError as invalid, fromReport } from './errors.js';

/** The encodings this entry counts exactly. */
export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

/** Same shape as `countTokens`: pass it anywhere a rule takes `countTokens`. */
export type ExactTokenCounter = (text: string) => number;

let loaded = false;

/**
 * A counter for `encoding`: `(text) => number`, exact, deterministic, and usable as
 * `countTokens` by `TokenThresholdMonitor`, `WindowComposer`, `applyContextManagement`
 * and `AgentRunner`. The first call for an encoding builds its tables (about 150 ms);
 * later calls and counters for it are immediate.
 * @throws {RangeError} for an encoding other than 'o200k_base' or 'cl100k_base'.
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
    return countWith(id, text);
  };
  Object.defineProperty(counter, 'name', { value: `count_${encoding}` });
  return counter;
}
