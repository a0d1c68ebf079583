import { Type, type TSchema } from "@sinclair/typebox";
import { TriggerInputSchema, TriggerPatchSchema, TriggerSchema } from "../records/trigger_schemas.ts";
import { BulkReplayResultSchema, BulkReplaySchema, ReplayRequestSchema } from "../replay/replay_input.ts";
import { RotateResultSchema, RotateSchema } from "../triggers/rotate_input.ts";
import { VERSION } from "../version.ts";
import { TransformTestResultSchema, TransformTestSchema } from "./api/transform.ts";
import { DestinationStatusSchema } from "./api/destinations.ts";
import { ActivityRowSchema, AlertSchema, PluginSchema, RunSchema, ValidationDetailSchema } from "./api_schemas.ts";

/**
 * The OpenAPI 3.1 document of the management API (`GET /api/openapi.json`), built from the same
 * TypeBox schemas the routes validate with and answer in. Every route is one entry of ROUTES:
 * a route added there is documented by construction.
 */

const ErrorSchema = Type.Object({ error: Type.String() }, { description: "what went wrong, in one line" });
const InvalidSchema = Type.Object(
  { error: Type.String(), details: Type.Array(ValidationDetailSchema) },
  { description: "invalid input: every problem by its JSON pointer" },
);
const CheckInputSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal("jsonpath"), Type.Literal("filter"), Type.Literal("regex")]),
    expression: Type.String(),
    sample: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
const CheckResultSchema = Type.Union([
  Type.Object({ ok: Type.Literal(true), result: Type.Optional(Type.Unknown()) }),
  Type.Object({ ok: Type.Literal(false), error: Type.String() }),
]);
const SecretSchema = Type.Object({ secret: Type.String() });
const ArmedSchema = Type.Object(
  { armedUntil: Type.String({ format: "date-time" }) },
  { description: "until when the next handshake may set the trigger's secret" },
);
const FilteredSchema = Type.Object({ outcome: Type.Literal("filtered") }, { description: "the current filter still skips the request: no run" });

/** Named schemas, referenced as `#/components/schemas/<name>`. */
const SCHEMAS: Record<string, TSchema> = {
  TriggerInput: TriggerInputSchema,
  TriggerPatch: TriggerPatchSchema,
  Trigger: TriggerSchema,
  Run: RunSchema,
  ActivityRow: ActivityRowSchema,
  Plugin: PluginSchema,
  Alert: AlertSchema,
  Rotate: RotateSchema,
  RotateResult: RotateResultSchema,
  ReplayRequest: ReplayRequestSchema,
  BulkReplay: BulkReplaySchema,
  BulkReplayResult: BulkReplayResultSchema,
  CheckInput: CheckInputSchema,
  CheckResult: CheckResultSchema,
  TransformTest: TransformTestSchema,
  DestinationStatus: DestinationStatusSchema,
  TransformTestResult: TransformTestResultSchema,
  Secret: SecretSchema,
  Armed: ArmedSchema,
  Filtered: FilteredSchema,
  Invalid: InvalidSchema,
  Error: ErrorSchema,
};

type SchemaName = keyof typeof SCHEMAS;
/** A response: a named schema, an array of one, or no body. */
type Answer = { description: string; schema?: SchemaName; arrayOf?: SchemaName };

export interface ApiRoute {
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI path, `{id}` style. */
  path: string;
  operationId: string;
  tag: "Triggers" | "Destinations" | "Runs" | "Replay" | "Alerts" | "Plugins" | "Checks" | "Meta";
  summary: string;
  request?: SchemaName;
  /** Whether the request body may be left out (every field has a default). */
  requestOptional?: boolean;
  query?: Array<{ name: string; description: string; schema: object }>;
  responses: Record<string, Answer>;
}

