import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SignJWT } from "jose";
import { withPinnedClock } from "./support/clock.ts";
import { startTestServer, UUID, type TestServer } from "./support/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: 64 * 1024 });
});
afterAll(() => server.close());

const post = (url: string, body: BodyInit | null, headers: Record<string, string> = {}, method = "POST") =>
  server.fetch(url, { method, body, headers: { "Content-Type": "application/json", ...headers } });

async function expectShape(response: Response, status: number, error?: string) {
  expect(response.status).toBe(status);
  const id = response.headers.get("x-request-id");
  expect(id).toMatch(UUID);
  const body = await response.json();
  if (error) expect(body).toEqual({ error, request_id: id });
  else expect(body).toEqual({ received: true, request_id: id });
  return id!;
}

const activity = (id: string) => server.activity(id);

describe("immediate acknowledgement", () => {
  test("200 with received:true and a fresh request id equal to the header, after the run is stored", async () => {
    const t = await server.createTrigger({ name: "plain" });
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) ids.add(await expectShape(await post(t.url, JSON.stringify({ n: i })), 200));
    expect(ids.size).toBe(3);
    const runs = (await server.api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).body;
    expect(runs).toHaveLength(3);
    expect(new Set(runs.map((r: any) => r.requestId))).toEqual(ids);
    expect(runs[0].trigger.body).toEqual({ n: 2 });
    const rows = await activity(t.id);
    expect(rows.map((r) => r.outcome)).toEqual(["run", "run", "run"]);
    expect(rows[0].label).toBe("Run");
    expect(rows[0].runId).toBe(runs[0].id);
  });

  test("$trigger carries body, headers, query, method, receivedAt, requestId, triggerId; credentials removed", async () => {
    const t = await server.createTrigger({ name: "bearer", auth: { type: "bearer" } });
    const requestId = await expectShape(
      await post(`${t.url}?source=ci&tag=a&tag=b`, '{"x":1}', { Authorization: `Bearer ${t.secret}`, "X-Custom": "kept" }),
      200,
    );
    const [run] = (await server.api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).body;
    expect(run.trigger).toMatchObject({ body: { x: 1 }, query: { source: "ci", tag: ["a", "b"] }, method: "POST", requestId, triggerId: t.id, app: null });
    expect(run.trigger.headers["x-custom"]).toBe("kept");
    expect(run.trigger.headers.authorization).toBeUndefined();
    expect(JSON.stringify(run)).not.toContain(t.secret);
    expect(Date.parse(run.trigger.receivedAt)).toBeGreaterThan(0);
  });

  test("form bodies become an object of fields; other types a string", async () => {
    const t = await server.createTrigger({ name: "types" });
    await expectShape(await post(t.url, "a=1&b=two&b=three", { "Content-Type": "application/x-www-form-urlencoded" }), 200);
    await expectShape(await post(t.url, "plain words", { "Content-Type": "text/plain" }), 200);
    const runs = (await server.api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).body;
    expect(runs[1].trigger.body).toEqual({ a: "1", b: ["two", "three"] });
    expect(runs[0].trigger.body).toBe("plain words");
  });

  test("GET triggers: the query parameters stand as the body", async () => {
    const t = await server.createTrigger({ name: "get", methods: ["GET"], auth: { type: "header", headerName: "X-Key" } });
    const response = await server.fetch(`${t.url}?status=ok&n=2`, { headers: { "x-key": t.secret } });
    await expectShape(response, 200);
    const [run] = (await server.api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).body;
    expect(run.trigger.body).toEqual({ status: "ok", n: "2" });
    expect(run.trigger.method).toBe("GET");
    expect(run.trigger.headers["x-key"]).toBeUndefined();
  });
});

const sign = (secret: string, body: string | Uint8Array, alg = "sha256", enc: "hex" | "base64" = "hex") => createHmac(alg, secret).update(body).digest(enc);

