import { Type, type Static } from "@sinclair/typebox";

/** `workflow.orderingKey` (docs/api.md#ordering-per-key): an RFC 9535 query on the redacted body; equal values run one at a time. */
const OrderingKey = Type.String({ minLength: 1, maxLength: 1000 });

export const WorkflowSchema = Type.Union([
  Type.Object({ kind: Type.Literal("none") }, { additionalProperties: false }),
  Type.Object(
    {
      kind: Type.Literal("http"),
      url: Type.String({ pattern: "^https?://[^\\s]+$" }),
      headers: Type.Optional(Type.Record(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }), Type.String())),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 300_000 })),
      retry: Type.Optional(Type.Object({ maxAttempts: Type.Integer({ minimum: 1, maximum: 20 }) }, { additionalProperties: false })),
      orderingKey: Type.Optional(OrderingKey),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal("command"),
      argv: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 3_600_000 })),
      orderingKey: Type.Optional(OrderingKey),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal("script"),
      source: Type.String({ minLength: 1, maxLength: 200_000 }),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 60_000 })),
      orderingKey: Type.Optional(OrderingKey),
    },
    { additionalProperties: false },
  ),
]);

export type WorkflowConfig = Static<typeof WorkflowSchema>;
