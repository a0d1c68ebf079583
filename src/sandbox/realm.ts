import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten-core";
import { SandboxError, SandboxMemory, SandboxTimeout } from "./errors.ts";
import type { GuestProgram, GuestUnit } from "./guest.ts";
import { stringWriter, type StringWriter } from "./strings.ts";

/** Limits of one realm. */
export interface RealmLimits {
  memoryBytes: number;
  maxStackBytes: number;
  maxUnits: number;
}

/** Loading our own bundled program is not user work: it gets a generous, fixed deadline. */
const LOAD_DEADLINE_MS = 2_000;
/** What must be allocatable after an out-of-memory error for the realm to be kept. */
const HEADROOM_BYTES = 1024 * 1024;

/** A guest program once evaluated in this realm. */
interface LoadedProgram {
  object: QuickJSHandle;
  functions: Map<string, QuickJSHandle>;
}

/**
 * A host-side failure inside a realm (an exception thrown out of QuickJS into the host, or an
 * emscripten abort). The realm's WebAssembly module must not be used again.
 */
export class RealmCrash extends Error {
  override name = "RealmCrash";
}

/**
 * One QuickJS runtime and context inside one WebAssembly module, shared by every trigger.
 *
 * Nothing user-authored here is code: users give filter sources, regex patterns and data, which our
 * guest programs parse, so one context can hold every trigger's compiled units without them seeing
 * each other. One context costs ~10 KB per trigger against ~77 KB for a runtime+context each
 * (docs/processing-order.md#the-sandbox), and the bundled JSONPath engine is loaded once, not per
 * trigger. Evaluations are synchronous, so the runtime-wide deadline and memory cap apply to one
 * evaluation at a time.
 */
export class Realm {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly writeString: StringWriter;
  private readonly programs = new Map<GuestProgram, LoadedProgram>();
  /** LRU: Map iteration order is insertion order, so a hit is re-inserted at the end. */
  private readonly units = new Map<GuestUnit, QuickJSHandle>();
  private deadlineAt = Number.POSITIVE_INFINITY;
  private interrupted = false;
  private broken = false;

  constructor(
    module: QuickJSWASMModule,
    private limits: RealmLimits,
  ) {
    this.runtime = module.newRuntime();
    // Only refuses single oversized allocations in this build; the bounded linear memory is
    // the real cap (see wasm.ts).
    this.runtime.setMemoryLimit(limits.memoryBytes);
    this.runtime.setMaxStackSize(limits.maxStackBytes);
    this.runtime.setInterruptHandler(() => {
      if (performance.now() < this.deadlineAt) return false;
      this.interrupted = true;
      return true;
    });
    this.context = this.runtime.newContext();
    this.writeString = stringWriter(this.context);
  }

  /** Number of compiled units held. */
  get unitCount(): number {
    return this.units.size;
  }

  setMaxUnits(maxUnits: number): void {
    this.limits = { ...this.limits, maxUnits };
    while (this.units.size > maxUnits) this.evictOldest();
  }

