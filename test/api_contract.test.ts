import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ROUTES } from "../src/http/openapi.ts";
import { ADMIN_TOKEN, startTestServer, UUID, type TestServer } from "./support/server.ts";

// The management API (docs/api.md#management-api: admin token, 400 with details, 404 for unknown
// ids, every new field optional and PATCH-able) through HTTP only, for what test/api.test.ts leaves
// open: every route, every field, every kind of bad input.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const JSON_TYPE = { "Content-Type": "application/json" };
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A webhook to an auth-less trigger; returns its request id. */
async function deliver(trigger: { url: string }, body: unknown): Promise<string> {
  const response = await server.fetch(trigger.url, { method: "POST", body: JSON.stringify(body), headers: JSON_TYPE });
  expect(response.status).toBe(200);
  return response.headers.get("x-request-id")!;
}

/** A call with a raw body and headers of the test's choosing (the admin token unless `authorization` is given). */
async function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const response = await server.fetch(server.url + path, { method, body, headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...headers } });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : null };
}

/** Expects a 400 in the contract's shape: a one-line summary and a detail at each of `paths`. */
function expectInvalid(answer: { status: number; body: any }, ...paths: string[]) {
  expect(answer.status).toBe(400);
  expect(Object.keys(answer.body).sort()).toEqual(["details", "error"]);
  expect(answer.body.error).toMatch(/^[^\n]+$/);
  for (const detail of answer.body.details) expect(Object.keys(detail).sort()).toEqual(["message", "path"]);
  expect(answer.body.details.map((d: { path: string }) => d.path).sort()).toEqual([...paths].sort());
}

/** A valid body for each call that takes one, so that only what a test is about can refuse it. */
const VALID_BODY: Record<string, unknown> = {
  createTrigger: { name: "made-by-a-stranger" },
  updateTrigger: { name: "changed-by-a-stranger" },
  rotateSecret: { overlapSeconds: 0 },
  replayFiltered: { filter: "skip" },
  replayBulk: { dryRun: true },
  checkExpression: { kind: "jsonpath", expression: "$.a" },
};

/** Every documented call with its path parameters filled in. */
const calls = (ids: { id: string; activityId: string }) =>
  ROUTES.map((route) => ({
    route,
    method: route.method.toUpperCase(),
    path: route.path.replace("{id}", ids.id).replace("{activityId}", ids.activityId),
    body: VALID_BODY[route.operationId] === undefined ? undefined : JSON.stringify(VALID_BODY[route.operationId]),
  }));

describe("admin token on every call", () => {
  test("missing, wrong, empty or of another scheme: 401 {error: unauthorized}, before anything is read or changed", async () => {
    const t = await server.createTrigger({ name: "guarded", auth: { type: "bearer" } });
    const before = (await server.api("GET", "/api/triggers")).body;
    // Every route of docs/api.md#calls and docs/api.md#operations is in the list walked below (an empty list would pass).
    expect(calls({ id: t.id, activityId: "any" }).map((c) => c.method).length).toBeGreaterThanOrEqual(15);
    for (const authorization of [
      undefined,
      "Bearer wrong",
      "Bearer ",
      `Bearer  ${ADMIN_TOKEN}x`,
      `Basic ${btoa(`admin:${ADMIN_TOKEN}`)}`,
      ADMIN_TOKEN,
      `Token ${ADMIN_TOKEN}`,
    ]) {
      for (const call of calls({ id: t.id, activityId: "any" })) {
        const headers: Record<string, string> = { ...JSON_TYPE, ...(authorization === undefined ? {} : { Authorization: authorization }) };
        const response = await server.fetch(server.url + call.path, { method: call.method, body: call.body, headers });
        expect({ call: `${call.method} ${call.path}`, authorization, status: response.status, body: await response.json() }).toEqual({
          call: `${call.method} ${call.path}`,
          authorization,
          status: 401,
          body: { error: "unauthorized" },
        });
      }
    }
    // Nothing was created, changed, rotated or deleted.
    expect((await server.api("GET", "/api/triggers")).body).toEqual(before);
    expect((await server.api("GET", `/api/triggers/${t.id}/secret`)).body.secret).toBe(t.secret);
  });

  test("the scheme name is case-insensitive (RFC 9110): bearer, BEARER", async () => {
    for (const scheme of ["bearer", "BEARER", "Bearer"]) {
      const response = await server.fetch(`${server.url}/api/plugins`, { headers: { Authorization: `${scheme} ${ADMIN_TOKEN}` } });
      expect({ scheme, status: response.status }).toEqual({ scheme, status: 200 });
    }
  });
});

