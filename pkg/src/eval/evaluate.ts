// `evaluate(sessions, options)`: every session × budget × strategy in one run, each session
// read once; the figures per run, per session and over all sessions.
import { createTokenCounter } from '@devs/context/tokenizers';
import type { ReplaySession } from '@devs/context/replay';
import { clockSpend } from './clock.js';
import { figures } from './figures.js';
import type { EvalFigures, EvalRun } from './figures.js';
import { createMeter } from './measure.js';
import type { Counter } from './measure.js';
import { AbsentPeerError } from './peers.js';
import { parsePrices, parseTtl, ttlName } from './prices.js';
import type { Prices } from './prices.js';
import { runSession } from './run.js';
import { pauses, prepareSession } from './session.js';
import { standInSummary } from './strategies/summarize.js';
import { DEFAULT_STRATEGIES, STRATEGIES } from './strategies/index.js';
import type { StrategyFormat, StrategyInfo } from './strategies/types.js';
import { DEFAULT_SYSTEM } from './system.js';

/** `evaluate`'s options; every one has a default. */
export interface EvalOptions {
  /** Budgets in tokens. Default `[200000, 50000]`. */
  budgets?: readonly number[];
  /** The exact counter: `o200k_base` (default), `cl100k_base`, or a function. */
  counter?: 'o200k_base' | 'cl100k_base' | Counter;
  /**
   * Strategy ids (`STRATEGIES`), or strategies of your own (`StrategyInfo`: `id`, `name`,
   * `what`, `source`, `peers`, `make`). Default: ours, auto-compact, langchain-summarization,
   * langchain-context-editing, ai-sdk-prune.
   */
  strategies?: ReadonlyArray<string | StrategyInfo>;
  /** The format ours builds requests in. Default `anthropic`. */
  format?: StrategyFormat;
  /** How long a cache entry lives after its last read or write: `5m` (default), `1h`, `none`, or milliseconds. */
  ttl?: string | number;
  /** `anthropic` (default), `openai`, or read, write and input prices (`'r,w,i'` or `[r, w, i]`). */
  prices?: string | readonly number[];
  /** The system prompt every strategy sends. Default: a coding agent's rules, about 2,000 tokens. */
  system?: string;
  /** Options for ours (`ContextManager`). */
  options?: Record<string, unknown>;
  /** LangChain's context editing keeps its cleared results in the history. */
  persist?: boolean;
  /** Called after each run. */
  onProgress?: (done: number, total: number, label: string) => void;
}

/** A strategy as the result lists it; `absent`: its peer is not installed; `failed`: it threw, and its runs were left out. */
export interface EvalStrategy {
  id: string;
  name: string;
  what: string;
  source: string;
  peers: readonly string[];
  absent?: string;
  failed?: string;
}

/** What `evaluate` gives: the settings, the strategies, the sessions, every run and the figures. */
export interface EvalResult {
  settings: { budgets: number[]; counter: string; format: StrategyFormat; ttl: string; ttlMs: number | null; prices: Prices; baseline: string | null; summarizer: string };
  strategies: EvalStrategy[];
  sessions: Array<{ name: string; format: string; requests: number; timed: boolean; pauses: number }>;
  /** Notes for the reader: untimed sessions, absent peers, failed strategies. */
  notes: string[];
  runs: EvalRun[];
  /** Per budget and strategy, over all sessions. */
  totals: EvalFigures[];
  /** Per budget, session and strategy. */
  perSession: EvalFigures[];
}

const FORMATS: readonly StrategyFormat[] = ['anthropic', 'openai-chat', 'openai-responses'];

function checkSessions(sessions: unknown): ReplaySession[] {
  if (!Array.isArray(sessions)) throw new TypeError(`sessions: expected an array of sessions (parseTranscript's), got ${sessions === null ? 'null' : typeof sessions}`);
  sessions.forEach((s, i) => {
    if (s === null || typeof s !== 'object' || !Array.isArray((s as ReplaySession).steps) || typeof (s as ReplaySession).name !== 'string') {
      throw new TypeError(`sessions[${i}]: expected a session of parseTranscript (name, format, steps)`);
    }
    if ((s as ReplaySession).steps.length === 0) throw new RangeError(`sessions[${i}]: ${JSON.stringify((s as ReplaySession).name)} has no model turn`);
  });
  return sessions as ReplaySession[];
}

