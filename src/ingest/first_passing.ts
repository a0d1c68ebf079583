import type { AuthResult } from "../auth/auth_result.ts";

/**
 * Tries each candidate secret in turn (the current one first) and passes on the first that
 * verifies; when none does, the first attempt's reason is the one the owner reads. With no
 * candidate at all, `none` says why.
 */
export async function firstPassing(
  candidates: string[],
  check: (secret: string) => AuthResult | Promise<AuthResult>,
  none: () => AuthResult | Promise<AuthResult>,
): Promise<AuthResult> {
  if (candidates.length === 0) return none();
  let first: AuthResult | null = null;
  for (const secret of candidates) {
    const result = await check(secret);
    if (result.ok) return result;
    first ??= result;
  }
  return first!;
}
