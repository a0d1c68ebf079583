import { loadServerConfig, UsageError } from "../config/server_config.ts";
import { atMost, parseArgs } from "./args.ts";
import { withCore } from "./with_core.ts";
import { print } from "./output.ts";
import { replayRunCommand } from "./replay_command.ts";

/** `inlet runs list|show|replay`. */
export async function runs(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { options, positional, serverArgs } = parseArgs(rest, { trigger: "value", limit: "value", before: "value", "include-trigger": "flag" });
  const takes = ({ list: 0, show: 1, replay: 1 } as Record<string, number>)[sub];
  if (takes !== undefined) atMost(positional, takes, "runs");
  const config = loadServerConfig(serverArgs);
  return withCore(config, async (core) => {
    if (sub === "list") {
      // A mistyped id would list nothing and look like a trigger without runs.
      if (options.trigger && !core.triggers.get(String(options.trigger))) throw new UsageError(`no trigger with id ${options.trigger}`);
      const limit = options.limit ? Number(options.limit) : 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError(`--limit must be a whole number from 1 to 500 (got ${options.limit})`);
      print(
        await core.store.listRuns({
          triggerId: options.trigger ? String(options.trigger) : undefined,
          limit,
          before: options.before ? String(options.before) : undefined,
          includeTrigger: options["include-trigger"] === true,
        }),
      );
      return 0;
    }
    if (sub === "show") {
      if (!positional[0]) throw new UsageError("runs show needs a run id");
      const run = await core.store.getRun(positional[0]);
      if (!run) throw new UsageError(`no run with id ${positional[0]}`);
      print(run);
      return 0;
    }
    if (sub === "replay") {
      print(await replayRunCommand(core, config, positional[0]));
      return 0;
    }
    throw new UsageError(`unknown command 'runs ${sub ?? ""}' (list, show, replay)`);
  });
}
