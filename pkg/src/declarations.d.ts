// Declarations for what the TypeScript entry adds beside the wasm classes; appended to
// the generated .d.ts by scripts/build.mjs.
export {};