describe("unknown ids: 404 with a JSON error", () => {
  test("on every call that takes an id", async () => {
    const t = await server.createTrigger({ name: "known" });
    const unknownTrigger = calls({ id: "01900000-0000-7000-8000-000000000000", activityId: "no-such-row" }).filter((c) => c.route.path.includes("{id}"));
    // A known trigger with an unknown Activity row is as unknown.
    const unknownRow = calls({ id: t.id, activityId: "no-such-row" }).filter((c) => c.route.path.includes("{activityId}"));
    expect(unknownTrigger.length).toBeGreaterThanOrEqual(10);
    for (const call of [...unknownTrigger, ...unknownRow]) {
      const answer = await raw(call.method, call.path, call.body, JSON_TYPE);
      expect({ call: `${call.method} ${call.path}`, status: answer.status, error: typeof answer.body?.error }).toEqual({
        call: `${call.method} ${call.path}`,
        status: 404,
        error: "string",
      });
    }
  });

  test("a deleted trigger is unknown everywhere; DELETE answers 204 with no body", async () => {
    const t = await server.createTrigger({ name: "doomed", auth: { type: "bearer" } });
    const deleted = await raw("DELETE", `/api/triggers/${t.id}`);
    expect(deleted).toEqual({ status: 204, text: "", body: null });
    for (const path of ["", "/secret", "/activity"]) expect((await server.api("GET", `/api/triggers/${t.id}${path}`)).status).toBe(404);
    expect((await server.api("GET", "/api/triggers")).body.map((x: { id: string }) => x.id)).not.toContain(t.id);
  });
});

const TRIGGER_FIELDS = [
  "alerts",
  "app",
  "auth",
  "createdAt",
  "curl",
  "dedup",
  "destinations",
  "filter",
  "id",
  "managedBy",
  "maxBodyBytes",
  "methods",
  "name",
  "redaction",
  "response",
  "schema",
  "sources",
  "token",
  "updatedAt",
  "url",
  "workflow",
];

