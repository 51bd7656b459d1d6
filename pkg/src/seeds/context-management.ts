// Seed 002: `applyContextManagement`. The order and every decision are the rules'
// (`devs_context_rules::management`): this loop only does what the machine asks, and
// answers. Nothing the caller passed in is mutated: on success `context.turns` and
// `context.pendingToolOutputs` are replaced with new arrays, and on failure the context
// is left exactly as it was.
import { checked } from '../errors/index.js';
import { frameText } from '../core/frame.js';
import { array, callMethod, holder, joinTexts, number, object, probe, string, type Bag } from '../core/read.js';
import { countAll, countEach, count, counterOption, measureEach, sum } from '../tokens/count.js';
import type { AgentTurn, AppliedContextResult, ComposedWindow, ContextManagementDeps, OrchestratorContext, TokenCounter } from './types.js';
import { readBudget } from './window-composer.js';
import { ContextPruner, DUE_ALL, PRUNE_RATIO, ToolOutputPruner } from './pruners.js';
import { shownText, type PendingOutputs } from './pending.js';
import { answer, within } from '../core/timeout.js';
import { rules } from '../core/wasm.js';
import { ManagementNeed, ManagementOp, NEED_SCALE, PERSIST_WARNING, PERSIST_WARNING_UNNAMED, SeedFn } from '../core/protocol.js';


/**
 * Summary turns this package made: a context holding only one of them is already pruned,
 * whatever a host's `shouldPrune` says, so a second call never prunes again.
 */
const summaryTurns = new WeakSet<object>();

/** One checked call: the context's members and the deps, read once. */
export interface Job {
  context: Bag;
  turns: unknown[];
  outputs: unknown[];
  totalBudget: number;
  composer: Bag;
  pruner: Bag;
  toolPruner: Bag;
  repo: Bag;
  logger: Bag | undefined;
  counter: TokenCounter | undefined;
  /** Milliseconds each awaited callback may take (the runner's `callbackTimeoutMs`); none for `applyContextManagement`. */
  timeoutMs?: number;
  /** @internal The runner's index of `outputs`, when it describes them: nothing is read of an output to decide or recount. */
  pending?: PendingOutputs | null;
}

/** What one run produced: the seed's result and, for the runner, the composed window. */
export interface Applied {
  result: AppliedContextResult;
  composed: ComposedWindow;
}

const STRING_MEMBERS = ['goal', 'map', 'plan', 'tas', 'currentObservation'] as const;

export function prepare(context: unknown, deps: unknown, at = 'context'): Job {
  const ctx = object(at, context);
  const d = object('deps', deps);
  const turns = array(`${at}.turns`, ctx.turns);
  const outputs = array(`${at}.pendingToolOutputs`, ctx.pendingToolOutputs);
  array(`${at}.envelopes`, ctx.envelopes);
  for (const key of STRING_MEMBERS) string(`${at}.${key}`, ctx[key]);
  const totalBudget = readBudget(`${at}.budget`, ctx.budget)[0];
  const logger = d.logger === undefined ? undefined : holder('deps.logger', d.logger, ['warn']);
  return {
    context: ctx,
    turns,
    outputs,
    totalBudget,
    composer: holder('deps.composer', d.composer, ['compose']),
    pruner: holder('deps.pruner', d.pruner, ['shouldPrune', 'prune']),
    toolPruner: holder('deps.toolOutputPruner', d.toolOutputPruner, ['shouldTruncate', 'persistRaw', 'truncate']),
    repo: object('deps.stateRepository', d.stateRepository),
    logger,
    counter: counterOption('deps.countTokens', d.countTokens),
  };
}

/**
 * Runs the seed's context management on `context`, in the seed's order: (1) count the
 * turns' tokens, (2) compose the window, (3) prune if needed, (4) persist then truncate
 * each due tool output, (5) recount. A failed `persistRaw` keeps that output whole and
 * warns; a summary too large to end the pruning is replaced by a deterministic cut of the
 * newest turns (the loop guard), never leaving a tool result without its call.
 * @example
 * import {
 *   applyContextManagement, ContextPruner, createDefaultWindowBudget, ToolOutputPruner, WindowComposer,
 *   type OrchestratorContext,
 * } from '@devs/context';
 * import { SqliteStateRepository } from '@devs/context/sqlite';
 *
 * const budget = createDefaultWindowBudget();
 * const context: OrchestratorContext = {
 *   turns: agentTurns, goal: 'Make the parser tests pass', map: 'src/parser.rs', plan: '1. fix the lexer',
 *   tas: tasSummary, currentObservation: '', envelopes: [envelope], pendingToolOutputs: [entry], budget,
 * };
 * const { windowUsedTokens, prunedOccurred, truncatedOutputCount } = await applyContextManagement(context, {
 *   composer: new WindowComposer(budget),
 *   pruner: new ContextPruner({ summarize: (prompt) => llm.generate(prompt) }),
 *   toolOutputPruner: new ToolOutputPruner(),
 *   stateRepository: new SqliteStateRepository(),
 * });
 */
