import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Elysia } from "elysia";
import { jsonResponse as json } from "../../net/answers.ts";
import { parseJson } from "../../json/index.ts";
import { TransformSchema } from "../../records/destination.ts";
import { schemaErrors, ValidationError } from "../../triggers/validation_error.ts";
import { readJson } from "../api_input.ts";
import type { ApiDeps } from "./deps.ts";

/** `POST /api/transform/test`: a destination's transform run on a `$trigger` of the caller's; nothing is stored or sent. */
export const TransformTestSchema = Type.Object(
  {
    source: TransformSchema.properties.source,
    timeoutMs: TransformSchema.properties.timeoutMs,
    trigger: Type.Record(Type.String(), Type.Unknown(), { description: "the $trigger to transform, as a run would get it (redacted)" }),
  },
  { additionalProperties: false },
);

/** What a transform made of it (`null`: the run would be skipped), or why it failed (`transform: …`). */
export const TransformTestResultSchema = Type.Union([
  Type.Object(
    { result: Type.Union([Type.Object({ body: Type.Unknown(), headers: Type.Record(Type.String(), Type.String()) }), Type.Null()]) },
    { additionalProperties: false },
  ),
  Type.Object({ error: Type.String() }, { additionalProperties: false }),
]);

const check = TypeCompiler.Compile(TransformTestSchema);

export function transformRoutes(deps: ApiDeps) {
  return new Elysia().post(
    "/transform/test",
    async ({ request }) => {
      // The sample is read as a live body is (its numbers exact).
      const input = (await readJson(request, deps.maxBodyBytes, parseJson)) as Static<typeof TransformTestSchema>;
      if (!check.Check(input)) throw new ValidationError(schemaErrors(check, input));
      const outcome = await deps.transformTest(input.source, input.trigger, input.timeoutMs);
      return json(200, outcome.ok ? { result: outcome.result } : { error: outcome.error });
    },
    { parse: "none" },
  );
}
