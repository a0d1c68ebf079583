import { TriggerInputSchema, TriggerPatchSchema, TriggerSchema } from "../records/trigger.ts";
import { VERSION } from "../version.ts";

const Error = { type: "object", properties: { error: { type: "string" } }, required: ["error"] };
const Invalid = {
  type: "object",
  properties: {
    error: { type: "string" },
    details: { type: "array", items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } } },
  },
  required: ["error", "details"],
};
const Run = {
  type: "object",
  properties: {
    id: { type: "string" },
    triggerId: { type: "string" },
    requestId: { type: "string", format: "uuid" },
    status: { enum: ["queued", "running", "succeeded", "failed"] },
    trigger: { description: "$trigger, only with include=trigger" },
    result: {},
    attempts: { type: "integer" },
    error: { type: ["string", "null"] },
    createdAt: { type: "string", format: "date-time" },
    finishedAt: { type: ["string", "null"], format: "date-time" },
  },
};
const ActivityRow = {
  type: "object",
  properties: {
    id: { type: "string" },
    at: { type: "string", format: "date-time" },
    requestId: { type: "string", format: "uuid" },
    outcome: { enum: ["run", "deduplicated", "filtered", "auth_failed", "rejected", "error"] },
    label: { enum: ["Run", "Deduplicated", "Filtered", "Authentication failed", "Rejected", "Error"] },
    runId: { type: ["string", "null"] },
    detail: { type: ["string", "null"] },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: object, description: string) => ({ description, content: { "application/json": { schema } } });
const page = [
  { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
  { name: "before", in: "query", description: "id of the last item of the previous page", schema: { type: "string" } },
];
const common = { "400": body(ref("Invalid"), "invalid input"), "401": body(Error, "missing or wrong admin token") };
const idParam = { name: "id", in: "path", required: true, schema: { type: "string" } };

/** The OpenAPI 3.1 document of the management API, generated from the same TypeBox schemas that validate it. */
export function openApiDocument() {
  return {
    openapi: "3.1.0",
    info: { title: "inlet management API", version: VERSION },
    components: {
      securitySchemes: { admin: { type: "http", scheme: "bearer" } },
      schemas: { TriggerInput: TriggerInputSchema, TriggerPatch: TriggerPatchSchema, Trigger: TriggerSchema, Run, ActivityRow, Invalid, Error },
    },
    security: [{ admin: [] }],
    paths: {
      "/api/triggers": {
        post: { summary: "Create a trigger", requestBody: body(ref("TriggerInput"), "the trigger"), responses: { "201": body(ref("Trigger"), "created"), ...common } },
        get: { summary: "List triggers, newest first", responses: { "200": body({ type: "array", items: ref("Trigger") }, "triggers"), ...common } },
      },
      "/api/triggers/{id}": {
        parameters: [idParam],
        get: { summary: "Read a trigger", responses: { "200": body(ref("Trigger"), "the trigger"), "404": body(Error, "unknown id"), ...common } },
        patch: {
          summary: "Change some fields; changing auth.type rotates the secret",
          requestBody: body(ref("TriggerPatch"), "fields to change"),
          responses: { "200": body(ref("Trigger"), "changed"), "404": body(Error, "unknown id"), ...common },
        },
        delete: { summary: "Delete; its URL answers 404 from then on", responses: { "204": { description: "deleted" }, "404": body(Error, "unknown id"), ...common } },
      },
      "/api/triggers/{id}/secret": {
        parameters: [idParam],
        get: {
          summary: "Reveal the generated secret",
          responses: { "200": body({ type: "object", properties: { secret: { type: "string" } } }, "the secret"), "404": body(Error, "no generated secret"), ...common },
        },
      },
      "/api/triggers/{id}/activity": {
        parameters: [idParam],
        get: { summary: "Monitoring → Activity, newest first", parameters: page, responses: { "200": body({ type: "array", items: ref("ActivityRow") }, "rows"), ...common } },
      },
      "/api/runs": {
        get: {
          summary: "Run history, newest first",
          parameters: [...page, { name: "triggerId", in: "query", schema: { type: "string" } }, { name: "include", in: "query", schema: { enum: ["trigger"] } }],
          responses: { "200": body({ type: "array", items: ref("Run") }, "runs"), ...common },
        },
      },
      "/api/runs/{id}": { parameters: [idParam], get: { summary: "One run", responses: { "200": body(ref("Run"), "the run"), "404": body(Error, "unknown id"), ...common } } },
      "/api/plugins": { get: { summary: "App-trigger plugins loaded", responses: { "200": body({ type: "array" }, "plugins"), ...common } } },
      "/api/check": {
        post: {
          summary: "Validate an expression (jsonpath, filter, regex), optionally evaluating it on a sample",
          requestBody: body(
            { type: "object", properties: { kind: { enum: ["jsonpath", "filter", "regex"] }, expression: { type: "string" }, sample: {} }, required: ["kind", "expression"] },
            "what to check",
          ),
          responses: { "200": body({ type: "object", properties: { ok: { type: "boolean" }, result: {}, error: { type: "string" } } }, "the verdict"), ...common },
        },
      },
    },
  };
}
