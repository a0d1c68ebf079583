import { Type } from "@sinclair/typebox";
import { AlertKindSchema } from "../records/alert.ts";

/**
 * The management API's answers (docs/api.md#management-api, docs/api.md#operations) as TypeBox
 * schemas: the panel's client types are derived from these (`Static`), so the two cannot drift
 * apart.
 */

/** `skipped`: the destination's transform returned null (README "Destinations"). */
const RUN_STATUSES = ["queued", "running", "succeeded", "failed", "skipped"] as const;
const OUTCOMES = ["run", "deduplicated", "filtered", "auth_failed", "rejected", "error"] as const;

/** One run (docs/api.md#run; its replayOf: #replay; its ordering key: #ordering-per-key). */
export const RunSchema = Type.Object({
  id: Type.String(),
  triggerId: Type.String(),
  destination: Type.Optional(Type.String({ description: "the name of the destination this run delivers to; runs made before destinations belong to default" })),
  requestId: Type.String(),
  status: Type.Union(RUN_STATUSES.map((s) => Type.Literal(s))),
  trigger: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "the $trigger payload, with include=trigger" })),
  result: Type.Unknown(),
  attempts: Type.Integer({ minimum: 0 }),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  replayOf: Type.Union([Type.String(), Type.Null()]),
  orderingKey: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

/** One Activity row (docs/api.md#activityrow). */
export const ActivityRowSchema = Type.Object({
  id: Type.String(),
  at: Type.String(),
  requestId: Type.String(),
  outcome: Type.Union(OUTCOMES.map((o) => Type.Literal(o))),
  label: Type.String(),
  runId: Type.Union([Type.String(), Type.Null()], { description: "the request's first run, or null" }),
  runIds: Type.Optional(Type.Array(Type.String(), { description: "every run of the request, one per destination that selected it; runId is the first" })),
  detail: Type.Union([Type.String(), Type.Null()]),
  count: Type.Integer({
    minimum: 1,
    description:
      "requests the row stands for: 1 for a request's own row; refusals (auth_failed, rejected) past a trigger's first 60 of that outcome in a clock minute are counted on one row per reason, whose requestId is the first counted request's",
  }),
});

/** One `appSettings` key of a plugin's triggers, as the panel renders it (by `label`). */
export const PluginSettingSchema = Type.Object({
  key: Type.String(),
  label: Type.String(),
  kind: Type.Union([Type.Literal("text"), Type.Literal("lines"), Type.Literal("switch")], {
    description: "text: a string; lines: an array of strings, one per line; switch: a boolean",
  }),
  help: Type.Optional(Type.String()),
  default: Type.Union([Type.String(), Type.Array(Type.String()), Type.Boolean()], { description: "the value of a trigger that sets none" }),
});

/** An app-trigger plugin as `GET /api/plugins` lists it. */
export const PluginSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  secret: Type.Object({ label: Type.String(), generated: Type.Boolean() }),
  settings: Type.Optional(Type.Array(PluginSettingSchema, { description: "only for a plugin that declares settings: what its triggers' appSettings hold" })),
});

/** One problem with an input, by JSON pointer (400 `details`, 422 `details`). */
export const ValidationDetailSchema = Type.Object({ path: Type.String(), message: Type.String() });

/** One alert rule's state (`GET /api/alerts`, docs/api.md#alerts). */
export const AlertSchema = Type.Object({
  id: Type.String(),
  triggerId: Type.String(),
  kind: AlertKindSchema,
  state: Type.Union([Type.Literal("firing"), Type.Literal("ok")]),
  since: Type.String(),
  value: Type.Number(),
  threshold: Type.Number(),
  notifiedAt: Type.Union([Type.String(), Type.Null()]),
});