describe("authentication failures: one identical 401, the real reason only in Activity", () => {
  test("bearer: missing, wrong, malformed", async () => {
    const t = await server.createTrigger({ name: "b", auth: { type: "bearer" } });
    const bodies: string[] = [];
    for (const headers of [{}, { Authorization: "Bearer wrong" }, { Authorization: `Bearer  ${t.secret}` }, { Authorization: `Basic ${t.secret}` }] as Record<
      string,
      string
    >[]) {
      const r = await post(t.url, "{}", headers);
      await expectShape(r.clone(), 401, "authentication failed");
      const { request_id, ...rest } = await r.json();
      bodies.push(JSON.stringify(rest));
    }
    expect(new Set(bodies).size).toBe(1);
    const rows = await activity(t.id);
    expect(rows.every((r) => r.outcome === "auth_failed" && r.label === "Authentication failed" && r.runId === null)).toBe(true);
    expect(rows.map((r) => r.detail)).toContain("missing Authorization header");
    expect(rows.map((r) => r.detail)).toContain("wrong bearer token");
    expect((await server.api("GET", `/api/runs?triggerId=${t.id}`)).body).toHaveLength(0);
  });

  test("header mode: case-insensitive name, exact value", async () => {
    const t = await server.createTrigger({ name: "h", auth: { type: "header", headerName: "X-Webhook-Secret" } });
    await expectShape(await post(t.url, "{}", { "x-webhook-secret": t.secret }), 200);
    await expectShape(await post(t.url, "{}", { "X-WEBHOOK-SECRET": t.secret }), 200);
    await expectShape(await post(t.url, "{}", { "X-Webhook-Secret": t.secret + "Z" }), 401, "authentication failed");
    await expectShape(await post(t.url, "{}", { "X-Webhook-Secret": t.secret.slice(1) }), 401, "authentication failed");
    await expectShape(await post(t.url, "{}", { "X-Webhook-Secret": "nope" }), 401, "authentication failed");
  });

  for (const alg of ["sha256", "sha512"] as const) {
    test(`hmac-${alg}: raw bytes, hex or base64, prefix optional`, async () => {
      const t = await server.createTrigger({ name: alg, auth: { type: `hmac-${alg}` } });
      const body = '{"id": 1,   "spaced": true}';
      await expectShape(await post(t.url, body, { "X-Signature": `${alg}=${sign(t.secret, body, alg)}` }), 200);
      await expectShape(await post(t.url, body, { "X-Signature": sign(t.secret, body, alg) }), 200);
      await expectShape(await post(t.url, JSON.stringify(JSON.parse(body)), { "X-Signature": sign(t.secret, body, alg) }), 401, "authentication failed");
      await expectShape(await post(t.url, body, { "X-Signature": "sha256=not-hex" }), 401, "authentication failed");
      await expectShape(await post(t.url, body, {}), 401, "authentication failed");
      const b64 = await server.createTrigger({ name: `${alg}-b64`, auth: { type: `hmac-${alg}`, encoding: "base64", signatureHeader: "X-Hub-Signature" } });
      await expectShape(await post(b64.url, body, { "x-hub-signature": `${alg}=${sign(b64.secret, body, alg, "base64")}` }), 200);
      await expectShape(await post(b64.url, body, { "x-hub-signature": sign(b64.secret, body, alg, "hex") }), 401, "authentication failed");
      const details = (await activity(t.id)).map((r) => r.detail);
      expect(details).toContain("signature does not match the body");
      expect(details.some((d) => d?.includes("invalid signature format"))).toBe(true);
      expect(details).toContain("missing signature header X-Signature");
    });
  }

  test("the curl command of every mode runs as is (INLET_SECRET exported for bearer/header)", async () => {
    for (const auth of [
      { type: "none" },
      { type: "bearer" },
      { type: "header", headerName: "X-Token" },
      { type: "hmac-sha256" },
      { type: "hmac-sha512", encoding: "base64" },
    ]) {
      const t = await server.createTrigger({ name: `curl-${auth.type}`, auth });
      // Asynchronous: the server answering the curl lives in this very process.
      const proc = Bun.spawn(["bash", "-c", `${t.curl} -w '\\n%{http_code}'`], { env: { ...process.env, INLET_SECRET: t.secret ?? "" }, stdout: "pipe" });
      const out = (await new Response(proc.stdout).text()).trim().split("\n");
      expect(out.at(-1)).toBe("200");
      expect(JSON.parse(out[0]).received).toBe(true);
      if (auth.type === "bearer" || auth.type === "header") expect(t.curl).toContain("$INLET_SECRET");
    }
  });
});

