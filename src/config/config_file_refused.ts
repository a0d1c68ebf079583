import { UsageError } from "./usage_error.ts";

/**
 * `inlet serve --config FILE` with a file that cannot be applied: the start stops (exit 2). Every
 * problem is a line of `problems`, which `inlet serve` writes on stderr before its one-line reason.
 */
export class ConfigFileRefused extends UsageError {
  override name = "ConfigFileRefused";

  constructor(
    file: string,
    readonly problems: string[],
  ) {
    super(`${file}: the config file was not applied (${problems.length} ${problems.length === 1 ? "error" : "errors"}): the server did not start`);
  }
}
