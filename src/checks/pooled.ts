import { compileChecks } from "./compile.ts";
import type { CheckPool } from "./pool.ts";
import type { ChecksCompiler } from "./prepared_checks.ts";

/**
 * The server's checks: what needs the sandbox evaluates in a sandbox worker of `pool` (compiled
 * there once per trigger version), so user logic never runs on the thread that accepts and
 * answers requests; the rest evaluates here (see `compileChecks`).
 */
export function pooledChecks(pool: CheckPool): ChecksCompiler {
  return (trigger) => {
    // Only the settings cross to the worker: no secret leaves this thread.
    const settings = {
      filter: trigger.filter,
      redaction: trigger.redaction,
      dedup: trigger.dedup,
      workflow: trigger.workflow,
      destinations: trigger.destinations,
      schema: trigger.schema,
    };
    const key = `${trigger.id}@${trigger.updatedAt}`;
    return compileChecks(settings, (op, input) => pool.run(trigger.id, key, settings, op, input));
  };
}
