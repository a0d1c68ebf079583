/** Why a sandboxed evaluation did not produce a result. */
export type SandboxErrorCode =
  /** The deadline passed; QuickJS interrupted the evaluation. */
  | "sandbox_timeout"
  /** The memory cap or the stack limit was reached. */
  | "sandbox_memory"
  /** The input is nested deeper than the sandbox accepts; nothing entered QuickJS. */
  | "sandbox_too_deep"
  /** The guest program threw (a bug in our guest code, or an input it rejects). */
  | "sandbox_guest_error"
  /** An error escaped QuickJS into the host; the WebAssembly module was discarded and is being rebuilt. */
  | "sandbox_crashed"
  /** The sandbox is being rebuilt after a crash; try again in a few milliseconds. */
  | "sandbox_unavailable";

/**
 * A sandboxed evaluation failed. Every code starts with `sandbox_`, which is how the pipeline
 * recognises these. Callers treat every code alike for a request (fail closed: 500
 * "pre-execution check failed"); the code and message go to Activity and the log.
 */
export class SandboxError extends Error {
  override name = "SandboxError";
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The evaluation ran past its deadline and was interrupted. */
export class SandboxTimeout extends SandboxError {
  override name = "SandboxTimeout";
  constructor(readonly deadlineMs: number) {
    super("sandbox_timeout", `sandbox evaluation interrupted after its ${deadlineMs} ms deadline`);
  }
}

/** The evaluation hit the memory cap (`heap`) or the stack limit (`stack`, runaway recursion). */
export class SandboxMemory extends SandboxError {
  override name = "SandboxMemory";
  constructor(
    readonly resource: "heap" | "stack",
    detail: string,
  ) {
    super(
      "sandbox_memory",
      resource === "heap" ? `sandbox evaluation ran out of memory (${detail})` : `sandbox evaluation reached the stack limit (${detail})`,
    );
  }
}
