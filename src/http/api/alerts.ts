import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import type { ApiDeps } from "./deps.ts";

/** `GET /api/alerts`: every stored alert with its measure now. */
export function alertRoutes(deps: ApiDeps) {
  return new Elysia().get("/alerts", async () => json(200, await deps.alerts()));
}
