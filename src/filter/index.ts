/**
 * Filter expressions and expression dedup keys: parsed on the host, evaluated in QuickJS on
 * the projection of the body they can observe.
 *
 * @module
 */
export {
  checkFilter,
  checkQuery,
  compileFilter,
  compileKeyQuery,
  ExpressionError,
  jsonPathGuest,
  runFilter,
  runKeyQuery,
  type CompiledFilter,
  type CompiledKeyQuery,
  type ExpressionOptions,
} from "./expression.ts";