describe("authentication is decided before the body is parsed", () => {
  // Bodies the parse stage refuses (400) once the request is authenticated.
  const malformed = [
    { what: "not JSON", body: "{not json", type: "application/json", error: "invalid JSON body" },
    { what: "JSON nested deeper than 256", body: "[".repeat(300) + "]".repeat(300), type: "application/json", error: "invalid JSON body" },
    {
      what: "JSON that is not UTF-8",
      body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      type: "application/json",
      error: "invalid JSON body",
    },
    { what: "malformed XML", body: "<order><id>1</order>", type: "application/xml", error: "invalid XML body" },
  ];
  type Body = string | Uint8Array<ArrayBuffer>;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const hs256 = (secret: string) =>
    new SignJWT({ exp: Math.floor(Date.now() / 1000) + 60 }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(secret));
  // One trigger per authentication family: the right credential for a body, and wrong or missing ones.
  const modes: Array<{
    input: Record<string, unknown>;
    right(secret: string, body: Body): Record<string, string> | Promise<Record<string, string>>;
    wrong: Record<string, string>[];
  }> = [
    { input: { auth: { type: "bearer" } }, right: bearer, wrong: [{}, bearer("wrong")] },
    {
      input: { auth: { type: "header", headerName: "X-Webhook-Secret" } },
      right: (secret) => ({ "X-Webhook-Secret": secret }),
      wrong: [{}, { "X-Webhook-Secret": "wrong" }],
    },
    {
      input: { auth: { type: "hmac-sha256" } },
      right: (secret, body) => ({ "X-Signature": `sha256=${sign(secret, body)}` }),
      wrong: [{}, { "X-Signature": `sha256=${"0".repeat(64)}` }, { "X-Signature": "not a signature" }],
    },
    {
      input: { auth: { type: "hmac-sha512", encoding: "base64" } },
      right: (secret, body) => ({ "X-Signature": sign(secret, body, "sha512", "base64") }),
      wrong: [{}, { "X-Signature": sign("wrong", "{}", "sha512", "base64") }],
    },
    {
      input: { auth: { type: "basic" } },
      right: (secret) => ({ Authorization: `Basic ${btoa(`inlet:${secret}`)}` }),
      wrong: [{}, { Authorization: `Basic ${btoa("inlet:wrong")}` }],
    },
    {
      input: { auth: { type: "jwt", jwt: { algorithms: ["HS256"] } } },
      right: async (secret) => bearer(await hs256(secret)),
      wrong: [{}, bearer("not.a.jwt")],
    },
    {
      input: { app: "github" },
      right: (secret, body) => ({ "X-Hub-Signature-256": `sha256=${sign(secret, body)}` }),
      wrong: [{}, { "X-Hub-Signature-256": `sha256=${"0".repeat(64)}` }],
    },
  ];

  for (const mode of modes) {
    const family = (mode.input.app as string | undefined) ?? (mode.input.auth as { type: string }).type;
    test(`${family}: a wrong or missing credential is the 401 whatever the body; the right one reaches the parser's 400`, async () => {
      const t = await server.createTrigger({ name: `auth-first-${family}`, ...mode.input });
      // GitHub's event and delivery headers (generic triggers ignore them); a fresh delivery id each time, so nothing is deduplicated.
      const send = (body: Body, type: string, headers: Record<string, string>) =>
        post(t.url, body, { "Content-Type": type, "X-GitHub-Event": "push", "X-GitHub-Delivery": randomUUID(), ...headers });
      let expected = 0;
      for (const { what, body, type, error } of malformed) {
        for (const headers of mode.wrong) {
          const refused = await send(body, type, headers);
          expect({ what, headers, status: refused.status }).toEqual({ what, headers, status: 401 });
          await expectShape(refused, 401, "authentication failed");
          expected++;
        }
        await expectShape(await send(body, type, await mode.right(t.secret, body)), 400, error);
        expected++;
      }
      const rows = await activity(t.id);
      expect(rows).toHaveLength(expected);
      expect(rows.filter((r) => r.outcome === "rejected")).toHaveLength(malformed.length);
      expect(rows.filter((r) => r.outcome === "auth_failed")).toHaveLength(expected - malformed.length);
      expect((await server.api("GET", `/api/runs?triggerId=${t.id}`)).body).toHaveLength(0);
    });
  }
});

