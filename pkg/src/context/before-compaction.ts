// `beforeCompaction`: the host is told of a compaction a build is about to run, and may
// add to the summary's instruction for it, or defer it while the request still fits. The
// deferral is an event of the build's journal, so a session replayed decides the same.
import { argumentError } from '../errors/index.js';
import { within } from '../core/timeout.js';
import { isObject } from '../core/read.js';
import { rules } from '../core/wasm.js';
import type { Engine } from './engine.js';
import { give, statusOf } from './history.js';
import type { CompactionNotice, CompactionSteer } from './types.js';

const FIELD = 'beforeCompaction()';

/** Asks the host's hook when the build would compact; its instructions, once the deferral is told to the rules. */
export async function askBeforeCompaction(engine: Engine, hook: (notice: CompactionNotice) => unknown, timeoutMs: number | undefined): Promise<string | undefined> {
  const trigger = engine.core.compaction_due();
  if (trigger === '') return undefined;
  const notice: CompactionNotice = {
    request: engine.requestCount + 1,
    trigger: trigger as CompactionNotice['trigger'],
    tokens: Math.ceil(statusOf(engine.core.status()).tokens),
    budget: engine.budget,
  };
  const answer = await within(timeoutMs, hook(notice), 'options.beforeCompaction', 'callbackTimeoutMs');
  const steer = read(answer);
  if (steer.defer) give(engine.core, { kind: 'Defer' });
  return steer.instructions;
}

/** The hook's answer: nothing, or `{ instructions?, defer? }`. */
function read(answer: unknown): CompactionSteer {
  if (answer === undefined || answer === null) return {};
  if (!isObject(answer)) throw argumentError(TypeError, FIELD, `must return nothing or { instructions?, defer? }, got ${typeof answer}`);
  const { instructions, defer } = answer as Record<string, unknown>;
  if (instructions !== undefined && (typeof instructions !== 'string' || rules.isBlank(instructions))) {
    throw argumentError(TypeError, `${FIELD}.instructions`, 'must be a non-empty text, or left out');
  }
  if (defer !== undefined && typeof defer !== 'boolean') throw argumentError(TypeError, `${FIELD}.defer`, `must be a boolean, got ${typeof defer}`);
  return { instructions: instructions as string | undefined, defer: defer as boolean | undefined };
}
