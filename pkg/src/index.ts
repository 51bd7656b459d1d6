/**
 * `@devs/context`: the context rules of the devs agent orchestrator, compiled from Rust
 * to WebAssembly, behind this TypeScript shell. The rules decide; the shell reads host
 * values, calls host callbacks, and returns plain objects.
 *
 * The wasm bytes are inlined and instantiated synchronously when this module loads: no
 * file lookup and no top-level await, so `require`, `import` and bundles (an esbuild-built
 * VSCode extension with no `node_modules`) all work the same.
 * @packageDocumentation
 */
export { AgentLogStore } from './log.js';
export { AgentRunner } from './runner.js';
export { applyContextManagement } from './management.js';
export { ContextComposer } from './composer.js';
export { ContextManager } from './manager.js';
export { ContextSession } from './session.js';
export { ContextPruner, ToolOutputPruner, validateToolOutputEntry } from './pruners.js';
export { ContextRefresher, OrchestratorContextInjector } from './refresher.js';
export { countTokens } from './tokens.js';
export { recallSpec } from './recall-spec.js';
export { MemoryStateRepository } from './memory-store.js';
export { createDefaultWindowBudget, WindowComposer } from './window-composer.js';
export { isSaopEnvelope, validateSaopEnvelope } from './saop.js';
export { shouldInjectSpec, SlidingRelevanceWindow, SpecRefreshProtocol } from './window.js';
export { SummarizationHandoff } from './handoff.js';
export { TokenThresholdMonitor } from './monitor.js';
export { TurnTracker } from './tracker.js';
export { ReentrantCallError, SessionConflictError, SummarizationError, UseAfterFreeError } from './errors.js';
export { CallbackTimeoutError } from './timeout.js';
export type { ArgumentError, ArgumentErrorCode, SummarizationErrorOptions } from './errors.js';
export type * from './types.js';

import { AgentLogStore } from './log.js';
import { AgentRunner } from './runner.js';
import { ContextComposer } from './composer.js';
import { ContextManager } from './manager.js';
import { ContextPruner, ToolOutputPruner } from './pruners.js';
import { ContextRefresher, OrchestratorContextInjector } from './refresher.js';
import { disposable } from './lifetime.js';
import { MemoryStateRepository } from './memory-store.js';
import { SlidingRelevanceWindow, SpecRefreshProtocol } from './window.js';
import { SummarizationHandoff } from './handoff.js';
import { TokenThresholdMonitor } from './monitor.js';
import { TurnTracker } from './tracker.js';
import { WindowComposer } from './window-composer.js';

disposable(AgentLogStore, AgentRunner, ContextComposer, ContextManager, ContextPruner, ToolOutputPruner, ContextRefresher, MemoryStateRepository,
  OrchestratorContextInjector, SlidingRelevanceWindow, SpecRefreshProtocol, SummarizationHandoff,
  TokenThresholdMonitor, TurnTracker, WindowComposer);
