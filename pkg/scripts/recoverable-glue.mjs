// The rules' wasm-bindgen glue, made able to start over after a trap.
//
// The release build aborts on a panic (`unreachable`), and every object of the module
// shares its one instance: after a trap nothing in that instance can be trusted, and a
// borrow flag left set makes every later call on the object fail. So the glue learns
// three things, which `src/core/guard.ts` uses:
//   - `__devs_reset()` drops the instance and makes a fresh one from the same module;
//   - each object remembers the instance it lives in (`__wbg_wasm`), so a call on an
//     object of a dead instance is refused instead of reading another's memory, and a
//     finalizer frees a pointer only in the instance it came from;
//   - `__devs_adopt(to, from)` moves `from`'s pointer into the object `to`, so a context
//     manager keeps its own object (held by its history, its texts and its builds) with
//     rules made again from its committed journal.
// Each edit checks that it matched: a wasm-bindgen whose glue differs fails the build here.

/** Replaces every match of `pattern`, failing when there are none. */
function edit(text, pattern, replacement, what) {
  let n = 0;
  const out = text.replace(pattern, (...args) => {
    n++;
    return typeof replacement === 'function' ? replacement(...args) : args[0].replace(pattern, replacement);
  });
  if (n === 0) throw new Error(`recoverable-glue: no ${what} in the wasm-bindgen glue; its shape changed (scripts/recoverable-glue.mjs)`);
  return out;
}

export function recoverable(glue) {
  const classes = [...glue.matchAll(/^const (\w+)Finalization = /gm)].map((m) => m[1]);
  if (classes.length === 0) throw new Error('recoverable-glue: no classes in the wasm-bindgen glue');
  let text = edit(glue, /new FinalizationRegistry\(ptr => wasm\.(__wbg_\w+_free)\(ptr( >>> 0)?, 1\)\)/g,
    (_m, free) => `new FinalizationRegistry(held => { if (held.wasm === wasm) wasm.${free}(held.ptr >>> 0, 1); })`, 'finalizer');
  text = edit(text, /(\w+)Finalization\.register\((\w+), \2\.__wbg_ptr, \2\);/g,
    (_m, cls, obj) => `${obj}.__wbg_wasm = wasm; ${cls}Finalization.register(${obj}, { ptr: ${obj}.__wbg_ptr, wasm }, ${obj});`, 'registration');
  text = edit(text, /^export \{ initSync, __wbg_init as default \};$/m, (line) => `${line}

// Added by @devs/context's build (scripts/recoverable-glue.mjs): starting over after a trap.
const __devs_registries = { ${classes.map((c) => `${c}: ${c}Finalization`).join(', ')} };
/** The instance objects made now live in. */
export function __devs_instance() {
    return wasm;
}
/** Drops the instance, which trapped, for a fresh one of the same module. */
export function __devs_reset() {
    const module = wasmModule;
    wasm = undefined;
    return initSync({ module });
}
/** Object \`to\` (of the dead instance) takes over \`from\`'s pointer, in the live one. */
export function __devs_adopt(to, from) {
    const ptr = from.__destroy_into_raw();
    __devs_registries[from.constructor.name].unregister(to);
    to.__wbg_ptr = ptr;
    to.__wbg_wasm = wasm;
    __devs_registries[from.constructor.name].register(to, { ptr, wasm }, to);
}`, 'export line');
  return text;
}
