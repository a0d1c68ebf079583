import type { QuickJSWASMModule } from "quickjs-emscripten-core";
import { SandboxError, SandboxMemory } from "./errors.ts";
import { assertNoNul, type GuestProgram, type GuestUnit } from "./guest.ts";
import { Realm, RealmCrash } from "./realm.ts";
import { newQuickJSModule } from "./wasm.ts";

/** Limits of a sandbox. */
export interface SandboxLimits {
  /** Wall-clock budget of one evaluation (default 50 ms). A soft bound: see docs/processing-order.md#the-sandbox. */
  deadlineMs: number;
  /** Memory cap of the QuickJS heap (default 32 MiB, docs/processing-order.md#limits-and-defaults). Fixed when the sandbox is created. */
  memoryBytes: number;
  /** QuickJS stack limit; above 256 KB deep recursion can overflow the host stack first (docs/processing-order.md#the-sandbox). Fixed at creation. */
  maxStackBytes: number;
  /** How many compiled units (a filter, a trigger's patterns…) stay compiled; older ones are recompiled on use. */
  maxUnits: number;
}

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  deadlineMs: 50,
  memoryBytes: 32 * 1024 * 1024,
  maxStackBytes: 256 * 1024,
  maxUnits: 1024,
});

const MAX_STACK_BYTES = 256 * 1024;
/** Emscripten caps wasm32 linear memory at 2 GiB; leave room for the module's own 16 MiB. */
const MAX_MEMORY_BYTES = 1024 * 1024 * 1024;

/** An absolute deadline shared by the several calls of one evaluation (e.g. one redaction). */
export interface Deadline {
  /** `performance.now()` time after which QuickJS is interrupted. */
  readonly at: number;
  /** The budget it was made from, for the error message. */
  readonly ms: number;
}

/**
 * The QuickJS host. Evaluation is synchronous and in-process: the deadline, not a thread,
 * bounds it. Every failure is a `SandboxError` (`SandboxTimeout`, `SandboxMemory`, or a code).
 *
 * A host-side failure inside QuickJS (the host stack overflowing under a wasm frame, an
 * emscripten abort) leaves the WebAssembly module corrupt, so the whole module is dropped and
 * the call fails with code `sandbox_crashed`. After the heap ran out, a probe checks that the
 * memory was given back (our guests keep no state per call); if not, the module is replaced
 * the same way. A standby module, instantiated ahead of time from the precompiled wasm, takes
 * over synchronously, and a new standby is built in the background; two replacements within
 * one turn of the event loop leave the sandbox `sandbox_unavailable` for a few milliseconds.
 *
 * @example
 * ```ts
 * const sandbox = await Sandbox.create({ deadlineMs: 50 });
 * const answer = sandbox.call(program, "classify", [unit, '["password"]']);
 * ```
 */
export class Sandbox {
  private realm: Realm | null;
  private standby: QuickJSWASMModule | null;
  private building: Promise<void> | null = null;
  private replacementCount = 0;
  private currentLimits: SandboxLimits;

  private constructor(primary: QuickJSWASMModule, standby: QuickJSWASMModule, limits: SandboxLimits) {
    this.currentLimits = limits;
    this.realm = new Realm(primary, limits);
    this.standby = standby;
  }

  /** Instantiates QuickJS (about 25–40 ms the first time in a process, ~1–5 ms after). */
  static async create(limits: Partial<SandboxLimits> = {}): Promise<Sandbox> {
    const checked = checkLimits({ ...DEFAULT_SANDBOX_LIMITS, ...limits });
    const [primary, standby] = await Promise.all([newQuickJSModule(checked.memoryBytes), newQuickJSModule(checked.memoryBytes)]);
    return new Sandbox(primary, standby, checked);
  }

  get limits(): Readonly<SandboxLimits> {
    return this.currentLimits;
  }

  /** How many compiled units the current module holds. */
  get compiledUnits(): number {
    return this.realm?.unitCount ?? 0;
  }

  /** How many times a module was replaced (after a crash, or a heap that stayed full). */
  get replacements(): number {
    return this.replacementCount;
  }

