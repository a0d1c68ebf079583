import { bundleGuest } from "../sandbox/bundle_guest.ts" with { type: "macro" };
import { defineGuest, sandbox as sharedSandbox, SandboxMemory, SandboxTimeout, type Sandbox } from "../sandbox/index.ts";

export const schemaGuest = defineGuest("inletSchema", bundleGuest("src/schema/guest.ts"));

/** Why a schema `pattern` does not compile in the engine that runs it (QuickJS, `u` flag), or null. */
export function patternProblem(pattern: string, sandbox: Sandbox = sharedSandbox): string | null {
  try {
    const reason = sandbox.call(schemaGuest, "check", [JSON.stringify(pattern)]);
    return reason === "" ? null : reason;
  } catch (error) {
    if (error instanceof SandboxTimeout || error instanceof SandboxMemory) return `could not be compiled within the sandbox's limits (${error.message})`;
    throw error;
  }
}

/**
 * Tests strings against schema patterns inside the sandbox, all in one call (one deadline):
 * `pairs` maps each pattern to the strings to test; the answer has one boolean per string.
 * Throws a sandbox error when the deadline or the memory cap is hit.
 */
export async function testPatterns(pairs: Map<string, string[]>, sandbox: Sandbox = sharedSandbox): Promise<Map<string, boolean[]>> {
  const entries = [...pairs];
  const answer = JSON.parse(sandbox.call(schemaGuest, "test", [JSON.stringify(entries)])) as string[];
  return new Map(entries.map(([pattern], i) => [pattern, [...answer[i]].map((c) => c === "1")]));
}
