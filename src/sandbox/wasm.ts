import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import wasmPath from "@jitl/quickjs-wasmfile-release-sync/wasm" with { type: "file" };
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from "quickjs-emscripten-core";

// The default loader looks for the .wasm beside the JS file, which does not exist inside a
// `bun build --compile` binary (ENOENT on /$bunfs/...). Importing it as a file embeds it, and
// compiling it once lets every later module (a rebuild after a crash) instantiate in ~1–5 ms.
let compiled: Promise<WebAssembly.Module> | undefined;

function compiledWasm(): Promise<WebAssembly.Module> {
  compiled ??= Bun.file(wasmPath)
    .arrayBuffer()
    .then((bytes) => WebAssembly.compile(bytes));
  return compiled;
}

const PAGE = 65_536;
/** The build's INITIAL_MEMORY (static data, C stack, first heap): the memory must start at this size. */
const INITIAL_BYTES = 16 * 1024 * 1024;

/**
 * A fresh QuickJS WebAssembly module with its own linear memory, which may grow by at most
 * `heapBytes` beyond its initial 16 MiB.
 *
 * That growth cap is the real memory limit. QuickJS's `setMemoryLimit` counts each live block
 * as 8 bytes in this build (emscripten has no malloc_usable_size), so it only refuses single
 * oversized allocations; many small ones went past 1 GB under an 8 MiB limit. A bounded
 * `WebAssembly.Memory` makes malloc return NULL instead, which QuickJS reports as an ordinary
 * "out of memory" exception.
 */
export async function newQuickJSModule(heapBytes: number): Promise<QuickJSWASMModule> {
  const wasmModule = await compiledWasm();
  const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_BYTES / PAGE, maximum: Math.ceil((INITIAL_BYTES + heapBytes) / PAGE) });
  return newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmModule, wasmMemory }));
}