const unauthorized: Answer = { description: "missing or wrong admin token", schema: "Error" };
const throttled: Answer = {
  description: "more than 20 failed authentications from this address this minute; retry after Retry-After (a correct token still passes)",
  schema: "Error",
};
const invalid: Answer = { description: "invalid input", schema: "Invalid" };
const unknown = (what: string): Answer => ({ description: `unknown ${what}`, schema: "Error" });
const managed: Answer = { description: 'the trigger is managed by a config file (managedBy "config"): change the file and apply it', schema: "Error" };
const unavailable: Answer = { description: "the store is unavailable; retry after Retry-After", schema: "Error" };
const page = [
  { name: "limit", description: "page size", schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
  { name: "before", description: "the id of the last item of the previous page", schema: { type: "string" } },
];

/** Every route of docs/api.md#calls and docs/api.md#operations, with every status it can answer. */
export const ROUTES: ApiRoute[] = [
  {
    method: "post",
    path: "/api/triggers",
    operationId: "createTrigger",
    tag: "Triggers",
    summary: "Create a trigger",
    request: "TriggerInput",
    responses: { "201": { description: "created", schema: "Trigger" }, "400": invalid },
  },
  {
    method: "get",
    path: "/api/triggers",
    operationId: "listTriggers",
    tag: "Triggers",
    summary: "List triggers, newest first",
    query: [{ ...page[0], description: "page size (default: every trigger)", schema: { type: "integer", minimum: 1, maximum: 500 } }, page[1]],
    responses: { "200": { description: "triggers", arrayOf: "Trigger" }, "400": invalid },
  },
  {
    method: "get",
    path: "/api/triggers/{id}",
    operationId: "getTrigger",
    tag: "Triggers",
    summary: "Read a trigger",
    responses: { "200": { description: "the trigger", schema: "Trigger" }, "404": unknown("trigger") },
  },
  {
    method: "patch",
    path: "/api/triggers/{id}",
    operationId: "updateTrigger",
    tag: "Triggers",
    summary: "Change some fields; changing auth.type rotates the secret at once",
    request: "TriggerPatch",
    responses: { "200": { description: "changed", schema: "Trigger" }, "400": invalid, "404": unknown("trigger"), "409": managed },
  },
  {
    method: "delete",
    path: "/api/triggers/{id}",
    operationId: "deleteTrigger",
    tag: "Triggers",
    summary: "Delete; its URL answers 404 from then on",
    responses: { "204": { description: "deleted" }, "404": unknown("trigger"), "409": managed },
  },
  {
    method: "get",
    path: "/api/triggers/{id}/secret",
    operationId: "revealSecret",
    tag: "Triggers",
    summary: "Reveal the generated secret",
    responses: { "200": { description: "the secret", schema: "Secret" }, "404": unknown("trigger, or no generated secret") },
  },
  {
    method: "post",
    path: "/api/triggers/{id}/rotate",
    operationId: "rotateSecret",
    tag: "Triggers",
    summary: "A new secret at once; the previous one verifies until previousExpiresAt",
    request: "Rotate",
    requestOptional: true,
    responses: { "200": { description: "rotated", schema: "RotateResult" }, "400": invalid, "404": unknown("trigger"), "409": managed },
  },
  {
    method: "post",
    path: "/api/triggers/{id}/arm",
    operationId: "armTrigger",
    tag: "Triggers",
    summary:
      "Arm a trigger whose provider hands its secret over in a handshake (Asana, Notion): for 15 minutes the next handshake may set or replace its secret",
    responses: {
      "200": { description: "armed", schema: "Armed" },
      "404": unknown("trigger"),
      "409": { description: "the trigger's plugin takes no secret from a handshake: nothing to arm", schema: "Error" },
    },
  },
  {
    method: "get",
    path: "/api/triggers/{id}/activity",
    operationId: "listActivity",
    tag: "Triggers",
    summary: "Monitoring → Activity, newest first",
    query: page,
    responses: { "200": { description: "rows", arrayOf: "ActivityRow" }, "400": invalid, "404": unknown("trigger") },
  },
  {
    method: "post",
    path: "/api/triggers/{id}/activity/{activityId}/replay",
    operationId: "replayFiltered",
    tag: "Replay",
    summary: "Re-deliver a filtered request: the current filter decides (skip bypasses it), then a run",
    request: "ReplayRequest",
    requestOptional: true,
    responses: {
      "201": { description: "the new run", schema: "Run" },
      "200": { description: "still filtered", schema: "Filtered" },
      "400": invalid,
      "404": unknown("trigger or Activity row"),
      "409": { description: "not a Filtered request, or one recorded before requests were kept", schema: "Error" },
      "500": { description: "the replay could not finish (sandbox, plugin)", schema: "Error" },
      "503": unavailable,
    },
  },
  {
    method: "post",
    path: "/api/triggers/{id}/replay",
    operationId: "replayBulk",
    tag: "Replay",
    summary: "Replay a trigger's runs (by status and time) or filtered requests (by time), oldest first",
    request: "BulkReplay",
    requestOptional: true,
    responses: {
      "200": { description: "how many matched and were replayed", schema: "BulkReplayResult" },
      "400": invalid,
      "404": unknown("trigger"),
      "503": unavailable,
    },
  },
  {
    method: "get",
    path: "/api/runs",
    operationId: "listRuns",
    tag: "Runs",
    summary: "Run history, newest first; $trigger only with include=trigger",
    query: [
      ...page,
      { name: "triggerId", description: "only this trigger's runs", schema: { type: "string" } },
      { name: "include", description: "trigger: add each run's $trigger", schema: { enum: ["trigger"] } },
    ],
    responses: { "200": { description: "runs", arrayOf: "Run" }, "400": invalid },
  },
  {
    method: "get",
    path: "/api/runs/{id}",
    operationId: "getRun",
    tag: "Runs",
    summary: "One run",
    responses: { "200": { description: "the run", schema: "Run" }, "404": unknown("run") },
  },
  {
    method: "post",
    path: "/api/runs/{id}/replay",
    operationId: "replayRun",
    tag: "Replay",
    summary: "A new run with the same $trigger, by the trigger's current workflow",
    responses: {
      "201": { description: "the new run", schema: "Run" },
      "404": unknown("run or its trigger"),
      "500": { description: "the replay could not finish", schema: "Error" },
      "503": unavailable,
    },
  },
  {
    method: "get",
    path: "/api/alerts",
    operationId: "listAlerts",
    tag: "Alerts",
    summary: "Every alert rule's state: firing or ok, since when, its value and threshold",
    responses: { "200": { description: "alerts", arrayOf: "Alert" } },
  },
  {
    method: "get",
    path: "/api/plugins",
    operationId: "listPlugins",
    tag: "Plugins",
    summary: "App-trigger plugins loaded",
    responses: { "200": { description: "plugins", arrayOf: "Plugin" } },
  },
  {
    method: "post",
    path: "/api/check",
    operationId: "checkExpression",
    tag: "Checks",
    summary: "Validate an expression (jsonpath, filter, regex), optionally evaluating it on a sample",
    request: "CheckInput",
    responses: { "200": { description: "the verdict", schema: "CheckResult" }, "400": invalid },
  },
  {
    method: "get",
    path: "/api/triggers/{id}/destinations",
    operationId: "listDestinations",
    tag: "Destinations",
    summary: "Each destination's state (ok, open, half-open, paused), its queued and running runs, and until when its breaker is open",
    responses: { "200": { description: "destinations", arrayOf: "DestinationStatus" }, "404": unknown("trigger") },
  },
  {
    method: "post",
    path: "/api/triggers/{id}/destinations/{name}/pause",
    operationId: "pauseDestination",
    tag: "Destinations",
    summary:
      "Pause a destination: requests are still accepted and its runs made, but they stay queued until it is resumed (on every instance, across restarts)",
    responses: { "200": { description: "the destination's state", schema: "DestinationStatus" }, "404": unknown("trigger or destination") },
  },
  {
    method: "post",
    path: "/api/triggers/{id}/destinations/{name}/resume",
    operationId: "resumeDestination",
    tag: "Destinations",
    summary: "Resume a destination: its queued runs start again, in order, under its limits",
    responses: { "200": { description: "the destination's state", schema: "DestinationStatus" }, "404": unknown("trigger or destination") },
  },
  {
    method: "post",
    path: "/api/transform/test",
    operationId: "testTransform",
    tag: "Checks",
    summary: "Run a destination's transform on a $trigger: what the destination would receive (null: skipped), or why it failed; nothing is stored or sent",
    request: "TransformTest",
    responses: { "200": { description: "the transform's result, or its error", schema: "TransformTestResult" }, "400": invalid },
  },
  {
    method: "get",
    path: "/api/openapi.json",
    operationId: "openApi",
    tag: "Meta",
    summary: "This document",
    responses: { "200": { description: "the OpenAPI 3.1 document" } },
  },
];

const ref = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

function answer(a: Answer) {
  const schema = a.schema ? ref(a.schema) : a.arrayOf ? { type: "array", items: ref(a.arrayOf) } : undefined;
  return schema ? { description: a.description, content: { "application/json": { schema } } } : { description: a.description };
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    description: name === "name" ? "the destination's name" : `the ${name === "id" ? "resource" : name} id`,
    schema: { type: "string" },
  }));
}

