import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/server.ts";

// Destinations through the management API (README "Destinations"): what is saved and read back,
// and every rule refused with its field's path. Delivery itself is tested beside the runners.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const crm = {
  name: "crm",
  workflow: { kind: "http", url: "http://127.0.0.1:9/crm", retry: { maxAttempts: 8 } },
  filter: { mode: "include", expression: '$.type == "order.paid"' },
  transform: { source: "export default ($trigger) => ({ body: { id: $trigger.body.id } })", timeoutMs: 200 },
  rateLimit: { perSecond: 5 },
  concurrency: 2,
  breaker: { failures: 5, openSeconds: 30 },
  respond: true,
};
const audit = { name: "audit", workflow: { kind: "command", argv: ["/usr/local/bin/audit"] } };

/** The paths of a 400's details (or the status, when it is not a 400). */
const refusedAt = (answer: { status: number; body: any }) => (answer.status === 400 ? answer.body.details.map((d: { path: string }) => d.path) : answer.status);

test("created with destinations: 201, read back as given, without a workflow key", async () => {
  const created = await server.api("POST", "/api/triggers", { name: "fan-out", response: { mode: "workflow" }, destinations: [crm, audit] });
  expect(created.status).toBe(201);
  expect(created.body.destinations).toEqual([crm, audit]);
  expect("workflow" in created.body).toBe(false);
  expect((await server.api("GET", `/api/triggers/${created.body.id}`)).body).toEqual(created.body);
  expect((await server.api("GET", "/api/triggers")).body.find((t: { id: string }) => t.id === created.body.id)).toEqual(created.body);
});

test("the workflow shorthand reads back with both: workflow, and destinations as one named default", async () => {
  const workflow = { kind: "http", url: "http://127.0.0.1:9/hook" };
  const created = await server.createTrigger({ name: "shorthand", workflow });
  expect(created.workflow).toEqual(workflow);
  expect(created.destinations).toEqual([{ name: "default", workflow }]);
  // A list of only the default destination, with settings of its own, reads back with both too.
  const listed = await server.api("PATCH", `/api/triggers/${created.id}`, { destinations: [{ name: "default", workflow, concurrency: 8 }] });
  expect(listed.body).toMatchObject({ workflow, destinations: [{ name: "default", workflow, concurrency: 8 }] });
});

test("PATCH destinations replaces the list whole; a workflow goes back to the shorthand; other changes keep the list", async () => {
  const t = await server.createTrigger({ name: "replaced", destinations: [crm, audit] });
  const replaced = await server.api("PATCH", `/api/triggers/${t.id}`, { destinations: [audit] });
  expect(replaced.status).toBe(200);
  expect(replaced.body.destinations).toEqual([audit]);
  expect("workflow" in replaced.body).toBe(false);
  const renamed = await server.api("PATCH", `/api/triggers/${t.id}`, { name: "renamed" });
  expect(renamed.body.destinations).toEqual([audit]);
  const shorthand = await server.api("PATCH", `/api/triggers/${t.id}`, { workflow: { kind: "none" } });
  expect(shorthand.body).toMatchObject({ workflow: { kind: "none" }, destinations: [{ name: "default", workflow: { kind: "none" } }] });
  expect((await server.api("GET", `/api/triggers/${t.id}`)).body).toEqual(shorthand.body);
});

test("workflow and destinations together: 400 at /destinations, and nothing changes", async () => {
  const both = { workflow: { kind: "none" }, destinations: [audit] };
  const answer = await server.api("POST", "/api/triggers", { name: "both", ...both });
  expect(answer.status).toBe(400);
  expect(answer.body.details).toEqual([
    { path: "/destinations", message: "send workflow or destinations, not both: workflow is the shorthand for one destination named default" },
  ]);
  const t = await server.createTrigger({ name: "kept", destinations: [crm] });
  const before = (await server.api("GET", `/api/triggers/${t.id}`)).body;
  expect(refusedAt(await server.api("PATCH", `/api/triggers/${t.id}`, both))).toEqual(["/destinations"]);
  expect((await server.api("GET", `/api/triggers/${t.id}`)).body).toEqual(before);
});

