import type { CheckPool } from "./pool.ts";
import { checkOps, type ChecksCompiler, type PreparedChecks } from "./prepared.ts";

/**
 * The server's checks: each one evaluates in a sandbox worker of `pool` (compiled there once per
 * trigger version), so user logic never runs on the thread that accepts and answers requests.
 */
export function pooledChecks(pool: CheckPool): ChecksCompiler {
  return (trigger) => {
    // Only the settings cross to the worker: no secret leaves this thread.
    const settings = { filter: trigger.filter, redaction: trigger.redaction, dedup: trigger.dedup, workflow: trigger.workflow, schema: trigger.schema };
    const key = `${trigger.id}@${trigger.updatedAt}`;
    const checks: PreparedChecks = {};
    const ops = checkOps(settings);
    if (ops.includes("passes") && ops.includes("redact")) ops.push("screen");
    for (const op of ops) {
      (checks as Record<string, (body: unknown) => Promise<unknown>>)[op] = (body) => pool.run(trigger.id, key, settings, op, body);
    }
    return checks;
  };
}
