// A session read once per eval run: its turns in each format a strategy asks for, the
// references of each model call, the user's words and the file trail, and each request's
// time where the transcript has one. Every strategy and budget reads these.
import { providerTurns } from '@devs/context/replay';
import type { ProviderTurn, ReplaySession } from '@devs/context/replay';
import { stepTime } from './clock.js';
import { sessionReferences } from './references.js';
import type { CallReferences } from './references.js';
import { fileTrail, userWords } from './survival.js';
import type { TrailPath, UserWords } from './survival.js';
import type { StrategyFormat } from './strategies/types.js';

/** A session with what every run of it reads. */
export interface PreparedSession {
  name: string;
  session: ReplaySession;
  refs: CallReferences[];
  words: UserWords[];
  trail: TrailPath[];
  /** Each model call's time (ms since the epoch), where the transcript has one. */
  times: Array<number | undefined>;
  /** Whether any model call has a time: if none has, the session is priced with no expiry. */
  timed: boolean;
  /** The session's turns in `format`, made once. */
  turns(format: StrategyFormat): ProviderTurn[];
}

/** `session` prepared for the eval; `system` is left out of the references (every strategy sends it). */
export function prepareSession(session: ReplaySession, system: string): PreparedSession {
  const made = new Map<StrategyFormat, ProviderTurn[]>();
  const turns = (format: StrategyFormat): ProviderTurn[] => {
    let t = made.get(format);
    if (t === undefined) made.set(format, (t = providerTurns(session, format)));
    return t;
  };
  const times = session.steps.map((s) => stepTime(s));
  return {
    name: session.name,
    session,
    refs: sessionReferences(turns('openai-chat'), system),
    words: userWords(session),
    trail: fileTrail(session),
    times,
    timed: times.some((t) => t !== undefined),
    turns,
  };
}

/** The pauses in `times` longer than `ttl` ms. */
export function pauses(times: ReadonlyArray<number | undefined>, ttl: number): number {
  let n = 0;
  let last: number | undefined;
  for (const t of times) {
    if (t === undefined) continue;
    if (last !== undefined && t - last > ttl) n++;
    last = t;
  }
  return n;
}
