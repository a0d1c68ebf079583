/** The TypeBox schemas of a trigger's settings: what the API takes (TriggerInput, a patch) and answers (Trigger). */
import { Type, type Static } from "@sinclair/typebox";
import { WorkflowSchema } from "./workflow.ts";
import { DestinationSchema, MAX_DESTINATIONS } from "./destination.ts";
import { AlertRulesSchema } from "./alert.ts";

/** Letters, digits and hyphens only (docs/api.md#triggerinput-and-trigger, `auth.headerName`). */
export const HEADER_NAME_PATTERN = "^[A-Za-z0-9-]+$";

export const AUTH_TYPES = ["none", "bearer", "header", "hmac-sha256", "hmac-sha512", "basic", "jwt"] as const;

/** JWT algorithms inlet verifies (docs/api.md#basic-and-jwt): HS256 with a generated key, or a public key's. */
export const JWT_ALGORITHMS = ["HS256", "RS256", "ES256", "EdDSA"] as const;

/** `auth.jwt`: which algorithms, whose key, and the claims to check. */
export const JwtSchema = Type.Object(
  {
    algorithms: Type.Array(Type.Union(JWT_ALGORITHMS.map((a) => Type.Literal(a))), { minItems: 1, maxItems: 4, uniqueItems: true }),
    publicKey: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000 })),
    jwksUrl: Type.Optional(Type.String({ pattern: "^https?://[^\\s]+$", maxLength: 2000 })),
    issuer: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    audience: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    clockToleranceSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600 })),
  },
  { additionalProperties: false },
);
export const DEDUP_STRATEGIES = ["disabled", "event-id", "payload-hash", "header-value", "expression"] as const;

const HeaderName = Type.String({ minLength: 1, maxLength: 128, pattern: HEADER_NAME_PATTERN });

/** `mode` and `reportUntil` of a check that can be rolled out report-only first (README "Report-only rollout"). */
const rolloutFields = (check: string) => ({
  mode: Type.Optional(
    Type.Union([Type.Literal("enforce"), Type.Literal("report")], {
      description: `enforce (default): a request that fails ${check} is refused; report: it is accepted and marked, until reportUntil`,
    }),
  ),
  reportUntil: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        "report mode (required there): an ISO 8601 date-time with its offset, in the future and at most 30 days ahead when saved; from then on the trigger enforces by itself",
    }),
  ),
});

export const AuthSchema = Type.Object(
  {
    type: Type.Union(
      AUTH_TYPES.map((t) => Type.Literal(t)),
      { default: "none" },
    ),
    headerName: Type.Optional(HeaderName),
    signatureHeader: Type.Optional(HeaderName),
    encoding: Type.Optional(Type.Union([Type.Literal("hex"), Type.Literal("base64")])),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: "^[^:]+$" })),
    jwt: Type.Optional(JwtSchema),
    ...rolloutFields("authentication"),
  },
  { additionalProperties: false },
);

export const DedupSchema = Type.Object(
  {
    strategy: Type.Union(DEDUP_STRATEGIES.map((s) => Type.Literal(s))),
    headerName: Type.Optional(HeaderName),
    expression: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    windowSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400 })),
  },
  { additionalProperties: false },
);

export const FilterSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    mode: Type.Optional(Type.Union([Type.Literal("include"), Type.Literal("exclude")])),
    expression: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

export const RedactionSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    patterns: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);

export const ResponseSchema = Type.Object(
  {
    mode: Type.Union([Type.Literal("immediate"), Type.Literal("workflow")]),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 300_000 })),
  },
  { additionalProperties: false },
);

/** A JSON Schema (2020-12) the parsed body must conform to, checked after deduplication, before the filter (docs/api.md#json-schema). */
export const PayloadSchemaSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    document: Type.Optional(Type.Unknown({ description: "a JSON Schema 2020-12 document" })),
  },
  { additionalProperties: false },
);

/** The addresses and CIDR ranges allowed to call, absent or empty: any (docs/api.md#allowed-sources). */
export const SourcesSchema = Type.Object(
  { allow: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 }), ...rolloutFields("the allowed sources") },
  { additionalProperties: false },
);

/** The largest body this trigger accepts, by default the server's --max-body-bytes (docs/api.md#body-limits). */
export const MAX_TRIGGER_BODY_BYTES = 104_857_600;
export const MaxBodyBytesSchema = Type.Integer({ minimum: 1, maximum: MAX_TRIGGER_BODY_BYTES });

/**
 * An app trigger's non-secret settings, declared and checked by its plugin (README "App webhook
 * triggers"). Taken loosely here so that each problem is reported by the plugin's rules, at its key.
 */
