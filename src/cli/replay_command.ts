import { UsageError } from "../config/usage_error.ts";
import type { ServerConfig } from "../config/server_config.ts";
import { compileChecks } from "../checks/compile.ts";
import { IngestPipeline } from "../ingest/pipeline.ts";
import { Replay, type ReplayResult } from "../replay/replay.ts";
import { bulkReplayOf } from "../replay/replay_input.ts";
import type { Core } from "../core.ts";
import { ValidationError } from "../triggers/validation_error.ts";

/**
 * Replay from the command line, on the same data as a server: the new runs are queued in the
 * store, and the server that serves this data dir or database picks them up within a second.
 */
function replayOn(core: Core, config: ServerConfig): Replay {
  const pipeline = new IngestPipeline({
    triggers: core.triggers,
    store: core.store,
    plugins: core.plugins,
    compileChecks,
    maxBodyBytes: config.maxBodyBytes,
    baseUrl: () => config.baseUrl ?? `http://${config.host}:${config.port}`,
  });
  return new Replay({ store: core.store, triggers: core.triggers, deliver: (delivery, options) => pipeline.deliver(delivery, options) });
}

/** The flag a body field's problem is about: `/status/0` is `--status`, `/dryRun` is `--dry-run`. */
const FLAGS: Record<string, string> = { dryRun: "dry-run", filter: "skip-filter" };
const flagOf = (path: string) => {
  const field = path.split("/")[1] ?? "";
  return `--${FLAGS[field] ?? field}`;
};

/** A comma-separated flag's values. */
const listOf = (value: string | true) =>
  String(value)
    .split(",")
    .map((s) => s.trim());

function settled(result: ReplayResult): unknown {
  if (result.kind === "refused") throw new UsageError(result.error);
  return result.kind === "filtered" ? { outcome: "filtered" } : result.run;
}

/** `inlet runs replay RUN_ID`: prints the new run. */
export async function replayRunCommand(core: Core, config: ServerConfig, runId: string | undefined): Promise<unknown> {
  if (!runId) throw new UsageError("runs replay needs a run id");
  return settled(await replayOn(core, config).run(runId));
}

/** `inlet triggers replay TRIGGER_ID [--status failed] [--destinations crm,…] [--source filtered] [--since ISO] [--until ISO] [--limit N] [--skip-filter] [--dry-run]`. */
export async function replayTriggerCommand(
  core: Core,
  config: ServerConfig,
  triggerId: string | undefined,
  options: Record<string, string | true>,
): Promise<unknown> {
  if (!triggerId) throw new UsageError("triggers replay needs a trigger id");
  const body: Record<string, unknown> = {};
  if (options.source) body.source = options.source;
  if (options.status) body.status = listOf(options.status);
  if (options.destinations) body.destinations = listOf(options.destinations);
  if (options.since) body.since = options.since;
  if (options.until) body.until = options.until;
  if (options.limit) body.limit = Number(options.limit);
  if (options["dry-run"]) body.dryRun = true;
  if (options["skip-filter"]) body.filter = "skip";
  let input;
  try {
    input = bulkReplayOf(body);
  } catch (error) {
    if (error instanceof ValidationError) throw new UsageError(error.details.map((d) => `${flagOf(d.path)}: ${d.message}`).join("; "));
    throw error;
  }
  const result = await replayOn(core, config).bulk(triggerId, input);
  return "kind" in result ? settled(result) : result;
}
