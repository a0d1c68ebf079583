/**
 * `sign()` was asked to sign without what it needs (an empty secret, a key of the wrong type, a
 * header the recipe signs over). A misuse, so it is thrown, unlike a bad signature on an inbound
 * request, which is just `false`.
 */
export class CannotSignError extends TypeError {
  override name = "CannotSignError";
  readonly code = "cannot_sign";
}

/**
 * The error `sign()` throws when it cannot sign; the message says what is missing.
 *
 * @example
 * ```ts
 * if (!ctx.secret) throw cannotSign("the Stripe signing secret is empty");
 * // CannotSignError: cannot sign: the Stripe signing secret is empty
 * ```
 */
export function cannotSign(reason: string): CannotSignError {
  return new CannotSignError(`cannot sign: ${reason}`);
}