const AppSettingsInput = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "app triggers only: the plugin's settings by key (GET /api/plugins lists them): a string (text), an array of strings (lines) or a boolean (switch); null sets one back to its default. A change updates only the keys it names",
});
/** Every setting of the trigger's plugin, defaults filled. */
const AppSettingsStored = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String()), Type.Boolean()]), {
  description: "present on app triggers whose plugin declares settings: each setting's value, defaults filled",
});

/** ["POST"], ["GET"] or both, in either order (one array schema: OpenAPI 3.1 tools read it as it is). */
const Methods = Type.Array(Type.Union([Type.Literal("GET"), Type.Literal("POST")]), { minItems: 1, maxItems: 2, uniqueItems: true });

const inputFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  app: Type.Union([Type.Null(), Type.String({ pattern: "^[a-z0-9-]+$" })]),
  appSecret: Type.String({ maxLength: 10_000 }),
  methods: Methods,
  auth: AuthSchema,
  dedup: DedupSchema,
  filter: FilterSchema,
  redaction: RedactionSchema,
  response: ResponseSchema,
  workflow: Type.Union(WorkflowSchema.anyOf, {
    description: "what a run does; the shorthand for destinations [{ name: default, workflow }] (send workflow or destinations, not both)",
  }),
  destinations: Type.Array(DestinationSchema, {
    minItems: 1,
    maxItems: MAX_DESTINATIONS,
    description:
      "where each accepted request goes: one run per destination whose filter selects it (replaces workflow, the shorthand for one destination named default)",
  }),
  schema: PayloadSchemaSchema,
  maxBodyBytes: MaxBodyBytesSchema,
  sources: SourcesSchema,
  alerts: AlertRulesSchema,
  appSettings: AppSettingsInput,
};

/** The body of `POST /api/triggers`. */
export const TriggerInputSchema = Type.Object(
  {
    name: inputFields.name,
    app: Type.Optional(inputFields.app),
    appSecret: Type.Optional(inputFields.appSecret),
    methods: Type.Optional(inputFields.methods),
    auth: Type.Optional(Type.Partial(AuthSchema)),
    dedup: Type.Optional(Type.Partial(DedupSchema)),
    filter: Type.Optional(Type.Partial(FilterSchema)),
    redaction: Type.Optional(Type.Partial(RedactionSchema)),
    response: Type.Optional(Type.Partial(ResponseSchema)),
    workflow: Type.Optional(inputFields.workflow),
    destinations: Type.Optional(inputFields.destinations),
    schema: Type.Optional(Type.Partial(PayloadSchemaSchema)),
    maxBodyBytes: Type.Optional(Type.Union([inputFields.maxBodyBytes, Type.Null()])),
    // Partial: a change of mode alone keeps the list.
    sources: Type.Optional(Type.Partial(inputFields.sources)),
    alerts: Type.Optional(inputFields.alerts),
    appSettings: Type.Optional(inputFields.appSettings),
  },
  { additionalProperties: false },
);
export type TriggerInput = Static<typeof TriggerInputSchema>;

/** The body of `PATCH /api/triggers/:id`: every field optional. */
export const TriggerPatchSchema = Type.Partial(TriggerInputSchema, { additionalProperties: false });
export type TriggerPatch = Static<typeof TriggerPatchSchema>;

/** The public shape returned by the API (docs/api.md#triggerinput-and-trigger). */
export const TriggerSchema = Type.Object({
  id: Type.String(),
  token: Type.String(),
  url: Type.String(),
  curl: Type.String(),
  name: inputFields.name,
  app: inputFields.app,
  methods: Type.Array(Type.Union([Type.Literal("GET"), Type.Literal("POST")])),
  auth: Type.Composite([AuthSchema, Type.Object({ hasSecret: Type.Boolean(), previousSecretExpiresAt: Type.Union([Type.String(), Type.Null()]) })]),
  armedUntil: Type.Optional(
    Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
      description:
        "only for an app whose provider hands its secret over in a handshake (Asana, Notion): until when the next handshake may set (or replace) the secret; null: not armed",
    }),
  ),
  dedup: DedupSchema,
  filter: FilterSchema,
  redaction: RedactionSchema,
  response: ResponseSchema,
  // Present when the trigger has exactly one destination, named default (the shorthand).
  workflow: Type.Optional(
    Type.Union(WorkflowSchema.anyOf, { description: "present only when the trigger has exactly one destination, named default: its workflow" }),
  ),
  destinations: inputFields.destinations,
  schema: PayloadSchemaSchema,
  maxBodyBytes: Type.Union([MaxBodyBytesSchema, Type.Null()]),
  sources: SourcesSchema,
  alerts: AlertRulesSchema,
  appSettings: Type.Optional(AppSettingsStored),
  managedBy: Type.Union([Type.Literal("config"), Type.Null()], {
    description:
      '"config": made or taken over by a config file (inlet apply, serve --config); changing, deleting or rotating it through the API answers 409 (reveal, replay, arm and activity still work). null: the API\'s',
  }),
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time" }),
});
