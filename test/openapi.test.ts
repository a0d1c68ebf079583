import { afterAll, beforeAll, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import { ROUTES } from "../src/http/openapi.ts";
import { ADMIN_TOKEN, startTestServer, type TestServer } from "./support/server.ts";

// The OpenAPI document against the real API: every call of docs/api.md#calls and
// docs/api.md#operations is documented, every status a call answers here is documented, and every
// real answer validates against its documented schema (JSON Schema 2020-12, Ajv).
let server: TestServer;
let doc: any;
let ajv: Ajv2020;
beforeAll(async () => {
  server = await startTestServer();
  doc = (await server.api("GET", "/api/openapi.json")).body;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: "doc", components: doc.components });
});
afterAll(() => server.close());

const seen = new Set<string>();

/** Calls the API and checks the answer against the document: the status is documented for the operation and the body fits its schema. */
async function call(method: string, path: string, template: string, body?: unknown) {
  const answer = await server.api(method, path, body);
  const operation = doc.paths[template]?.[method.toLowerCase()];
  expect(operation, `${method} ${template} is documented`).toBeDefined();
  const documented = operation.responses[String(answer.status)];
  expect(documented, `${method} ${template} answered ${answer.status}, which is documented`).toBeDefined();
  const schema = documented.content?.["application/json"]?.schema;
  if (schema) {
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
    expect(
      validate(answer.body),
      `${method} ${template} ${answer.status}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(answer.body).slice(0, 300)}`,
    ).toBe(true);
  }
  seen.add(`${method.toLowerCase()} ${template}`);
  return answer;
}

test("the document is OpenAPI 3.1 with servers, operation ids, tags and descriptions, and every route of the contract", () => {
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.servers[0].url).toBe(server.url);
  for (const route of ROUTES) {
    const operation = doc.paths[route.path][route.method];
    expect(operation.operationId).toBe(route.operationId);
    expect(operation.tags.length).toBe(1);
    expect(operation.description.length).toBeGreaterThan(5);
    expect(operation.responses["401"]).toBeDefined();
  }
  const contract = [
    "post /api/triggers",
    "get /api/triggers",
    "get /api/triggers/{id}",
    "patch /api/triggers/{id}",
    "delete /api/triggers/{id}",
    "get /api/triggers/{id}/secret",
    "get /api/triggers/{id}/activity",
    "get /api/runs",
    "get /api/runs/{id}",
    "get /api/plugins",
    "post /api/check",
    "post /api/runs/{id}/replay",
    "post /api/triggers/{id}/activity/{activityId}/replay",
    "post /api/triggers/{id}/replay",
    "post /api/triggers/{id}/rotate",
    "get /api/alerts",
  ];
  for (const c of contract) {
    const [method, path] = c.split(" ");
    expect(doc.paths[path]?.[method], c).toBeDefined();
  }
  // No draft-04 tuple forms: items is never an array.
  expect(JSON.stringify(doc)).not.toContain('"additionalItems"');
});

