import type { ConfigError } from "./config_error.ts";

/**
 * Shorter values are not searched for: they would blot out ordinary words of a message, and no
 * message quotes a secret field's value anyway (this is the second line of defence).
 */
const MIN_LENGTH = 6;

/** The errors with every occurrence of the given values (as written, or JSON-escaped) replaced by `***`. */
export function scrubErrors(errors: ConfigError[], values: Iterable<string>): ConfigError[] {
  const needles = new Set<string>();
  for (const value of values) {
    if (value.length < MIN_LENGTH) continue;
    needles.add(value);
    needles.add(JSON.stringify(value).slice(1, -1));
  }
  if (needles.size === 0) return errors;
  // Longest first, so a value that contains another is replaced whole.
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  const scrub = (text: string) => ordered.reduce((out, needle) => out.split(needle).join("***"), text);
  return errors.map((error) => ({
    ...error,
    message: scrub(error.message),
    ...(error.trigger === undefined ? {} : { trigger: scrub(error.trigger) }),
    ...(error.path === undefined ? {} : { path: scrub(error.path) }),
  }));
}
