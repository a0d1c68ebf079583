import { Elysia } from "elysia";
import { ADMIN_TOKEN_HINT } from "../auth/admin_token.ts";
import { tokenMatchesHash } from "../auth/token_hash.ts";
import { parseJson } from "../json/index.ts";
import type { PluginRegistry } from "../plugins/registry.ts";
import { ACTIVITY_LABELS } from "./activity_labels.ts";
import { type ActivityRecord } from "../records/activity.ts";
import type { History } from "../store/history.ts";
import { presentTrigger } from "../triggers/present.ts";
import type { TriggerService } from "../triggers/service.ts";
import { ValidationError } from "../triggers/validation_error.ts";
import type { Replay, ReplayResult } from "../replay/replay.ts";
import { bulkReplayOf, replayRequestOf } from "../replay/replay_input.ts";
import { rotateInputOf } from "../triggers/rotate_input.ts";
import type { ExpressionCheck } from "../checks/api_check.ts";
import { jsonResponse } from "../ingest/respond.ts";
import { presentPlugin } from "./present_plugin.ts";
import type { AlertRecord } from "../records/alert.ts";
import { pageAfter, pageOf, readJson, readOptionalJson } from "./api_input.ts";
import { openApiDocument } from "./openapi.ts";
import { bearerCredential, unauthorized } from "./bearer.ts";


export interface ApiDeps {
  triggers: TriggerService;
  store: History;
  plugins: PluginRegistry;
  adminTokenHash(): string;
  baseUrl(): string;
  check: ExpressionCheck;
  replay: Replay;
  onTriggerDeleted?(id: string): void;
  /** The largest request body a call reads (the largest body a trigger may allow: a check's sample, a schema). */
  maxBodyBytes: number;
  /** `GET /api/alerts`: the stored alerts with their measure now (the alert monitor's). */
  alerts(): Promise<AlertRecord[]>;
  /** Counts a refused admin token: the 429 to answer with once its address has failed too often, else null (see AdminAuthThrottle). */
  failedAuth?(request: Request): Response | null;
}

const json = jsonResponse;

const notFound = (what: string) => json(404, { error: `${what} not found` });

export const presentActivity = (row: ActivityRecord) => ({
  id: row.id,
  at: row.at,
  requestId: row.requestId,
  outcome: row.outcome,
  label: ACTIVITY_LABELS[row.outcome],
  runId: row.runId,
  detail: row.detail,
  count: row.count ?? 1,
});

