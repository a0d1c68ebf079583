import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import type { ScriptJob, ScriptReply } from "./protocol.ts";

const MAX_LOG_LINES = 100;
const MAX_LOG_CHARS = 1000;

/** An exception thrown inside QuickJS (the script's own, or an interrupt / out-of-memory). */
class GuestThrow extends Error {
  constructor(
    readonly guestName: string,
    message: string,
    readonly unreadable = false,
  ) {
    super(message);
  }
}

/**
 * Runs one script job in a fresh QuickJS runtime of `module` (its own memory cap, stack limit and
 * interrupt deadline) and returns the reply. `poisoned` means something escaped QuickJS into the
 * host: the module must not be used again, and the child process exits after replying.
 */
export function evaluateScript(module: QuickJSWASMModule, job: ScriptJob): { reply: ScriptReply; poisoned: boolean } {
  const logs: string[] = [];
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(job.memoryBytes);
  runtime.setMaxStackSize(job.stackBytes);
  const deadline = performance.now() + job.timeoutMs;
  let interrupted = false;
  runtime.setInterruptHandler(() => {
    if (performance.now() < deadline) return false;
    interrupted = true;
    return true;
  });
  const context = runtime.newContext();
  const handles: QuickJSHandle[] = [];
  let reply: ScriptReply;
  try {
    reply = { ok: true, value: execute(runtime, context, job, handles, logs), logs };
  } catch (error) {
    if (!(error instanceof GuestThrow)) {
      // A host-side failure (an emscripten abort, the host stack): the runtime is corrupt and
      // disposing it would abort, so it is abandoned with the process.
      return { reply: { ok: false, code: "crashed", message: `the sandbox failed: ${describeHostError(error)}`, logs }, poisoned: true };
    }
    reply = classify(error, interrupted, job, logs);
  }
  try {
    for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
    context.dispose();
    runtime.dispose();
    return { reply, poisoned: false };
  } catch {
    return { reply, poisoned: true };
  }
}

function execute(runtime: QuickJSRuntime, context: QuickJSContext, job: ScriptJob, handles: QuickJSHandle[], logs: string[]): unknown {
  const own = <T extends QuickJSHandle>(handle: T): T => {
    handles.push(handle);
    return handle;
  };
  const unwrap = (result: ReturnType<QuickJSContext["evalCode"]>): QuickJSHandle => {
    if (result.error) throw guestThrow(context, result.error);
    return own(result.value);
  };
  const settle = (handle: QuickJSHandle): QuickJSHandle => {
    for (;;) {
      const state = context.getPromiseState(handle);
      if (state.type === "fulfilled") return state.notAPromise ? handle : own(state.value);
      if (state.type === "rejected") throw guestThrow(context, state.error);
      const jobs = runtime.executePendingJobs();
      if (jobs.error) throw guestThrow(context, jobs.error);
      if (jobs.value === 0 && context.getPromiseState(handle).type === "pending") {
        throw new InvalidScript("Error", "the script's promise never settled (scripts have no timers or I/O to wait for)");
      }
    }
  };

  installConsole(context, own, logs);
  const namespace = settle(unwrap(context.evalCode(job.source, "workflow.js", { type: "module" })));
  const main = own(context.getProp(namespace, "default"));
  if (context.typeof(main) !== "function") {
    throw new InvalidScript("TypeError", "the script must `export default` a function: export default ($trigger, ctx) => ({ status: 200, body: … })");
  }
  const json = own(context.getProp(context.global, "JSON"));
  const parse = own(context.getProp(json, "parse"));
  const stringify = own(context.getProp(json, "stringify"));
  const $trigger = unwrap(context.callFunction(parse, context.undefined, own(context.newString(JSON.stringify(job.trigger)))));
  const ctx = own(context.newObject());
  context.setProp(ctx, "runId", own(context.newString(job.runId)));
  for (const [key, value] of Object.entries(job.context ?? {})) {
    context.setProp(ctx, key, own(typeof value === "number" ? context.newNumber(value) : context.newString(value)));
  }
  const returned = settle(unwrap(context.callFunction(main, context.undefined, $trigger, ctx)));
  const text = unwrap(context.callFunction(stringify, context.undefined, returned));
  return context.typeof(text) === "string" ? JSON.parse(context.getString(text)) : undefined;
}

/** A problem with the script itself that QuickJS did not raise (no default export, a promise that never settles). */
class InvalidScript extends GuestThrow {}

function installConsole(context: QuickJSContext, own: <T extends QuickJSHandle>(h: T) => T, logs: string[]): void {
  const console = own(context.newObject());
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    const fn = own(
      context.newFunction(level, (...args) => {
        if (logs.length >= MAX_LOG_LINES) return;
        const parts = args.map((arg) => {
          if (context.typeof(arg) === "string") return context.getString(arg);
          try {
            return JSON.stringify(context.dump(arg)) ?? String(context.dump(arg));
          } catch {
            return String(context.typeof(arg));
          }
        });
        const line = `${level}: ${parts.join(" ")}`;
        logs.push(line.length > MAX_LOG_CHARS ? `${line.slice(0, MAX_LOG_CHARS)}…` : line);
      }),
    );
    context.setProp(console, level, fn);
  }
  context.setProp(context.global, "console", console);
}

function guestThrow(context: QuickJSContext, error: QuickJSHandle): GuestThrow {
  try {
    const dumped: unknown = context.dump(error);
    if (dumped && typeof dumped === "object") {
      const { name, message } = dumped as { name?: unknown; message?: unknown };
      return new GuestThrow(String(name ?? "Error"), String(message ?? ""));
    }
    return new GuestThrow("", dumped === null ? "null" : String(dumped), dumped === null);
  } catch {
    // Reading the error needs memory too: out of memory is the likely cause.
    return new GuestThrow("", "out of memory", true);
  } finally {
    if (error.alive) error.dispose();
  }
}

function classify(error: GuestThrow, interrupted: boolean, job: ScriptJob, logs: string[]): ScriptReply {
  if (interrupted) return { ok: false, code: "timeout", message: `the script ran past its ${job.timeoutMs} ms deadline`, logs };
  if (/out of memory/i.test(error.message) || error.unreadable) {
    return { ok: false, code: "memory", message: `the script ran out of memory (limit ${Math.round(job.memoryBytes / 1048576)} MiB)`, logs };
  }
  if (/stack overflow|call stack size/i.test(error.message))
    return { ok: false, code: "memory", message: `the script hit the stack limit (${error.message})`, logs };
  if (error instanceof InvalidScript) return { ok: false, code: "error", message: error.message, logs };
  const text = error.guestName ? `${error.guestName}: ${error.message}` : error.message;
  return { ok: false, code: "error", message: `the script threw ${text}`, logs };
}

function describeHostError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
