/**
 * A URL fit to print: its password replaced by `***` (a URL that does not parse has any
 * `user:password@` part replaced the same way), so no message or log line ever carries it.
 *
 * @example
 * ```ts
 * redactUrl("postgres://inlet:s3cret@db:5432/inlet"); // "postgres://inlet:***@db:5432/inlet"
 * redactUrl("postgress://inlet:s3cret@db/x");         // "postgress://inlet:***@db/x"
 * ```
 */
export function redactUrl(url: string): string {
  let text = url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    text = parsed.toString();
  } catch {
    // Not a URL at all: the pattern below still finds a `user:password@`.
  }
  // A mistyped URL may parse with the credentials outside the authority ("inlet:pw@host").
  return text.replace(/:[^:@/]*@/, ":***@");
}
