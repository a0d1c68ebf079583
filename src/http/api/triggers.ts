import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import { presentTrigger } from "../../triggers/present.ts";
import { pageAfter, pageOf, readJson } from "../api_input.ts";
import type { ApiDeps } from "./deps.ts";
import { notFound } from "./not_found.ts";

/** `/api/triggers`: create, list, read, change and delete triggers, and reveal a generated secret. */
export function triggerRoutes(deps: ApiDeps) {
  const { triggers } = deps;
  return new Elysia()
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
      return json(
        200,
        shown.map((t) => presentTrigger(t, deps.baseUrl())),
      );
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
    });
}
