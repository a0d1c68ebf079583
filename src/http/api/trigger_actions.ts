import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import { rotateInputOf } from "../../triggers/rotate_input.ts";
import { readOptionalJson } from "../api_input.ts";
import type { ApiDeps } from "./deps.ts";
import { notFound } from "./not_found.ts";

/** What can be done to a trigger's secret: rotate it, and arm the trigger to adopt an app's next one. */
export function triggerActionRoutes(deps: ApiDeps) {
  const { triggers } = deps;
  return new Elysia()
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
    );
}
