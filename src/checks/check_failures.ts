/**
 * An error raised while compiling or evaluating user logic (deadline, memory, a stored
 * expression that no longer compiles): answered as 500 "pre-execution check failed".
 */
export function isSandboxFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (code.startsWith("sandbox") || code === "invalid_expression" || code === "invalid_pattern");
}

/**
 * The checks could not be evaluated because the server cannot keep up (every sandbox worker busy
 * too long, too many evaluations waiting): answered 503 with `Retry-After`, the sender retries.
 */
export function isOverload(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "overloaded";
}