  /**
   * Calls `program[fn](...args)` inside QuickJS: units are passed as their compiled value
   * (compiled on a miss), strings as strings. The guest must return a string. Everything,
   * compiling included, must finish by `deadlineAt` (a `performance.now()` time).
   *
   * Throws a `SandboxError` for failures inside QuickJS (the realm stays usable) and
   * `RealmCrash` when something escaped into the host (the realm is unusable).
   */
  call(program: GuestProgram, fn: string, args: ReadonlyArray<GuestUnit | string>, deadlineAt: number, deadlineMs: number): string {
    if (this.broken) throw new RealmCrash("realm already crashed");
    const owned: QuickJSHandle[] = [];
    try {
      const loaded = this.load(program);
      const handles: QuickJSHandle[] = [];
      for (const arg of args) {
        if (typeof arg === "string") {
          const handle = this.writeString(arg);
          owned.push(handle);
          handles.push(handle);
        } else {
          handles.push(this.unit(arg, deadlineAt, deadlineMs));
        }
      }
      const result = this.guarded(deadlineAt, deadlineMs, () =>
        this.context.callFunction(this.functionOf(program, loaded, fn), this.context.undefined, handles),
      );
      owned.push(result);
      if (this.context.typeof(result) !== "string") throw new SandboxError("sandbox_guest_error", `guest ${program.name}.${fn} did not return a string`);
      return this.context.getString(result);
    } catch (error) {
      if (error instanceof SandboxError || error instanceof RealmCrash) throw error;
      this.broken = true;
      throw new RealmCrash(`host-side failure inside QuickJS: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, { cause: error });
    } finally {
      if (!this.broken) for (const handle of owned) handle.dispose();
    }
  }

  /**
   * Whether the heap has room again after an out-of-memory error: our guests keep nothing
   * per call, so the memory should have been freed when the call unwound.
   */
  hasHeadroom(): boolean {
    if (this.broken) return false;
    try {
      const deadlineAt = performance.now() + LOAD_DEADLINE_MS;
      this.guarded(deadlineAt, LOAD_DEADLINE_MS, () => this.context.evalCode(`"x".repeat(${HEADROOM_BYTES}).length`)).dispose();
      return true;
    } catch (error) {
      if (!(error instanceof SandboxError)) this.broken = true;
      return false;
    }
  }

  /** Frees the runtime. Only for a realm that did not crash: a corrupt runtime aborts on dispose. */
  dispose(): void {
    if (this.broken) return;
    this.broken = true;
    for (const handle of this.units.values()) handle.dispose();
    this.units.clear();
    for (const loaded of this.programs.values()) {
      for (const handle of loaded.functions.values()) handle.dispose();
      loaded.object.dispose();
    }
    this.programs.clear();
    this.context.dispose();
    this.runtime.dispose();
  }

  private load(program: GuestProgram): LoadedProgram {
    const known = this.programs.get(program);
    if (known) return known;
    const deadlineAt = performance.now() + LOAD_DEADLINE_MS;
    const completion = this.guarded(deadlineAt, LOAD_DEADLINE_MS, () => this.context.evalCode(program.source, `${program.name}.js`));
    completion.dispose();
    const object = this.context.getProp(this.context.global, program.name);
    if (this.context.typeof(object) !== "object") {
      object.dispose();
      throw new SandboxError("sandbox_guest_error", `guest program ${program.name} did not define globalThis.${program.name}`);
    }
    const loaded: LoadedProgram = { object, functions: new Map() };
    this.programs.set(program, loaded);
    return loaded;
  }

  private functionOf(program: GuestProgram, loaded: LoadedProgram, fn: string): QuickJSHandle {
    let handle = loaded.functions.get(fn);
    if (!handle) {
      handle = this.context.getProp(loaded.object, fn);
      if (this.context.typeof(handle) !== "function") {
        handle.dispose();
        throw new SandboxError("sandbox_guest_error", `guest program ${program.name} has no function ${fn}`);
      }
      loaded.functions.set(fn, handle);
    }
    return handle;
  }

  private unit(unit: GuestUnit, deadlineAt: number, deadlineMs: number): QuickJSHandle {
    const cached = this.units.get(unit);
    if (cached) {
      this.units.delete(unit);
      this.units.set(unit, cached);
      return cached;
    }
    const loaded = this.load(unit.program);
    const compile = this.functionOf(unit.program, loaded, unit.compile);
    const source = this.writeString(unit.source);
    try {
      const handle = this.guarded(deadlineAt, deadlineMs, () => this.context.callFunction(compile, this.context.undefined, source));
      while (this.units.size >= this.limits.maxUnits) this.evictOldest();
      this.units.set(unit, handle);
      return handle;
    } finally {
      source.dispose();
    }
  }

  private evictOldest(): void {
    const oldest = this.units.entries().next();
    if (oldest.done) return;
    const [unit, handle] = oldest.value;
    this.units.delete(unit);
    handle.dispose();
  }

  /** Runs one QuickJS operation under the deadline and turns a guest exception into a SandboxError. */
  private guarded(deadlineAt: number, deadlineMs: number, operation: () => ReturnType<QuickJSContext["callFunction"]>): QuickJSHandle {
    this.interrupted = false;
    this.deadlineAt = deadlineAt;
    let outcome: ReturnType<QuickJSContext["callFunction"]>;
    try {
      outcome = operation();
    } finally {
      this.deadlineAt = Number.POSITIVE_INFINITY;
    }
    if (!outcome.error) return outcome.value;
    const error = outcome.error;
    try {
      throw this.interrupted ? new SandboxTimeout(deadlineMs) : this.describe(error);
    } finally {
      error.dispose();
    }
  }

  private describe(error: QuickJSHandle): SandboxError {
    let name = "";
    let message = "";
    try {
      const dumped: unknown = this.context.dump(error);
      if (dumped && typeof dumped === "object") {
        name = String((dumped as { name?: unknown }).name ?? "");
        message = String((dumped as { message?: unknown }).message ?? "");
      } else if (dumped === "" || dumped === null || dumped === undefined) {
        // Out of memory, QuickJS may throw null, or `dump` cannot stringify the error.
        return new SandboxMemory("heap", "out of memory");
      } else {
        message = String(dumped);
      }
    } catch {
      // Describing the error needs memory too; when even that fails, memory is the likely cause.
      return new SandboxMemory("heap", "the error could not be read back");
    }
    if (/out of memory/i.test(message)) return new SandboxMemory("heap", message);
    if (/stack overflow|call stack size/i.test(message)) return new SandboxMemory("stack", message);
    return new SandboxError("sandbox_guest_error", name ? `${name}: ${message}` : message);
  }
}
