// esbuild's `binary` loader turns the imported .wasm into its bytes.
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
