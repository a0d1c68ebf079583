import { Sandbox } from "./sandbox.ts";

/**
 * The process-wide sandbox every stage uses, ready once this module has loaded (top-level
 * await: QuickJS is instantiated during import, ~25–40 ms). `sandbox.configure()` changes its limits.
 */
export const sandbox: Sandbox = await Sandbox.create();
