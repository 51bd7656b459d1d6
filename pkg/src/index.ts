/**
 * `@devs/context`: the context rules of the devs agent orchestrator, compiled from Rust
 * to WebAssembly.
 *
 * The wasm bytes are inlined and instantiated synchronously when this module loads: no
 * file lookup and no top-level await, so `require`, `import` and bundles (an esbuild-built
 * VSCode extension with no `node_modules`) all work the same.
 */
import wasmBase64 from '../dist/wasm/devs_context_bg.wasm';
import { initSync, SlidingRelevanceWindow, shouldInjectSpec } from '../dist/wasm/devs_context.js';
import { decodeBase64 } from './base64.js';

initSync({ module: decodeBase64(wasmBase64) });

// Seed 001 calls `SlidingRelevanceWindow.shouldInjectSpec` both on instances and on the
// class; wasm-bindgen cannot export a static and a method under one name.
Object.defineProperty(SlidingRelevanceWindow, 'shouldInjectSpec', { value: shouldInjectSpec, writable: false });

export {
  AgentLogStore,
  AgentRunner,
  applyContextManagement,
  ContextComposer,
  ContextPruner,
  ContextRefresher,
  countTokens,
  createDefaultWindowBudget,
  isSaopEnvelope,
  OrchestratorContextInjector,
  shouldInjectSpec,
  SlidingRelevanceWindow,
  SpecRefreshProtocol,
  SummarizationHandoff,
  TokenThresholdMonitor,
  ToolOutputPruner,
  TurnTracker,
  validateSaopEnvelope,
  WindowComposer,
} from '../dist/wasm/devs_context.js';
export { SummarizationError } from './errors.js';
