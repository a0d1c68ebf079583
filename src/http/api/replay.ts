import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import type { ReplayResult } from "../../replay/replay.ts";
import { bulkReplayOf, replayRequestOf } from "../../replay/replay_input.ts";
import type { History } from "../../store/history.ts";
import { readOptionalJson } from "../api_input.ts";
import type { ApiDeps } from "./deps.ts";

/** A replay's answer: 201 with the new Run, 200 `{"outcome":"filtered"}`, or the refusal. */
async function replayAnswer(store: History, result: ReplayResult): Promise<Response> {
  if (result.kind === "refused") return json(result.status, { error: result.error });
  if (result.kind === "filtered") return json(200, { outcome: "filtered" });
  return json(201, (await store.getRun(result.run.id)) ?? result.run);
}

/** Replays: a run's request again, a Filtered request through the current filter (or past it), and every one of a kind. */
export function replayRoutes(deps: ApiDeps) {
  const { triggers, store } = deps;
  return new Elysia()
    .post(
      "/runs/:id/replay",
      async ({ params }) => {
        // By the trigger's current workflow: one changed by another instance counts too.
        await triggers.refresh();
        return replayAnswer(store, await deps.replay.run(params.id));
      },
      { parse: "none" },
    )
    .post(
      "/triggers/:id/activity/:activityId/replay",
      async ({ params, request }) => {
        const { filter } = replayRequestOf(await readOptionalJson(request, deps.maxBodyBytes));
        await triggers.refresh();
        return replayAnswer(store, await deps.replay.filtered(params.id, params.activityId, filter));
      },
      { parse: "none" },
    )
    .post(
      "/triggers/:id/replay",
      async ({ params, request }) => {
        const input = bulkReplayOf(await readOptionalJson(request, deps.maxBodyBytes));
        await triggers.refresh();
        const result = await deps.replay.bulk(params.id, input);
        return "kind" in result ? replayAnswer(store, result) : json(200, result);
      },
      { parse: "none" },
    );
}
