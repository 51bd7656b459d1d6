// The benches' meter is the eval's (@devs/context/eval, pkg/src/eval/measure.ts), over the
// exact o200k counter: one meter for bench/cache.mjs, bench/recall.mjs,
// bench/frameworks.mjs and `devs-context eval`. See pkg/src/eval/measure.ts for how a request is measured.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../pkg/package.json', import.meta.url));
const ev = require('@devs/context/eval');
export const o200k = require('@devs/context/tokenizers').createTokenCounter('o200k_base');

/** The one meter of a bench run: its memo holds each distinct text's count. */
export const meter = ev.createMeter(o200k);
/** A text's o200k tokens, each distinct text counted once per run. */
export const tokens = meter.count;
/** `{ tokens, prefix }`: the request's tokens, and those it shares with `previous` (its chunks). */
export const measure = meter.measure;
export const { cacheShare, chunks, cost, percentiles, spend, sum } = ev;
