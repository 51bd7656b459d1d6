// esbuild's `base64` loader turns the imported .wasm into its bytes as base64 text.
declare module '*.wasm' {
  const base64: string;
  export default base64;
}
