import { loadServerConfig } from "../config/load_server_config.ts";
import { UsageError } from "../config/usage_error.ts";
import { configFileContext } from "../core.ts";
import { applyConfig, formatConfigError, formatPlan, loadConfigFile, type ConfigError } from "../triggers_as_code/index.ts";
import type { ParsedArgs } from "./args.ts";
import { print, printWarnings } from "./output.ts";
import { withCore } from "./with_core.ts";

/** The `-f FILE` a command needs. */
export function configFileOption(options: ParsedArgs["options"], command: string): string {
  const file = options.file;
  if (typeof file !== "string" || file === "") throw new UsageError(`${command} needs the config file: inlet ${command} -f FILE`);
  return file;
}

/** Each problem on its own line on stderr, then what became of the file (docs/config-file.md#errors). */
export function refuseFile(file: string, errors: ConfigError[], outcome = "nothing was changed"): void {
  printWarnings([...errors.map(formatConfigError), `inlet: ${file}: ${errors.length} ${errors.length === 1 ? "error" : "errors"}; ${outcome}`]);
}

/**
 * `inlet apply -f FILE [--dry-run]` and `inlet diff -f FILE` (README "Triggers as code"): the
 * whole file checked first, then the plan on stdout, one line per trigger, and — applying —
 * written in one transaction. Exit 1 on any error, nothing changed; `diff` exits 2 when
 * something would change.
 */
async function planFile({ options, serverArgs }: ParsedArgs, mode: "apply" | "diff"): Promise<number> {
  const file = configFileOption(options, mode);
  const dryRun = mode === "diff" || options["dry-run"] === true;
  return withCore(loadServerConfig(serverArgs), async (core) => {
    const context = configFileContext(core);
    const loaded = loadConfigFile(file, context);
    const planned = loaded.ok ? await applyConfig(loaded.value.config, core.triggers, context, { dryRun }) : loaded;
    if (!planned.ok) {
      refuseFile(file, planned.errors);
      return 1;
    }
    const lines = formatPlan(planned.value);
    if (lines.length > 0) print(lines.join("\n"));
    return mode === "diff" && planned.value.changes ? 2 : 0;
  });
}

export const applyFile = (args: ParsedArgs) => planFile(args, "apply");
export const diffFile = (args: ParsedArgs) => planFile(args, "diff");
