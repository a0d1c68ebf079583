import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { schemaErrors, ValidationError } from "./validation_error.ts";

/** `POST /api/triggers/:id/rotate` (docs/api.md#rotation-with-overlap). */
export const RotateSchema = Type.Object(
  {
    overlapSeconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 604_800, description: "how long the previous secret keeps verifying; 0 (default): not at all" }),
    ),
    appSecret: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000, description: "app triggers with a pasted secret: the new one" })),
  },
  { additionalProperties: false },
);

/** What a rotation answers: the new secret (where inlet generates it) and when the previous one stops verifying. */
export const RotateResultSchema = Type.Object({ secret: Type.Optional(Type.String()), previousExpiresAt: Type.String() });

const check = TypeCompiler.Compile(RotateSchema);

/** The rotate body with its default (no overlap); an empty body is `{}`. */
export function rotateInputOf(input: unknown): { overlapSeconds: number; appSecret?: string } {
  const value = (input ?? {}) as Static<typeof RotateSchema>;
  if (!check.Check(value)) throw new ValidationError(schemaErrors(check, value));
  return { overlapSeconds: value.overlapSeconds ?? 0, ...(value.appSecret === undefined ? {} : { appSecret: value.appSecret }) };
}