/** The options checked, each bad one named. */
export function checkOptions(options: EvalOptions = {}): { budgets: number[]; counter: Counter; counterName: string; strategies: StrategyInfo[]; format: StrategyFormat; ttl: number; ttlText: string; prices: Prices } {
  if (options === null || typeof options !== 'object') throw new TypeError('options: expected an object');
  const budgets = options.budgets ?? [200_000, 50_000];
  if (!Array.isArray(budgets) || budgets.length === 0) throw new TypeError('options.budgets: expected a non-empty array of token counts');
  budgets.forEach((b, i) => {
    if (typeof b !== 'number' || !Number.isInteger(b) || b < 1000 || b > 1e9) throw new RangeError(`options.budgets[${i}]: expected a whole number of tokens from 1,000 to 1,000,000,000, got ${JSON.stringify(b)}`);
  });
  const c = options.counter ?? 'o200k_base';
  if (c !== 'o200k_base' && c !== 'cl100k_base' && typeof c !== 'function') throw new RangeError(`options.counter: expected 'o200k_base', 'cl100k_base' or a function, got ${JSON.stringify(c)}`);
  const counter = typeof c === 'function' ? c : createTokenCounter(c);
  const ids = options.strategies ?? DEFAULT_STRATEGIES;
  if (!Array.isArray(ids) || ids.length === 0) throw new TypeError('options.strategies: expected a non-empty array of strategy ids');
  const strategies = ids.map((id, i) => {
    if (id !== null && typeof id === 'object') return ownStrategy(id, i);
    const info = STRATEGIES.find((s) => s.id === id);
    if (!info) throw new RangeError(`options.strategies[${i}]: ${JSON.stringify(id)} is not one of ${STRATEGIES.map((s) => s.id).join(', ')}`);
    return info;
  });
  const format = options.format ?? 'anthropic';
  if (!FORMATS.includes(format)) throw new RangeError(`options.format: expected one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  const ttl = parseTtl(options.ttl ?? '5m', 'options.ttl');
  const prices = parsePrices(options.prices ?? 'anthropic', ttl, 'options.prices');
  return { budgets: [...budgets], counter, counterName: typeof c === 'function' ? 'custom' : c, strategies, format, ttl, ttlText: ttlName(ttl), prices };
}

const cpuMs = ({ user, system }: { user: number; system: number }): number => (user + system) / 1000;

/** A strategy of the caller's, checked. */
function ownStrategy(value: object, i: number): StrategyInfo {
  const s = value as Partial<StrategyInfo>;
  const field = `options.strategies[${i}]`;
  if (typeof s.id !== 'string' || s.id === '' || STRATEGIES.some((x) => x.id === s.id)) throw new TypeError(`${field}.id: expected a new strategy id (a non-empty string), got ${JSON.stringify(s.id)}`);
  if (typeof s.make !== 'function') throw new TypeError(`${field}.make: expected a function (args) => Strategy`);
  return { id: s.id, name: typeof s.name === 'string' ? s.name : s.id, what: typeof s.what === 'string' ? s.what : '(not said)', source: typeof s.source === 'string' ? s.source : '(not said)', peers: Array.isArray(s.peers) ? s.peers : [], make: s.make };
}

/** Whether `info` can run here: its peers installed. */
function absence(info: StrategyInfo, counter: Counter): { absent?: string; failed?: string } {
  try {
    info.make({ budget: 200_000, system: '', meter: createMeter(counter), summarize: standInSummary }).free?.();
    return {};
  } catch (error) {
    if (error instanceof AbsentPeerError) return { absent: error.message };
    return { failed: `made: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300) };
  }
}

/**
 * Every session through every strategy at every budget. `sessions`: as `parseTranscript`
 * of `@devs/context/replay` reads them. Throws a TypeError or RangeError naming a bad option.
 */
