// The 100-step tool loop every framework adapter's test runs (adapter-ai-sdk, adapter-mastra,
// adapter-tanstack-ai), in terms of no framework: the agent's script (read a module a step,
// and once a compaction has stored an output, recall it), its tool's outputs, the exact
// o200k measure of a prompt, and the checks on the prompts the model was sent and on the
// manager's ledger. Each test maps the script onto its framework's messages and calls.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createTokenCounter } = require('@devs/context/tokenizers');
const o200k = createTokenCounter('o200k_base');

// ---- Measuring a prompt.

const counted = new Map();
/** A text's exact o200k tokens, each text counted once. */
export function tokens(text) {
  if (!counted.has(text)) counted.set(text, o200k(text));
  return counted.get(text);
}
/**
 * The measure of a prompt that `chunks` cuts into the texts a provider reads, a message a
 * chunk: `measure(prompt, previous)` is `{ tokens, prefix, extends }`, the prompt's tokens,
 * those of the whole messages it begins with that `previous` began with too, and whether it
 * begins with all of `previous`.
 */
export function measureBy(chunks) {
  return (prompt, previous) => {
    const now = chunks(prompt);
    const before = previous ? chunks(previous) : [];
    let prefix = 0;
    for (let i = 0; i < now.length && now[i] === before[i]; i++) prefix += tokens(now[i]);
    return { tokens: now.reduce((n, c) => n + tokens(c), 0), prefix, extends: before.length > 0 && before.every((c, i) => c === now[i]) };
  };
}

// ---- The agent's side.

export const TOOL_SPACE = 60; // the tokens the tool definitions add to the count the mock reports
/** A tool output of about `size` characters, different for every call: 20 KB is 6,800 o200k tokens. */
export function output(path, size) {
  const lines = [];
  for (let i = 0, length = 0; length < size; i++) {
    const line = `${path}:${i + 1}: export const value_${i} = compute(${(i * 7919) % 1009}, '${((i + 1) * 2654435761 % 2 ** 32).toString(16)}');`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n');
}

/**
 * A loop of `steps` steps at `budget` tokens: what the test keeps (`records`, the manager's
 * ledger; `warnings`; `executed`, the reads run), the adapter's `options` that keep them
 * (exact o200k), and the agent's script: `next(text, at)` says what it answers to the `at`th
 * prompt, whose text is `text`. A read of `src/module<n>.ts` (`{ read: { id, path } }`) a
 * step, `{ done }` at the last; and once, after a compaction has stored an output the prompt
 * names, `{ recall, text }`: the id to read back, and what the model says with it. `recall`
 * is then `{ id, at }`, the id the model asked for and the index of its prompt.
 */
export function toolLoop({ steps = 100, budget = 20_000 } = {}) {
  let done = 0;
  const loop = {
    steps,
    budget,
    records: [],
    warnings: [],
    executed: [],
    // The scripted model answers the loop's steps: summaries by the model itself, the adapters' default, are tested on their own.
    options: { budget, countTokens: o200k, summarizer: false, onLedger: (r) => loop.records.push(r), onWarning: (w) => loop.warnings.push(w) },
    recall: undefined,
    next(text, at) {
      const stored = /stored as ([\w-]+)/.exec(text);
      if (!loop.recall && done >= 10 && stored && loop.records.some((r) => r.compaction)) {
        loop.recall = { id: stored[1], at };
        return { recall: stored[1], text: 'I need the output I read earlier.' };
      }
      done++;
      if (done === steps) return { done: `Done after ${steps} steps.` };
      return { read: { id: `call-${done}`, path: `src/module${done}.ts` } };
    },
  };
  return loop;
}

// ---- The checks.

/**
 * The loop's prompts (`prompts`, as `measure` and `problems` read the framework's shape)
 * against the manager's ledger (`records`, one a build): every prompt within `budget` and
 * valid; one build per model call; consecutive prompts extend each other but where the
 * manager compacted; at least `compactions` compactions; a cache share of at least `share`;
 * the cache reads the model reported (`reads`, a call each) in the ledger, and the
 * calibration learned from them. Returns the figures, for the test's diagnostic.
 */
export function assertCacheStableLoop({ prompts, records, reads, measure, problems, budget, compactions: least, share: atLeast }) {
  const sizes = prompts.map((p, i) => ({ ...measure(p, prompts[i - 1]), problems: problems(p) }));
  const largest = Math.max(...sizes.map((s) => s.tokens));
  assert.ok(largest <= budget, `largest prompt ${largest} > ${budget}`);
  sizes.forEach((s, i) => assert.deepEqual(s.problems, [], `prompt ${i}`));
  // Consecutive prompts extend each other, except where the manager compacted.
  assert.equal(records.length, prompts.length, 'one build per model call');
  const compactions = records.filter((r) => r.compaction).length;
  sizes.forEach((s, i) => {
    if (i > 0 && !records[i].compaction) assert.ok(s.extends, `prompt ${i} does not extend prompt ${i - 1}, and no compaction ran`);
  });
  assert.ok(compactions >= least, `${compactions} compactions`);
  const share = sizes.slice(1).reduce((n, s) => n + s.prefix, 0) / sizes.slice(1).reduce((n, s) => n + s.tokens, 0);
  assert.ok(share >= atLeast, `cache share ${share.toFixed(3)} < ${atLeast}`);
  // The usage the model reported reached the manager, call by call.
  records.forEach((r, i) => assert.equal(r.cache.observedRead, reads[i], `record ${r.request}`));
  assert.ok(records.at(-1).calibration.samples > 0, 'the calibration learned from the reported usage');
  return { largest, compactions, share };
}

// ---- Timing the adapter.

/** `object` with its method `name` timed: each call's milliseconds pushed to `ms`. */
export function timed(object, name, ms) {
  return {
    ...object,
    [name]: async (...args) => {
      const start = performance.now();
      try {
        return await object[name](...args);
      } finally {
        ms.push(performance.now() - start);
      }
    },
  };
}
/** `median … ms, p95 … ms` of `ms` (sorted in place). */
export function timing(ms) {
  ms.sort((a, b) => a - b);
  return `median ${ms[ms.length >> 1].toFixed(2)} ms, p95 ${ms[Math.floor(ms.length * 0.95)].toFixed(2)} ms`;
}
