// The strategies the benches compare are the eval's (@devs/context/eval, pkg/src/eval/strategies/):
// one set of peers for bench/cache.mjs, bench/recall.mjs, bench/frameworks.mjs,
// bench/multimodal.mjs and `devs-context eval`. Here they take the benches' arguments
// (`{ budget, system, options, persist }`), the benches' meter and the stand-in summarizer.
import { createRequire } from 'node:module';
import { meter } from './measure.mjs';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const ev = require('@devs/context/eval');

/** The stand-in summary every strategy gets (pkg/src/eval/strategies/summarize.ts). */
export const summarize = ev.standInSummary;
export const { toOpenAI } = ev;
const args = (a) => ({ ...a, meter, summarize });

export const autoCompact = (a) => ev.autoCompact(args(a));
export const aiSdkPrune = (a) => ev.aiSdkPrune(args(a));
export const langchainTrim = (a) => ev.langchainTrim(args(a));
export const langchainContextEditing = (a) => ev.langchainContextEditing(args(a));
export const langchainSummarization = (a) => ev.langchainSummarization(args(a));
export const contextManager = (a) => ev.contextManager(args(a));
export const appendOnly = (a) => ev.appendOnly(args(a));
/** LangChain's stand-in chat model at `budget`, counting with the benches' meter. */
export const langchainStandIn = (budget) => ev.langchainStandIn(budget, meter, summarize);

/** The eval's strategy of each id, by the name the bench tables give it. */
export const byId = (id) => ev.STRATEGIES.find((s) => s.id === id);

export const STRATEGIES = {
  'auto-compact at 83.5%': autoCompact,
  'AI SDK pruneMessages + trim': aiSdkPrune,
  'LangChain trimMessages': langchainTrim,
  ContextManager: contextManager,
  'no bound (reference)': appendOnly,
};