  /** Changes the deadline or the number of compiled units kept; they apply to the next evaluation. */
  configure(limits: Partial<Pick<SandboxLimits, "deadlineMs" | "maxUnits">>): void {
    this.currentLimits = checkLimits({ ...this.currentLimits, ...limits });
    this.realm?.setMaxUnits(this.currentLimits.maxUnits);
  }

  /** Resolves once a standby module is ready again after a crash (at once when one is). */
  async ready(): Promise<void> {
    while (this.building) await this.building;
  }

  /** A deadline `ms` (default: the configured budget) from now. */
  deadline(ms: number = this.currentLimits.deadlineMs): Deadline {
    return { at: performance.now() + ms, ms };
  }

  /**
   * Calls `program[fn](...args)` in QuickJS and returns the string it returns. Units are passed
   * compiled (compiled now on a miss); strings as strings, which cannot contain U+0000 (pass
   * JSON text). The whole call, compiling included, must finish by `deadline`.
   */
  call(program: GuestProgram, fn: string, args: ReadonlyArray<GuestUnit | string>, deadline: Deadline = this.deadline()): string {
    for (const arg of args) if (typeof arg === "string") assertNoNul(arg);
    const realm = this.realm ?? this.takeStandby();
    try {
      return realm.call(program, fn, args, deadline.at, deadline.ms);
    } catch (error) {
      if (error instanceof SandboxMemory && error.resource === "heap") {
        if (!realm.hasHeadroom()) this.replace(realm, false);
        throw error;
      }
      if (error instanceof SandboxError) throw error;
      this.replace(realm, true);
      const reason = error instanceof RealmCrash ? error.message : `host-side failure: ${String(error)}`;
      throw new SandboxError("sandbox_crashed", `${reason}; the sandbox module was discarded and rebuilt`);
    }
  }

  private replace(realm: Realm, crashed: boolean): void {
    if (this.realm !== realm) return;
    this.replacementCount++;
    if (!crashed) {
      try {
        realm.dispose();
      } catch {
        // Freeing is a courtesy here: the module is dropped either way.
      }
    }
    // A crashed runtime is not disposed: QuickJS asserts on its broken GC lists and aborts.
    // Dropping every reference lets the garbage collector free the module and its memory.
    this.realm = null;
    if (this.standby) this.takeStandby();
    else this.buildStandby();
  }

  private takeStandby(): Realm {
    const module = this.standby;
    this.standby = null;
    this.buildStandby();
    if (!module) throw new SandboxError("sandbox_unavailable", "the sandbox module is being rebuilt; try again shortly");
    this.realm = new Realm(module, this.currentLimits);
    return this.realm;
  }

  private buildStandby(): void {
    if (this.building) return;
    this.building = newQuickJSModule(this.currentLimits.memoryBytes)
      .then(
        (module) => {
          this.standby = module;
        },
        (error: unknown) => {
          console.error(`inlet: could not rebuild the QuickJS sandbox: ${String(error)}`);
        },
      )
      .finally(() => {
        this.building = null;
      });
  }
}

function checkLimits(limits: SandboxLimits): SandboxLimits {
  const positive = (name: keyof SandboxLimits) => {
    const value = limits[name];
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`sandbox ${name} must be a positive number, got ${value}`);
  };
  positive("deadlineMs");
  positive("memoryBytes");
  positive("maxStackBytes");
  positive("maxUnits");
  if (limits.memoryBytes > MAX_MEMORY_BYTES) throw new RangeError(`sandbox memoryBytes must be at most ${MAX_MEMORY_BYTES}, got ${limits.memoryBytes}`);
  if (limits.maxStackBytes > MAX_STACK_BYTES) {
    throw new RangeError(
      `sandbox maxStackBytes must be at most ${MAX_STACK_BYTES} (deeper QuickJS recursion overflows the host stack), got ${limits.maxStackBytes}`,
    );
  }
  return { ...limits, maxUnits: Math.floor(limits.maxUnits) };
}