describe("the Trigger", () => {
  test("create fills in every default and answers exactly the contract's fields", async () => {
    const { status, body } = await server.api("POST", "/api/triggers", { name: "bare" });
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(TRIGGER_FIELDS);
    const { id, token, url, curl, createdAt, updatedAt, ...settings } = body;
    expect(settings).toEqual({
      name: "bare",
      app: null,
      methods: ["POST"],
      auth: { type: "none", hasSecret: false, previousSecretExpiresAt: null },
      dedup: { strategy: "disabled" },
      filter: { enabled: false, mode: "include" },
      redaction: { enabled: false, patterns: [] },
      response: { mode: "immediate", timeoutMs: 10000 },
      workflow: { kind: "none" },
      destinations: [{ name: "default", workflow: { kind: "none" } }],
      schema: { enabled: false },
      maxBodyBytes: null,
      sources: { allow: [] },
      alerts: [],
      managedBy: null,
    });
    expect(createdAt).toMatch(ISO);
    expect(updatedAt).toBe(createdAt);
    expect(typeof id).toBe("string");
    expect(url).toBe(`${server.url}/webhooks/${token}`);
    expect(curl).toContain(url);
    expect((await server.api("GET", `/api/triggers/${id}`)).body).toEqual(body);
  });

  test("each Authentication Type shows its settings with their defaults, hasSecret, and never the secret", async () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ type: "bearer" }, {}],
      [{ type: "header" }, { headerName: "X-Webhook-Secret" }],
      [{ type: "header", headerName: "X-Key" }, { headerName: "X-Key" }],
      [{ type: "hmac-sha256" }, { signatureHeader: "X-Signature", encoding: "hex" }],
      [
        { type: "hmac-sha512", signatureHeader: "X-Sig", encoding: "base64" },
        { signatureHeader: "X-Sig", encoding: "base64" },
      ],
      [{ type: "basic" }, { username: "inlet" }],
      [{ type: "jwt" }, { jwt: { algorithms: ["HS256"] } }],
    ];
    for (const [auth, shown] of cases) {
      const t = await server.createTrigger({ name: `auth-${auth.type}`, auth });
      expect(t.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const views = [
        t,
        (await server.api("GET", `/api/triggers/${t.id}`)).body,
        (await server.api("GET", "/api/triggers")).body,
        (await server.api("PATCH", `/api/triggers/${t.id}`, { name: "renamed" })).body,
      ];
      const { secret, ...created } = t;
      expect(created.auth).toEqual({ type: auth.type, ...shown, hasSecret: true, previousSecretExpiresAt: null });
      for (const view of views.slice(1)) expect(JSON.stringify(view)).not.toContain(secret);
      expect(JSON.stringify(created)).not.toContain(secret);
      // After a rotation with overlap, neither the new nor the previous secret is shown.
      const rotated = await server.api("POST", `/api/triggers/${t.id}/rotate`, { overlapSeconds: 600 });
      const after = (await server.api("GET", `/api/triggers/${t.id}`)).body;
      expect(after.auth.previousSecretExpiresAt).toBe(rotated.body.previousExpiresAt);
      for (const s of [secret, rotated.body.secret]) expect(JSON.stringify(after)).not.toContain(s);
    }
  });

  test("an app trigger's appSecret is write-only: never shown, not revealed, hasSecret says it is there", async () => {
    const created = await server.api("POST", "/api/triggers", { name: "stripe", app: "stripe", appSecret: "whsec_first-pasted-value" });
    expect(created.status).toBe(201);
    expect(created.body.auth).toEqual({ type: "none", hasSecret: true, previousSecretExpiresAt: null });
    const patched = await server.api("PATCH", `/api/triggers/${created.body.id}`, { appSecret: "whsec_second-pasted-value" });
    const views = [
      created.body,
      patched.body,
      (await server.api("GET", `/api/triggers/${created.body.id}`)).body,
      (await server.api("GET", "/api/triggers")).body,
    ];
    for (const view of views) expect(JSON.stringify(view)).not.toMatch(/pasted-value|appSecret|"secret"/);
    expect((await server.api("GET", `/api/triggers/${created.body.id}/secret`)).status).toBe(404);
    // A generated app secret (GitHub-style) is revealed like a generic one.
    const github = await server.createTrigger({ name: "gh", app: "github" });
    expect(github.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(github.auth)).not.toContain(github.secret);
  });

  test("the curl command runs as it is: HMAC modes carry a valid signature, bearer and header read $INLET_SECRET", async () => {
    for (const auth of [
      { type: "hmac-sha256" },
      { type: "hmac-sha512", encoding: "base64", signatureHeader: "X-Sig" },
      { type: "bearer" },
      { type: "header", headerName: "X-Key" },
    ]) {
      const t = await server.createTrigger({ name: `curl-${auth.type}`, auth });
      expect(t.curl).not.toContain(t.secret);
      const headers = [...(t.curl as string).matchAll(/-H (['"])(.*?)\1/g)].map((m) => m[2].replace("$INLET_SECRET", t.secret).split(/: (.*)/s, 2));
      const body = /--data-raw '(.*)'$/s.exec(t.curl)![1];
      const response = await server.fetch(t.url, { method: "POST", body, headers: Object.fromEntries(headers) });
      expect({ auth: auth.type, status: response.status }).toEqual({ auth: auth.type, status: 200 });
    }
  });
});

describe("PATCH: every field on its own, nested objects merged", () => {
  const FULL = {
    name: "full",
    methods: ["GET", "POST"],
    auth: { type: "header", headerName: "X-Key" },
    dedup: { strategy: "header-value", headerName: "Idempotency-Key", windowSeconds: 120 },
    filter: { enabled: true, mode: "exclude", expression: '$.type == "ping"' },
    redaction: { enabled: true, patterns: ["^email$"] },
    response: { mode: "workflow", timeoutMs: 5000 },
    workflow: { kind: "script", source: "export default () => ({ status: 202 })", timeoutMs: 500 },
    schema: { enabled: true, document: { type: "object" } },
    maxBodyBytes: 2048,
    sources: { allow: ["127.0.0.1"] },
    alerts: [{ kind: "backlog", count: 100 }],
  };
  const CHANGES: Array<[Record<string, unknown>, string, unknown]> = [
    [{ name: "renamed" }, "name", "renamed"],
    [{ methods: ["POST"] }, "methods", ["POST"]],
    [{ auth: { headerName: "X-Other" } }, "auth", { type: "header", headerName: "X-Other", hasSecret: true, previousSecretExpiresAt: null }],
    [{ dedup: { windowSeconds: 60 } }, "dedup", { strategy: "header-value", headerName: "Idempotency-Key", windowSeconds: 60 }],
    [{ dedup: { strategy: "payload-hash" } }, "dedup", { strategy: "payload-hash", headerName: "Idempotency-Key", windowSeconds: 60 }],
    [{ filter: { mode: "include" } }, "filter", { enabled: true, mode: "include", expression: '$.type == "ping"' }],
    [{ filter: { enabled: false } }, "filter", { enabled: false, mode: "include", expression: '$.type == "ping"' }],
    [{ redaction: { patterns: ["card", "^ssn$"] } }, "redaction", { enabled: true, patterns: ["card", "^ssn$"] }],
    [{ response: { timeoutMs: 7000 } }, "response", { mode: "workflow", timeoutMs: 7000 }],
    [
      { workflow: { kind: "http", url: "http://127.0.0.1:9/hook", orderingKey: "$.id" } },
      "workflow",
      { kind: "http", url: "http://127.0.0.1:9/hook", orderingKey: "$.id" },
    ],
    // Without kind, a workflow's fields change the current one (null removes one): §6's orderingKey alone.
    [{ workflow: { orderingKey: "$.customer.id" } }, "workflow", { kind: "http", url: "http://127.0.0.1:9/hook", orderingKey: "$.customer.id" }],
    [{ workflow: { timeoutMs: 2000, orderingKey: null } }, "workflow", { kind: "http", url: "http://127.0.0.1:9/hook", timeoutMs: 2000 }],
    [{ schema: { document: { type: "object", required: ["id"] } } }, "schema", { enabled: true, document: { type: "object", required: ["id"] } }],
    [{ schema: { enabled: false } }, "schema", { enabled: false, document: { type: "object", required: ["id"] } }],
    [{ maxBodyBytes: 4096 }, "maxBodyBytes", 4096],
    [{ maxBodyBytes: null }, "maxBodyBytes", null],
    [{ sources: { allow: ["10.0.0.0/8", "2001:db8::/32"] } }, "sources", { allow: ["10.0.0.0/8", "2001:db8::/32"] }],
    [{ sources: { allow: [] } }, "sources", { allow: [] }],
    [{ alerts: [{ kind: "silence", seconds: 60 }] }, "alerts", [{ kind: "silence", seconds: 60 }]],
    [{ alerts: [] }, "alerts", []],
    // A list replaces the workflow shorthand (the workflow key goes); a workflow brings it back.
    [
      {
        destinations: [
          { name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/crm" }, respond: true },
          { name: "audit", workflow: { kind: "none" } },
        ],
      },
      "destinations",
      [
        { name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/crm" }, respond: true },
        { name: "audit", workflow: { kind: "none" } },
      ],
    ],
    [
      { destinations: [{ name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/crm" }, concurrency: 4 }] },
      "destinations",
      [{ name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/crm" }, concurrency: 4 }],
    ],
    [{ workflow: { kind: "command", argv: ["/bin/true"] } }, "workflow", { kind: "command", argv: ["/bin/true"] }],
  ];
  /** The two forms of where requests go move together: workflow is the shorthand for destinations [default]. */
  const MOVES_WITH: Record<string, string> = { workflow: "destinations", destinations: "workflow" };

  test("each change shows in the answer and in later reads; nothing else moves; the secret stays", async () => {
    const t = await server.createTrigger(FULL);
    let before = (await server.api("GET", `/api/triggers/${t.id}`)).body;
    for (const [patch, field, expected] of CHANGES) {
      const { status, body } = await server.api("PATCH", `/api/triggers/${t.id}`, patch);
      expect({ patch, status, [field]: body[field] }).toEqual({ patch, status: 200, [field]: expected });
      for (const other of TRIGGER_FIELDS.filter((f) => ![field, MOVES_WITH[field], "updatedAt", "curl"].includes(f)))
        expect({ patch, [other]: body[other] }).toEqual({ patch, [other]: before[other] });
      if (field === "workflow") expect({ patch, destinations: body.destinations }).toEqual({ patch, destinations: [{ name: "default", workflow: expected }] });
      if (field === "destinations") expect({ patch, workflow: "workflow" in body }).toEqual({ patch, workflow: false });
      expect(Date.parse(body.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
      expect((await server.api("GET", `/api/triggers/${t.id}`)).body).toEqual(body);
      before = body;
    }
    expect((await server.api("GET", `/api/triggers/${t.id}/secret`)).body.secret).toBe(t.secret);
  });

  test("null clears only maxBodyBytes (and app stays null); for the other fields it is a 400 naming the field", async () => {
    const t = await server.createTrigger({ name: "nulls", maxBodyBytes: 100 });
    for (const field of ["name", "methods", "auth", "dedup", "filter", "redaction", "response", "workflow", "destinations", "schema", "sources", "alerts"]) {
      expectInvalid(await server.api("PATCH", `/api/triggers/${t.id}`, { [field]: null }), `/${field}`);
    }
    expectInvalid(await server.api("PATCH", `/api/triggers/${t.id}`, { auth: { type: null } }), "/auth/type");
    expectInvalid(await server.api("PATCH", `/api/triggers/${t.id}`, { name: "   " }), "/name");
    expect((await server.api("PATCH", `/api/triggers/${t.id}`, { app: null })).body.app).toBeNull();
    expect((await server.api("PATCH", `/api/triggers/${t.id}`, { maxBodyBytes: null })).body.maxBodyBytes).toBeNull();
  });

  test("a refused change changes nothing, not even the fields that were fine", async () => {
    const t = await server.createTrigger({ name: "atomic", auth: { type: "bearer" } });
    const before = (await server.api("GET", `/api/triggers/${t.id}`)).body;
    expectInvalid(
      await server.api("PATCH", `/api/triggers/${t.id}`, { name: "changed", auth: { type: "header" }, dedup: { strategy: "payload-hash", windowSeconds: 0 } }),
      "/dedup/windowSeconds",
    );
    expect((await server.api("GET", `/api/triggers/${t.id}`)).body).toEqual(before);
    expect((await server.api("GET", `/api/triggers/${t.id}/secret`)).body.secret).toBe(t.secret);
  });
});

describe("invalid input: 400 with a one-line error and every problem by path", () => {
  const WRONG_TYPES = {
    name: 5,
    app: 7,
    appSecret: false,
    methods: "POST",
    auth: { type: "bearer", encoding: "hex64" },
    dedup: { windowSeconds: "60" },
    filter: { enabled: "yes" },
    redaction: { patterns: "x" },
    response: { timeoutMs: "fast" },
    schema: { enabled: 1 },
    maxBodyBytes: 0,
    sources: { allow: "127.0.0.1" },
    alerts: {},
    destinations: "crm",
  };
  const WRONG_PATHS = [
    "/name",
    "/app",
    "/appSecret",
    "/methods",
    "/auth/encoding",
    "/dedup/windowSeconds",
    "/filter/enabled",
    "/redaction/patterns",
    "/response/timeoutMs",
    "/schema/enabled",
    "/maxBodyBytes",
    "/sources/allow",
    "/alerts",
    "/destinations",
  ];

  test("wrong types, on create and on change, each reported", async () => {
    expectInvalid(await server.api("POST", "/api/triggers", WRONG_TYPES), ...WRONG_PATHS);
    const t = await server.createTrigger({ name: "typed" });
    // (A different `app` on a change is refused on its own: a trigger's app never changes.)
    const { app: _app, ...patch } = WRONG_TYPES;
    expectInvalid(await server.api("PATCH", `/api/triggers/${t.id}`, patch), ...WRONG_PATHS.filter((p) => p !== "/app"));
    expectInvalid(
      await server.api("POST", "/api/triggers", { name: "w", workflow: { kind: "http", url: "http://x", timeoutMs: "slow", retry: { maxAttempts: 0 } } }),
      "/workflow/timeoutMs",
      "/workflow/retry/maxAttempts",
    );
  });

  test("unknown fields, at the top and inside every object", async () => {
    const t = await server.createTrigger({ name: "strict" });
    const nested: Array<[Record<string, unknown>, string]> = [
      [{ colour: "red" }, "/colour"],
      [{ auth: { type: "bearer", secret: "mine" } }, "/auth/secret"],
      [{ dedup: { strategy: "payload-hash", window: 5 } }, "/dedup/window"],
      [{ filter: { enabled: false, expr: "x" } }, "/filter/expr"],
      [{ redaction: { enabled: false, fields: [] } }, "/redaction/fields"],
      [{ response: { mode: "immediate", status: 202 } }, "/response/status"],
      [{ workflow: { kind: "none", url: "http://x" } }, "/workflow/url"],
      [{ destinations: [{ name: "crm", workflow: { kind: "none" }, colour: "red" }] }, "/destinations/0/colour"],
      [{ destinations: [{ name: "crm", workflow: { kind: "none", url: "http://x" } }] }, "/destinations/0/workflow/url"],
      [{ schema: { enabled: false, strict: true } }, "/schema/strict"],
      [{ sources: { allow: [], deny: [] } }, "/sources/deny"],
      [{ id: "mine" }, "/id"],
      [{ token: "mine" }, "/token"],
    ];
    for (const [fields, path] of nested) {
      expectInvalid(await server.api("POST", "/api/triggers", { name: "x", ...fields }), path);
      expectInvalid(await server.api("PATCH", `/api/triggers/${t.id}`, fields), path);
    }
  });

  test("bodies that are empty, not JSON or not an object; JSON is read whatever the content type says", async () => {
    const t = await server.createTrigger({ name: "bodies" });
    for (const [method, path] of [
      ["POST", "/api/triggers"],
      ["PATCH", `/api/triggers/${t.id}`],
      ["POST", "/api/check"],
    ]) {
      for (const body of ["", "  \n", "{", "{'name':'x'}", "[]", "null", "42", '"orders"', '{"name":"x"} trailing']) {
        const answer = await raw(method, path, body, JSON_TYPE);
        expect({ method, path, body, status: answer.status, paths: answer.body.details?.map((d: { path: string }) => d.path) }).toEqual({
          method,
          path,
          body,
          status: 400,
          paths: [""],
        });
      }
    }
    for (const path of [`/api/triggers/${t.id}/rotate`, `/api/triggers/${t.id}/replay`]) expectInvalid(await raw("POST", path, "{", JSON_TYPE), "");
    // `curl -d` sends form-urlencoded; other clients send text/plain or nothing: the JSON is what counts.
    for (const type of ["application/x-www-form-urlencoded", "text/plain", "application/json; charset=utf-8", undefined]) {
      const answer = await raw("POST", "/api/triggers", '{"name":"typed-loosely"}', type ? { "Content-Type": type } : {});
      expect({ type, status: answer.status, name: answer.body.name }).toEqual({ type, status: 201, name: "typed-loosely" });
    }
  });

  test("every rule is checked on change as on create", async () => {
    const t = await server.createTrigger({ name: "rules", auth: { type: "hmac-sha256" }, methods: ["GET", "POST"] });
    const app = await server.createTrigger({ name: "rules-app", app: "github" });
    const refused: Array<[string, Record<string, unknown>, string]> = [
      [t.id, { methods: ["GET"] }, "/auth/type"],
      [t.id, { auth: { signatureHeader: "X Sig" } }, "/auth/signatureHeader"],
      [t.id, { auth: { type: "header", headerName: "X_Key" } }, "/auth/headerName"],
      [t.id, { dedup: { strategy: "payload-hash", windowSeconds: 86401 } }, "/dedup/windowSeconds"],
      [t.id, { dedup: { strategy: "header-value", headerName: "Idem Key" } }, "/dedup/headerName"],
      [t.id, { dedup: { strategy: "expression", expression: "$[" } }, "/dedup/expression"],
      [t.id, { filter: { enabled: true, expression: "$.a ==" } }, "/filter/expression"],
      [t.id, { redaction: { enabled: true, patterns: ["(unclosed"] } }, "/redaction/patterns/0"],
      [t.id, { redaction: { enabled: true, patterns: Array.from({ length: 51 }, (_, i) => `p${i}`) } }, "/redaction/patterns"],
      [t.id, { redaction: { enabled: true, patterns: ["ok", "x".repeat(201)] } }, "/redaction/patterns/1"],
      [t.id, { workflow: { kind: "http", url: "http://127.0.0.1:9/x", orderingKey: "$[" } }, "/workflow/orderingKey"],
      [
        t.id,
        { destinations: [{ name: "crm", workflow: { kind: "http", url: "http://127.0.0.1:9/x", orderingKey: "$[" } }] },
        "/destinations/0/workflow/orderingKey",
      ],
      [t.id, { destinations: [{ name: "crm", workflow: { kind: "none" }, filter: { expression: "$.a ==" } }] }, "/destinations/0/filter/expression"],
      [t.id, { app: "github" }, "/app"],
      [app.id, { dedup: { strategy: "payload-hash" } }, "/dedup"],
      [app.id, { app: null }, "/app"],
    ];
    for (const [id, patch, path] of refused) {
      const answer = await server.api("PATCH", `/api/triggers/${id}`, patch);
      expect({ patch, status: answer.status, paths: answer.body.details?.map((d: { path: string }) => d.path) }).toEqual({ patch, status: 400, paths: [path] });
    }
    expectInvalid(await server.api("POST", "/api/triggers", { name: "x", redaction: { enabled: true, patterns: ["x".repeat(201)] } }), "/redaction/patterns/0");
    expect(
      (
        await server.api("PATCH", `/api/triggers/${t.id}`, {
          redaction: { enabled: true, patterns: ["x".repeat(200), ...Array.from({ length: 49 }, (_, i) => `p${i}`)] },
        })
      ).status,
    ).toBe(200);
  });
});

describe("lists: newest first, limit 50 by default (at most 500), before = the last id of the previous page", () => {
  test("runs and Activity rows of a trigger, page by page", async () => {
    const t = await server.createTrigger({ name: "fifty-one" });
    const requestIds: string[] = [];
    for (let i = 0; i < 51; i++) requestIds.push(await deliver(t, { i }));
    const newestFirst = [...requestIds].reverse();
    await server.activity(t.id);
    for (const base of [`/api/runs?triggerId=${t.id}&`, `/api/triggers/${t.id}/activity?`]) {
      const first = (await server.api("GET", base)).body;
      expect(first).toHaveLength(50);
      const rest = (await server.api("GET", `${base}before=${first[49].id}`)).body;
      expect([...first, ...rest].map((r: { requestId: string }) => r.requestId)).toEqual(newestFirst);
      const all = (await server.api("GET", `${base}limit=500`)).body;
      expect(all.map((r: { id: string }) => r.id)).toEqual([...first, ...rest].map((r: { id: string }) => r.id));
      expect((await server.api("GET", `${base}before=${all[50].id}`)).body).toEqual([]);
      for (const bad of ["limit=501", "limit=0", "limit=-1", "limit=2.5", "limit="]) expectInvalid(await server.api("GET", `${base}${bad}`), "/limit");
      expectInvalid(await server.api("GET", `${base}before=no-such-id`), "/before");
    }
  });

  test("triggers: newest first; limit and before page them; without limit, every trigger", async () => {
    const made = [];
    for (const name of ["page-a", "page-b", "page-c"]) made.push((await server.createTrigger({ name })).id);
    const all = (await server.api("GET", "/api/triggers")).body.map((t: { id: string }) => t.id);
    expect(all.slice(0, 3)).toEqual([...made].reverse());
    const first = (await server.api("GET", "/api/triggers?limit=2")).body.map((t: { id: string }) => t.id);
    expect(first).toEqual(all.slice(0, 2));
    const next = (await server.api("GET", `/api/triggers?limit=2&before=${first[1]}`)).body.map((t: { id: string }) => t.id);
    expect(next).toEqual(all.slice(2, 4));
    expectInvalid(await server.api("GET", "/api/triggers?limit=501"), "/limit");
    expectInvalid(await server.api("GET", "/api/triggers?before=no-such-id"), "/before");
  });

  test("a runs filter on a trigger that has none (or is unknown) is an empty list, not an error", async () => {
    const t = await server.createTrigger({ name: "quiet" });
    expect(await server.api("GET", `/api/runs?triggerId=${t.id}`)).toMatchObject({ status: 200, body: [] });
    expect(await server.api("GET", "/api/runs?triggerId=no-such-trigger")).toMatchObject({ status: 200, body: [] });
  });
});

describe("Run and ActivityRow shapes", () => {
  test("exactly the contract's fields, tied together by ids and the request id", async () => {
    const t = await server.createTrigger({ name: "shapes" });
    const requestId = await deliver(t, { order: 1 });
    expect(requestId).toMatch(UUID);
    const [listed] = (await server.api("GET", `/api/runs?triggerId=${t.id}`)).body;
    const RUN_FIELDS = [
      "attempts",
      "createdAt",
      "destination",
      "error",
      "finishedAt",
      "id",
      "orderingKey",
      "replayOf",
      "requestId",
      "result",
      "status",
      "triggerId",
    ];
    expect(Object.keys(listed).sort()).toEqual(RUN_FIELDS);
    expect(listed).toMatchObject({ triggerId: t.id, requestId, status: "succeeded", attempts: 1, error: null, replayOf: null, destination: "default" });
    expect(listed.createdAt).toMatch(ISO);
    expect(listed.finishedAt).toMatch(ISO);
    const one = (await server.api("GET", `/api/runs/${listed.id}`)).body;
    expect(Object.keys(one).sort()).toEqual([...RUN_FIELDS, "trigger"].sort());
    expect(one).toEqual({ ...listed, trigger: expect.objectContaining({ body: { order: 1 }, requestId, triggerId: t.id, method: "POST", app: null }) });
    const [row] = await server.activity(t.id);
    expect(row).toEqual({
      id: expect.any(String),
      at: expect.stringMatching(ISO),
      requestId,
      outcome: "run",
      label: "Run",
      runId: listed.id,
      runIds: [listed.id],
      detail: null,
      count: 1,
    });
  });
});
