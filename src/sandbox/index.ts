/**
 * The QuickJS host: user-authored logic (filter expressions, expression keys, redaction
 * patterns, the regexes of match()/search()) is evaluated here, never by the host engine.
 *
 * @module
 */
export { MAX_NESTING_DEPTH, exceedsDepth } from "./depth.ts";
export { SandboxError, SandboxMemory, SandboxTimeout, type SandboxErrorCode } from "./errors.ts";
export { GuestUnit, defineGuest, type GuestProgram } from "./guest.ts";
export { DEFAULT_SANDBOX_LIMITS, Sandbox, type Deadline, type SandboxLimits } from "./sandbox.ts";
export { sandbox } from "./process_sandbox.ts";
