import type { TSchema } from "@sinclair/typebox";
import type { TypeCheck } from "@sinclair/typebox/compiler";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";

/** One problem with an input, located by JSON pointer. */
export interface ValidationDetail {
  path: string;
  message: string;
}

/** Invalid input: the API answers 400 with `{error, details}`. */
export class ValidationError extends Error {
  override name = "ValidationError";
  readonly code = "invalid_input";
  constructor(readonly details: ValidationDetail[]) {
    super(
      details.length === 1
        ? `${details[0].path || "body"}: ${details[0].message}`
        : `${details.length} problems, first ${details[0].path || "body"}: ${details[0].message}`,
    );
  }
}

function describe(error: ValueError): string {
  const schema = error.schema as TSchema & { errorMessage?: string; anyOf?: TSchema[] };
  if (schema.errorMessage) return schema.errorMessage;
  if (error.type === ValueErrorType.Union && schema.anyOf?.every((s) => "const" in s)) {
    return `must be one of ${schema.anyOf.map((s) => JSON.stringify(s.const)).join(", ")}`;
  }
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return "is not a known field";
  if (error.type === ValueErrorType.ObjectRequiredProperty) return "is required";
  return error.message.charAt(0).toLowerCase() + error.message.slice(1);
}

/**
 * Turns TypeBox's errors into details a person can act on: the deepest error per path,
 * unknown fields by name, and unions of literals as "must be one of".
 */
export function schemaErrors<T extends TSchema>(check: TypeCheck<T>, value: unknown): ValidationDetail[] {
  const seen = new Set<string>();
  const details: ValidationDetail[] = [];
  for (const error of check.Errors(value)) {
    if (seen.has(error.path)) continue;
    // A union's own error is noise when one of its members already said something more precise.
    if (error.type === ValueErrorType.Union && details.some((d) => d.path.startsWith(error.path + "/"))) continue;
    seen.add(error.path);
    details.push({ path: error.path, message: describe(error) });
    if (details.length >= 20) break;
  }
  return details.length > 0 ? details : [{ path: "", message: "invalid input" }];
}