/** The document, for a server at `serverUrl`. */
export function openApiDocument(serverUrl = "http://127.0.0.1:8080") {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    const parameters = [...pathParameters(route.path), ...(route.query ?? []).map((q) => ({ ...q, in: "query" }))];
    paths[route.path] ??= {};
    paths[route.path][route.method] = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      description: route.summary,
      ...(parameters.length ? { parameters } : {}),
      ...(route.request ? { requestBody: { required: !route.requestOptional, content: { "application/json": { schema: ref(route.request) } } } } : {}),
      responses: Object.fromEntries(Object.entries({ ...route.responses, "401": unauthorized, "429": throttled }).map(([status, a]) => [status, answer(a)])),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "inlet management API",
      version: VERSION,
      description: "Triggers, their Activity and runs, replay and checks. Every call needs Authorization: Bearer <admin token>.",
      license: { name: "MIT", identifier: "MIT" },
      // Whoever runs this instance; its panel is at the server's root.
      contact: { name: "the operator of this inlet", url: `${serverUrl}/` },
    },
    servers: [{ url: serverUrl, description: "this inlet" }],
    tags: ["Triggers", "Destinations", "Runs", "Replay", "Alerts", "Plugins", "Checks", "Meta"].map((name) => ({
      name,
      description: `${name} of the management API`,
    })),
    components: { securitySchemes: { admin: { type: "http", scheme: "bearer" } }, schemas: SCHEMAS },
    security: [{ admin: [] }],
    paths,
  };
}
