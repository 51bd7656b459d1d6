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
export { AgentLogStore } from './seeds/log.js';
export { AgentRunner } from './seeds/runner.js';
export { applyContextManagement } from './seeds/context-management.js';
export { ContextComposer } from './seeds/context-composer.js';
export { ContextManager } from './context/manager-api.js';
export type { ContextManagerConstructor } from './context/manager-api.js';
export { ContextSession } from './context/session/session.js';
export { ContextPruner, ToolOutputPruner } from './seeds/pruners.js';
export { validateToolOutputEntry } from './stores/entry.js';
export { ContextRefresher, OrchestratorContextInjector } from './seeds/refresher.js';
export { countTokens } from './tokens/count.js';
export { recallSpec } from './context/recall-spec.js';
export { defaultSummaryPrompt } from './context/summary-prompt.js';
export { MemoryStateRepository } from './stores/memory.js';
export { createDefaultWindowBudget, WindowComposer } from './seeds/window-composer.js';
export { isSaopEnvelope, validateSaopEnvelope } from './seeds/saop.js';
export { shouldInjectSpec, SlidingRelevanceWindow, SpecRefreshProtocol } from './seeds/window.js';
export { SummarizationHandoff } from './seeds/handoff.js';
export { TokenThresholdMonitor } from './seeds/monitor.js';
export { TurnTracker } from './seeds/tracker.js';
export { ReentrantCallError, SessionConflictError, SummarizationError, UseAfterFreeError } from './errors/index.js';
export { CallbackTimeoutError } from './core/timeout.js';
export type { ArgumentError, ArgumentErrorCode, SummarizationErrorOptions } from './errors/index.js';
export type * from './seeds/types.js';
export type * from './seeds/runner-types.js';
export type * from './context/types.js';
export type * from './stores/types.js';

import { AgentLogStore } from './seeds/log.js';
import { AgentRunner } from './seeds/runner.js';
import { ContextComposer } from './seeds/context-composer.js';
import { ContextManager } from './context/manager-api.js';
import { ContextPruner, ToolOutputPruner } from './seeds/pruners.js';
import { ContextRefresher, OrchestratorContextInjector } from './seeds/refresher.js';
import { disposable } from './core/lifetime.js';
import { MemoryStateRepository } from './stores/memory.js';
import { SlidingRelevanceWindow, SpecRefreshProtocol } from './seeds/window.js';
import { SummarizationHandoff } from './seeds/handoff.js';
import { TokenThresholdMonitor } from './seeds/monitor.js';
import { TurnTracker } from './seeds/tracker.js';
import { WindowComposer } from './seeds/window-composer.js';

disposable(AgentLogStore, AgentRunner, ContextComposer, ContextManager, ContextPruner, ToolOutputPruner, ContextRefresher, MemoryStateRepository,
  OrchestratorContextInjector, SlidingRelevanceWindow, SpecRefreshProtocol, SummarizationHandoff,
  TokenThresholdMonitor, TurnTracker, WindowComposer);
