// The provider shapes a `ContextManager` speaks, by `options.format`.
import type { Bag } from '../core/read.js';
import type { ContextFormat } from '../core/types.js';
import { aiSdk } from './ai-sdk/index.js';
import { anthropic } from './anthropic/index.js';
import { gemini } from './gemini/index.js';
import type { Adapter } from './neutral.js';
import { openaiChat } from './openai-chat/index.js';
import { openaiResponses } from './openai-responses/index.js';
import { vscodeAdapter } from './vscode/index.js';

/**
 * Each format's adapter, made from the manager's options (the `vscode` one needs the host's
 * module): the one list of the formats, checked against `ContextFormat` (a format missing
 * here, or one more, does not compile).
 */
export const ADAPTERS: Record<ContextFormat, (options: Bag) => Adapter> = {
  anthropic: () => anthropic,
  'openai-chat': () => openaiChat,
  'openai-responses': () => openaiResponses,
  gemini: () => gemini,
  'ai-sdk': () => aiSdk,
  vscode: (options) => vscodeAdapter(options.vscode),
};

/** The formats, as `options.format` names them, in order. */
export const FORMATS = Object.freeze(Object.keys(ADAPTERS) as ContextFormat[]);