test("each rule and limit: 400 with its path, on create and on change", async () => {
  const t = await server.createTrigger({ name: "limits", destinations: [audit] });
  const one = (extra: Record<string, unknown>) => ({ destinations: [{ ...audit, ...extra }] });
  const http = { workflow: { kind: "http", url: "http://127.0.0.1:9/x" } };
  const refused: Array<[Record<string, unknown>, string]> = [
    [{ destinations: [] }, "/destinations"],
    [{ destinations: Array.from({ length: 17 }, (_, i) => ({ name: `d${i}`, workflow: { kind: "none" } })) }, "/destinations"],
    [one({ name: "Audit Log" }), "/destinations/0/name"],
    [{ destinations: [audit, { ...audit, workflow: { kind: "none" } }] }, "/destinations/1/name"],
    [one({ workflow: { kind: "http" } }), "/destinations/0/workflow/url"],
    [one({ workflow: { kind: "http", url: "http://127.0.0.1:9/x", headers: { "X-Evil": "a\r\nb" } } }), "/destinations/0/workflow/headers/X-Evil"],
    [one({ workflow: { kind: "command", argv: ["/bin/true"], orderingKey: "$[" } }), "/destinations/0/workflow/orderingKey"],
    [one({ filter: { expression: "$.type = 1" } }), "/destinations/0/filter/expression"],
    [one({ transform: { source: "" } }), "/destinations/0/transform/source"],
    [one({ transform: { source: "x".repeat(65_537) } }), "/destinations/0/transform/source"],
    [one({ transform: { source: "export default () => null", timeoutMs: 1001 } }), "/destinations/0/transform/timeoutMs"],
    [one({ rateLimit: { perSecond: 0.001 } }), "/destinations/0/rateLimit/perSecond"],
    [one({ rateLimit: { perSecond: 10_001 } }), "/destinations/0/rateLimit/perSecond"],
    [one({ concurrency: 0 }), "/destinations/0/concurrency"],
    [one({ concurrency: 65 }), "/destinations/0/concurrency"],
    [one({ breaker: { failures: 3 } }), "/destinations/0/breaker"],
    [one({ ...http, breaker: { failures: 3, openSeconds: 601 } }), "/destinations/0/breaker/openSeconds"],
    [
      {
        destinations: [
          { ...audit, respond: true },
          { ...crm, respond: true },
        ],
      },
      "/destinations/1/respond",
    ],
    [{ response: { mode: "workflow" }, destinations: [audit, { ...crm, respond: false }] }, "/response/mode"],
    [
      {
        response: { mode: "workflow" },
        destinations: [
          { name: "log", workflow: { kind: "none" }, respond: true },
          { ...crm, respond: false },
        ],
      },
      "/response/mode",
    ],
  ];
  for (const [body, path] of refused) {
    expect({ body: JSON.stringify(body).slice(0, 120), create: refusedAt(await server.api("POST", "/api/triggers", { name: "x", ...body })) }).toEqual({
      body: JSON.stringify(body).slice(0, 120),
      create: [path],
    });
    expect({ body: JSON.stringify(body).slice(0, 120), change: refusedAt(await server.api("PATCH", `/api/triggers/${t.id}`, body)) }).toEqual({
      body: JSON.stringify(body).slice(0, 120),
      change: [path],
    });
  }
  // The limits themselves are allowed.
  const edges = one({
    ...http,
    transform: { source: "x".repeat(65_536), timeoutMs: 1000 },
    rateLimit: { perSecond: 0.01 },
    concurrency: 64,
    breaker: { failures: 0 },
  });
  expect((await server.api("PATCH", `/api/triggers/${t.id}`, edges)).status).toBe(200);
  // A change of response mode alone is checked against the current list.
  await server.api("PATCH", `/api/triggers/${t.id}`, { destinations: [audit, crm] });
  expect(refusedAt(await server.api("PATCH", `/api/triggers/${t.id}`, { destinations: [audit, { ...crm, respond: false }] }))).toEqual(200);
  expect(refusedAt(await server.api("PATCH", `/api/triggers/${t.id}`, { response: { mode: "workflow" } }))).toEqual(["/response/mode"]);
});
