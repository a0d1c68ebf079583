import { dirname } from "node:path";
import type { ConfigResult } from "./config_error.ts";
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
 * folder) and the whole of it validated; nothing has changed yet. The first stage that fails
 * gives all of its errors.
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
  if (!substituted.ok) return substituted;
  const { document, substitutedPaths } = substituted.value;
  const validated = validateConfig(document, context, substitutedPaths);
  if (!validated.ok) return validated;
  return { ok: true, value: { config: validated.value, substitutedPaths } };
}
