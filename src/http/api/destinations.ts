import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import { destinationsOf } from "../../records/destination.ts";
import { okState, statusOf, type DestinationState } from "../../records/destination_state.ts";
import type { DestinationLoad } from "../../store/destination_states.ts";
import type { ApiDeps } from "./deps.ts";
import { notFound } from "./not_found.ts";

/** A destination's state as `GET /api/triggers/:id/destinations` lists it. */
export const DestinationStatusSchema = Type.Object(
  {
    name: Type.String(),
    state: Type.Union([Type.Literal("ok"), Type.Literal("open"), Type.Literal("half-open"), Type.Literal("paused")], {
      description: "paused: its runs wait until resumed; open: its breaker holds its runs until openUntil; half-open: one run is being tried",
    }),
    queued: Type.Integer({ minimum: 0 }),
    running: Type.Integer({ minimum: 0 }),
    openUntil: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  },
  { additionalProperties: false },
);

function present(name: string, state: DestinationState, load: DestinationLoad | undefined) {
  return {
    name,
    state: statusOf(state),
    queued: load?.queued ?? 0,
    running: load?.running ?? 0,
    openUntil: state.breaker === "open" && state.openUntilMs !== null ? new Date(state.openUntilMs).toISOString() : null,
  };
}

/** Each destination's state (`GET …/destinations`), and pause and resume (README "Limits, the breaker and pause"). */
export function destinationRoutes(deps: ApiDeps) {
  const { triggers, destinations } = deps;
  /** Every destination of the trigger with its state, or null for an unknown trigger. */
  const statusesOf = async (id: string) => {
    await triggers.refresh();
    const trigger = triggers.get(id);
    if (!trigger) return null;
    const [states, loads] = await Promise.all([destinations.destinationStates(id), destinations.destinationLoads(id)]);
    return destinationsOf(trigger).map((d) =>
      present(
        d.name,
        states.find((s) => s.destination === d.name) ?? okState(id, d.name),
        loads.find((l) => l.destination === d.name),
      ),
    );
  };
  const setPaused =
    (paused: boolean) =>
    async ({ params }: { params: { id: string; name: string } }) => {
      await triggers.refresh();
      const trigger = triggers.get(params.id);
      if (!trigger) return notFound("trigger");
      if (!destinationsOf(trigger).some((d) => d.name === params.name)) return notFound("destination");
      await destinations.setPaused(params.id, params.name, paused);
      deps.onDestinationsChanged?.();
      return json(
        200,
        (await statusesOf(params.id))!.find((s) => s.name === params.name),
      );
    };
  return new Elysia()
    .get("/triggers/:id/destinations", async ({ params }) => {
      const statuses = await statusesOf(params.id);
      return statuses ? json(200, statuses) : notFound("trigger");
    })
    .post("/triggers/:id/destinations/:name/pause", setPaused(true), { parse: "none" })
    .post("/triggers/:id/destinations/:name/resume", setPaused(false), { parse: "none" });
}
