import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { adminApi, BUN, ROOT, spawnServer, type ServerProcess } from "./support/process.ts";
import { rawHttp } from "./support/raw_http.ts";
import { ADMIN_TOKEN, startTestServer, UUID, waitFor, type TestServer } from "./support/server.ts";
import { withTempDir } from "./support/temp_dir.ts";

// Who may send (docs/api.md#allowed-sources) through real HTTP: the peer here is 127.0.0.1.
let server: TestServer;
let behindProxy: TestServer;
// Listens on both families: a caller on 127.0.0.1 arrives as ::ffff:127.0.0.1; only ::1 is a proxy.
let dualStack: TestServer;
beforeAll(async () => {
  dualStack = await startTestServer({}, ["--host", "::", "--trusted-proxies", "::1/128"]);
  server = await startTestServer();
  behindProxy = await startTestServer({}, ["--trusted-proxies", "127.0.0.1/32,10.0.0.0/8"]);
});
afterAll(async () => {
  await server.close();
  await behindProxy.close();
  await dualStack.close();
});

const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body: "{}", headers: { "Content-Type": "application/json", ...headers } });

test("another address gets 403 before authentication, with a rejected row naming it; an allowed one goes on", async () => {
  const closed = await server.createTrigger({ name: "closed", auth: { type: "bearer" }, sources: { allow: ["192.0.2.0/24", "2001:db8::/32"] } });
  const forbidden = await post(closed.url, { Authorization: "Bearer wrong" });
  expect(forbidden.status).toBe(403);
  const id = forbidden.headers.get("x-request-id");
  expect(id).toMatch(UUID);
  expect(await forbidden.json()).toEqual({ error: "forbidden", request_id: id });
  // Never reached authentication: rejected, not auth_failed.
  expect((await server.activity(closed.id))[0]).toMatchObject({
    outcome: "rejected",
    detail: "source address 127.0.0.1 is not in the trigger's allowed sources",
  });
  expect(closed.sources).toEqual({ allow: ["192.0.2.0/24", "2001:db8::/32"] });

  const open = await server.createTrigger({ name: "local", auth: { type: "bearer" }, sources: { allow: ["127.0.0.0/8"] } });
  expect((await post(open.url, { Authorization: `Bearer ${open.secret}` })).status).toBe(200);
  expect((await post(open.url, { Authorization: "Bearer wrong" })).status).toBe(401);
});

