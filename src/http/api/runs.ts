import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import { ValidationError } from "../../triggers/validation_error.ts";
import { pageOf } from "../api_input.ts";
import type { ApiDeps } from "./deps.ts";
import { notFound } from "./not_found.ts";

/** `/api/runs`: the stored runs, newest first (with their trigger when asked), and one run. */
export function runRoutes(deps: ApiDeps) {
  const { store } = deps;
  return new Elysia()
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
    });
}
