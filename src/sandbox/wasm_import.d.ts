// Bun's `with { type: "file" }` import gives the path of the embedded file (a `$bunfs` path in
// a compiled binary).
declare module "@jitl/quickjs-wasmfile-release-sync/wasm" {
  const path: string;
  export default path;
}