/** The management API of CONTRACT §3, behind the admin token. */
export function apiRoutes(deps: ApiDeps) {
  const { triggers, store } = deps;
  /** A replay's answer: 201 with the new Run, 200 `{"outcome":"filtered"}`, or the refusal. */
  const replayAnswer = async (result: ReplayResult) => {
    if (result.kind === "refused") return json(result.status, { error: result.error });
    if (result.kind === "filtered") return json(200, { outcome: "filtered" });
    return json(201, (await store.getRun(result.run.id)) ?? result.run);
  };
  return new Elysia({ name: "inlet-api", prefix: "/api" })
    // An API viewer on another origin asks first whether it may send the admin token (a CORS
    // preflight never carries it): yes, for the document only. Registered before the token check.
    .options(
      "/openapi.json",
      () =>
        new Response(null, {
          status: 204,
          headers: { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "GET", "Access-Control-Allow-Headers": "Authorization", "Access-Control-Max-Age": "600" },
        }),
    )
    .onBeforeHandle(({ request }) => {
      const credential = bearerCredential(request, (token) => tokenMatchesHash(token, deps.adminTokenHash()));
      if (credential !== "accepted") return deps.failedAuth?.(request) ?? unauthorized(credential, ADMIN_TOKEN_HINT);
    })
    // API viewers on another origin may load it (with the admin token).
    .get("/openapi.json", () => json(200, openApiDocument(deps.baseUrl()), { "Access-Control-Allow-Origin": "*" }))
    .post(
      "/triggers",
      async ({ request }) => {
        const created = await triggers.create(await readJson(request, deps.maxBodyBytes), deps.baseUrl());
        return json(201, presentTrigger(created, deps.baseUrl()));
      },
      { parse: "none" },
    )
    .get("/triggers", async ({ query }) => {
      const page = pageOf(query);
      await triggers.refresh();
      // Without `limit`, every trigger: the panel's list shows them all on one screen.
      const shown = pageAfter(triggers.list(), page.before, query.limit === undefined ? undefined : page.limit, "trigger");
      return json(200, shown.map((t) => presentTrigger(t, deps.baseUrl())));
    })
    .get("/triggers/:id", async ({ params }) => {
      await triggers.refresh();
      const t = triggers.get(params.id);
      return t ? json(200, presentTrigger(t, deps.baseUrl())) : notFound("trigger");
    })
    .patch(
      "/triggers/:id",
      async ({ params, request }) => {
        const updated = await triggers.update(params.id, await readJson(request, deps.maxBodyBytes), deps.baseUrl());
        return updated ? json(200, presentTrigger(updated, deps.baseUrl())) : notFound("trigger");
      },
      { parse: "none" },
    )
    .delete("/triggers/:id", async ({ params }) => {
      const removed = await triggers.delete(params.id);
      if (removed) deps.onTriggerDeleted?.(params.id);
      return removed ? json(204, undefined) : notFound("trigger");
    })
    .get("/triggers/:id/secret", async ({ params }) => {
      await triggers.refresh();
      const t = triggers.get(params.id);
      if (!t) return notFound("trigger");
      // App secrets pasted by the user are write-only; generated secrets can be revealed.
      return t.secret ? json(200, { secret: t.secret }) : json(404, { error: "this trigger has no generated secret" });
    })
    .get("/triggers/:id/activity", async ({ params, query }) => {
      const page = pageOf(query);
      await triggers.refresh();
      if (!triggers.get(params.id)) return notFound("trigger");
      return json(200, (await store.listActivity(params.id, page)).map(presentActivity));
    })
    .get("/runs", async ({ query }) => {
      const page = pageOf(query);
      if (query.include !== undefined && query.include !== "trigger") {
        throw new ValidationError([{ path: "/include", message: `only "trigger" can be included (got ${JSON.stringify(query.include)})` }]);
      }
      const runs = await store.listRuns({ ...page, triggerId: query.triggerId || undefined, includeTrigger: query.include === "trigger" });
      return json(200, runs);
    })
    .get("/runs/:id", async ({ params }) => {
      const run = await store.getRun(params.id);
      return run ? json(200, run) : notFound("run");
    })
    .post(
      "/triggers/:id/rotate",
      async ({ params, request }) => {
        const input = rotateInputOf(await readOptionalJson(request, deps.maxBodyBytes));
        const rotated = await triggers.rotate(params.id, input);
        if (!rotated) return notFound("trigger");
        return json(200, { ...(rotated.secret ? { secret: rotated.secret } : {}), previousExpiresAt: rotated.previousExpiresAt });
      },
      { parse: "none" },
    )
    .post(
      "/triggers/:id/arm",
      async ({ params }) => {
        const armed = await triggers.arm(params.id);
        if (!armed) return notFound("trigger");
        return armed.kind === "armed" ? json(200, { armedUntil: armed.armedUntil }) : json(409, { error: armed.message });
      },
      { parse: "none" },
    )
    .post(
      "/runs/:id/replay",
      async ({ params }) => {
        // By the trigger's current workflow: one changed by another instance counts too.
        await triggers.refresh();
        return replayAnswer(await deps.replay.run(params.id));
      },
      { parse: "none" },
    )
    .post(
      "/triggers/:id/activity/:activityId/replay",
      async ({ params, request }) => {
        const { filter } = replayRequestOf(await readOptionalJson(request, deps.maxBodyBytes));
        await triggers.refresh();
        return replayAnswer(await deps.replay.filtered(params.id, params.activityId, filter));
      },
      { parse: "none" },
    )
    .post(
      "/triggers/:id/replay",
      async ({ params, request }) => {
        const input = bulkReplayOf(await readOptionalJson(request, deps.maxBodyBytes));
        await triggers.refresh();
        const result = await deps.replay.bulk(params.id, input);
        return "kind" in result ? replayAnswer(result) : json(200, result);
      },
      { parse: "none" },
    )
    .get("/alerts", async () => json(200, await deps.alerts()))
    .get("/plugins", () => json(200, deps.plugins.list().map(presentPlugin)))
    // The sample is read as a live body is (its numbers exact), so the check answers as live requests will.
    .post("/check", async ({ request }) => json(200, deps.check(await readJson(request, deps.maxBodyBytes, parseJson))), { parse: "none" });
}
