/** What kind of problem a config file (or an export) has. */
export type ConfigErrorCode =
  | "unreadable_file"
  | "unknown_format"
  | "syntax"
  | "too_large"
  | "bad_placeholder"
  | "unset_variable"
  | "unreadable_secret_file"
  | "invalid_file"
  | "invalid_trigger"
  | "duplicate_name"
  | "duplicate_token"
  | "ambiguous_name"
  | "token_taken"
  | "changed_meanwhile"
  | "app_changed"
  | "export_name_collision";

/**
 * One problem, located as precisely as it can be: a file (and line) for reading and syntax, a
 * trigger and a field path for everything inside one. The message never holds a secret, a token
 * or an appSecret value, nor any value that came from a `${…}` placeholder.
 */
export interface ConfigError {
  code: ConfigErrorCode;
  message: string;
  file?: string;
  line?: number;
  /** The trigger's name in the file, or `triggers[i]` when it has none. */
  trigger?: string;
  /** JSON pointer inside the trigger (or inside the file, without `trigger`), e.g. `/auth/secret`. */
  path?: string;
}

/** Expected outcomes are values: a result, or every problem found. */
export type ConfigResult<T> = { ok: true; value: T } | { ok: false; errors: ConfigError[] };

export const success = <T>(value: T): ConfigResult<T> => ({ ok: true, value });
export const failure = <T>(errors: ConfigError[]): ConfigResult<T> => ({ ok: false, errors });

/**
 * One line per problem, as the commands print them: `orders: /auth/secret: must be at least 16
 * characters`, `inlet.yaml:7: not valid YAML (Unexpected token)`.
 */
export function formatConfigError(error: ConfigError): string {
  const file = error.file === undefined ? undefined : error.line === undefined ? error.file : `${error.file}:${error.line}`;
  return [file, error.trigger, error.path || undefined, error.message].filter((part) => part !== undefined).join(": ");
}