export function applyContextManagement(context: OrchestratorContext, deps: ContextManagementDeps): Promise<AppliedContextResult> {
  let job: Job;
  try {
    job = prepare(context, deps);
  } catch (error) {
    return Promise.reject(error);
  }
  return run(job).then((applied) => applied.result);
}

export async function run(job: Job): Promise<Applied> {
  const { context, turns, outputs, counter } = job;
  // (1) count: the default counter's counts are the turns' lengths, counted by the rules as they cross.
  const turnCounts = measureEach(counter, turns, 'content', 'context.turns');
  const alreadyPruned = turns.length === 1 && summaryTurns.has(turns[0] as object);
  const pending = job.pending ?? null;
  const done = pending ? new Uint8Array(0) : Uint8Array.from(outputs, (o) => (isTruncated(o) ? 1 : 0));
  const ratio = guardRatio(typeof job.pruner.saturationRatio === 'number' ? job.pruner.saturationRatio : undefined);
  const machine = checked(() => (pending
    ? rules.Management.indexed(job.totalBudget, ratio, turnCounts, !counter, alreadyPruned, pending.core, ownPruner(job.toolPruner))
    : new rules.Management(job.totalBudget, ratio, turnCounts, !counter, alreadyPruned, done)));
  try {
    let newTurns: unknown[] = turns.slice();
    const newOutputs: unknown[] = outputs.slice();
    let composed: Bag | undefined;
    let summary = '';
    let persistError = '';
    // What the machine needs next: the rules' own codes.
    const {
      Compose: COMPOSE, ShouldPrune: SHOULD_PRUNE, Prune: PRUNE, KeepSummary: KEEP_SUMMARY, Roles: ROLES, KeepNewest: KEEP_NEWEST,
      KeepCut: KEEP_CUT, ShouldTruncate: SHOULD_TRUNCATE, Persist: PERSIST, WarnPersistFailed: WARN_PERSIST_FAILED,
      Truncate: TRUNCATE, Recount: RECOUNT, Done: DONE,
    } = ManagementNeed;
    let need = machine.op(ManagementOp.Start, 0, 0, 0);
    for (;;) {
      // A need is `code + NEED_SCALE * argument` (`management::Need::encode` in the rules).
      const code = need % NEED_SCALE;
      const a = (need - code) / NEED_SCALE;
      switch (code) {
        case COMPOSE: {
          const got = answer(job.timeoutMs, callMethod(job.composer, 'compose', 'deps.compose', [context.goal, context.map, context.envelopes]), 'deps.composer.compose');
          composed = object('composer.compose()', got instanceof Promise ? await got : got);
          const used = number('composer.compose().totalTokensUsed', composed.totalTokensUsed);
          // This package's pruner is answered by the rules in the same crossing, as it would answer.
          const own = ownContextPruner(job.pruner);
          const total = own ? number('budget.totalBudget', object('budget', context.budget).totalBudget) : NaN;
          need = checked(() => machine.op(ManagementOp.Composed, used, own ? (job.pruner as unknown as ContextPruner)[PRUNE_RATIO]() : NaN, total));
          break;
        }
        case SHOULD_PRUNE: {
          const got = answer(job.timeoutMs, callMethod(job.pruner, 'shouldPrune', 'deps.pruner.shouldPrune', [machine.op(ManagementOp.Tokens, 0, 0, 0), context.budget]), 'deps.pruner.shouldPrune');
          need = machine.op(ManagementOp.ShouldPrune, (got instanceof Promise ? await got : got) ? 1 : 0, 0, 0);
          break;
        }
        case PRUNE: {
          const pruned = object('pruner.prune()', await within(job.timeoutMs, callMethod(job.pruner, 'prune', 'deps.prune', [context.turns, context.plan, context.tas, context.currentObservation]), 'deps.pruner.prune'));
          summary = string('pruner.prune().summary', pruned.summary);
          need = machine.op(ManagementOp.Pruned, count(counter, summary, 'pruner.prune().summary'), 0, 0);
          break;
        }
        case KEEP_SUMMARY: {
          const turn = agentTurn('user', summary);
          summaryTurns.add(turn);
          newTurns = [turn];
          need = machine.op(ManagementOp.Kept, 0, 0, 0);
          break;
        }
        case ROLES: {
          const roles = turns.map((t, i) => string(`context.turns[${i}].role`, object(`context.turns[${i}]`, t).role));
          const [joined, lens] = joinTexts(roles);
          need = checked(() => machine.roles(joined, lens));
          break;
        }
        case KEEP_NEWEST:
        case KEEP_CUT:
          newTurns = code === KEEP_NEWEST ? turns.slice(a) : turns.slice(a).map((t) => cutTurn(t as AgentTurn, machine.op(ManagementOp.Share, 0, 0, 0)));
          warn(job, frameText(machine.loop_guard_warning(), []));
          need = machine.op(ManagementOp.Kept, 0, 0, 0);
          break;
        case SHOULD_TRUNCATE: {
          if (ownPruner(job.toolPruner)) {
            // This package's pruner decides every output in one crossing, as it would one by one.
            need = machine.should_truncate_all((job.toolPruner as unknown as ToolOutputPruner)[DUE_ALL](outputs, done));
            break;
          }
          const got = answer(job.timeoutMs, callMethod(job.toolPruner, 'shouldTruncate', 'deps.toolOutputPruner.shouldTruncate', [outputs[a]]), 'deps.toolOutputPruner.shouldTruncate');
          need = machine.op(ManagementOp.ShouldTruncate, (got instanceof Promise ? await got : got) ? 1 : 0, 0, 0);
          break;
        }
        case PERSIST:
          try {
            await within(job.timeoutMs, callMethod(job.toolPruner, 'persistRaw', 'deps.toolOutputPruner.persistRaw', [outputs[a], job.repo]), 'deps.toolOutputPruner.persistRaw');
            need = machine.op(ManagementOp.Persisted, 1, 0, 0);
          } catch (error) {
            persistError = errorText(error);
            need = machine.op(ManagementOp.Persisted, 0, 0, 0);
          }
          break;
        case WARN_PERSIST_FAILED: {
          const tool = (outputs[a] as Bag).toolName;
          const hasName = typeof tool === 'string';
          warn(job, frameText(hasName ? PERSIST_WARNING : PERSIST_WARNING_UNNAMED, [hasName ? tool : '', persistError]));
          need = machine.op(ManagementOp.Warned, 0, 0, 0);
          break;
        }
        case TRUNCATE: {
          const got = answer(job.timeoutMs, callMethod(job.toolPruner, 'truncate', 'deps.toolOutputPruner.truncate', [outputs[a]]), 'deps.toolOutputPruner.truncate');
          newOutputs[a] = got instanceof Promise ? await got : got;
          pending?.truncated(a, newOutputs[a]);
          need = machine.op(ManagementOp.Truncated, 0, 0, 0);
          break;
        }
        case RECOUNT: {
          // Unpruned turns are the ones counted in step (1).
          const turnsNow = a === 1 ? sum(countEach(counter, newTurns, 'content', 'context.turns')) : NaN;
          if (pending?.array) {
            need = machine.recounted_indexed(turnsNow, pending.core);
            break;
          }
          // The field is named only for a bad one: a name made per output per turn is most of the walk.
          const shown = newOutputs.map((o, i) => {
            const text = shownText(o);
            return typeof text === 'string' ? text : string(`context.pendingToolOutputs[${i}].rawContent`, text);
          });
          need = machine.op(ManagementOp.Recounted, turnsNow, sum(countAll(counter, shown)), 0);
          break;
        }
        case DONE: {
          // The argument is `pruned + 2 * truncated` (`management::Need::kind`).
          const pruned = a % 2;
          context.turns = newTurns;
          context.pendingToolOutputs = newOutputs;
          pending?.written(newOutputs);
          return {
            result: { windowUsedTokens: machine.op(ManagementOp.Tokens, 0, 0, 0), prunedOccurred: pruned === 1, truncatedOutputCount: (a - pruned) / 2 },
            composed: composed as unknown as ComposedWindow,
          };
        }
        default:
          throw Object.assign(new Error(`applyContextManagement: unknown step ${code}`), { code: 'ERR_INTERNAL' });
      }
    }
  } finally {
    machine.free();
  }
}

