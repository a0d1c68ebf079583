import { UsageError } from "../config/usage_error.ts";
import type { ParsedArgs } from "./args.ts";
import { print } from "./output.ts";
import { replayRunCommand } from "./replay_command.ts";
import { onDataOf } from "./with_core.ts";

/** `inlet runs list [--trigger ID] [--limit N] [--before ID] [--include-trigger]`. */
export const listRuns = ({ options, serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
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
  });

/** `inlet runs show ID`. */
export const showRun = ({ positional: [id], serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
    if (!id) throw new UsageError("runs show needs a run id");
    const run = await core.store.getRun(id);
    if (!run) throw new UsageError(`no run with id ${id}`);
    print(run);
  });

/** `inlet runs replay ID`. */
export const replayRun = ({ positional: [id], serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core, config) => print(await replayRunCommand(core, config, id)));
