import { writeFileSync } from "node:fs";
import { loadServerConfig } from "../config/load_server_config.ts";
import { UsageError } from "../config/usage_error.ts";
import { configFileContext } from "../core.ts";
import { exportTriggers, formatOf } from "../triggers_as_code/index.ts";
import type { ParsedArgs } from "./args.ts";
import { refuseFile } from "./apply_command.ts";
import { print } from "./output.ts";
import { withCore } from "./with_core.ts";

/**
 * `inlet export [-o FILE]` (README "Triggers as code"): every trigger in the config file format,
 * tokens and secrets as `${INLET_…}` placeholders; YAML on stdout, or FILE in the format its
 * extension says.
 */
export async function exportFile({ options, serverArgs }: ParsedArgs): Promise<number> {
  const out = typeof options.output === "string" ? options.output : undefined;
  const format = out === undefined ? "yaml" : formatOf(out);
  if (format === null) throw new UsageError(`-o ${out}: the format is told by the extension: .yaml, .yml or .json`);
  return withCore(loadServerConfig(serverArgs), async (core) => {
    const triggers = core.triggers.list();
    const exported = exportTriggers(triggers, configFileContext(core), format);
    if (!exported.ok) {
      refuseFile(out ?? "export", exported.errors, "nothing was exported");
      return 1;
    }
    if (out === undefined) {
      print(exported.value.replace(/\n$/, ""));
      return 0;
    }
    writeFileSync(out, exported.value);
    print(`exported ${triggers.length} ${triggers.length === 1 ? "trigger" : "triggers"} to ${out} (tokens and secrets as \${INLET_…} placeholders)`);
    return 0;
  });
}