test("every real answer validates against its documented schema", async () => {
  const created = (
    await call("POST", "/api/triggers", "/api/triggers", { name: "doc", auth: { type: "bearer" }, filter: { enabled: true, expression: '$.type == "paid"' } })
  ).body;
  const id = created.id;
  await call("POST", "/api/triggers", "/api/triggers", { name: "" });
  await call("POST", "/api/triggers", "/api/triggers", {
    name: "hmac",
    auth: { type: "hmac-sha256" },
    dedup: { strategy: "payload-hash" },
    schema: { enabled: true, document: { type: "object" } },
    sources: { allow: ["127.0.0.1"] },
  });
  await call("POST", "/api/triggers", "/api/triggers", { name: "app", app: "stripe", appSecret: "whsec_x" });
  // Trust on first use: an Asana trigger shows until when it is armed, and can be armed again.
  const asana = (await call("POST", "/api/triggers", "/api/triggers", { name: "asana", app: "asana" })).body;
  expect(asana.armedUntil).toEqual(expect.any(String));
  await call("POST", `/api/triggers/${asana.id}/arm`, "/api/triggers/{id}/arm");
  await call("POST", `/api/triggers/${id}/arm`, "/api/triggers/{id}/arm");
  await call("POST", "/api/triggers/nope/arm", "/api/triggers/{id}/arm");
  await call("POST", "/api/triggers", "/api/triggers", {
    name: "jwt",
    auth: { type: "jwt", jwt: { algorithms: ["HS256"] } },
    workflow: { kind: "http", url: "http://127.0.0.1:9/x", orderingKey: "$.id" },
  });
  // Several destinations: the Trigger has destinations and no workflow key.
  const fanOut = {
    name: "fan-out",
    response: { mode: "workflow" },
    destinations: [
      {
        name: "crm",
        workflow: { kind: "http", url: "http://127.0.0.1:9/crm" },
        filter: { expression: '$.type == "paid"' },
        transform: { source: "export default (t) => ({ body: t.body })" },
        rateLimit: { perSecond: 0.5 },
        concurrency: 4,
        breaker: { failures: 3, openSeconds: 10 },
        respond: true,
      },
      { name: "audit", workflow: { kind: "none" } },
    ],
  };
  expect("workflow" in (await call("POST", "/api/triggers", "/api/triggers", fanOut)).body).toBe(false);
  await call("POST", "/api/triggers", "/api/triggers", { ...fanOut, workflow: { kind: "none" } });
  await call("GET", "/api/triggers", "/api/triggers");
  await call("GET", `/api/triggers/${id}`, "/api/triggers/{id}");
  await call("GET", "/api/triggers/nope", "/api/triggers/{id}");
  await call("PATCH", `/api/triggers/${id}`, "/api/triggers/{id}", { name: "doc2" });
  await call("PATCH", `/api/triggers/${id}`, "/api/triggers/{id}", { dedup: { windowSeconds: 0 } });
  const secret = (await call("GET", `/api/triggers/${id}/secret`, "/api/triggers/{id}/secret")).body.secret;
  await call("POST", `/api/triggers/${id}/rotate`, "/api/triggers/{id}/rotate", { overlapSeconds: 60 });
  await call("POST", `/api/triggers/${id}/rotate`, "/api/triggers/{id}/rotate", { overlapSeconds: -1 });
  await fetch(created.url, { method: "POST", body: '{"type":"refund"}', headers: { Authorization: `Bearer ${secret}` } });
  await fetch(created.url, { method: "POST", body: '{"type":"paid"}', headers: { Authorization: `Bearer ${secret}` } });
  await fetch(created.url, { method: "POST", body: "{}", headers: { Authorization: "Bearer wrong" } });
  await Bun.sleep(50);
  const rows = (await call("GET", `/api/triggers/${id}/activity`, "/api/triggers/{id}/activity")).body;
  await call("GET", `/api/triggers/${id}/activity?limit=0`, "/api/triggers/{id}/activity");
  await call("GET", "/api/triggers/nope/activity", "/api/triggers/{id}/activity");
  // Every Activity row says how many requests it stands for (a flood's refusals share a row).
  expect(doc.components.schemas.ActivityRow.required).toContain("count");
  expect(rows.map((r: { count: number }) => r.count)).toEqual(rows.map(() => 1));
  const filtered = rows.find((r: { outcome: string }) => r.outcome === "filtered");
  const denied = rows.find((r: { outcome: string }) => r.outcome === "auth_failed");
  await call("POST", `/api/triggers/${id}/activity/${filtered.id}/replay`, "/api/triggers/{id}/activity/{activityId}/replay", { filter: "apply" });
  await call("POST", `/api/triggers/${id}/activity/${filtered.id}/replay`, "/api/triggers/{id}/activity/{activityId}/replay", { filter: "skip" });
  await call("POST", `/api/triggers/${id}/activity/${denied.id}/replay`, "/api/triggers/{id}/activity/{activityId}/replay");
  await call("POST", `/api/triggers/${id}/activity/nope/replay`, "/api/triggers/{id}/activity/{activityId}/replay");
  await call("POST", `/api/triggers/${id}/replay`, "/api/triggers/{id}/replay", { dryRun: true });
  await call("POST", `/api/triggers/${id}/replay`, "/api/triggers/{id}/replay", { source: "nothing" });
  await call("POST", "/api/triggers/nope/replay", "/api/triggers/{id}/replay", {});
  const runs = (await call("GET", `/api/runs?triggerId=${id}&include=trigger`, "/api/runs")).body;
  await call("GET", "/api/runs", "/api/runs");
  await call("GET", "/api/runs?include=everything", "/api/runs");
  await call("GET", `/api/runs/${runs[0].id}`, "/api/runs/{id}");
  await call("GET", "/api/runs/nope", "/api/runs/{id}");
  await call("POST", `/api/runs/${runs[0].id}/replay`, "/api/runs/{id}/replay");
  await call("POST", "/api/runs/nope/replay", "/api/runs/{id}/replay");
  await call("GET", "/api/plugins", "/api/plugins");
  await call("GET", "/api/alerts", "/api/alerts");
  await call("POST", "/api/check", "/api/check", { kind: "filter", expression: "$.a == 1", sample: { a: 1 } });
  await call("POST", "/api/check", "/api/check", { kind: "filter", expression: "$.a = 1" });
  await call("POST", "/api/check", "/api/check", { kind: "other" });
  const routed = (
    await server.api("POST", "/api/triggers", {
      name: "openapi-destinations",
      destinations: [
        { name: "crm", workflow: { kind: "none" } },
        { name: "audit", workflow: { kind: "none" } },
      ],
    })
  ).body;
  const listed = await call("GET", `/api/triggers/${routed.id}/destinations`, "/api/triggers/{id}/destinations");
  expect(listed.body.map((d: { name: string; state: string }) => [d.name, d.state])).toEqual([
    ["crm", "ok"],
    ["audit", "ok"],
  ]);
  expect((await call("POST", `/api/triggers/${routed.id}/destinations/crm/pause`, "/api/triggers/{id}/destinations/{name}/pause")).body).toMatchObject({
    name: "crm",
    state: "paused",
  });
  expect((await call("POST", `/api/triggers/${routed.id}/destinations/crm/resume`, "/api/triggers/{id}/destinations/{name}/resume")).body).toMatchObject({
    name: "crm",
    state: "ok",
  });
  expect((await call("POST", `/api/triggers/${routed.id}/destinations/nope/pause`, "/api/triggers/{id}/destinations/{name}/pause")).status).toBe(404);
  expect((await call("GET", "/api/triggers/nope/destinations", "/api/triggers/{id}/destinations")).status).toBe(404);
  const $trigger = { body: { id: "evt_1" }, headers: {}, query: {} };
  const shaped = await call("POST", "/api/transform/test", "/api/transform/test", {
    source: "export default (t) => ({ body: { id: t.body.id }, headers: { 'X-A': 'b' } })",
    trigger: $trigger,
  });
  expect(shaped.body).toEqual({ result: { body: { id: "evt_1" }, headers: { "X-A": "b" } } });
  expect((await call("POST", "/api/transform/test", "/api/transform/test", { source: "export default () => null", trigger: $trigger })).body).toEqual({
    result: null,
  });
  expect(
    (await call("POST", "/api/transform/test", "/api/transform/test", { source: "export default () => { throw new Error('nope') }", trigger: $trigger })).body
      .error,
  ).toStartWith("transform: ");
  expect((await call("POST", "/api/transform/test", "/api/transform/test", { source: "", trigger: $trigger })).status).toBe(400);
  await call("DELETE", `/api/triggers/${id}`, "/api/triggers/{id}");
  await call("DELETE", `/api/triggers/${id}`, "/api/triggers/{id}");
  // Every documented operation was exercised.
  for (const route of ROUTES)
    if (route.operationId !== "openApi") expect(seen.has(`${route.method} ${route.path}`), `${route.method} ${route.path} exercised`).toBe(true);
});

