import { readFileSync } from "node:fs";
import { ConfigFileRefused } from "../config/config_file_refused.ts";
import { watchFile, type FileWatchOptions } from "../lifecycle/watch_file.ts";
import { applyConfig, type TriggerApplier } from "./apply_config.ts";
import { formatConfigError, type ConfigResult } from "./config_error.ts";
import { loadConfigText } from "./load_config.ts";
import { readProblem } from "./parse_config.ts";
import { formatPlan, type Plan } from "./plan.ts";
import type { TriggersAsCodeContext } from "./validate_config.ts";

/** What `inlet serve --config FILE [--watch]` needs to apply its file. */
export interface ServedConfig {
  path: string;
  triggers: TriggerApplier;
  context: TriggersAsCodeContext;
  /** The server's log (one JSON line on stderr); what it is given never holds a secret. */
  log(level: "info" | "warn", message: string, fields: Record<string, unknown>): void;
}

/** The file's text checked and applied (planned again as often as another instance got there first). */
async function applyText(served: ServedConfig, text: string): Promise<ConfigResult<Plan>> {
  const loaded = loadConfigText(served.path, text, served.context);
  return loaded.ok ? applyConfig(loaded.value.config, served.triggers, served.context) : loaded;
}

/**
 * `inlet serve --config FILE`, at start (README "Triggers as code"): the file applied before the
 * server listens, or ConfigFileRefused with every problem (the start stops, exit 2). Returns the
 * text that was applied, for the watch to start from.
 */
export async function applyConfigAtStart(served: ServedConfig): Promise<string> {
  let text: string;
  try {
    text = readFileSync(served.path, "utf8");
  } catch (error) {
    throw new ConfigFileRefused(served.path, [`${served.path}: cannot be read: ${readProblem(error)}`]);
  }
  const applied = await applyText(served, text);
  if (!applied.ok) throw new ConfigFileRefused(served.path, applied.errors.map(formatConfigError));
  if (applied.value.changes) served.log("info", "config file applied", { file: served.path, plan: formatPlan(applied.value) });
  return text;
}

export interface ConfigReloads {
  /** Changes of the file that were refused (invalid, half-written, or not applicable): `inlet_config_reload_errors_total`. */
  readonly errors: number;
  stop(): Promise<void>;
}

/**
 * `--watch`: each change of the file (in place or by rename) applied within 2 s. A file that
 * cannot be applied is refused with its errors in the log and counted; the last good
 * configuration stays in force. A deleted file changes nothing (a warning); when it appears again
 * it is applied. With several instances watching one file on one database, each change is
 * written once: the others find it applied (applyConfig plans again when the triggers moved).
 */
export function watchConfigFile(served: ServedConfig, appliedAtStart: string, options: Omit<FileWatchOptions, "initial" | "onError"> = {}): ConfigReloads {
  const file = served.path;
  let errors = 0;
  const refused = (fields: Record<string, unknown>) => {
    errors++;
    served.log("warn", "config file not applied: the last good configuration stays in force", { file, ...fields });
  };
  const watching = watchFile(
    file,
    async (text) => {
      if (text === null) {
        served.log("warn", "config file deleted: nothing changed (its triggers stay as they are until it is back)", { file });
        return;
      }
      const applied = await applyText(served, text);
      if (!applied.ok) return refused({ errors: applied.errors.map(formatConfigError) });
      if (applied.value.changes) served.log("info", "config file applied", { file, plan: formatPlan(applied.value) });
      else served.log("info", "config file read: nothing to change", { file });
    },
    // Applying failed (the store unreachable): counted, and tried again at the next poll.
    { ...options, initial: appliedAtStart, onError: (error) => refused({ error: (error as Error)?.message ?? String(error) }) },
  );
  return {
    get errors() {
      return errors;
    },
    stop: () => watching.stop(),
  };
}
