import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import type { ActivityRecord } from "../../records/activity.ts";
import { ACTIVITY_LABELS } from "../activity_labels.ts";
import { pageOf } from "../api_input.ts";
import type { ApiDeps } from "./deps.ts";
import { notFound } from "./not_found.ts";

/** An Activity row as the API shows it: its outcome's label beside it, and how many requests it stands for. */
export const presentActivity = (row: ActivityRecord) => ({
  id: row.id,
  at: row.at,
  requestId: row.requestId,
  outcome: row.outcome,
  label: ACTIVITY_LABELS[row.outcome],
  runId: row.runId,
  // A run row lists every run of its request, one per destination it went to (runId is the first).
  ...(row.outcome === "run" ? { runIds: row.runIds ?? (row.runId ? [row.runId] : []) } : {}),
  detail: row.detail,
  count: row.count ?? 1,
});

/** `GET /api/triggers/:id/activity`: a trigger's requests and their outcomes, newest first, a page at a time. */
export function activityRoutes(deps: ApiDeps) {
  const { triggers, store } = deps;
  return new Elysia().get("/triggers/:id/activity", async ({ params, query }) => {
    const page = pageOf(query);
    await triggers.refresh();
    if (!triggers.get(params.id)) return notFound("trigger");
    return json(200, (await store.listActivity(params.id, page)).map(presentActivity));
  });
}
