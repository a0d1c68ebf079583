import { checkFilter, checkQuery, compileFilter, compileKeyQuery, runFilter, runKeyQuery } from "../filter/index.ts";
import { checkPatterns, classifyNames, compileRedaction, NameDecisions, redact, redactWith } from "../redact/index.ts";
import type { ExpressionRules } from "../triggers/normalize.ts";
import { checkSchemaDocument, CompiledSchema, validatesWithoutSandbox } from "../schema/validator.ts";
import { checkOps, type CheckOp, type CheckSettings } from "./check_ops.ts";
import type { PreparedChecks } from "./prepared_checks.ts";
import { destinationsOf } from "../records/destination.ts";
import { sharedInFlight } from "./shared_in_flight.ts";

/** Configuration-time checks: the same parsers and pattern compiler the live path uses. */
export const expressionRules: ExpressionRules = {
  checkQuery,
  checkFilter,
  checkPatterns: (patterns) => checkPatterns(patterns),
  checkSchema: (document) => checkSchemaDocument(document),
};

/**
 * Where the checks that need the sandbox evaluate when this thread is not to run them: a sandbox
 * worker (see pool.ts and pooled.ts) that compiled the same settings with `compileChecks`.
 */
export type Elsewhere = (op: CheckOp, input: unknown) => Promise<unknown>;

/**
 * Compiles a trigger's filter, redaction patterns, expression dedup query, JSON Schema and
 * ordering key once.
 *
 * Without `elsewhere`, every check evaluates on this thread, user logic in its QuickJS sandbox
 * (a sandbox worker; the CLI's replay). With `elsewhere` (the thread that answers requests), only
 * what needs no sandbox evaluates here: filters and key queries whose cost is linear in the data
 * they observe and whose match()/search() patterns (if any) run on the linear engine
 * (`CompiledFilter.onHost`), JSON Schemas whose patterns all do (`validatesWithoutSandbox`), and
 * redaction of field names whose decisions the worker made before (remembered here, so a body
 * whose names recur never leaves this thread). Other user regexes and new field names go to `elsewhere`.
 */
export const compileChecks = (settings: CheckSettings, elsewhere?: Elsewhere): PreparedChecks => {
  const checks: PreparedChecks = {};
  const { filter, redaction, dedup, schema } = settings;
  /** `local` where the check runs on this thread (it may, or there is nowhere else), else `op` in `elsewhere`. */
  const placed = <T>(onHost: boolean, op: CheckOp, local: (body: unknown) => T) =>
    elsewhere && !onHost ? async (body: unknown) => (await elsewhere(op, body)) as T : local;
  for (const op of checkOps(settings)) {
    switch (op) {
      case "passes": {
        const compiled = compileFilter(filter.expression!);
        const include = filter.mode !== "exclude";
        // Include runs only when true; Exclude skips when true.
        checks.passes = placed(compiled.onHost, "passes", (body) => runFilter(compiled, body) === include);
        break;
      }
      case "redact": {
        if (elsewhere) {
          const decisions = new NameDecisions();
          // A burst of bodies with the same new field names asks the worker once for them all.
          const classify = sharedInFlight(JSON.stringify, async (names: string[]) => (await elsewhere("classify", names)) as string);
          checks.redact = (body) => redactWith(decisions, body, classify);
        } else {
          const redactor = compileRedaction(redaction.patterns!);
          checks.redact = (body) => redact(redactor, body);
          checks.classify = (names) => classifyNames(redactor, names);
        }
        break;
      }
      case "select": {
        const query = compileKeyQuery(dedup.expression!);
        checks.select = placed(query.onHost, "select", (body) => runKeyQuery(query, body));
        break;
      }
      case "schema": {
        if (elsewhere && !validatesWithoutSandbox(schema!.document)) {
          checks.schema = async (body) => (await elsewhere("schema", body)) as Array<{ path: string; message: string }>;
        } else {
          const compiled = new CompiledSchema(schema!.document);
          checks.schema = (body) => compiled.validate(body);
        }
        break;
      }
      case "orderingKey": {
        const queries = destinationsOf(settings).flatMap((d) =>
          "orderingKey" in d.workflow && d.workflow.orderingKey ? [[d.name, compileKeyQuery(d.workflow.orderingKey)] as const] : [],
        );
        const local = (body: unknown) => Object.fromEntries(queries.map(([name, query]) => [name, runKeyQuery(query, body)]));
        checks.orderingKey = placed(
          queries.every(([, q]) => q.onHost),
          "orderingKey",
          local,
        );
        break;
      }
      case "route": {
        // Each destination's own filter, on the redacted body: include runs only when true, exclude skips when true.
        const routes = destinationsOf(settings).map((d) => ({
          name: d.name,
          filter: d.filter ? compileFilter(d.filter.expression) : null,
          include: d.filter?.mode !== "exclude",
        }));
        const local = (body: unknown) => routes.filter((r) => r.filter === null || runFilter(r.filter, body) === r.include).map((r) => r.name);
        checks.route = placed(
          routes.every((r) => r.filter === null || r.filter.onHost),
          "route",
          local,
        );
        break;
      }
    }
  }
  return checks;
};