test("X-Forwarded-For is ignored unless the peer is a trusted proxy", async () => {
  const t = await server.createTrigger({ name: "spoof", sources: { allow: ["203.0.113.0/24"] } });
  expect((await post(t.url, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(403);

  const proxied = await behindProxy.createTrigger({ name: "proxied", sources: { allow: ["203.0.113.0/24"] } });
  expect((await post(proxied.url, { "X-Forwarded-For": "203.0.113.9" })).status).toBe(200);
  // The rightmost untrusted entry counts: a sender's own forged entry to its left does not.
  expect((await post(proxied.url, { "X-Forwarded-For": "203.0.113.9, 198.51.100.4" })).status).toBe(403);
  expect((await post(proxied.url, { "X-Forwarded-For": "198.51.100.4, 203.0.113.9, 10.1.2.3" })).status).toBe(200);
  expect((await behindProxy.activity(proxied.id)).map((r) => r.detail)).toContain("source address 198.51.100.4 is not in the trigger's allowed sources");
});

test("entries are checked at save, at most 100; an empty list opens the trigger again", async () => {
  const bad = await server.api("POST", "/api/triggers", { name: "bad", sources: { allow: ["192.0.2.0/24", "example.com", "10.0.0.0/40"] } });
  expect(bad.status).toBe(400);
  expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(["/sources/allow/1", "/sources/allow/2"]);
  const many = await server.api("POST", "/api/triggers", { name: "many", sources: { allow: Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`) } });
  expect(many.status).toBe(400);
  const t = await server.createTrigger({ name: "reopen", sources: { allow: ["192.0.2.1"] } });
  expect((await post(t.url)).status).toBe(403);
  const reopened = await server.api("PATCH", `/api/triggers/${t.id}`, { sources: { allow: [] } });
  expect(reopened.body.sources).toEqual({ allow: [] });
  expect((await post(t.url)).status).toBe(200);
});

test("a bad --trusted-proxies entry stops the start with one line", async () => {
  const { cli } = await import("./support/process.ts");
  const r = await cli(["serve", "--port", "0", "--trusted-proxies", "10.0.0.0/8,proxy.internal"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--trusted-proxies: "proxy.internal" is not an IPv4 or IPv6 address');
});

/** The trigger's URL on the dual-stack server, called over IPv4 or IPv6 loopback. */
const via = (family: "127.0.0.1" | "[::1]", t: { token: string }) => `http://${family}:${dualStack.port}/webhooks/${t.token}`;
const deniedAddress = async (on: TestServer, id: string) => (await on.activity(id))[0].detail.match(/^source address (\S+) is not/)?.[1];

test("IPv4, IPv6 and IPv4-mapped IPv6 callers are matched against ranges of their own family", async () => {
  const v4 = await dualStack.createTrigger({ name: "v4", sources: { allow: ["127.0.0.0/8"] } });
  expect((await post(via("127.0.0.1", v4))).status).toBe(200);
  expect((await post(via("[::1]", v4))).status).toBe(403);
  expect(await deniedAddress(dualStack, v4.id)).toBe("::1");

  // A bare IPv6 address; the IPv4 caller is named as people write it, not as ::ffff:127.0.0.1.
  const v6 = await dualStack.createTrigger({ name: "v6", sources: { allow: ["::1"] } });
  expect((await post(via("[::1]", v6))).status).toBe(200);
  expect((await post(via("127.0.0.1", v6))).status).toBe(403);
  expect(await deniedAddress(dualStack, v6.id)).toBe("127.0.0.1");

  // Entries written in the mapped form mean the IPv4 address or range they map.
  for (const allow of [["127.0.0.1"], ["::ffff:127.0.0.1"], ["::ffff:127.0.0.0/104"]]) {
    const mapped = await dualStack.createTrigger({ name: "mapped", sources: { allow } });
    expect((await post(via("127.0.0.1", mapped))).status).toBe(200);
    expect((await post(via("[::1]", mapped))).status).toBe(403);
  }
});

test("a forbidden address is refused before its body is read or its credential checked: one rejected row", async () => {
  const t = await server.createTrigger({ name: "first", auth: { type: "hmac-sha256" }, maxBodyBytes: 10, sources: { allow: ["2001:db8::/32"] } });
  const r = await fetch(t.url, {
    method: "POST",
    body: JSON.stringify({ far: "x".repeat(1000) }),
    headers: { "Content-Type": "application/json", "X-Signature": "nope" },
  });
  expect(r.status).toBe(403);
  expect(await r.json()).toEqual({ error: "forbidden", request_id: r.headers.get("x-request-id") });
  const rows = await server.activity(t.id);
  expect(rows.map((row) => [row.outcome, row.detail])).toEqual([["rejected", "source address 127.0.0.1 is not in the trigger's allowed sources"]]);
});

test("behind a trusted proxy: IPv6 and mapped entries, ports, a peer that is no proxy is not believed", async () => {
  const t = await dualStack.createTrigger({ name: "proxied6", sources: { allow: ["203.0.113.0/24", "2001:db8::/32"] } });
  const from = (family: "127.0.0.1" | "[::1]", xff: string) => post(via(family, t), { "X-Forwarded-For": xff });
  for (const xff of ["2001:db8::5", "::ffff:203.0.113.9", "203.0.113.9:4711", "[2001:db8::5]:443", ", 203.0.113.9 ,"]) {
    expect([xff, (await from("[::1]", xff)).status]).toEqual([xff, 200]);
  }
  expect((await from("[::1]", "2001:db9::5")).status).toBe(403);
  expect(await deniedAddress(dualStack, t.id)).toBe("2001:db9::5");
  // 127.0.0.1 is not a trusted proxy on this server: its header is ignored.
  expect((await from("127.0.0.1", "203.0.113.9")).status).toBe(403);
  expect(await deniedAddress(dualStack, t.id)).toBe("127.0.0.1");
});

test("X-Forwarded-For: entries that are not addresses, several header lines, only trusted hops", async () => {
  const t = await behindProxy.createTrigger({ name: "hops", sources: { allow: ["203.0.113.0/24", "10.9.9.9"] } });
  // Garbage a sender wrote left of the client does not matter; garbage where the client should be refuses.
  expect((await post(t.url, { "X-Forwarded-For": "garbage, 203.0.113.9" })).status).toBe(200);
  expect((await post(t.url, { "X-Forwarded-For": "203.0.113.9, not-an-ip" })).status).toBe(403);
  expect((await behindProxy.activity(t.id))[0]).toMatchObject({ outcome: "rejected", detail: expect.stringContaining("source address unknown") });
  // Every hop a trusted proxy (10.0.0.0/8 here): the farthest one is the client.
  expect((await post(t.url, { "X-Forwarded-For": "10.9.9.9, 10.1.1.1" })).status).toBe(200);
  expect((await post(t.url, { "X-Forwarded-For": "10.1.1.1, 10.9.9.9" })).status).toBe(403);

  // Two header lines are one list, in order: the last line's entry is the rightmost.
  const twoLines = (first: string, second: string) =>
    rawHttp(
      { host: "127.0.0.1", port: behindProxy.port },
      `POST /webhooks/${t.token} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Forwarded-For: ${first}\r\nX-Forwarded-For: ${second}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
  expect(await twoLines("198.51.100.4", "203.0.113.9")).toStartWith("HTTP/1.1 200");
  expect(await twoLines("203.0.113.9", "198.51.100.4")).toStartWith("HTTP/1.1 403");
});

test("allow entries: bare addresses and ranges of both families, exactly 100, each bad one named", async () => {
  const hundred = Array.from({ length: 100 }, (_, i) => (i % 2 ? `10.0.${i}.0/24` : `2001:db8:${i.toString(16)}::1`));
  expect((await server.api("POST", "/api/triggers", { name: "hundred", sources: { allow: hundred } })).status).toBe(201);
  const many = await server.api("POST", "/api/triggers", { name: "many", sources: { allow: [...hundred, "10.255.0.1"] } });
  expect(many.status).toBe(400);
  expect(many.body.details).toEqual([{ path: "/sources/allow", message: expect.stringContaining("100") }]);
  const entries = ["2001:db8::/129", "10.0.0.1/", "10.0.0.0/8/8", "1.2.3", "::ffff:10.0.0.0/8", "2001:db8:::1"];
  const bad = await server.api("POST", "/api/triggers", { name: "bad", sources: { allow: ["192.0.2.7", ...entries] } });
  expect(bad.status).toBe(400);
  expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(entries.map((_, i) => `/sources/allow/${i + 1}`));
  expect(bad.body.details[0].message).toContain("must be 0 to 128");
  for (const notAList of [{ allow: "10.0.0.1" }, { allow: [10] }, { allow: [""] }]) {
    expect((await server.api("POST", "/api/triggers", { name: "shape", sources: notAList })).status).toBe(400);
  }
});

test("INLET_TRUSTED_PROXIES in a real inlet serve: X-Forwarded-For names the caller only while the variable trusts the peer", async () => {
  await withTempDir("inlet-test-sources-env-", async (dataDir) => {
    // The variable and nothing else: no flag, so only the environment can make 127.0.0.1 a proxy.
    const serve = (trusted: string) =>
      spawnServer([BUN, "run", join(ROOT, "src/main.ts")], ["--data-dir", dataDir, "--log-requests", "false"], {
        env: { INLET_ADMIN_TOKEN: ADMIN_TOKEN, INLET_TRUSTED_PROXIES: trusted },
      });
    const stop = async (s: ServerProcess) => {
      s.proc.kill("SIGTERM");
      expect(await s.proc.exited).toBe(0);
    };
    const refusedAs = async (s: ServerProcess, triggerId: string, address: string) =>
      waitFor(`a rejected row naming ${address}`, async () => {
        const rows = (await adminApi(s, ADMIN_TOKEN, "GET", `/api/triggers/${triggerId}/activity`)).body as any[];
        return rows[0]?.detail === `source address ${address} is not in the trigger's allowed sources` && rows[0].outcome === "rejected";
      });
    const expectForbidden = async (answer: Response) => {
      expect(answer.status).toBe(403);
      expect(answer.headers.get("x-request-id")).toMatch(UUID);
      expect(await answer.json()).toEqual({ error: "forbidden", request_id: answer.headers.get("x-request-id") });
    };

    const proxied = await serve("127.0.0.1/32");
    let t: any;
    try {
      const created = await adminApi(proxied, ADMIN_TOKEN, "POST", "/api/triggers", { name: "behind-proxy", sources: { allow: ["203.0.113.0/24"] } });
      expect(created.status).toBe(201);
      t = created.body;
      const url = `${proxied.url}/webhooks/${t.token}`;
      // The peer (127.0.0.1) is trusted: the header's client decides, allowed or not.
      const allowed = await post(url, { "X-Forwarded-For": "203.0.113.9" });
      expect(allowed.status).toBe(200);
      expect(await allowed.json()).toEqual({ received: true, request_id: allowed.headers.get("x-request-id") });
      await expectForbidden(await post(url, { "X-Forwarded-For": "198.51.100.4" }));
      await refusedAs(proxied, t.id, "198.51.100.4");
      // No header: the proxy itself is the caller, and it is not in the list.
      await expectForbidden(await post(url));
      await refusedAs(proxied, t.id, "127.0.0.1");
    } finally {
      await stop(proxied);
    }

    // The same data dir, trigger and request, the variable empty (what the loader reads as unset,
    // whatever this test run's own environment holds): the header is ignored, the peer decides.
    const direct = await serve("");
    try {
      await expectForbidden(await post(`${direct.url}/webhooks/${t.token}`, { "X-Forwarded-For": "203.0.113.9" }));
      await refusedAs(direct, t.id, "127.0.0.1");
    } finally {
      await stop(direct);
    }
  });
}, 60_000);