describe("other rejections", () => {
  test("404 for an unknown token, with the contract body", async () => {
    await expectShape(await post(`${server.url}/webhooks/unknown-token`, "{}"), 404, "not found");
  });

  test("405 with Allow for a method the trigger does not accept", async () => {
    const t = await server.createTrigger({ name: "post-only" });
    const r = await server.fetch(t.url, { method: "GET" });
    expect(r.headers.get("allow")).toBe("POST");
    await expectShape(r, 405, "method not allowed");
    const put = await post(t.url, "{}", {}, "PUT");
    await expectShape(put, 405, "method not allowed");
    const both = await server.createTrigger({ name: "both", methods: ["GET", "POST"] });
    const del = await server.fetch(both.url, { method: "DELETE" });
    expect(del.headers.get("allow")).toBe("GET, POST");
    expect((await activity(t.id)).map((r) => r.outcome)).toEqual(["rejected", "rejected"]);
  });

  test("413 past the body limit, declared or streamed, before authentication", async () => {
    const t = await server.createTrigger({ name: "big", auth: { type: "bearer" } });
    const big = "x".repeat(64 * 1024 + 1);
    await expectShape(await post(t.url, big, { Authorization: `Bearer ${t.secret}` }), 413, "payload too large");
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("y".repeat(8 * 1024)));
        controller.close();
      },
    });
    await expectShape(await post(t.url, chunks, { Authorization: `Bearer ${t.secret}` }), 413, "payload too large");
    await expectShape(await post(t.url, JSON.stringify({ s: "z".repeat(60 * 1024) }), { Authorization: `Bearer ${t.secret}` }), 200);
  });

  test("400 for a JSON content type whose body is not JSON, or nested too deep", async () => {
    const t = await server.createTrigger({ name: "json" });
    await expectShape(await post(t.url, "{not json"), 400, "invalid JSON body");
    await expectShape(await post(t.url, "", { "Content-Type": "application/vnd.api+json" }), 400, "invalid JSON body");
    await expectShape(await post(t.url, "[".repeat(300) + "]".repeat(300)), 400, "invalid JSON body");
    await expectShape(await post(t.url, "[".repeat(200) + "]".repeat(200)), 200);
    const rows = await activity(t.id);
    expect(rows.filter((r) => r.outcome === "rejected")).toHaveLength(3);
    expect(rows.some((r) => r.detail?.includes("deeper than 256"))).toBe(true);
  });

  test("every request with a known token leaves exactly one Activity row", async () => {
    const t = await server.createTrigger({ name: "count", auth: { type: "bearer" } });
    const calls = [
      post(t.url, "{}", { Authorization: `Bearer ${t.secret}` }),
      post(t.url, "{}", {}),
      post(t.url, "nope", { Authorization: `Bearer ${t.secret}` }),
      server.fetch(t.url, { method: "GET" }),
    ];
    await Promise.all(calls);
    await Bun.sleep(50);
    expect((await activity(t.id)).map((r) => r.outcome).sort()).toEqual(["auth_failed", "rejected", "rejected", "run"]);
  });
});

