/**
 * `@devs/context`: the context rules of the devs agent orchestrator, compiled from Rust
 * to WebAssembly.
 *
 * The wasm bytes are inlined and instantiated synchronously when this module loads: no
 * file lookup and no top-level await, so `require`, `import` and bundles (an esbuild-built
 * VSCode extension with no `node_modules`) all work the same.
 */
import wasmBytes from '../dist/wasm/devs_context_bg.wasm';
import { initSync } from '../dist/wasm/devs_context.js';

initSync({ module: wasmBytes });

export {
  AgentLogStore,
  ContextRefresher,
  isSaopEnvelope,
  OrchestratorContextInjector,
  TurnTracker,
  validateSaopEnvelope,
} from '../dist/wasm/devs_context.js';
