import { checkFilter, checkQuery, compileFilter, compileKeyQuery, runFilter, runKeyQuery } from "../filter/index.ts";
import { checkPatterns, compileRedaction, redact } from "../redact/index.ts";
import type { ExpressionRules } from "../triggers/normalize.ts";
import { checkSchemaDocument, CompiledSchema } from "../schema/validator.ts";
import { checkOps, type CheckSettings, type PreparedChecks } from "./prepared.ts";

/** Configuration-time checks: the same parsers and pattern compiler the live path uses. */
export const expressionRules: ExpressionRules = {
  checkQuery,
  checkFilter,
  checkPatterns: (patterns) => checkPatterns(patterns),
  checkSchema: (document) => checkSchemaDocument(document),
};

/**
 * Compiles a trigger's filter, redaction patterns, expression dedup query, JSON Schema and
 * ordering key once. Every evaluation runs in the QuickJS sandbox of the thread that compiled
 * them: on the server, a sandbox worker (see pool.ts), never the thread that answers requests.
 */
export const compileChecks = (settings: CheckSettings): PreparedChecks => {
  const checks: PreparedChecks = {};
  const { filter, redaction, dedup, workflow, schema } = settings;
  for (const op of checkOps(settings)) {
    switch (op) {
      case "passes": {
        const compiled = compileFilter(filter.expression!);
        const include = filter.mode !== "exclude";
        // Include runs only when true; Exclude skips when true.
        checks.passes = (body) => runFilter(compiled, body) === include;
        break;
      }
      case "redact": {
        const redactor = compileRedaction(redaction.patterns!);
        checks.redact = (body) => redact(redactor, body);
        break;
      }
      case "select": {
        const query = compileKeyQuery(dedup.expression!);
        checks.select = (body) => runKeyQuery(query, body);
        break;
      }
      case "schema": {
        const compiled = new CompiledSchema(schema!.document);
        checks.schema = (body) => compiled.validate(body);
        break;
      }
      case "orderingKey": {
        const query = compileKeyQuery((workflow as { orderingKey: string }).orderingKey);
        checks.orderingKey = (body) => runKeyQuery(query, body);
        break;
      }
    }
  }
  const { passes, redact: redactBody } = checks;
  if (passes && redactBody) checks.screen = async (body) => ({ passes: await passes(body), redacted: await redactBody(body) });
  return checks;
};