describe("rate limit and storage", () => {
  test("429 with Retry-After once a trigger exceeds --rate-limit", async () => {
    const limited = await startTestServer({ rateLimit: 3 });
    try {
      const t = await limited.createTrigger({ name: "limited" });
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        const r = await limited.fetch(t.url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
        statuses.push(r.status);
        if (r.status === 429) {
          expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          await expectShape(r, 429, "rate limited");
        }
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses).toContain(429);
    } finally {
      await limited.close();
    }
  });

  test("503 with Retry-After and never a 200 when the store cannot record the run", async () => {
    const s = await startTestServer();
    const t = await s.createTrigger({ name: "doomed" });
    await s.core.store.close();
    const r = await s.fetch(t.url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
    expect(r.headers.get("retry-after")).toBe("5");
    await expectShape(r, 503, "unavailable");
    const ready = await s.fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(503);
    // The same wait as the webhook's: a load balancer or probe that honours it asks again then.
    expect(ready.headers.get("retry-after")).toBe("5");
    await s.close();
  });
});

describe("docs/api.md#answers row by row: request ids, headers and Activity", () => {
  test("every outcome's request_id equals X-Request-Id, is fresh, and is the id its Activity row (and run) carries", async () => {
    const t = await server.createTrigger({
      name: "ids",
      auth: { type: "bearer" },
      dedup: { strategy: "payload-hash" },
      filter: { enabled: true, mode: "include", expression: "$.keep == true" },
    });
    const auth = { Authorization: `Bearer ${t.secret}` };
    const expected: Record<string, string> = {};
    const accepted = await post(t.url, '{"keep":true}', auth);
    expected[await expectShape(accepted, 200)] = "run";
    const duplicate = await post(t.url, '{"keep":true}', auth);
    expect(duplicate.headers.get("x-service-deduplicated")).toBeNull();
    expected[await expectShape(duplicate, 200)] = "deduplicated";
    expected[await expectShape(await post(t.url, '{"keep":false}', auth), 200)] = "filtered";
    expected[await expectShape(await post(t.url, '{"keep":true}', { Authorization: "Bearer wrong" }), 401, "authentication failed")] = "auth_failed";
    expected[await expectShape(await post(t.url, null, auth, "GET"), 405, "method not allowed")] = "rejected";
    expected[await expectShape(await post(t.url, "{nope", auth), 400, "invalid JSON body")] = "rejected";
    expected[await expectShape(await post(t.url, "x".repeat(64 * 1024 + 1), auth), 413, "payload too large")] = "rejected";
    expect(Object.keys(expected)).toHaveLength(7);
    const rows = await activity(t.id);
    expect(Object.fromEntries(rows.map((r) => [r.requestId, r.outcome]))).toEqual(expected);
    const [run] = (await server.api("GET", `/api/runs?triggerId=${t.id}`)).body;
    expect(expected[run.requestId]).toBe("run");
    expect(rows.find((r) => r.outcome === "run").runId).toBe(run.id);
  });

  test("workflow response mode: filtered is the plain ack, its retry adds X-Service-Deduplicated, refusals are as in immediate mode, X-Request-Id is inlet's", async () => {
    const t = await server.createTrigger({
      name: "workflow-rows",
      dedup: { strategy: "payload-hash" },
      filter: { enabled: true, mode: "include", expression: "$.keep == true" },
      response: { mode: "workflow", timeoutMs: 5000 },
      workflow: { kind: "script", source: "export default () => ({ status: 202, headers: { 'X-Request-Id': 'spoofed' }, body: { ok: true } })" },
    });
    const answered = await post(t.url, '{"keep":true}');
    expect(answered.status).toBe(202);
    expect(await answered.json()).toEqual({ ok: true });
    const [run] = (await server.api("GET", `/api/runs?triggerId=${t.id}`)).body;
    expect(answered.headers.get("x-request-id")).toBe(run.requestId);
    expect(run.requestId).toMatch(UUID);
    const filtered = await post(t.url, '{"keep":false}');
    expect(filtered.headers.get("x-service-deduplicated")).toBeNull();
    await expectShape(filtered, 200);
    const retried = await post(t.url, '{"keep":false}');
    expect(retried.headers.get("x-service-deduplicated")).toBe("true");
    await expectShape(retried, 200);
    await expectShape(await post(t.url, "{nope"), 400, "invalid JSON body");
    await expectShape(await post(t.url, null, {}, "GET"), 405, "method not allowed");
    expect((await activity(t.id)).map((r) => r.outcome)).toEqual(["rejected", "rejected", "deduplicated", "filtered", "run"]);
  });

  test("GET and POST where methods include both; HEAD is 405 with Allow and starts nothing", async () => {
    const t = await server.createTrigger({ name: "get-and-post", methods: ["GET", "POST"] });
    await expectShape(await server.fetch(`${t.url}?ref=main&n=1`), 200);
    await expectShape(await post(`${t.url}?ref=dev`, '{"n":2}'), 200);
    const head = await server.fetch(t.url, { method: "HEAD" });
    expect(head.headers.get("allow")).toBe("GET, POST");
    await expectShape(head, 405, "method not allowed");
    const runs = (await server.api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).body;
    expect(runs.map((r: any) => [r.trigger.method, r.trigger.body, r.trigger.query])).toEqual([
      ["POST", { n: 2 }, { ref: "dev" }],
      ["GET", { ref: "main", n: "1" }, { ref: "main", n: "1" }],
    ]);
    expect((await activity(t.id)).map((r) => r.outcome)).toEqual(["rejected", "run", "run"]);
  });

  test("redaction covers the query too: a GET trigger's query is its body, and never stored unredacted", async () => {
    const get = await server.createTrigger({ name: "get-pii", methods: ["GET"], redaction: { enabled: true, patterns: ["^email$"] } });
    await expectShape(await server.fetch(`${get.url}?email=query-pii%40example.org&n=1`), 200);
    const postPii = await server.createTrigger({
      name: "post-pii",
      redaction: { enabled: true, patterns: ["^email$"] },
      filter: { enabled: true, expression: "$.keep == true" },
    });
    await expectShape(await post(`${postPii.url}?email=query-pii%40example.org`, '{"keep":true}'), 200);
    await expectShape(await post(`${postPii.url}?email=query-pii%40example.org`, '{"keep":false}'), 200);
    for (const t of [get, postPii]) {
      const runs = (await server.api("GET", `/api/runs?triggerId=${t.id}&include=trigger`)).body;
      expect(runs[0].trigger.query.email).toBe("[REDACTED]");
      expect(JSON.stringify(runs)).not.toContain("query-pii");
    }
    expect((await server.api("GET", `/api/runs?triggerId=${get.id}&include=trigger`)).body[0].trigger.body).toEqual({ email: "[REDACTED]", n: "1" });
    // The database and its WAL: recent commits are still in the latter.
    for (const file of readdirSync(server.dataDir)) expect(readFileSync(join(server.dataDir, file)).includes("query-pii@example.org")).toBe(false);
  });

  test("the rate limit is per trigger: a 429 leaves a rejected row under its request id, and others keep their own budget", async () => {
    const limited = await startTestServer({ rateLimit: 1 });
    try {
      await withPinnedClock(async (clock) => {
        const [a, b] = [await limited.createTrigger({ name: "a" }), await limited.createTrigger({ name: "b" })];
        const send = (url: string) => limited.fetch(url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } });
        await expectShape(await send(a.url), 200);
        const refused = await send(a.url);
        expect(refused.headers.get("retry-after")).toBe("1");
        const refusedId = await expectShape(refused, 429, "rate limited");
        await expectShape(await send(b.url), 200);
        clock.advance(1000);
        await expectShape(await send(a.url), 200);
        const rows = await limited.activity(a.id);
        expect(rows.map((r) => r.outcome)).toEqual(["run", "rejected", "run"]);
        expect(rows[1]).toMatchObject({ requestId: refusedId, label: "Rejected", runId: null });
      });
    } finally {
      await limited.close();
    }
  });

  test("payload-hash on a GET trigger hashes the query (its payload): the same query collapses, another does not", async () => {
    const t = await server.createTrigger({ name: "get-hash", methods: ["GET"], dedup: { strategy: "payload-hash" } });
    for (const q of ["?order=1", "?order=1", "?order=2", ""]) await expectShape(await server.fetch(`${t.url}${q}`), 200);
    expect((await activity(t.id)).map((r) => r.outcome)).toEqual(["run", "run", "deduplicated", "run"]);
  });
});
