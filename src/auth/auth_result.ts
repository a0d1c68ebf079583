/**
 * The outcome of authenticating a request, generic mode or app recipe alike. `reason` goes to
 * the owner's Activity row only: every failure is the same 401 to the caller.
 */
export type AuthResult = { ok: true } | { ok: false; reason: string };

export const AUTH_PASS: AuthResult = { ok: true };

export function authFailure(reason: string): AuthResult {
  return { ok: false, reason };
}
