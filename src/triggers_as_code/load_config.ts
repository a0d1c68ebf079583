import { dirname } from "node:path";
import { type ConfigError, type ConfigResult, failure } from "./config_error.ts";
import { formatOf, parseConfigText, readConfigFile, unknownFormat } from "./parse_config.ts";
import { substitute, type SubstituteOptions } from "./substitute.ts";
import { validateConfig, type ConfigFile, type TriggersAsCodeContext } from "./validate_config.ts";

export interface LoadedConfig {
  config: ConfigFile;
  /** JSON pointers of the values that came from placeholders: never to be printed. */
  substitutedPaths: string[];
}

/**
 * A config file read, its placeholders substituted (a relative `${file:…}` from the file's
 * folder) and the whole of it validated; nothing has changed yet. A file that cannot be read or
 * parsed gives that error; otherwise every error of the file is given at once: the placeholders
 * that failed, and what validation finds elsewhere (a field whose placeholder failed is not
 * checked again).
 */
export function loadConfigFile(path: string, context: TriggersAsCodeContext, options: SubstituteOptions = {}): ConfigResult<LoadedConfig> {
  return loaded(path, readConfigFile(path), context, options);
}

/**
 * As loadConfigFile, for the text of the file at `path` already read (a watcher applies exactly
 * the text it compared with the last one).
 */
export function loadConfigText(path: string, text: string, context: TriggersAsCodeContext, options: SubstituteOptions = {}): ConfigResult<LoadedConfig> {
  const format = formatOf(path);
  if (format === null) return unknownFormat(path);
  return loaded(path, parseConfigText(text, format, path), context, options);
}

function loaded(path: string, parsed: ConfigResult<unknown>, context: TriggersAsCodeContext, options: SubstituteOptions): ConfigResult<LoadedConfig> {
  if (!parsed.ok) return parsed;
  const substituted = substitute(parsed.value, { baseDir: dirname(path), ...options });
  if (!substituted.ok) {
    if (!("partial" in substituted)) return substituted;
    const { document, substitutedPaths } = substituted.partial;
    const rest = validateConfig(document, context, substitutedPaths);
    const elsewhere = rest.ok ? [] : rest.errors.filter((error) => !substituted.errors.some((failed) => sameField(error, failed)));
    return failure([...substituted.errors, ...elsewhere]);
  }
  const { document, substitutedPaths } = substituted.value;
  const validated = validateConfig(document, context, substitutedPaths);
  if (!validated.ok) return validated;
  return { ok: true, value: { config: validated.value, substitutedPaths } };
}

/** Whether two errors are about the same field of the same trigger, or one about a part of the other. */
function sameField(a: ConfigError, b: ConfigError): boolean {
  if (a.trigger !== b.trigger) return false;
  const [x, y] = [a.path ?? "", b.path ?? ""];
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}