/** The rules' loop-guard ratio for a pruner's `saturationRatio`, asked once per ratio: a pruner keeps one for its life. */
const guardRatios = new Map<number | undefined, number>();
function guardRatio(saturation: number | undefined): number {
  let ratio = guardRatios.get(saturation);
  if (ratio === undefined) {
    ratio = rules.seed(SeedFn.LoopGuardRatio, saturation ?? 0, saturation === undefined ? 0 : 1, 0);
    if (guardRatios.size < 64) guardRatios.set(saturation, ratio);
  }
  return ratio;
}

/** This package's `ContextPruner`, with its own `shouldPrune`. */
function ownContextPruner(pruner: Bag): boolean {
  return pruner instanceof ContextPruner && pruner.shouldPrune === ContextPruner.prototype.shouldPrune;
}

/** This package's `ToolOutputPruner`, with its own `shouldTruncate`. */
function ownPruner(pruner: Bag): boolean {
  return pruner instanceof ToolOutputPruner && pruner.shouldTruncate === ToolOutputPruner.prototype.shouldTruncate;
}

/** A turn of the loop guard's cut: its content cut to `share` units, at a space. */
function cutTurn(turn: AgentTurn, share: number): AgentTurn {
  const content = turn.content;
  const end = rules.cutEnd(...probe(content, share, true), share, true);
  return { ...turn, content: end < 0 ? content : content.slice(0, end) };
}

function warn(job: Job, message: string): void {
  if (job.logger) callMethod(job.logger, 'warn', 'deps.logger.warn', [message]);
  else console.warn(message);
}

/** An `AgentTurn` created now. */
export function agentTurn(role: AgentTurn['role'], content: string): AgentTurn {
  return { role, content, timestampMs: Date.now() };
}


/** Already a `TruncatedToolOutput`: nothing left to persist or cut. */
function isTruncated(entry: unknown): boolean {
  const e = entry as Bag;
  return typeof e === 'object' && e !== null && typeof e.summary === 'string' && e.rawContent === undefined;
}

function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}