export async function evaluate(sessions: readonly ReplaySession[], options: EvalOptions = {}): Promise<EvalResult> {
  const list = checkSessions(sessions);
  const o = checkOptions(options);
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') throw new TypeError('options.onProgress: expected a function');
  const system = options.system ?? DEFAULT_SYSTEM;
  if (typeof system !== 'string') throw new TypeError('options.system: expected a string');
  const failed = new Map<string, string>();
  const strategies: EvalStrategy[] = o.strategies.map((s) => {
    const { absent, failed: broken } = absence(s, o.counter);
    if (broken !== undefined) failed.set(s.id, broken);
    return { id: s.id, name: s.name, what: s.what, source: s.source, peers: s.peers, ...(absent ? { absent } : {}) };
  });
  const usable = o.strategies.filter((s) => !strategies.find((x) => x.id === s.id)?.absent);
  const meter = createMeter(o.counter);
  const prepared = list.map((s) => prepareSession(s, system));
  const runs: EvalRun[] = [];
  const total = prepared.length * o.budgets.length * usable.length;
  let done = 0;
  for (const budget of o.budgets) {
    for (const p of prepared) {
      for (const info of usable) {
        done++;
        if (failed.has(info.id)) continue;
        const start = performance.now();
        const cpu = process.cpuUsage();
        let requests;
        try {
          requests = await runSession(p, budget, info, { meter, system, format: o.format, options: options.options, persist: options.persist });
        } catch (error) {
          // A peer of another version, or a strategy of the caller's, that throws: named, and left out.
          failed.set(info.id, `${p.name} at ${budget / 1000}k: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300));
          continue;
        }
        runs.push({ session: p.name, budget, strategy: info.id, requests, clock: clockSpend(requests, o.prices, o.ttl), ms: performance.now() - start, cpuMs: cpuMs(process.cpuUsage(cpu)) });
        options.onProgress?.(done, total, `${budget / 1000}k ${p.name} ${info.id}`);
      }
    }
  }
  const running = usable.filter((s) => !failed.has(s.id));
  const baseline = running.find((s) => s.id === 'auto-compact') ?? running[0];
  for (let i = runs.length - 1; i >= 0; i--) if (failed.has(runs[i].strategy)) runs.splice(i, 1);
  for (const s of strategies) if (failed.has(s.id)) s.failed = failed.get(s.id);
  const pick = (budget: number, id: string, session?: string) => runs.filter((r) => r.budget === budget && r.strategy === id && (session === undefined || r.session === session));
  const totals: EvalFigures[] = [];
  const perSession: EvalFigures[] = [];
  for (const budget of o.budgets) {
    for (const info of running) {
      const base = baseline ? pick(budget, baseline.id) : undefined;
      totals.push({ budget, strategy: info.id, ...figures(pick(budget, info.id), base) });
      for (const p of prepared) {
        perSession.push({ budget, strategy: info.id, ...figures(pick(budget, info.id, p.name), baseline ? pick(budget, baseline.id, p.name) : undefined, p.name) });
      }
    }
  }
  const notes: string[] = [];
  const untimed = prepared.filter((p) => !p.timed).map((p) => p.name);
  if (o.ttl !== Infinity && untimed.length) notes.push(`no timestamps: priced with no expiry (${untimed.length === prepared.length ? 'every session' : untimed.join(', ')})`);
  for (const s of strategies) if (s.absent) notes.push(`${s.id} absent: ${s.absent}`);
  for (const s of strategies) if (s.failed) notes.push(`${s.id} failed, left out: ${s.failed}`);
  return {
    settings: {
      budgets: o.budgets, counter: o.counterName, format: o.format, ttl: o.ttlText, ttlMs: o.ttl === Infinity ? null : o.ttl, prices: o.prices,
      baseline: baseline?.id ?? null, summarizer: 'a stand-in, the same for every strategy: the head and tail of its prompt, about 1,500 tokens',
    },
    strategies,
    sessions: prepared.map((p) => ({ name: p.name, format: p.session.format, requests: p.session.steps.length, timed: p.timed, pauses: o.ttl === Infinity ? 0 : pauses(p.times, o.ttl) })),
    notes,
    runs,
    totals,
    perSession,
  };
}
