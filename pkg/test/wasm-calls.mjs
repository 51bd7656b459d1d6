// Counts every JS→wasm call of the instances made while `load()` runs (the glue's own,
// malloc and free, among them), by wrapping the exports of each WebAssembly.Instance: the
// package is loaded after the wrapper is in place, and the wrapper removed after.
export async function loadCounting(load) {
  const counter = { calls: 0, names: new Map() };
  const Original = WebAssembly.Instance;
  WebAssembly.Instance = class CountingInstance extends Original {
    constructor(module, imports) {
      super(module, imports);
      const exports = Object.create(null);
      for (const [name, value] of Object.entries(super.exports)) {
        exports[name] = typeof value !== 'function' ? value : function counted(...args) {
          counter.calls++;
          counter.names.set(name, (counter.names.get(name) ?? 0) + 1);
          return value.apply(this, args);
        };
      }
      Object.defineProperty(this, 'exports', { value: Object.freeze(exports), enumerable: true });
    }
  };
  try {
    return { counter, loaded: await load() };
  } finally {
    WebAssembly.Instance = Original;
  }
}
