import { UsageError } from "../config/usage_error.ts";
import { destinationsOf } from "../records/destination.ts";
import { okState, statusOf } from "../records/destination_state.ts";
import type { ParsedArgs } from "./args.ts";
import { print } from "./output.ts";
import { formatTable } from "./table.ts";
import { onDataOf } from "./with_core.ts";
import type { Core } from "../core.ts";

/** Each destination of a trigger with its state and load (what `GET /api/triggers/:id/destinations` answers). */
async function statuses(core: Core, id: string) {
  await core.triggers.refresh();
  const trigger = core.triggers.get(id);
  if (!trigger) throw new UsageError(`no trigger with id ${id}`);
  const [states, loads] = await Promise.all([core.store.destinationStates(id), core.store.destinationLoads(id)]);
  return destinationsOf(trigger).map((d) => {
    const state = states.find((s) => s.destination === d.name) ?? okState(id, d.name);
    const load = loads.find((l) => l.destination === d.name);
    const openUntil = state.breaker === "open" && state.openUntilMs !== null ? new Date(state.openUntilMs).toISOString() : null;
    return { name: d.name, state: statusOf(state), queued: load?.queued ?? 0, running: load?.running ?? 0, openUntil };
  });
}

/** `inlet destinations list TRIGGER_ID [--json]`: a table of the trigger's destinations and their state. */
export const listDestinations = ({ positional: [id], options, serverArgs }: ParsedArgs) =>
  onDataOf(serverArgs, async (core) => {
    if (!id) throw new UsageError("destinations list needs a trigger id: inlet destinations list TRIGGER_ID");
    const rows = await statuses(core, id);
    print(
      options.json
        ? rows
        : formatTable(
            ["NAME", "STATE", "QUEUED", "RUNNING", "OPEN UNTIL"],
            rows.map((r) => [r.name, r.state, String(r.queued), String(r.running), r.openUntil ?? "-"]),
          ),
    );
  });

/** `inlet destinations pause|resume TRIGGER_ID NAME`: its runs wait (or start again), on every instance. */
export const pauseDestination =
  (paused: boolean) =>
  ({ positional: [id, name], serverArgs }: ParsedArgs) =>
    onDataOf(serverArgs, async (core) => {
      const verb = paused ? "pause" : "resume";
      if (!id || !name) throw new UsageError(`destinations ${verb} needs a trigger id and a destination name: inlet destinations ${verb} TRIGGER_ID NAME`);
      await core.triggers.refresh();
      const trigger = core.triggers.get(id);
      if (!trigger) throw new UsageError(`no trigger with id ${id}`);
      if (!destinationsOf(trigger).some((d) => d.name === name))
        throw new UsageError(
          `trigger ${id} has no destination ${JSON.stringify(name)} (it has: ${destinationsOf(trigger)
            .map((d) => d.name)
            .join(", ")})`,
        );
      await core.store.setPaused(id, name, paused);
      print((await statuses(core, id)).find((r) => r.name === name));
    });
