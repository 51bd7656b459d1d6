// Lifetimes of the objects this package hands out. Each class keeps its wasm state in a
// wasm-bindgen object, which wasm-bindgen's own FinalizationRegistry frees when the
// object is collected; `free()` frees it now. After `free()` every method throws a
// `UseAfterFreeError`, checked here before any wasm call, so a freed object can never
// reach the module.
import { UseAfterFreeError } from '../errors/index.js';

/** A wasm-bindgen object: it has `free()`. */
export interface WasmObject {
  free(): void;
}

/** `core`, or a `UseAfterFreeError` naming `className` if it was freed. */
export function live<T>(core: T | null, className: string): T {
  if (core === null) throw new UseAfterFreeError(className);
  return core;
}

/**
 * Adds `[Symbol.dispose]` (same as `free()`) to each class, where the host has the symbol,
 * so `using x = new TurnTracker(…)` frees it at the end of the block.
 */
export function disposable(...classes: Array<{ prototype: { free(): void } }>): void {
  const dispose = (Symbol as { dispose?: symbol }).dispose;
  if (typeof dispose !== 'symbol') return;
  for (const cls of classes) {
    Object.defineProperty(cls.prototype, dispose, { value: cls.prototype.free, writable: true, configurable: true });
  }
}
