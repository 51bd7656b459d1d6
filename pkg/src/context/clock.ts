// The request's time, from the host: `build({ now })` (or the time a replay reads from a
// transcript). The shell only reads it and gives it to the rules, which journal it and
// decide with it (crates/rules/src/context/clock.rs: a compaction at the first request
// after a pause longer than the cache's lifetime, with `pauseCompactAt`).
import { argumentError } from '../errors/index.js';
import { isObject } from '../core/read.js';

/**
 * The time of `options` (the argument of `build`), read once: a TypeError for a value
 * that is not an object or a `now` that is not a number; its range is the rules' to check
 * (given as `{ kind: 'Time', now }` between builds: NaN, < 0 or going back is a RangeError
 * naming `options.now`, and changes nothing).
 */
export function buildTime(options: unknown): number | undefined {
  if (options === undefined) return undefined;
  if (!isObject(options)) throw argumentError(TypeError, 'options', 'must be an object ({ now }), or left out');
  const now = options.now;
  if (now === undefined) return undefined;
  if (typeof now !== 'number') throw argumentError(TypeError, 'options.now', `must be a number of ms since the epoch, got ${now === null ? 'null' : typeof now}`);
  return now;
}
