import type { ExpressionRules } from "../triggers/normalize.ts";
import type { ChecksCompiler } from "./stages.ts";
import type { ExpressionCheck } from "../http/api.ts";

const pending = "is not available yet in this build";
export const expressionRules: ExpressionRules = {
  checkQuery: () => `expression dedup ${pending}`,
  checkFilter: () => `filters ${pending}`,
  checkPatterns: (p) => p.map((_, index) => ({ index, message: `redaction ${pending}` })),
};
export const compileChecks: ChecksCompiler = () => ({});
export const checkExpression: ExpressionCheck = () => ({ ok: false, error: `checks ${pending}` });
