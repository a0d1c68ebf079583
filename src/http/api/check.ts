import { parseJson } from "../../json/index.ts";
import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import { readJson } from "../api_input.ts";
import type { ApiDeps } from "./deps.ts";

/** `POST /api/check`: a JSONPath query, filter or redaction patterns checked (and run on a sample) before a trigger is saved. */
export function checkRoutes(deps: ApiDeps) {
  // The sample is read as a live body is (its numbers exact), so the check answers as live requests will.
  return new Elysia().post("/check", async ({ request }) => json(200, deps.check(await readJson(request, deps.maxBodyBytes, parseJson))), { parse: "none" });
}
