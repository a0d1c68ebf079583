/**
 * The sandbox child: `inlet __sandbox-child`, started by the script pool. It runs one script at a
 * time in QuickJS and answers over IPC. The parent kills it with SIGKILL when a script overruns
 * its deadline (QuickJS does not poll its interrupt handler inside long built-in calls).
 */
import type { QuickJSWASMModule } from "quickjs-emscripten-core";
import { newQuickJSModule } from "../../sandbox/wasm.ts";
import { evaluateScript } from "./evaluate.ts";
import type { FromChild, ScriptJob, ToChild } from "./protocol.ts";

/** The memory cap scripts get unless configured otherwise (32 MiB, docs/processing-order.md#limits-and-defaults). */
const DEFAULT_HEAP_BYTES = 32 * 1024 * 1024;

/** Serves jobs until the parent goes away. */
export async function runSandboxChild(): Promise<void> {
  if (typeof process.send !== "function") {
    process.stderr.write("inlet: __sandbox-child is started by the server, not by hand\n");
    process.exit(2);
  }
  // The module's linear memory can grow by at most the memory cap: that bound, not QuickJS's own
  // allocation counter, is what stops a script that allocates many small objects (src/sandbox/wasm.ts).
  // Each script runs in a fresh runtime whose memory returns to the module when it is disposed.
  let heapBytes = DEFAULT_HEAP_BYTES;
  let module: QuickJSWASMModule = await newQuickJSModule(heapBytes);
  const moduleFor = async (job: ScriptJob) => {
    if (job.memoryBytes !== heapBytes) {
      heapBytes = job.memoryBytes;
      module = await newQuickJSModule(heapBytes);
    }
    return module;
  };
  const send = (message: FromChild) => process.send!(message);
  let work = Promise.resolve();
  process.on("message", (message: ToChild) => {
    if (message?.type !== "run") return;
    work = work.then(async () => {
      const { reply, poisoned } = evaluateScript(await moduleFor(message.job), message.job);
      send({ type: "result", id: message.id, reply });
      // A module something escaped from is not trusted again: the pool starts a fresh child.
      if (poisoned) setTimeout(() => process.exit(1), 10);
      // After running out of memory, start the next script on a fresh heap (a few ms).
      else if (!reply.ok && reply.code === "memory") module = await newQuickJSModule(heapBytes);
    });
  });
  process.on("disconnect", () => process.exit(0));
  send({ type: "ready" });
}