test("an API viewer on another origin may load the document: the CORS preflight is answered without the token, the document only with it", async () => {
  const preflight = await server.fetch(`${server.url}/api/openapi.json`, {
    method: "OPTIONS",
    headers: { Origin: "https://viewer.example", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  const anonymous = await server.fetch(`${server.url}/api/openapi.json`, { headers: { Origin: "https://viewer.example" } });
  expect(anonymous.status).toBe(401);
  const loaded = await server.fetch(`${server.url}/api/openapi.json`, {
    headers: { Origin: "https://viewer.example", Authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(loaded.status).toBe(200);
  expect(loaded.headers.get("access-control-allow-origin")).toBe("*");
  // Other calls stay behind the token, preflight included.
  const otherPreflight = await server.fetch(`${server.url}/api/triggers`, {
    method: "OPTIONS",
    headers: { Origin: "https://viewer.example", "Access-Control-Request-Method": "GET" },
  });
  // No route answers OPTIONS there: 405 with what does (GET, HEAD, POST), and no CORS grant.
  expect(otherPreflight.status).toBe(405);
  expect(otherPreflight.headers.get("allow")).toBe("GET, HEAD, POST");
  expect(otherPreflight.headers.get("access-control-allow-origin")).toBeNull();
});

test("an alert's state may be of every kind of rule a trigger can have (destination_open too)", () => {
  const validate = ajv.getSchema("doc#/components/schemas/Alert")!;
  const state = { id: "t/x", triggerId: "t", state: "firing", since: "2026-11-28T00:00:00.000Z", value: 31, threshold: 30, notifiedAt: null };
  for (const kind of ["silence", "auth_failures", "run_failures", "backlog", "destination_open"]) {
    expect(validate({ ...state, kind }), kind).toBe(true);
  }
  expect(validate({ ...state, kind: "nonsense" })).toBe(false);
});
