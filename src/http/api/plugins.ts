import { presentPlugin } from "../present_plugin.ts";
import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import type { ApiDeps } from "./deps.ts";

/** `GET /api/plugins`: the app plugins a trigger can be made for, and what their secret is called. */
export function pluginRoutes(deps: ApiDeps) {
  return new Elysia().get("/plugins", () => json(200, deps.plugins.list().map(presentPlugin)));
}
