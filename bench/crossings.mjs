// Counts JS↔wasm crossings without any hook in the package. Call `installCrossingCounter()`
// BEFORE importing '@devs/context': it replaces `WebAssembly.Instance` (which wasm-bindgen's
// `initSync` calls as `new WebAssembly.Instance(module, imports)`) and
// `WebAssembly.instantiate` so that every instance made afterwards
//   - counts each call of an exported function (JS→wasm), and
//   - counts each call of a function in its import object (wasm→JS).
// Memories, tables and globals are passed through as they are. With `{ count: false }` the
// instances are only recorded (for their memory), with no wrapper in any call path.
//
//   const { instances } = installCrossingCounter();
//   await import('../pkg/dist/index.mjs');
//   const before = snapshot(); …; const delta = since(before);   // per instance

/** One record per instance, in creation order. */
export const instances = [];

export function installCrossingCounter({ count = true } = {}) {
  const Original = WebAssembly.Instance;
  const originalInstantiate = WebAssembly.instantiate;

  const wrapImports = (imports, record) => {
    if (!count || !imports) return imports;
    const out = {};
    for (const [ns, members] of Object.entries(imports)) {
      out[ns] = {};
      for (const [name, value] of Object.entries(members)) {
        if (typeof value !== 'function') {
          out[ns][name] = value;
          continue;
        }
        out[ns][name] = function wasmToJs(...args) {
          record.wasmToJs++;
          record.imports.set(name, (record.imports.get(name) ?? 0) + 1);
          return value.apply(this, args);
        };
      }
    }
    return out;
  };

  class CountingInstance extends Original {
    constructor(module, imports) {
      const record = { id: instances.length, jsToWasm: 0, wasmToJs: 0, exports: new Map(), imports: new Map(), memory: null, exportNames: [] };
      super(module, wrapImports(imports, record));
      const raw = super.exports;
      record.exportNames = Object.keys(raw);
      const exports = Object.create(null);
      for (const [name, value] of Object.entries(raw)) {
        if (value instanceof WebAssembly.Memory && !record.memory) record.memory = value;
        if (!count || typeof value !== 'function') {
          exports[name] = value;
          continue;
        }
        exports[name] = function jsToWasm(...args) {
          record.jsToWasm++;
          record.exports.set(name, (record.exports.get(name) ?? 0) + 1);
          return value.apply(this, args);
        };
      }
      Object.freeze(exports);
      Object.defineProperty(this, 'exports', { value: exports, enumerable: true });
      instances.push(record);
    }
  }

  WebAssembly.Instance = CountingInstance;
  WebAssembly.instantiate = async function instantiate(source, imports) {
    if (source instanceof WebAssembly.Module) return new CountingInstance(source, imports);
    const module = await WebAssembly.compile(source);
    return { module, instance: new CountingInstance(module, imports) };
  };
  return { instances, restore: () => { WebAssembly.Instance = Original; WebAssembly.instantiate = originalInstantiate; } };
}

/** The counters of every instance now. */
export function snapshot() {
  return instances.map((r) => ({ jsToWasm: r.jsToWasm, wasmToJs: r.wasmToJs, exports: new Map(r.exports), imports: new Map(r.imports) }));
}

/** Crossings per instance since `before` (an instance created since counts from zero). */
export function since(before) {
  return instances.map((r, i) => {
    const b = before[i] ?? { jsToWasm: 0, wasmToJs: 0, exports: new Map(), imports: new Map() };
    const diff = (now, then) => new Map([...now].map(([k, v]) => [k, v - (then.get(k) ?? 0)]).filter(([, v]) => v > 0));
    return { id: r.id, jsToWasm: r.jsToWasm - b.jsToWasm, wasmToJs: r.wasmToJs - b.wasmToJs, exports: diff(r.exports, b.exports), imports: diff(r.imports, b.imports) };
  });
}
